"""The session core: one board's game, clock, record and tracker, changed only by its inputs.

Every input (a sensor reading or time passing, the referee's command, the opponent's move, a
remote board's news, a hint found) is put on one queue and handled one at a time, in arrival
order, under the core's lock (:meth:`Session.submit`, :meth:`Session.post`); each kind has its
one handler (:mod:`poolboard.session.inputs`). A handler changes the game and stores the change in
one transaction; only then are its domain events (:mod:`poolboard.session.events`) published to
the subscribers (the pages' hub, the hall publisher, the LEDs), and the opponent told the new
position. If the store refuses the change (a full disk) the game goes back to what is stored, the
failure is shown as a fault and the board is cued back to the stored position; nothing of the
refused change is published. After a crash the unfinished game is resumed from the store
(:mod:`poolboard.session.games`). The design: docs/architecture.md.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from engine.clock import Clock, ClockState
from engine.color import Color
from engine.events import StateChanged, TrackerEvent
from engine.game import Game
from engine.phrase import Phrase
from engine.sensing import CueDisplay, LinkHealth, Sensor, SensorEvent
from engine.tracker import Tracker
from poolboard import records
from poolboard.config import Config
from poolboard.opponents import Opponent, make_opponent
from poolboard.opponents.computer import Thinker
from poolboard.sensor_log_files import RotatingSensorLog
from poolboard.session import games, tracking
from poolboard.session.events import (
    BoardChanged,
    CuesShown,
    DomainEvent,
    EventBus,
    FaultShown,
    RefereeActed,
    ResultReached,
)
from poolboard.session.inputs import Input
from poolboard.session.opponent import follow_up
from poolboard.session.queue import CoreLock, Slot
from poolboard.session.referee import RefereeDesk
from poolboard.session.sensing import Sensed
from poolboard.session.state import BoardState, Json, board_state, to_json
from poolboard.storage import DataFolderLock, GameStore, StorageError

log = logging.getLogger("poolboard.session")
T = TypeVar("T")


@dataclass(frozen=True)
class _Before:
    """What a change may alter in memory, kept so that a change the store refused is undone."""

    game_id: int
    game: Game
    game_over: bool
    headers: dict[str, str]
    details: dict[str, str]
    match: tuple[int, int]
    tracker: Tracker
    clock: dict[str, object]
    shown: tuple[tuple[list[Json], int], ...]
    outbox: int


def _shown_on(display: CueDisplay) -> Callable[[CuesShown], None]:
    """A subscriber that lights ``display`` with the cues as they change."""
    return lambda shown: display.show(shown.cues)


class Session(RefereeDesk):
    """Runs one board: ``run`` reads the sensor; every other input comes through ``submit``."""

    def __init__(
        self,
        config: Config,
        sensor: Sensor,
        displays: Sequence[CueDisplay] = (),
        *,
        store: GameStore | None = None,
        now: Callable[[], float] = time.monotonic,
        folder_lock: DataFolderLock | None = None,
        opponent: Opponent | None = None,
        resume: bool = True,
    ) -> None:
        """``opponent``: who plays the other side off the board; by default the one
        ``config.opponent`` names (none: two players at the board). ``resume``: go on with the
        unfinished game in the store (false: set it aside and start a new match)."""
        self.config = config
        self.folder_lock = folder_lock
        self.sensor = sensor
        self.displays = list(displays)
        self.now = now
        data = config.storage.directory
        self.store = store or GameStore(data / "games.sqlite3")
        self.sensor_log = RotatingSensorLog(
            data / "sensor-logs",
            config.storage.sensor_log_max_bytes,
            config.storage.sensor_logs_kept,
        )
        self._queue: deque[Slot[object]] = deque()
        self._handling = False
        self.lock = CoreLock(self._drain, self._queue)
        self.events = EventBus()
        self._outbox: list[DomainEvent] = []
        for display in self.displays:
            self.events.subscribe(CuesShown, _shown_on(display))
        self.violations: list[Json] = []
        self.faults: list[Json] = []
        self.clock_events: list[Json] = []
        self.violation: Json | None = None
        self.tracker_state: StateChanged | None = None
        self.link: LinkHealth | None = None
        self.storage_error: Phrase | None = None
        self.clock_saved = -float("inf")
        self.clock_actions = 0  # the referee's pauses, resumes and adjustments, told onwards
        game = config.game
        #: The current game's details (DETAIL_FIELDS); ``pending``: those set for the next game.
        self.details = {
            "event": game.event,
            "site": game.site,
            "round": game.round,
            "black": game.black,
            "white": game.white,
            "time_control": config.clock.time_control,
        }
        self.pending: dict[str, str] = {}
        self.headers: dict[str, str] = {}
        #: The game's number in its match and the games the match has (an even number, R-TRN-2).
        self.game_number, self.match_games = 1, 2
        self.match: Json = {}
        self.game_id = 0
        self.game: Game
        self.tracker: Tracker
        self.clock: Clock
        self._result_told: tuple[int, str | None] | None = None
        if opponent is None:
            opponent = make_opponent(config.opponent, config.remote)
        self.opponent = opponent
        self.opponent_serial = 0
        self.opponent_told: tuple[object, ...] | None = None
        self.hinter: Thinker | None = None
        self.hint_serial = 0
        self.hint_for: tuple[object, ...] | None = None  # the position a hint is sought for
        self.lever_pressed: dict[Color, float] = {}
        try:
            if opponent is not None:
                opponent.attach(self)
            with self.lock:
                self._handling = True
                try:
                    games.open_game(self, resume=resume)
                finally:
                    self._handling = False
                self._result_told = (self.game_id, self.game.result)
                self._flush()  # the cues, to the LEDs
                follow_up(self)
        except BaseException:
            if self.opponent is not None:
                self.opponent.close()
            raise

    # -- the queue -----------------------------------------------------------------------------

    def submit(self, item: Input[T]) -> T:
        """Handle ``item`` after the inputs queued before it and return its answer (or raise
        its error); any thread. From inside a handler it is handled at once, in its place."""
        with self.lock:
            if self._handling:
                return item.handle(self)
            slot: Slot[T] = Slot(item, waited=True)
            self._queue.append(slot)  # type: ignore[arg-type]  # the queue holds every kind
            self._drain()
        if slot.error is not None:
            raise slot.error
        return slot.value  # type: ignore[return-value]  # set by the handler

    def post(self, item: Input[object]) -> None:
        """Queue ``item`` and return at once (any thread): handled now if the core is idle,
        else by whoever holds the core's lock, when it lets go. Errors are logged."""
        self._queue.append(Slot(item, waited=False))
        if not self.lock.held_here() and self.lock.acquire(blocking=False):
            self.lock.release()

    def _drain(self) -> None:
        """Handle every queued input in order (the lock held); not from inside a handler."""
        if self._handling:
            return
        while self._queue:
            slot = self._queue.popleft()
            self._handling = True
            try:
                slot.value = slot.item.handle(self)
            except Exception as error:
                slot.error = error
                if not slot.waited:
                    log.exception("%s failed", type(slot.item).__name__)
            finally:
                self._handling = False
                slot.done = True
            self._flush()

    def run(self, stop: threading.Event) -> None:
        """Read the sensor and hand its events to the core until ``stop`` is set."""
        while not stop.is_set():
            with self.lock:
                due = self.tracker.next_deadline()
            # At least four looks a second, for the clock's warnings and flag.
            timeout = 0.25 if due is None else max(0.0, min(0.25, due - self.now()))
            self.process(self.sensor.read(timeout=timeout))

    def process(self, event: SensorEvent | None) -> None:
        """Handle one sensor event (``None``: time passing) as an input, now."""
        self.submit(Sensed(event))

    # -- storing and publishing ----------------------------------------------------------------

    @contextmanager
    def stored_together(self) -> Iterator[None]:
        """Every store write inside is one transaction; if it fails (or the change is refused
        half-way) the game in memory goes back to what is stored and nothing emitted inside is
        published, so no unstored move, result or new game is ever announced."""
        before = _Before(
            self.game_id,
            self.game,
            self.game.is_over(),
            self.headers,
            dict(self.details),
            (self.game_number, self.match_games),
            self.tracker,
            self.clock.to_dict(),
            tuple((shown, len(shown)) for shown in self._shown_lists()),
            len(self._outbox),
        )
        try:
            with self.store.transaction():
                yield
        except Exception:
            self._restore(before)
            raise

    def _shown_lists(self) -> tuple[list[Json], ...]:
        return (self.violations, self.faults, self.clock_events)

    def _restore(self, before: _Before) -> None:
        """Back to ``before``: the game as stored, the clock as it was, the tracker following
        the stored position (it cues the board back to it if a move could not be stored)."""
        del self._outbox[before.outbox :]
        self.game_id, self.headers = before.game_id, before.headers
        self.details = before.details
        self.game_number, self.match_games = before.match
        if before.game_over:
            self.game = before.game  # a finished game is never changed in place
        else:
            stored = self.store.game(before.game_id)
            self.game = games.replay(self, stored.start_fen, [m.move for m in stored.moves])
        self.clock = Clock.from_dict(before.clock, self.now)
        for shown, length in before.shown:
            del shown[length:]
        self.violations, self.faults, self.clock_events = [shown for shown, _ in before.shown]
        self.tracker = before.tracker
        if self.tracker.board.move_stack != self.game.board.move_stack:
            games.replace_tracker(self)
        self.emit(CuesShown(self.tracker.cues))
        games.score_match(self)

    def not_stored(self, error: StorageError) -> None:
        """A change the store refused: said once in the log and shown as a fault until a write
        works again."""
        said = Phrase(
            "NOT RECORDED: {error}; the board must go back to the last recorded position",
            error=str(error),
        )
        message = str(said)
        if self.storage_error != said:
            log.error("%s", message)
        self.storage_error = said
        if not self.faults or self.faults[-1]["message"] != message:
            fault = {"event": "storage", "t": self.now(), "squares": [], "message": message}
            self.show_fault(fault | {"said": said.to_json()})

    def stored_again(self) -> bool:
        """A write worked after a refused one: recording goes on (whether that is news)."""
        if self.storage_error is None:
            return False
        self.storage_error = None
        log.info("the store takes writes again: recording goes on")
        return True

    def save_clock(self) -> None:
        """Store the clock as it stands (with the change it belongs to)."""
        self.store.save_clock(self.game_id, self.clock.to_dict())

    def audited(self, actor: str, action: str, data: Json) -> None:
        """Write an action to the audit log (in the change's transaction) and tell of it."""
        at = self.store.audit(self.game_id, actor, action, data)
        self.emit(RefereeActed(self.game_id, at, actor, action, data))

    def emit(self, event: DomainEvent) -> None:
        """Queue a domain event, published once the change it belongs to is stored."""
        self._outbox.append(event)

    def _flush(self) -> None:
        while self._outbox:
            self.events.publish(self._outbox.pop(0))

    def announce(self) -> None:
        """Publish the change: its events, the result if it is new, then the whole state."""
        outcome = self.game.outcome()
        told = (self.game_id, self.game.result)
        if told != self._result_told and outcome is not None:
            self.emit(ResultReached(self.game_id, outcome.result, outcome.reason))
        self._result_told = told
        self.emit(BoardChanged(board_state(self)))
        self._flush()

    def subscribe(self, listener: Callable[[Json], object]) -> Callable[[], None]:
        """Call ``listener`` with the whole state (:meth:`state`) after every change; returns
        an unsubscribe."""
        return self.events.subscribe(BoardChanged, lambda changed: listener(changed.json))

    # -- what a change does to the game --------------------------------------------------------

    def on_tracker_event(self, event: TrackerEvent) -> None:
        """Apply what the tracker saw (a move, a violation, cues...) and store it."""
        tracking.apply(self, event)

    def feed(self, events: Sequence[TrackerEvent]) -> None:
        """Apply every event of a tracker call in turn."""
        for event in events:
            self.on_tracker_event(event)

    def show_fault(self, fault: Json) -> None:
        """Show a fault (a sensor's, the link's, the store's) on the pages and to the hall."""
        self.faults.append(fault)
        self.emit(FaultShown(self.game_id, fault))

    def end(self, ending: records.Ending) -> None:
        """End the game as ``ending`` says (a win; draws go through the game's own methods)."""
        assert ending.winner is not None
        self.game.award(ending.winner, ending.rule, ending.said or ending.reason)
        self.finish_if_over(ending.how)

    def finish_if_over(self, how: str = "board") -> None:
        """Store the result if the game is over: the reason in words and the PDN
        ``[Termination]`` for ``how`` it ended (a :data:`records.TERMINATION` key)."""
        outcome = self.game.outcome()
        if outcome is None:
            return
        if self.clock.state in (ClockState.RUNNING, ClockState.PAUSED):
            self.clock.stop()
        self.save_clock()
        self.headers = {**self.headers, "Termination": records.TERMINATION[how]}
        self.store.set_headers(self.game_id, self.headers)
        self.store.set_result(self.game_id, outcome.result, outcome.reason, outcome.said)
        games.score_match(self)
        log.info("game %d: %s (%s)", self.game_id, outcome.result, outcome.reason)

    # -- what spectators see -------------------------------------------------------------------

    def board_state(self) -> BoardState:
        """Everything a screen shows (GET /api/state), typed; any thread."""
        with self.lock:
            return board_state(self)

    def state(self) -> Json:
        """:meth:`board_state` as the JSON object the API, the pages and the hall send."""
        return to_json(self.board_state())

    def close(self) -> None:
        """Stop the opponent; release the sensor, the displays, the log, the store and the data
        folder."""
        if self.opponent is not None:
            self.opponent.close()
        if self.hinter is not None:
            self.hinter.close()
        self.sensor.close()
        for display in self.displays:
            display.close()
        self.sensor_log.close()
        self.store.close()
        if self.folder_lock is not None:
            self.folder_lock.release()
