"""The session: one sensor, the tracker, the game, the clock, the store and whoever is watching.

Data flows one way: sensor event -> tracker -> game -> store -> (cues, clock, spectators). Every
change (a move with its result, a correction, a takeback, a new game, a referee action) is stored
in one transaction before it is announced to any display or spectator; if it cannot be stored (a
full disk) the game goes back to what is stored, the failure is shown as a fault and the board is
cued back to the stored position. After a crash the unfinished game is resumed from the store:
the tracker waits until the stored position stands on the board again (cueing what to restore),
and the clock, saved with every move, restarts then without charging the outage.

An opponent off the board (``[opponent]``: the computer; docs/opponents.md) is told the game after
every change and answers with a move through :meth:`Session.opponent_moved`, which is stored (so
a restart re-shows it) and cued for the player here to execute on the board.
"""

from __future__ import annotations

import copy
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from engine.board import Board, Move
from engine.clock import (
    Clock,
    ClockError,
    ClockEvent,
    ClockState,
    FlagFell,
    MoveTimeForfeit,
    TimeControl,
    event_to_dict,
)
from engine.color import Color
from engine.cues import Cues
from engine.events import (
    CuesChanged,
    FaultReported,
    GameStarted,
    MoveCorrected,
    MoveRecorded,
    MoveTakenBack,
    StateChanged,
    TrackerEvent,
    TrackerState,
    Violation,
)
from engine.game import BLACK_WINS, DRAW, WHITE_WINS, Game
from engine.search import claims_count
from engine.sensing import (
    CueDisplay,
    LeverPress,
    LinkHealth,
    PositionLearner,
    Sensor,
    SensorEvent,
)
from engine.tracker import Tracker, TrackerConfig
from poolboard import records
from poolboard.config import Config
from poolboard.listeners import Listeners
from poolboard.opponents import Opponent, Position, make_opponent
from poolboard.opponents.computer import HINT_LEVEL, Thinker
from poolboard.opponents.remote import ClockReading
from poolboard.opponents.remote_opponent import RemoteOpponent
from poolboard.sensor_log import GameMarker
from poolboard.sensor_log_files import RotatingSensorLog
from poolboard.storage import DamagedGame, DataFolderLock, GameStore, StorageError, StoredGame

#: What the referee may set for a game: its PDN tags and its time control.
DETAIL_FIELDS = ("event", "site", "round", "black", "white", "time_control")
#: Points for a win, a draw and a loss in a match (R-TRN-3).
WIN_POINTS, DRAW_POINTS = 4, 2
#: The draw counts that end a game on the board (R-DRW-1..5); with R-END-1, the results a
#: voided move takes with it.
DRAW_COUNT_RULES = ("R-DRW-1", "R-DRW-2", "R-DRW-3", "R-DRW-4", "R-DRW-5")
#: How the referee may end a game (``end_game``).
ENDINGS = ("resign", "agree-draw", "referee-win", "referee-draw")

Listener = Callable[[dict[str, Any]], None]
log = logging.getLogger("poolboard.session")

#: Two presses of the same lever within this many seconds ask for a hint (docs/opponents.md).
DOUBLE_PRESS_SECONDS = 0.8

#: While a clock runs its state is saved this often, so a crash refunds at most this much of the
#: running side's thinking time (the outage itself is never charged).
CLOCK_SAVE_SECONDS = 2.0


def _known(name: str | None) -> str:
    """A player's name, or ``""`` where the PDN says it is unknown (``?``, ``-``, empty)."""
    return "" if name is None or name.strip() in ("", "?", "-") else name


@contextmanager
def _clock_errors() -> Iterator[None]:
    """The clock's refusals (pausing a paused clock...) reach the referee as RefereeError."""
    try:
        yield
    except ClockError as error:
        raise RefereeError(str(error)) from None


class RefereeError(ValueError):
    """A referee action that cannot be done; the message says why."""


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
    clock: dict[str, Any]
    shown: tuple[tuple[list[dict[str, Any]], int], ...]


class Session:
    """Runs one board: feed it sensor events (``process``) or let ``run`` read the sensor."""

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
    ) -> None:
        """``opponent``: who plays the other side off the board; by default the one
        ``config.opponent`` names (none: two players at the board)."""
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
        self.lock = threading.RLock()
        self._listeners: Listeners[dict[str, Any]] = Listeners("session")
        self._violations: list[dict[str, Any]] = []
        self._faults: list[dict[str, Any]] = []
        self._tracker_state: StateChanged | None = None
        self._clock_events: list[dict[str, Any]] = []
        self._clock_saved = -float("inf")
        self.link: LinkHealth | None = None
        self.headers: dict[str, str] = {}
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
        #: The game's number in its match and the games the match has (an even number, R-TRN-2).
        self.game_number, self.match_games = 1, 2
        self._match_cache: dict[str, Any] = {}
        self._violation: dict[str, Any] | None = None
        self.game_id = 0
        self.storage_error: str | None = None
        self.game: Game
        self.tracker: Tracker
        self.clock: Clock
        if opponent is None:
            opponent = make_opponent(config.opponent, config.remote)
        self.opponent = opponent
        if isinstance(opponent, RemoteOpponent):  # a remote game: docs/remote.md
            opponent.follow_clock = self.follow_host_clock
            opponent.follow_result = self.follow_remote_result
            opponent.follow_rewind = self.follow_remote_rewind
            opponent.keep_history = self._keep_remote_history
            opponent.kept_history = self._kept_remote_history
            opponent.show_changed = self._show_opponent
        self._opponent_serial = 0
        self._opponent_told: tuple[Any, ...] | None = None
        self._clock_actions = 0  # the referee's pauses, resumes and adjustments, told onwards
        self._hinter: Thinker | None = None
        self._hint_serial = 0
        self._hint_for: tuple[Any, ...] | None = None  # the position a hint is being sought for
        self._lever_pressed: dict[Color, float] = {}
        try:
            self._open_game()
        except BaseException:
            if self.opponent is not None:
                self.opponent.close()
            raise
        self._follow_up()

    # -- games ---------------------------------------------------------------------------------

    def _tracker_config(self) -> TrackerConfig:
        timings = self.config.tracker
        return TrackerConfig.for_profile(
            self.config.rules.profile,
            debounce=timings.debounce,
            settle=timings.settle,
            incomplete_jump=timings.incomplete_jump,
        )

    def _open_game(self) -> None:
        stored = self.store.unfinished_game()
        if isinstance(stored, DamagedGame):
            log.error("game %d is damaged, so not resumed: %s", stored.id, stored.reason)
            stored = None
        if stored is None:
            self._new_game(self.config.rules.fen or Board().fen())
        else:
            self._resume(stored)

    def _headers(self) -> dict[str, str]:
        """The PDN tags of a new game from :attr:`details` (docs/service.md, "Records")."""
        details = dict(self.details)
        if self.opponent is not None and not _known(details[self.opponent.side.value]):
            details[self.opponent.side.value] = self.opponent.player_name()
        control, _ = records.pdn_time_control(TimeControl.from_string(details["time_control"]))
        return {
            "Event": details["event"],
            "Site": details["site"],
            "Date": time.strftime("%Y.%m.%d"),
            "Round": records.round_tag(details["round"], self.game_number),
            "White": details["white"],
            "Black": details["black"],
            "Result": "*",
            "GameType": "23",
            "TimeControl": control,
            "MatchGames": str(self.match_games),
        }

    def _replace_tracker(self, *, resuming: bool = False) -> None:
        """A tracker for the current game, told the board as it stands: sensors report changes
        only, so it must not wait for the next one to know the position (set-up cues at once,
        and the game and its clock start at once if the position already stands). The sensor
        log gets a game marker, so a replay starts from the same position."""
        now = self.now()
        self.sensor_log.write(GameMarker(now, self.game_id, self.game.board.fen(), resuming))
        previous = getattr(self, "tracker", None)
        board_now = None if previous is None else previous.settled_snapshot(now)
        opponent = None if self.opponent is None else self.opponent.side
        self.tracker = Tracker(
            self.game.board, self._tracker_config(), resuming=resuming, opponent=opponent
        )
        self._tracker_state = None
        if board_now is not None:
            for event in self.tracker.feed(board_now):
                if isinstance(event, GameStarted | StateChanged | CuesChanged):
                    self._on_tracker_event(event)

    def _new_game(self, fen: str, clock: Clock | None = None) -> None:
        """Create and store a new game from :attr:`details`; its clock (``clock``: carried on
        from the match) is saved with it, so a restart resumes the same control."""
        self.headers = self._headers()
        self.game_id = self.store.create_game(fen, self.config.rules.profile, self.headers)
        self.game = Game(fen, profile=self.config.rules.profile)
        self.clock = clock or Clock(TimeControl.from_string(self.details["time_control"]), self.now)
        self.store.save_clock(self.game_id, self.clock.to_dict())
        self._violations, self._faults, self._clock_events = [], [], []
        self._violation = None
        self._replace_tracker()
        self._score_match()

    def _resume(self, stored: StoredGame) -> None:
        """Rebuild an unfinished game from the store; the tracker asks for its position."""
        self.game_id = stored.id
        self.headers = stored.headers
        self._details_from_headers(stored)
        self.game = self._replay(stored.start_fen, stored.board().move_stack)
        self.clock = Clock(TimeControl.from_string(self.details["time_control"]), self.now)
        if stored.clock is not None:
            # Times left were saved with every move: the running side restarts from now, so the
            # outage is not charged (docs/service.md).
            try:
                self.clock = Clock.from_dict(stored.clock, self.now)
            except ClockError as error:
                log.error("game %d: its saved clock is damaged (%s): a new clock", stored.id, error)
        self._replace_tracker(resuming=True)
        self._expect_stored_opponent_move()
        self._score_match()
        self._finish_if_over()  # a crash between the last move and its result

    def _details_from_headers(self, stored: StoredGame) -> None:
        """The details, game number and match length of a stored game (a resumed one)."""
        headers = stored.headers
        control = (stored.clock or {}).get("control")
        self.details = {
            "event": headers.get("Event", "?"),
            "site": headers.get("Site", "?"),
            "round": records.round_name(headers.get("Round", "?")),
            "black": headers.get("Black", "?"),
            "white": headers.get("White", "?"),
            "time_control": control if isinstance(control, str) else self.config.clock.time_control,
        }
        # Details the referee set for the next game during this one (audited with it).
        self.pending = {}
        for _, _, action, data in self.store.audit_log(stored.id):
            if action == "details" and data.get("game") == "next":
                self.pending.update(
                    {k: v for k, v in data.items() if k in DETAIL_FIELDS and isinstance(v, str)}
                )
        self.game_number = records.game_number(headers.get("Round", ""))
        planned = headers.get("MatchGames", "2")
        self.match_games = max(int(planned) if planned.isdigit() else 2, self.game_number)

    def _replay(self, start_fen: str, moves: Sequence[Move]) -> Game:
        """The game from its start through ``moves``, with the counts the weaker side invoked
        (stored events) at the plies they were invoked at."""
        invoked = {
            data["ply"]: Color(data["side"])
            for _, kind, data in self.store.events(self.game_id)
            if kind == "count"
        }
        game = Game(start_fen, profile=self.config.rules.profile)
        for ply in range(len(moves) + 1):
            if ply in invoked and not game.is_over():
                with suppress(ValueError):
                    game.invoke_count(invoked[ply])
            if ply < len(moves) and not game.is_over():
                game.push(moves[ply])
        return game

    # -- the loop ------------------------------------------------------------------------------

    def run(self, stop: threading.Event) -> None:
        """Read the sensor and process its events until ``stop`` is set."""
        while not stop.is_set():
            with self.lock:
                due = self.tracker.next_deadline()
            # At least four looks a second, for the clock's warnings and flag.
            timeout = 0.25 if due is None else max(0.0, min(0.25, due - self.now()))
            event = self.sensor.read(timeout=timeout)
            with self.lock:
                self.process(event)

    def process(self, event: SensorEvent | None) -> None:
        """Handle one sensor event (or none: time passing), store what it changed in one
        transaction, then announce it; what cannot be stored is undone and shown as a fault."""
        writes = self.store.writes
        try:
            with self._stored_together():
                changed = self._handle(event)
        except StorageError as error:
            changed = self._not_stored(error)
        else:
            if self.store.writes != writes:
                changed |= self._stored_again()
        if changed:
            self._announce()
            self._follow_up()

    def _handle(self, event: SensorEvent | None) -> bool:
        changed = False
        if isinstance(event, LinkHealth):
            changed = self._link_changed(event)
        if event is not None:
            self.sensor_log.write(event)
            for tracker_event in self.tracker.feed(event):
                changed |= self._on_tracker_event(tracker_event)
            if isinstance(event, LeverPress) and self.config.clock.switch_on == "lever":
                changed |= self._switch_clock(event.side)
            elif isinstance(event, LeverPress) and self._double_press(event):
                refused = self._ask_hint("lever")
                if refused is not None:
                    log.info("no hint for %s's double press: %s", event.side.value, refused)
                changed = True
        else:
            for tracker_event in self.tracker.advance(self.now()):
                changed |= self._on_tracker_event(tracker_event)
        for clock_event in self.clock.poll():
            changed |= self._on_clock_event(clock_event)
        if self.clock.running is not None and self.now() >= self._clock_saved + CLOCK_SAVE_SECONDS:
            self._clock_saved = self.now()  # on a full disk, tried again in as long
            self.store.save_clock(self.game_id, self.clock.to_dict())
        return changed

    # -- storing -------------------------------------------------------------------------------

    @contextmanager
    def _stored_together(self) -> Iterator[None]:
        """Every store write inside is one transaction; if it fails (or the change is refused
        half-way) the game in memory goes back to what is stored, so no unstored move, result
        or new game is ever announced."""
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
        )
        try:
            with self.store.transaction():
                yield
        except Exception:
            self._restore(before)
            raise

    def _shown_lists(self) -> tuple[list[dict[str, Any]], ...]:
        return (self._violations, self._faults, self._clock_events)

    def _restore(self, before: _Before) -> None:
        """Back to ``before``: the game as stored, the clock as it was, the tracker following
        the stored position (it cues the board back to it if a move could not be stored)."""
        self.game_id, self.headers = before.game_id, before.headers
        self.details = before.details
        self.game_number, self.match_games = before.match
        if before.game_over:
            self.game = before.game  # a finished game is never changed in place
        else:
            stored = self.store.game(before.game_id)
            self.game = self._replay(stored.start_fen, [m.move for m in stored.moves])
        self.clock = Clock.from_dict(before.clock, self.now)
        for shown, length in before.shown:
            del shown[length:]
        self._violations, self._faults, self._clock_events = [shown for shown, _ in before.shown]
        self.tracker = before.tracker
        if self.tracker.board.move_stack != self.game.board.move_stack:
            self._replace_tracker()
        self._score_match()

    def _not_stored(self, error: StorageError) -> bool:
        """A change the store refused: said once in the log and shown as a fault until a write
        works again."""
        message = f"NOT RECORDED: {error}; the board must go back to the last recorded position"
        if self.storage_error != message:
            log.error("%s", message)
        self.storage_error = message
        if not self._faults or self._faults[-1]["message"] != message:
            fault = {"event": "storage", "t": self.now(), "squares": [], "message": message}
            self._faults.append(fault)
        return True

    def _stored_again(self) -> bool:
        if self.storage_error is None:
            return False
        self.storage_error = None
        log.info("the store takes writes again: recording goes on")
        return True

    def _teach_sensor(self) -> None:
        """Show a sensor that learns from recorded positions (the camera) the game's position
        after a move, so its colours follow the light (docs/vision.md)."""
        if isinstance(self.sensor, PositionLearner):
            board = self.game.board
            position = {
                square: piece.symbol
                for square in board.occupied_squares()
                if (piece := board.piece_at(square)) is not None
            }
            self.sensor.confirm(position)

    def _on_tracker_event(self, event: TrackerEvent) -> bool:
        if isinstance(event, MoveRecorded | MoveCorrected | MoveTakenBack) and self.game.is_over():
            log.info(
                "game %d is over (%s): %s %s not recorded",
                self.game_id,
                self.game.result,
                event.kind,
                event.notation,
            )
            return True
        match event:
            case GameStarted():
                self._violation = None
                if self.clock.state is ClockState.READY and not self.game.is_over():
                    self.clock.start(self.game.board.turn, one_capture=self._only_capture())
                    self.store.save_clock(self.game_id, self.clock.to_dict())
                    for clock_event in self.clock.poll():  # a match clock already run out
                        self._on_clock_event(clock_event)
            case MoveRecorded(move=move, notation=notation, side=side, ply=ply):
                self._violation = None
                self.game.push(move)
                if self.config.clock.switch_on == "move":
                    self._switch_clock(side)
                self.store.add_move(
                    self.game_id, ply, move, notation, self._clock_pair(), self.clock.to_dict()
                )
                log.info("game %d: move %d %s (%s)", self.game_id, ply, notation, side.value)
                self._teach_sensor()
                self._finish_if_over()
            case MoveCorrected(move=move, notation=notation, ply=ply):
                self._violation = None
                self.game.pop()
                self.game.push(move)
                self.store.add_move(
                    self.game_id, ply, move, notation, self._clock_pair(), self.clock.to_dict()
                )
                self.store.add_event(self.game_id, "correction", event.to_json())
                log.info("game %d: move %d corrected to %s", self.game_id, ply, notation)
                self._teach_sensor()
                self._finish_if_over()
            case MoveTakenBack(ply=ply):
                self._violation = None
                self.game.pop()
                self.store.delete_moves_from(self.game_id, ply)
                self._clock_follows_the_record()  # the turn goes back to the side that moved
                self.store.save_clock(self.game_id, self.clock.to_dict())
            case Violation():
                shown = {**event.to_json(), "ply": len(self.game.board.move_stack)}
                self._violations.append(shown)
                self._violation = shown
                self.store.add_event(self.game_id, "violation", shown)
                log.warning(
                    "game %d: %s %s: %s", self.game_id, event.rule, event.side.value, event.message
                )
            case FaultReported():
                self._faults.append(event.to_json())
                self.store.add_event(self.game_id, "fault", event.to_json())
                log.warning("sensor fault: %s", event.message)
            case CuesChanged(cues=cues):
                self._show(cues)
            case StateChanged():
                # A violation stands until the position is restored and play goes on (a
                # caution, given as the position is restored, until the next move).
                standing = self._violation
                if (
                    standing is not None
                    and standing.get("severity") != "caution"
                    and event.state is TrackerState.TO_MOVE
                ):
                    self._violation = None
                self._tracker_state = event
        return True

    def _on_clock_event(self, event: ClockEvent) -> bool:
        data = event_to_dict(event)
        self._clock_events.append(data)
        self.store.add_event(self.game_id, "clock", data)
        if isinstance(event, FlagFell | MoveTimeForfeit) and not self.game.is_over():
            ending = records.on_time(event.side, event.rule, isinstance(event, MoveTimeForfeit))
            self._end(ending)
        return True

    def _end(self, ending: records.Ending) -> None:
        """End the game as ``ending`` says (a win; draws go through the game's own methods)."""
        assert ending.winner is not None
        self.game.award(ending.winner, ending.rule, ending.reason)
        self._finish_if_over(ending.how)

    def _switch_clock(self, side: Color) -> bool:
        """``side`` finished a move on the clock, if it was theirs to make and time is running."""
        if self.clock.running is not side:
            return False
        try:
            return self.clock.move_made(side, one_capture=self._only_capture())
        except ClockError:
            return False

    def _link_changed(self, event: LinkHealth) -> bool:
        """The Pico or camera link went down or came back: shown to players and the referee."""
        if self.link is not None and self.link.connected == event.connected:
            return False
        self.link = event
        text = "sensor link " + ("up" if event.connected else "DOWN") + f": {event.detail}"
        self._faults.append({"event": "link", "t": event.t, "squares": [], "message": text})
        self.store.add_event(
            self.game_id, "link", {"connected": event.connected, "detail": event.detail}
        )
        (log.info if event.connected else log.error)(text)
        return True

    def _only_capture(self) -> bool:
        """Whether the side to move has exactly one capturing move (R-TIM-2)."""
        return len(self.game.board.generate_captures()) == 1

    def _clock_pair(self) -> tuple[float, float]:
        return (self.clock.remaining(Color.BLACK), self.clock.remaining(Color.WHITE))

    def _finish_if_over(self, how: str = "board") -> None:
        """Store the result if the game is over: the reason in words and the PDN
        ``[Termination]`` for ``how`` it ended (a :data:`records.TERMINATION` key)."""
        outcome = self.game.outcome()
        if outcome is None:
            return
        if self.clock.state in (ClockState.RUNNING, ClockState.PAUSED):
            self.clock.stop()
        self.store.save_clock(self.game_id, self.clock.to_dict())
        self.headers = {**self.headers, "Termination": records.TERMINATION[how]}
        self.store.set_headers(self.game_id, self.headers)
        self.store.set_result(self.game_id, outcome.result, outcome.reason)
        self._score_match()
        log.info("game %d: %s (%s)", self.game_id, outcome.result, outcome.reason)

    def _score_match(self) -> None:
        """The match so far (R-TRN-2, R-TRN-3): each finished game's result in words and the
        points of each player (4 a win, 2 a draw), kept until the next change."""
        numbers = range(self.game_number, 0, -1)
        found = self.store.match_games(self.game_id, numbers)
        points: dict[str, int] = {}
        results = []
        for number, (headers, result, reason) in zip(numbers, found, strict=False):
            # Players without a name are told apart by their colour in game 1 (R-TRN-2).
            first, second = ("Black", "White") if number % 2 else ("White", "Black")
            black = _known(headers.get("Black")) or f"{first} of game 1"
            white = _known(headers.get("White")) or f"{second} of game 1"
            for name in (black, white):
                points.setdefault(name, 0)
            if result in (BLACK_WINS, WHITE_WINS):
                winner = Color.BLACK if result == BLACK_WINS else Color.WHITE
                points[black if winner is Color.BLACK else white] += WIN_POINTS
            elif result == "1/2-1/2":
                winner = None
                points[black] += DRAW_POINTS
                points[white] += DRAW_POINTS
            else:
                continue
            words = records.ended_in_words(
                winner, reason or "", headers.get("White", "?"), headers.get("Black", "?")
            )
            results.append({"game": number, "result": result, "text": words})
        results.reverse()
        over = self.game.is_over() and self.game_number >= self.match_games
        self._match_cache = {
            "game": self.game_number,
            "games": self.match_games,
            "round": self.details["round"],
            "score": [{"name": name, "points": p} for name, p in points.items()],
            "results": results,
            "over": over,
        }

    def _show(self, cues: Cues) -> None:
        for display in self.displays:
            display.show(cues)

    # -- the opponent off the board -------------------------------------------------------------

    def _follow_up(self) -> None:
        """After a change is stored and announced: tell the opponent, drop a stale hint search."""
        self._tell_opponent()
        if self._hint_for is not None and self._hint_for != self._position_key():
            self._hint_for = None
            if self._hinter is not None:
                self._hinter.cancel()

    def _opponent_to_move(self) -> bool:
        """Whether the opponent must choose a move now: its turn in a running game whose
        position stands on the board, and no move of its own already waiting to be executed."""
        return (
            self.opponent is not None
            and not self.game.is_over()
            and self.tracker.started
            and self.game.board.turn is self.opponent.side
            and self.tracker.expected is None
        )

    def _tell_opponent(self) -> None:
        """Send the opponent the game if it changed since it was last told (a new serial
        supersedes, and so cancels, whatever it was doing). Called with the lock held."""
        if self.opponent is None:
            return
        if (
            self.opponent.claims_counts
            and self._opponent_to_move()
            and claims_count(self.game, self.opponent.side)
        ):
            try:  # its own follow-up tells the opponent the game with the count running
                self.invoke_count(self.opponent.player_name(), self.opponent.side)
            except RefereeError as error:
                log.warning("game %d: the opponent's count claim failed: %s", self.game_id, error)
        board = self.game.board
        told = (
            self.game_id,
            tuple(board.move_stack),
            self.game.result,
            self._opponent_to_move(),
            self.tracker.expected,
            self._clock_actions,  # a remote host publishes its clock after each
        )
        if told == self._opponent_told:
            return
        self._opponent_told = told
        self._opponent_serial += 1
        position = Position(
            serial=self._opponent_serial,
            game_id=self.game_id,
            game=copy.deepcopy(self.game),
            side=self.opponent.side,
            to_move=self._opponent_to_move(),
            chosen=self.tracker.expected,
            clock=self.clock.to_dict(),
        )
        self.opponent.update(position, self.opponent_moved)

    def opponent_moved(self, serial: int, move: Move) -> bool:
        """The opponent's answer to update ``serial``: its move, stored (an ``opponent-move``
        event, so a restart shows it again), its clock stopped (the player here runs while
        executing it: docs/opponents.md) and cued on the board. Any thread. ``False``: the
        position changed meanwhile, or the move is not legal (logged), or it could not be
        stored (the opponent is asked again)."""
        with self.lock:
            if serial != self._opponent_serial or not self._opponent_to_move():
                return False
            assert self.opponent is not None
            board = self.game.board
            if move not in board.generate_legal_moves():
                log.error("game %d: the opponent's move %s is not legal", self.game_id, move.path)
                return False
            data = {
                "ply": len(board.move_stack) + 1,
                "fen": board.fen(),
                "move": board.notation(move),
                "path": list(move.path),
            }
            try:
                with self._stored_together():
                    self.store.add_event(self.game_id, "opponent-move", data)
                    self._switch_clock(self.opponent.side)
                    self.store.save_clock(self.game_id, self.clock.to_dict())
                    for event in self.tracker.expect(move, self.now()):
                        self._on_tracker_event(event)
            except StorageError as error:
                self._not_stored(error)
                if self.tracker.expected is not None:  # the commit itself failed: not shown
                    for event in self.tracker.expect(None, self.now()):
                        self._on_tracker_event(event)
                # Asked again with the next change: at the latest when the store takes writes
                # again (the clock is saved every CLOCK_SAVE_SECONDS meanwhile).
                self._opponent_told = None
                self._announce()
                return False
            log.info("game %d: the opponent plays %s", self.game_id, data["move"])
            self._announce()
            self._follow_up()
            return True

    def _expect_stored_opponent_move(self) -> None:
        """After a restart: the opponent's move chosen for this very position and not yet
        executed on the board is cued again (not thought about again)."""
        if self.opponent is None or self.game.is_over():
            return
        board = self.game.board
        if board.turn is not self.opponent.side:
            return
        ply, fen = len(board.move_stack) + 1, board.fen()
        for _, kind, data in reversed(self.store.events(self.game_id)):
            if kind != "opponent-move" or data.get("ply") != ply or data.get("fen") != fen:
                continue
            path = tuple(data.get("path", ()))
            move = next((m for m in board.generate_legal_moves() if m.path == path), None)
            if move is not None:
                for event in self.tracker.expect(move, self.now()):
                    self._on_tracker_event(event)
            return

    # -- a remote game's guest: the host's clock is the one authority (docs/remote.md) ----------

    def follow_host_clock(self, reading: ClockReading) -> bool:
        """Set this board's clock to the host's reading when both stand at the same ply with the
        same side's time running, pausing or resuming it as the host's referee did (any thread);
        whether it was taken. The host charges each side from its own clock, so both boards show
        and record the same times."""
        with self.lock:
            plies = len(self.game.board.move_stack) + (self.tracker.expected is not None)
            if reading.ply != plies or self.game.is_over():
                return False
            before = self.clock.to_dict()
            try:
                host_paused = reading.state == ClockState.PAUSED.value
                if host_paused and self.clock.state is ClockState.RUNNING:
                    self.clock.pause()
                elif not host_paused and self.clock.state is ClockState.PAUSED:
                    self.clock.resume()
                running = None if self.clock.running is None else self.clock.running.value
                if reading.running != running:
                    self.clock = Clock.from_dict(before, self.now)
                    return False
                with self._stored_together():
                    for side, ms in (
                        (Color.BLACK, reading.black_ms),
                        (Color.WHITE, reading.white_ms),
                    ):
                        behind = ms / 1000 - self.clock.remaining(side)
                        if abs(behind) >= 0.001:
                            self.clock.adjust(side, behind)
                    self.store.save_clock(self.game_id, self.clock.to_dict())
            except (ClockError, StorageError) as error:
                self.clock = Clock.from_dict(before, self.now)
                log.warning("remote: the host's clock was not taken: %s", error)
                return False
            self._announce()
            return True

    def _show_opponent(self) -> None:
        """The opponent's own news (a remote link up or down, the boards disagreeing): the pages
        show it now, not at the next change of the game (any thread)."""
        with self.lock:
            self._announce()

    def follow_remote_result(self, result: str, reason: str) -> bool:
        """End the game as the far board ended it at the same ply (a resignation, a flag, its
        referee's decision), with its reason word for word, so both records read the same;
        audited as ``remote``. Whether it was taken (any thread)."""
        with self.lock:
            if self.game.is_over():
                return False  # over here too (the same last move, R-END-1)
            try:
                with self._referee_action():
                    if result == DRAW:
                        self.game.declare_draw(reason)
                        self._finish_if_over("referee")
                    else:
                        winner = Color.BLACK if result == BLACK_WINS else Color.WHITE
                        self._end(records.Ending("referee", winner, "", reason))
                    self._audited("remote", "result", {"result": result, "reason": reason})
            except RefereeError as error:
                log.warning("remote: the other board's result %s was not taken: %s", result, error)
                return False
            return True

    def follow_remote_rewind(self, moves: Sequence[str] | None, words: str) -> bool:
        """The far board's takeback or correction, followed here (``casual``, docs/remote.md):
        the record becomes ``moves`` (PDN from the start), the board is cued to restore its
        position, and the clock's turn follows; ``None``: only the far move cued here is
        withdrawn. Audited as ``remote`` with ``words``. Whether it was taken (any thread)."""
        with self.lock:
            if self.game.is_over():
                log.warning("remote: %s; not followed: this game is over here", words)
                return False
            old, before = list(self.game.board.move_stack), self.game.board.fen()
            board = Board(self.game.start_fen)
            try:
                for text in moves or ():
                    board.push(board.parse_move(text))
            except ValueError as error:
                log.warning("remote: %s; not followed: %s", words, error)
                return False
            new = old if moves is None else board.move_stack
            ply = 1
            while ply <= min(len(new), len(old)) and new[ply - 1] == old[ply - 1]:
                ply += 1
            withdrawn = self.tracker.expected
            if new == old and withdrawn is None:
                return True  # nothing here to follow (the far move was executed meanwhile)
            try:
                with self._referee_action():
                    if new != old:
                        self._store_record_from(ply, new)
                        self.game = self._replay(self.game.start_fen, new)
                        self._replace_tracker()  # it cues the board back to the record
                        self._finish_if_over()
                    elif withdrawn is not None:
                        for event in self.tracker.expect(None, self.now()):
                            self._on_tracker_event(event)
                    if withdrawn is not None:  # not cued again after a restart
                        data = {"ply": len(old) + 1, "fen": before, "path": []}
                        self.store.add_event(self.game_id, "opponent-move", data)
                    self._clock_follows_the_record()
                    self.store.save_clock(self.game_id, self.clock.to_dict())
                    self._audited("remote", "rewind", {"ply": ply, "words": words})
            except RefereeError as error:
                log.warning("remote: %s; not followed: %s", words, error)
                return False
            log.info("game %d: %s: followed here", self.game_id, words)
            return True

    def _keep_remote_history(self, fields: dict[str, Any]) -> None:
        """Keep the rewind a remote game's record follows (docs/remote.md), for a restart."""
        with self.lock:
            try:
                self.store.add_event(self.game_id, "remote-rewind", fields)
            except StorageError as error:
                log.warning("remote: the rewind count was not kept: %s", error)

    def _kept_remote_history(self) -> dict[str, Any] | None:
        """The rewind a remote game's record followed when it was last kept."""
        kept = [
            data for _, kind, data in self.store.events(self.game_id) if kind == "remote-rewind"
        ]
        return kept[-1] if kept else None

    # -- hints -----------------------------------------------------------------------------------

    def _position_key(self) -> tuple[Any, ...]:
        return (self.game_id, tuple(self.game.board.move_stack))

    def _double_press(self, press: LeverPress) -> bool:
        """Whether ``press`` is the second of two quick presses of the same lever by the side to
        move (with the clock switched on moves, the lever is free for this)."""
        before = self._lever_pressed.get(press.side)
        self._lever_pressed[press.side] = press.t
        double = before is not None and press.t - before <= DOUBLE_PRESS_SECONDS
        if double:
            del self._lever_pressed[press.side]
        return double and press.side is self.game.board.turn

    @property
    def hints_allowed(self) -> bool:
        """Hints are given in casual play and against the computer, never in a tournament
        game between two people."""
        engine = self.opponent is not None and self.opponent.kind == "engine"
        return engine or self.config.rules.profile == "casual"

    def request_hint(self, actor: str) -> None:
        """Look for a good move for the side to move and light it on the board (hint cues)
        once found; ``RefereeError`` says why no hint can be given now."""
        with self.lock:
            refused = self._ask_hint(actor)
            if refused is not None:
                raise RefereeError(refused)
            self._announce()

    def _ask_hint(self, actor: str) -> str | None:
        """Start the hint search; returns why not, if it cannot be given."""
        if self.game.is_over():
            return f"the game is over ({self.game.result})"
        if not self.hints_allowed:
            return (
                "hints are for casual play and games against the computer, not for a "
                f"{self.config.rules.profile} game between two players"
            )
        if not self.tracker.started:
            return "set up the position first"
        if self.opponent is not None and self.game.board.turn is self.opponent.side:
            return "it is the opponent's move"
        if self.tracker.hint is not None or self._hint_for == self._position_key():
            return None  # shown or being sought already
        if self._hinter is None:
            self._hinter = Thinker("hint")
        self._hint_serial += 1
        self._hint_for = self._position_key()
        log.info("game %d: %s asks for a hint", self.game_id, actor)
        game = copy.deepcopy(self.game)
        self._hinter.think(self._hint_serial, self.game_id, game, HINT_LEVEL, self._hint_found)
        return None

    def _hint_found(self, serial: int, move: Move) -> None:
        """The hint search's answer: lit on the board if the position is still the same."""
        with self.lock:
            if serial != self._hint_serial or self._hint_for != self._position_key():
                return
            self._hint_for = None
            data = {
                "ply": len(self.game.board.move_stack) + 1,
                "move": self.game.board.notation(move),
            }
            try:
                with self._stored_together():
                    self.store.add_event(self.game_id, "hint", data)
                    for event in self.tracker.show_hint(move, self.now()):
                        self._on_tracker_event(event)
            except StorageError as error:
                self._not_stored(error)
            self._announce()

    def _hint_json(self) -> dict[str, Any] | None:
        hint = self.tracker.hint
        if hint is not None:
            return {"status": "shown", "move": self.game.board.notation(hint)}
        if self._hint_for is not None and self._hint_for == self._position_key():
            return {"status": "thinking", "move": None}
        return None

    def _opponent_json(self) -> dict[str, Any] | None:
        opponent = self.opponent
        if opponent is None:
            return None
        expected = self.tracker.expected
        if self.game.is_over():
            status, text = "idle", ""
        elif expected is not None:
            status, text = "execute", f"plays {self.game.board.notation(expected)}"
        elif not self.tracker.started:
            status, text = "setup", "set up the position on the board"
        elif self._opponent_to_move():
            status, text = "thinking", opponent.waiting_text
        else:
            status, text = "waiting", f"waiting for {opponent.side.opponent.value.capitalize()}"
        move = None if expected is None else self.game.board.notation(expected)
        return {**opponent.describe(), "status": status, "text": text, "move": move}

    # -- the referee ---------------------------------------------------------------------------
    # Every action is checked, applied and written to the audit log in one transaction, then
    # announced. Bad input raises RefereeError (a ValueError) whose message says what was wrong.

    @contextmanager
    def _referee_action(self) -> Iterator[None]:
        """One referee action: checked, applied and stored in one transaction, then announced;
        if the store refuses it nothing of it remains and the referee is told why."""
        with self.lock:
            try:
                with self._stored_together():
                    yield
            except StorageError as error:
                raise RefereeError(f"not done, as it could not be stored: {error}") from None
            self._announce()
            self._follow_up()

    def _audited(self, actor: str, action: str, data: dict[str, Any]) -> None:
        self.store.audit(self.game_id, actor, action, data)

    def pause_clock(self, actor: str) -> None:
        """Stop both clocks (the referee's pause)."""
        with self._referee_action(), _clock_errors():
            self.clock.pause()
            self.store.save_clock(self.game_id, self.clock.to_dict())
            self._audited(actor, "pause", {})
            self._clock_actions += 1

    def resume_clock(self, actor: str) -> None:
        """Restart the clock of the side to move."""
        with self._referee_action(), _clock_errors():
            self.clock.resume()
            self.store.save_clock(self.game_id, self.clock.to_dict())
            self._audited(actor, "resume", {})
            self._clock_actions += 1

    def adjust_clock(self, actor: str, side: Color, seconds: float) -> None:
        """Add time to a side's clock (negative: take time)."""
        with self._referee_action(), _clock_errors():
            if not -36_000 <= seconds <= 36_000:
                raise RefereeError(f"adjust by {seconds} s: expected at most 10 hours either way")
            self.clock.adjust(side, seconds)
            self.store.save_clock(self.game_id, self.clock.to_dict())
            ply = len(self.game.board.move_stack)
            self._audited(actor, "adjust", {"side": side.value, "seconds": seconds, "ply": ply})
            self._clock_actions += 1

    def correct_move(self, actor: str, ply: int, text: str) -> None:
        """Replace recorded move ``ply`` (1-based) with ``text``, re-validated; later moves are
        kept while they stay legal, the rest dropped. The board is then cued to match."""
        with self._referee_action():
            moves = self.game.board.move_stack
            if not 1 <= ply <= len(moves):
                raise RefereeError(f"ply {ply}: the game has moves 1 to {len(moves)}")
            game = Game(self.game.start_fen, profile=self.game.profile)
            for move in moves[: ply - 1]:
                game.push(move)
            try:
                replacement = game.board.parse_move(text)
            except ValueError as error:
                raise RefereeError(f"ply {ply}: {error}") from None
            kept = [game.push(replacement)]
            for move in moves[ply:]:
                if game.is_over() or move not in game.board.generate_legal_moves():
                    break
                kept.append(game.push(move))
            self._store_record_from(ply, game.board.move_stack)
            dropped = len(moves) - (ply - 1) - len(kept)
            self.game = self._replay(self.game.start_fen, game.board.move_stack)
            self._replace_tracker()
            self._finish_if_over()
            self._clock_follows_the_record()
            self.store.save_clock(self.game_id, self.clock.to_dict())
            self._audited(actor, "correct", {"ply": ply, "move": text, "dropped": dropped})

    def _store_record_from(self, ply: int, moves: Sequence[Move]) -> None:
        """Store ``moves`` (the whole record) in place of the stored moves from ``ply`` on; each
        keeps the clock times stored at its ply, if any."""
        times = {m.ply: (m.clock_black, m.clock_white) for m in self.store.game(self.game_id).moves}
        self.store.delete_moves_from(self.game_id, ply)
        board = Board(self.game.start_fen)
        for number, move in enumerate(moves, start=1):
            if number >= ply:
                black, white = times.get(number, (None, None))
                clock = None if black is None or white is None else (black, white)
                self.store.add_move(self.game_id, number, move, board.notation(move), clock)
            board.push(move)

    def _clock_follows_the_record(self) -> None:
        """After a takeback, a correction or voided moves the turn on the clock is the record's:
        time used since is charged to whoever had it, with no bonus and no move counted (so a
        computer whose answer was dropped thinks again on its own time, not the player's). The
        caller saves the clock."""
        turn = self.game.board.turn
        if self.game.is_over() or self.clock.to_move in (None, turn):
            return
        with _clock_errors():
            self.clock.hand_over(turn, one_capture=self._only_capture())
        self._clock_actions += 1

    def set_position(self, actor: str, fen: str) -> None:
        """Start a new game from a position (a problem, an adjourned game); the board is cued."""
        with self._referee_action():
            self._refuse_in_remote_game("a new position")
            try:
                start = Board(fen).fen()
            except ValueError as error:
                raise RefereeError(str(error)) from None
            if not self.game.is_over():
                self.store.set_result(self.game_id, "*", "unfinished: a new position was set up")
            elif self.game_number < self.match_games:
                self.game_number += 1  # the set-up game is the match's next one
            else:
                self.game_number, self.match_games = 1, 2
            self.details, self.pending = {**self.details, **self.pending}, {}
            self._new_game(start)
            self._audited(actor, "setup", {"fen": start})

    def invoke_count(self, actor: str, side: Color) -> None:
        """The weaker side calls the stronger-side count (R-DRW-4)."""
        with self._referee_action():
            try:
                self.game.invoke_count(side)
            except ValueError as error:
                raise RefereeError(str(error)) from None
            ply = len(self.game.board.move_stack)
            self.store.add_event(self.game_id, "count", {"side": side.value, "ply": ply})
            self._audited(actor, "count", {"side": side.value})

    def penalty(self, actor: str, side: Color, rule: str, severity: str, note: str = "") -> None:
        """Record a caution (a comment at the move in the PDN), or a forfeit for repeated
        breaches that ends the game (R-TCH-2, R-ILL-1, R-END-3)."""
        with self._referee_action():
            if severity not in ("caution", "forfeit"):
                raise RefereeError(f"severity must be caution or forfeit, got {severity!r}")
            if not rule.startswith("R-"):
                raise RefereeError(f"rule must be a RULES.md ID such as R-TCH-2, got {rule!r}")
            data = {
                "side": side.value,
                "rule": rule,
                "severity": severity,
                "note": note,
                "ply": len(self.game.board.move_stack),
            }
            if severity == "forfeit":
                self._require_running()
            self.store.add_event(self.game_id, "penalty", data)
            if severity == "forfeit":
                self._end(records.forfeit(side, rule, note))
            self._audited(actor, "penalty", data)

    def end_game(self, actor: str, how: str, side: Color | None = None, reason: str = "") -> None:
        """End the game as it happened: ``resign`` (``side`` resigns), ``agree-draw``
        (R-END-2), ``referee-win`` (``side`` is awarded the game for ``reason``) or
        ``referee-draw`` (R-END-2: neither side can force a win)."""
        with self._referee_action():
            self._require_running()
            reason = " ".join(reason.split())
            if how not in ENDINGS:
                raise RefereeError(f"how must be one of {', '.join(ENDINGS)}, got {how!r}")
            if how in ("resign", "referee-win") and side is None:
                raise RefereeError(f"{how} needs the side: black or white")
            if how == "referee-win" and not reason:
                raise RefereeError("a referee's decision needs its reason in words")
            if how == "resign" and side is not None:
                self._end(records.resignation(side))
            elif how == "referee-win" and side is not None:
                self._end(records.referee_win(side, reason))
            elif how == "agree-draw":
                self.game.agree_draw()
                self._finish_if_over("agreement")
            else:
                self.game.declare_draw(reason or "neither side can force a win")
                self._finish_if_over("referee")
            data = {"how": how, "side": None if side is None else side.value, "reason": reason}
            self._audited(actor, "result", data)

    def declare_result(self, actor: str, result: str, reason: str) -> None:
        """End the game with a PDN result (``1/2-1/2`` or a win by
        :data:`engine.game.BLACK_WINS` / :data:`engine.game.WHITE_WINS`) as the referee's
        decision; :meth:`end_game` says more precisely how it ended."""
        if result == "1/2-1/2":
            self.end_game(actor, "referee-draw", reason=reason)
        elif result in (BLACK_WINS, WHITE_WINS):
            winner = Color.BLACK if result == BLACK_WINS else Color.WHITE
            self.end_game(actor, "referee-win", winner, reason or "declared by the referee")
        else:
            raise RefereeError(f"result must be 1-0, 0-1 or 1/2-1/2, got {result!r}")

    def void_moves(self, actor: str, count: int = 1) -> None:
        """Strike the last ``count`` moves from the record (misrecorded), audited; the board is
        cued back to the position before them and the turn goes back with them. A result the
        board decided (R-END-1, a count) is undone with its move; other results stand."""
        with self._referee_action():
            moves = self.game.board.move_stack
            if not 1 <= count <= len(moves):
                raise RefereeError(f"void {count} moves: the game has {len(moves)} moves")
            outcome = self.game.outcome()
            on_the_board = outcome is None or outcome.rule in ("R-END-1", *DRAW_COUNT_RULES)
            if outcome is not None and not on_the_board:
                raise RefereeError(f"the game is over ({outcome.reason}): its result stands")
            first = len(moves) - count + 1
            voided = [m.notation for m in self.store.game(self.game_id).moves if m.ply >= first]
            self.store.delete_moves_from(self.game_id, first)
            kept = moves[: first - 1]
            self.game = self._replay(self.game.start_fen, kept)
            if outcome is not None:
                if self.clock.state is ClockState.STOPPED:
                    # The result stopped the clock: it waits, paused, for the referee's resume.
                    snapshot = self.clock.to_dict()
                    turn = self.game.board.turn.value
                    snapshot.update(to_move=turn, paused=True, move_used=0.0)
                    self.clock = Clock.from_dict(snapshot, self.now)
                self.store.reopen(self.game_id)
                self.headers = {k: v for k, v in self.headers.items() if k != "Termination"}
                self.store.set_headers(self.game_id, self.headers)
            else:
                self._clock_follows_the_record()
            self.store.save_clock(self.game_id, self.clock.to_dict())
            self._replace_tracker()
            self._score_match()
            self._audited(actor, "void", {"ply": first, "moves": voided})

    def set_details(self, actor: str, changes: dict[str, str]) -> None:
        """Set players, event, site, round or time control (:data:`DETAIL_FIELDS`): for the
        current game while it has no move and its clock has not started, and for the games
        after it; once play has begun, for the next game only (as its colours will be)."""
        with self._referee_action():
            cleaned = {}
            for key, value in changes.items():
                if key not in DETAIL_FIELDS:
                    raise RefereeError(f"{key!r}: expected one of {', '.join(DETAIL_FIELDS)}")
                text = " ".join(str(value).split())
                if not text or len(text) > 100:
                    raise RefereeError(f"{key}: expected 1 to 100 characters, got {text!r}")
                if '"' in text and key != "time_control":
                    text = text.replace('"', "'")
                cleaned[key] = text
            if "time_control" in cleaned:
                try:
                    cleaned["time_control"] = str(TimeControl.from_string(cleaned["time_control"]))
                except ValueError as error:
                    raise RefereeError(str(error)) from None
            current = not self.game.board.move_stack and self.clock.state is ClockState.READY
            if current and not self.game.is_over():
                self.details = {**self.details, **cleaned}
                control = self.details["time_control"]
                if "time_control" in cleaned and str(self.clock.control) != control:
                    self.clock = Clock(TimeControl.from_string(control), self.now)
                    self.store.save_clock(self.game_id, self.clock.to_dict())
                headers = self._headers()
                self.headers = {**headers, "Date": self.headers.get("Date", headers["Date"])}
                self.store.set_headers(self.game_id, self.headers)
                self._score_match()
            else:
                self.pending = {**self.pending, **cleaned}
            where = "current" if current and not self.game.is_over() else "next"
            self._audited(actor, "details", {**cleaned, "game": where})

    def extend_match(self, actor: str, games: int = 2) -> None:
        """Give the match ``games`` more games (an even number, so colours stay even:
        R-TRN-2)."""
        with self._referee_action():
            if games < 2 or games % 2:
                raise RefereeError(f"extend by {games} games: expected an even number, 2 or more")
            self.match_games += games
            self.headers = {**self.headers, "MatchGames": str(self.match_games)}
            self.store.set_headers(self.game_id, self.headers)
            self._score_match()
            self._audited(actor, "extend-match", {"games": self.match_games})

    def next_game(self, actor: str, new_match: bool = False) -> None:
        """Start the next game of the match: the players change colours (R-TRN-2) and a match
        clock carries on (R-TIM-4); details set for the next game apply. After the match's
        last game only ``new_match`` (game 1 of a new match, fresh clock) goes on."""
        with self._referee_action():
            self._refuse_in_remote_game("the next game")
            if not self.game.is_over():
                raise RefereeError("the current game has no result yet: declare one first")
            if not new_match and self.game_number >= self.match_games:
                raise RefereeError(
                    f"the match is over after its {self.match_games} games: extend it, "
                    "or start a new match"
                )
            details = dict(self.details)
            if not new_match and self.opponent is None:
                # An opponent off the board keeps its side ([opponent] side): no swap.
                details["black"], details["white"] = details["white"], details["black"]
            details.update(self.pending)
            same_clock = details["time_control"] == self.details["time_control"]
            clock: Clock | None = None
            if not new_match and same_clock and self.clock.state is not ClockState.READY:
                # Each player keeps their own match time, on the colour they now play.
                self.clock.new_game(swap_sides=self.opponent is None)
                clock = self.clock
            if new_match:
                self.game_number, self.match_games = 1, 2
            else:
                self.game_number += 1
            self.details, self.pending = details, {}
            self._new_game(self.config.rules.fen or Board().fen(), clock)
            self._audited(
                actor, "new-match" if new_match else "next-game", {"game_id": self.game_id}
            )

    def _refuse_in_remote_game(self, what: str) -> None:
        """One invite is one game (docs/remote.md): the link is bound to this game's start and
        the far board's record, so another game on it would diverge or fail."""
        if isinstance(self.opponent, RemoteOpponent):
            raise RefereeError(
                f"{what} cannot be started in a remote game: one invite is one game; give both "
                "boards a new invite (poolboard remote-invite) and restart them"
            )

    def _require_running(self) -> None:
        if self.game.is_over():
            raise RefereeError(f"the game is over already ({self.game.result})")

    # -- what spectators see -------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with the whole state after every change; returns an unsubscribe."""
        return self._listeners.add(listener)

    def _announce(self) -> None:
        self._listeners.notify(self.state())

    def state(self) -> dict[str, Any]:
        """Everything a screen shows, as JSON-ready data (GET /api/state); any thread."""
        with self.lock:
            return self._state()

    def _state(self) -> dict[str, Any]:
        board = self.game.board
        stack = board.move_stack
        replay = Board(self.game.start_fen)
        moves = []
        for move in stack:
            moves.append(replay.notation(move))
            replay.push(move)
        last = stack[-1] if stack else None
        outcome = self.game.outcome()
        tracker_state = self._tracker_state
        return {
            "game_id": self.game_id,
            "fen": board.fen(),
            "start_fen": self.game.start_fen,
            "turn": board.turn.value,
            "moves": moves,
            "last_move": None
            if last is None
            else {"from": last.from_square, "to": last.to_square, "path": list(last.path)},
            "clock": self._clock_json(),
            "cues": self.tracker.cues.to_json(),
            "result": None if outcome is None else outcome.result,
            "result_reason": None if outcome is None else outcome.reason,
            "result_text": None
            if outcome is None
            else records.ended_in_words(
                outcome.winner,
                outcome.reason,
                self.headers.get("White", "?"),
                self.headers.get("Black", "?"),
            ),
            "winner": None if outcome is None or outcome.winner is None else outcome.winner.value,
            "counts": [count.to_json() for count in self.game.counts()],
            "legal": []
            if outcome is not None
            else [
                {"from": m.from_square, "path": list(m.path)} for m in board.generate_legal_moves()
            ],
            "pieces": {side.value: board.pieces(side).bit_count() for side in Color},
            "state": None
            if tracker_state is None
            else {"name": tracker_state.state.name.lower(), "detail": tracker_state.detail},
            "violations": self._violations[-10:],
            "violation": self._violation,
            "faults": self._faults[-5:],
            "headers": self.headers,
            "details": self.details,
            "pending": self.pending,
            "match": self._match_cache,
            "link": None
            if self.link is None
            else {"connected": self.link.connected, "detail": self.link.detail},
            "storage": self.storage_error,
            "rules": self.config.rules.profile,
            "opponent": self._opponent_json(),
            "hint": self._hint_json(),
            "hints": self.hints_allowed,
        }

    def _clock_json(self) -> dict[str, Any]:
        clock = self.clock
        return {
            "black": round(clock.remaining(Color.BLACK), 3),
            "white": round(clock.remaining(Color.WHITE), 3),
            "running": None if clock.running is None else clock.running.value,
            "state": clock.state.value,
            "control": str(clock.control),
            "game": clock.game,
            "events": self._clock_events[-5:],
        }

    def close(self) -> None:
        """Stop the opponent; release the sensor, the displays, the log, the store and the data
        folder."""
        if self.opponent is not None:
            self.opponent.close()
        if self._hinter is not None:
            self._hinter.close()
        self.sensor.close()
        for display in self.displays:
            display.close()
        self.sensor_log.close()
        self.store.close()
        if self.folder_lock is not None:
            self.folder_lock.release()
