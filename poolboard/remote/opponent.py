"""``[opponent] kind = "remote"``: the other side is played on a board far away (docs/remote.md).

The session tells this opponent the game after every change; it mirrors this board's record to
the other board through :class:`~poolboard.remote.link.RemoteLink` and answers with the far
player's move, which the session cues here for this board's player to execute. Everything else
the far board says goes on the session core's queue as an input (:mod:`poolboard.remote.inputs`):
the host's clock, which a guest follows (the host, the inviting board, publishes it); the far
board's result; its takeback or correction (``casual``); the rewind the record follows, kept in
the session's store for a restart; and news for the pages (the link up or down, a problem).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import ClassVar

from engine.board import Board
from engine.clock import Clock, ClockError
from engine.color import Color
from engine.phrase import Phrase
from poolboard.opponents.base import Answer, Opponent, Position
from poolboard.remote.inputs import (
    HostClock,
    KeepRewind,
    KeptRewind,
    OpponentNews,
    RemoteResult,
    RemoteRewind,
)
from poolboard.remote.link import ClockReading, GameTerms, PeerMove, RemoteLink
from poolboard.remote.protocol import ProtocolError
from poolboard.remote.rewind import Rewind, rewind_from
from poolboard.remote.settings import RemoteLinkConfig

log = logging.getLogger("poolboard.remote")


def clock_reading(position: Position) -> ClockReading | None:
    """The clock of ``position`` as the host publishes it: ms left per side after the plies the
    clock has been switched for (the moves recorded, and the far move already taken)."""
    try:
        clock = Clock.from_dict(position.clock, time.monotonic)
    except ClockError:
        return None
    plies = len(position.moves) + (position.chosen is not None)
    running = clock.running
    return ClockReading(
        ply=plies,
        black_ms=round(clock.remaining(Color.BLACK) * 1000),
        white_ms=round(clock.remaining(Color.WHITE) * 1000),
        running=None if running is None else running.value,
        state=clock.state.value,
    )


class RemoteOpponent(Opponent):
    """The far board's player: its moves come over the link, this board's go to it."""

    kind: ClassVar[str] = "remote"
    waiting_text: ClassVar[Phrase] = Phrase("waiting for the other board's move…")
    #: The other board's name on the pages until it has said its own.
    unnamed: ClassVar[Phrase] = Phrase("the other board")

    def __init__(self, side: Color, link: RemoteLinkConfig) -> None:
        super().__init__(side)
        self.settings = link
        self.link: RemoteLink | None = None  # made at the first update, from the game's terms
        self._shown_due = False  # what describe says changed (the link, a problem): the pages
        self._latest: tuple[Position, Answer] | None = None
        #: What the players must know about the link (the boards disagree), for the pages.
        self.problem: Phrase | None = None
        self._answered = 0  # the serial last answered
        self._reading: ClockReading | None = None  # the host's newest clock, not yet taken
        self._reading_tried: int | None = None  # the serial it was last tried against
        self._result_due: tuple[str, str] | None = None  # the far board's result, to take
        #: The far board's rewind (its record, or ``None`` for its cued move), with its words.
        self._rewind_due: tuple[list[str] | None, Phrase] | None = None
        self._wake = threading.Condition()
        self._closed = False
        self._worker = threading.Thread(target=self._work, name="remote-opponent", daemon=True)
        self._worker.start()

    def update(self, position: Position, answer: Answer) -> None:
        """Send this board's record (and, on the host, its clock); answer when the far move is
        in. Returns at once: publishing only queues at paho."""
        if self.link is None:
            control = str(position.clock.get("control"))
            terms = GameTerms(position.start_fen, control, position.profile)
            self.link = RemoteLink(
                self.settings,
                terms,
                self.side.opponent,
                on_move=self._on_move,
                on_clock=self._on_clock,
                on_problem=self._on_problem,
                on_result=self._on_result,
                on_link=self._describe_changed,
                on_rewind=self._on_rewind,
                on_history=self._on_history,
            )
            self.link.load(*self._record(position), self._kept())
            self.link.start()
        else:
            self.link.update(*self._record(position))
        if self.settings.role == "host" and (reading := clock_reading(position)) is not None:
            self.link.publish_clock(reading)
        with self._wake:
            self._latest = (position, answer)
            self._wake.notify()

    @staticmethod
    def _record(position: Position) -> tuple[list[str], str | None, str | None]:
        """The game's moves in PDN, its result and the reason."""
        replay = Board(position.start_fen)
        moves = []
        for move in position.moves:
            moves.append(replay.notation(move))
            replay.push(move)
        return moves, position.result, position.reason

    def _kept(self) -> Rewind | None:
        """The rewind this game's record followed when it was last kept (a resumed game)."""
        kept = None if self.inbox is None else self.inbox.submit(KeptRewind())
        if kept is None:
            return None
        try:
            return rewind_from(kept)
        except ProtocolError as error:
            log.error("remote: the kept rewind state is damaged (%s): counted from 0", error)
            return None

    def _on_history(self, rewind: Rewind) -> None:
        if self.inbox is not None:
            self.inbox.post(KeepRewind(rewind.fields()))

    def _on_rewind(self, moves: list[str] | None, words: Phrase) -> None:
        # Taken on the worker: this may run inside update, with the session's lock held.
        with self._wake:
            self._rewind_due = (moves, words)
            self._wake.notify()

    def _on_move(self, _: PeerMove) -> None:
        self.problem = None  # the boards agree again
        with self._wake:
            self._wake.notify()

    def _on_problem(self, text: Phrase | None) -> None:
        self.problem = text  # logged by the link; shown with the opponent on the pages
        self._describe_changed()

    def _describe_changed(self) -> None:
        # Shown by the worker: this may run inside update, with the session's lock held.
        with self._wake:
            self._shown_due = True
            self._wake.notify()

    def _on_result(self, result: str, reason: str) -> None:
        # Taken on the worker: this may run inside update, with the session's lock held.
        with self._wake:
            self._result_due = (result, reason)
            self._wake.notify()

    def _on_clock(self, reading: ClockReading) -> None:
        with self._wake:
            self._reading, self._reading_tried = reading, None
            self._wake.notify()

    def _work(self) -> None:
        """Answer the newest position that asks for a move once the far move for it is in, and
        give the session the host's newest clock reading until it fits (a reading can arrive
        before the far move it follows is taken) and the far board's result. On this thread:
        it waits for the core to handle each input it puts on the queue."""
        while True:
            with self._wake:
                while (
                    not self._closed
                    and not self._answer_due()
                    and not self._clock_due()
                    and (self._result_due is None or self._latest is None)
                    and self._rewind_due is None
                    and not self._shown_due
                ):
                    self._wake.wait(timeout=1.0)
                if self._closed:
                    return
                shown, self._shown_due = self._shown_due, False
                rewind, self._rewind_due = self._rewind_due, None
                taken = None if rewind is not None else self._take()
            if rewind is not None:
                self._follow_rewind(*rewind)
            inbox = self.inbox
            if shown and inbox is not None:
                inbox.post(OpponentNews())
            if taken is None:
                continue  # the link has not started yet: nothing else can be due
            position, answer, far, reading, result = taken
            if result is not None and inbox is not None:
                inbox.submit(RemoteResult(*result))
            if far is not None and not answer(position.serial, far.move):
                log.warning("remote: the session did not take ply %d %s", far.ply, far.notation)
            if reading is not None and inbox is not None and inbox.submit(HostClock(reading)):
                with self._wake:
                    if self._reading is reading:
                        self._reading = None

    def _follow_rewind(self, moves: list[str] | None, words: Phrase) -> None:
        """The far board's rewind, followed by the session (its record or its cue)."""
        if self.inbox is None or self.inbox.submit(RemoteRewind(moves, words)):
            return
        self.problem = Phrase("{words}; not followed here (see the log)", words=words)
        self.inbox.post(OpponentNews())

    def _take(
        self,
    ) -> (
        tuple[Position, Answer, PeerMove | None, ClockReading | None, tuple[str, str] | None] | None
    ):
        """With the lock held: the newest position, and the far move, the host's clock reading
        and the far board's result due for it; ``None`` before the first update."""
        if self._latest is None or self.link is None:
            return None
        position, answer = self._latest
        far = self.link.pending if self._answer_due() else None
        reading = self._reading if self._clock_due() else None
        if far is not None:
            self._answered = position.serial
        if reading is not None:
            self._reading_tried = position.serial
        result, self._result_due = self._result_due, None
        return position, answer, far, reading, result

    def _answer_due(self) -> bool:
        if self._latest is None or self.link is None:
            return False
        position, _ = self._latest
        far = self.link.pending
        return (
            position.to_move
            and position.serial != self._answered
            and far is not None
            and far.ply == len(position.moves) + 1
        )

    def _clock_due(self) -> bool:
        """A host reading not yet taken, not yet tried against the newest position."""
        return (
            self._reading is not None
            and self._latest is not None
            and self._latest[0].serial != self._reading_tried
        )

    def player_name(self) -> str:
        """Unknown (``?``) unless ``[game]`` names the far player: both boards then write the
        same tags (docs/remote.md)."""
        return "?"

    def describe(self) -> dict[str, object]:
        """The kind and side, and the link: this board's role, the game, the other board; its
        name and the problem with it also as words to say in any language (``*_said``)."""
        link = self.link
        peer = None if link is None else link.peer
        problem = self.problem
        return {
            **super().describe(),
            "name": str(self.unnamed) if peer is None else peer,
            "name_said": self.unnamed.to_json() if peer is None else None,
            "role": self.settings.role,
            "connected": link is not None and link.connected.is_set(),
            "peer": peer,
            "acknowledged": 0 if link is None else link.peer_plies,
            "problem": None if problem is None else str(problem),
            "problem_said": None if problem is None else problem.to_json(),
        }

    def close(self) -> None:
        """Stop answering and disconnect."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        self._worker.join(timeout=5)
        if self.link is not None:
            self.link.stop()
