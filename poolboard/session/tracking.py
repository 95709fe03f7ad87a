"""What the tracker's events do to the game: a move recorded, corrected or taken back, a
violation, a fault, new cues, the tracker's state (engine/events.py); each stored with the change
and told as a domain event (:mod:`poolboard.session.events`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.board import Board
from engine.clock import (
    ClockError,
    ClockEvent,
    ClockState,
    FlagFell,
    MoveTimeForfeit,
    event_to_dict,
)
from engine.color import Color
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
    ViolationMended,
)
from engine.sensing import PositionLearner
from poolboard import records
from poolboard.session.events import (
    ClockNoted,
    CuesShown,
    MovePlayed,
    RecordRewritten,
    ViolationShown,
)
from poolboard.session.inputs import RefereeError

if TYPE_CHECKING:
    from poolboard.session.core import Session
    from poolboard.session.state import Json

log = logging.getLogger("poolboard.session")


def apply(core: Session, event: TrackerEvent) -> None:
    """Apply one tracker event to ``core``'s game, store and pages."""
    game = core.game
    if isinstance(event, MoveRecorded | MoveCorrected | MoveTakenBack) and game.is_over():
        log.info(
            "game %d is over (%s): %s %s not recorded",
            core.game_id,
            game.result,
            event.kind,
            event.notation,
        )
        return
    match event:
        case GameStarted():
            core.violation = None
            teach_sensor(core)
            if core.clock.state is ClockState.READY and not game.is_over():
                core.clock.start(game.board.turn, one_capture=only_capture(core))
                core.save_clock()
                for clock_event in core.clock.poll():  # a match clock already run out
                    clock_said(core, clock_event)
        case MoveRecorded(move=move, notation=notation, side=side, ply=ply):
            core.violation = None
            game.push(move)
            if core.config.clock.switch_on == "move":
                switch_clock(core, side)
            clocks = clock_pair(core)
            core.store.add_move(core.game_id, ply, move, notation, clocks, core.clock.to_dict())
            log.info("game %d: move %d %s (%s)", core.game_id, ply, notation, side.value)
            black, white = (round(seconds, 3) for seconds in clocks)
            core.emit(MovePlayed(core.game_id, ply, notation, game.board.fen(), black, white))
            teach_sensor(core)
            core.finish_if_over()
        case MoveCorrected(move=move, notation=notation, ply=ply):
            core.violation = None
            before = notations(core)
            game.pop()
            game.push(move)
            clocks = clock_pair(core)
            core.store.add_move(core.game_id, ply, move, notation, clocks, core.clock.to_dict())
            core.store.add_event(core.game_id, "correction", event.to_json())
            log.info("game %d: move %d corrected to %s", core.game_id, ply, notation)
            record_rewritten(core, before)
            teach_sensor(core)
            core.finish_if_over()
        case MoveTakenBack(ply=ply):
            core.violation = None
            before = notations(core)
            game.pop()
            core.store.delete_moves_from(core.game_id, ply)
            clock_follows_the_record(core)  # the turn goes back to the side that moved
            core.save_clock()
            record_rewritten(core, before)
        case Violation():
            shown = {
                **event.to_json(),
                "said": event.said.to_json(),
                "ply": len(game.board.move_stack),
            }
            core.violations.append(shown)
            core.violation = shown
            core.store.add_event(core.game_id, "violation", shown)
            # A copy: the shown violation is marked when mended, while a subscriber on its own
            # thread (the voice) may not have read it yet.
            core.emit(ViolationShown(core.game_id, dict(shown)))
            log.warning(
                "game %d: %s %s: %s", core.game_id, event.rule, event.side.value, event.message
            )
        case ViolationMended():
            mended = _mended(core, event)
            if mended is not None:
                core.emit(ViolationShown(core.game_id, dict(mended)))
        case FaultReported():
            core.store.add_event(core.game_id, "fault", event.to_json())
            core.show_fault(event.to_json())
            log.warning("sensor fault: %s", event.message)
        case CuesChanged(cues=cues):
            core.emit(CuesShown(cues))
        case StateChanged():
            # A violation stands until the position is restored and play goes on (a caution,
            # given as the position is restored, until the next move).
            standing = core.violation
            if (
                standing is not None
                and standing.get("severity") != "caution"
                and event.state is TrackerState.TO_MOVE
            ):
                core.violation = None
            core.tracker_state = event


def _mended(core: Session, event: ViolationMended) -> Json | None:
    """Mark the violation ``event`` mends as mended, wherever it is shown and in the record
    (the PDN notes it at the violation's ply); ``None`` if no such violation is standing in
    this game (one raised before a restart)."""
    for shown in reversed(core.violations):
        if (shown.get("t"), shown.get("rule"), shown.get("side")) == (
            event.raised,
            event.rule,
            event.side.value,
        ):
            shown["mended"] = event.message
            core.store.add_event(core.game_id, "mended", {**event.to_json(), "ply": shown["ply"]})
            log.info("game %d: %s %s", core.game_id, event.rule, event.message)
            return shown
    return None


def only_capture(core: Session) -> bool:
    """Whether the side to move has exactly one capturing move (R-TIM-2)."""
    return len(core.game.board.generate_captures()) == 1


def clock_pair(core: Session) -> tuple[float, float]:
    """Both sides' time left (Black's first)."""
    return (core.clock.remaining(Color.BLACK), core.clock.remaining(Color.WHITE))


def switch_clock(core: Session, side: Color) -> bool:
    """``side`` finished a move on the clock, if it was theirs to make and time is running."""
    if core.clock.running is not side:
        return False
    try:
        return core.clock.move_made(side, one_capture=only_capture(core))
    except ClockError:
        return False


def clock_follows_the_record(core: Session) -> None:
    """After a takeback, a correction or voided moves the turn on the clock is the record's:
    time used since is charged to whoever had it, with no bonus and no move counted (so a
    computer whose answer was dropped thinks again on its own time, not the player's). The
    caller saves the clock."""
    turn = core.game.board.turn
    if core.game.is_over() or core.clock.to_move in (None, turn):
        return
    try:
        core.clock.hand_over(turn, one_capture=only_capture(core))
    except ClockError as error:
        raise RefereeError.passing_on(error) from None
    core.clock_actions += 1


def teach_sensor(core: Session) -> None:
    """Show a sensor that learns from recorded positions (the camera) the game's position
    once it is set up and after each move, so its colours follow the light and squares that
    have not changed keep their pieces (docs/vision.md)."""
    if isinstance(core.sensor, PositionLearner):
        board = core.game.board
        position = {
            square: piece.symbol
            for square in board.occupied_squares()
            if (piece := board.piece_at(square)) is not None
        }
        core.sensor.confirm(position)


def clock_said(core: Session, event: ClockEvent) -> None:
    """Show and store what the clock said; a fallen flag or a move-time forfeit ends the game."""
    data: Json = dict(event_to_dict(event))
    core.clock_events.append(data)
    core.store.add_event(core.game_id, "clock", data)
    core.emit(ClockNoted(core.game_id, data))
    if isinstance(event, FlagFell | MoveTimeForfeit) and not core.game.is_over():
        ending = records.on_time(event.side, event.rule, isinstance(event, MoveTimeForfeit))
        core.end(ending)


def notations(core: Session) -> list[str]:
    """The game's moves in PDN."""
    replay = Board(core.game.start_fen)
    moves = []
    for move in core.game.board.move_stack:
        moves.append(replay.notation(move))
        replay.push(move)
    return moves


def record_rewritten(core: Session, before: Sequence[str]) -> None:
    """Tell of the record's change from ``before`` (its moves in PDN) to what it is now: a
    correction or a takeback from the first move that differs, or moves added."""
    after = notations(core)
    common = 0
    while common < min(len(before), len(after)) and before[common] == after[common]:
        common += 1
    fen = core.game.board.fen()
    if common < len(before):
        core.emit(RecordRewritten(core.game_id, common + 1, tuple(after[common:]), fen))
        return
    black, white = (round(seconds, 3) for seconds in clock_pair(core))
    for ply in range(common + 1, len(after) + 1):
        core.emit(MovePlayed(core.game_id, ply, after[ply - 1], fen, black, white))
