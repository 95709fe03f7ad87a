"""The board's voice as a subscriber of the session's events (docs/voice.md).

The session's thread only appends each event to a queue; the voice's own thread turns them into
sentences and says them one after another, so a slow or missing audio device never delays a
move, a cue or the clock. When speech falls behind by more than :data:`BACKLOG` sentences the
oldest are dropped (a move said a minute late helps nobody).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable

from engine.board import Board
from poolboard.config import VoiceConfig
from poolboard.session import Session
from poolboard.session.events import (
    BoardChanged,
    ClockNoted,
    DomainEvent,
    GameOpened,
    MovePlayed,
    RecordRewritten,
    RefereeActed,
    ResultReached,
    ViolationShown,
)
from poolboard.voice.phrases import Phrasebook, played
from poolboard.voice.speaker import Speaker

log = logging.getLogger("poolboard.voice")

#: Sentences waiting to be said beyond which the oldest are dropped.
BACKLOG = 12
#: Sentences kept in :attr:`Announcer.said` (a board runs for months).
REMEMBERED = 1000
#: The events the voice hears.
HEARD = (
    GameOpened,
    MovePlayed,
    RecordRewritten,
    ViolationShown,
    ClockNoted,
    ResultReached,
    RefereeActed,
    BoardChanged,
)


class Announcer:
    """Says ``session``'s game as it goes (``start``/``stop``), as ``settings`` asks, in
    ``language``, with espeak-ng on the audio output."""

    def __init__(
        self,
        session: Session,
        settings: VoiceConfig,
        language: str,
    ) -> None:
        self.session = session
        self.settings = settings
        self.words = Phrasebook(language)
        self._say = Speaker(settings, language).say
        self._events: deque[DomainEvent] = deque()
        self._sentences: deque[str] = deque()
        self._wake = threading.Condition()
        self._busy = False
        self._stopping = False
        self._unsubscribe: list[Callable[[], None]] = []
        self._thread: threading.Thread | None = None
        self._fen: str | None = None
        self._opponent_move: str | None = None
        self.dropped = 0
        #: The last :data:`REMEMBERED` sentences said (or tried), in order.
        self.said: list[str] = []

    def start(self) -> None:
        """Hear the session's events from now on and start saying them."""
        with self.session.lock:  # no change between the position read and the first event
            self._fen = self.session.game.board.fen()
            self._unsubscribe = [self.session.events.subscribe(k, self._heard) for k in HEARD]
        self._thread = threading.Thread(target=self._work, name="voice", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop hearing events; what is being said is finished, the rest dropped."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        with self._wake:
            self._stopping = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def quiet(self, timeout: float) -> bool:
        """Wait until everything heard so far is said; ``False`` if not within ``timeout``."""
        with self._wake:
            return self._wake.wait_for(
                lambda: not (self._events or self._sentences or self._busy), timeout
            )

    def wait_said(self, check: Callable[[list[str]], bool], timeout: float) -> bool:
        """Wait until what has been said (or tried) passes ``check``; ``False`` if it does not
        within ``timeout``."""
        with self._wake:
            return self._wake.wait_for(lambda: check(self.said), timeout)

    def _heard(self, event: DomainEvent) -> None:
        """On the session's thread: only queue the event."""
        with self._wake:
            self._events.append(event)
            self._wake.notify_all()

    def _work(self) -> None:
        events: list[DomainEvent] = []
        while True:
            # The events are worded outside the lock, so the session's thread never waits on it
            # for more than an append.
            sentences = [sentence for event in events for sentence in self._sentences_for(event)]
            with self._wake:
                self._sentences.extend(sentences)
                while len(self._sentences) > BACKLOG:
                    self._sentences.popleft()
                    self.dropped += 1
                if not self._sentences:
                    self._busy = False
                    self._wake.notify_all()
                    self._wake.wait_for(lambda: self._stopping or self._events)
                if self._stopping:
                    return
                events = list(self._events)
                self._events.clear()
                sentence = self._sentences.popleft() if self._sentences else None
                self._busy = True
                if sentence is not None:
                    self.said.append(sentence)
                    del self.said[:-REMEMBERED]
                    self._wake.notify_all()
            if sentence is not None:
                self._say(sentence)  # outside the lock: events keep arriving meanwhile

    def _sentences_for(self, event: DomainEvent) -> list[str]:
        """What to say of ``event``, as the settings allow; keeps track of the position."""
        on, words, said = self.settings, self.words, []
        match event:
            case GameOpened():
                self._fen, self._opponent_move = event.start_fen, None
            case MovePlayed():
                before, self._fen = self._fen, event.fen
                if on.moves:
                    said.append(words.move(event.notation, before) + ".")
                move = played(event.notation, before)
                if on.crownings and move is not None and move.crowns:
                    said.append(words.crowned(move.path[-1]) + ".")
            case RecordRewritten():
                self._fen = event.fen
                if on.turns:
                    said.append(words.to_move(Board(event.fen).turn.value, event.kind))
            case ViolationShown():
                text = words.violation(event.data)
                if on.violations and text is not None:
                    said.append(text)
            case ClockNoted():
                text = words.clock(event.data)
                if on.clock and text is not None:
                    said.append(text)
            case RefereeActed():
                text = words.referee(event.action)
                if on.pauses and text is not None:
                    said.append(text)
            case ResultReached():
                if on.results:
                    said.append(words.result(event.result))
            case BoardChanged():
                self._fen = event.state.fen
                said += self._opponent_news(event)
        return said

    def _opponent_news(self, event: BoardChanged) -> list[str]:
        """The opponent's move once it has chosen it (said once, when first shown)."""
        opponent = event.state.opponent
        move = opponent.move if opponent is not None and opponent.status == "execute" else None
        news = []
        if move is not None and move != self._opponent_move and self.settings.opponent:
            assert opponent is not None
            said = self.words.move(move, event.state.fen)
            news.append(self.words.opponent_plays(opponent.kind, opponent.side, said))
        self._opponent_move = move
        return news
