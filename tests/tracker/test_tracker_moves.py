"""Legal play, done the ways hands do it, is recorded exactly and raises nothing."""

import pytest

from engine.color import Color
from engine.cues import CueKind


def test_simple_move_recorded_once_debounced_with_no_settle_wait(hands) -> None:
    h = hands().lift(11).place(15).wait(1)
    assert h.notations() == ["11-15"]
    (move,) = h.of("move")
    placed_at = 0.4
    assert move.t == pytest.approx(placed_at + 0.040)  # debounce only: a man cannot go further
    assert h.rules() == []


def test_sensor_reporting_arrival_before_departure_is_not_an_error(hands) -> None:
    h = hands().place(15).lift(11, step=0.05).wait(1)
    assert h.notations() == ["11-15"]
    assert h.rules() == []
    assert all("restore-fill" not in c.values() for c in h.cues_seen())


def test_king_slide_waits_for_the_settle_window_then_records_the_end(hands) -> None:
    h = hands("B:W30:BK1").lift(1)
    for square in (6, 10, 15, 19):
        h.place(square, step=0.05).lift(square, step=0.05)
    h.place(24, step=0.05).wait(1)
    assert h.notations() == ["1-24"]
    (move,) = h.of("move")
    placed_at = 0.65
    # It waited for the settle window: from 24 the king could still slide on to 28.
    assert move.t == pytest.approx(placed_at + 0.040 + 0.300)
    assert h.of("correction") == [] and h.rules() == []


def test_slide_that_pauses_is_corrected_when_it_goes_on(hands) -> None:
    """Correction: a move recorded after a pause, then extended, is replaced (R-KNG-1)."""
    h = hands("B:W30:BK1").lift(1).place(10).wait(1.0).lift(10).place(19).wait(1)
    assert h.notations() == ["1-10"]
    (correction,) = h.of("correction")
    assert (correction.old_notation, correction.notation) == ("1-10", "1-19")
    assert h.tracker.board.move_stack[-1].path == (1, 19)
    assert h.rules() == []


def test_lever_confirms_a_slide_at_once(hands) -> None:
    h = hands("B:W30:BK1").lift(1).place(10).lever(Color.BLACK, step=0.06)
    assert h.notations() == ["1-10"]
    assert h.of("move")[0].t == pytest.approx(h.t)


@pytest.mark.parametrize("order", ["before", "during", "after"])
def test_capture_with_captured_pieces_off_before_during_or_after(hands, order) -> None:
    """R-CAP-4: captured pieces come off in any order; one move is recorded, no alarm."""
    h = hands("B:W18,27,5:B14")
    if order == "before":
        h.lift(27, 18).lift(14).place(32)
    elif order == "during":
        h.lift(14).place(23).lift(18).lift(23).lift(27).place(32)
    else:
        h.lift(14).place(23).lift(23).place(32).lift(18, 27)
    h.wait(3)
    assert h.notations() == ["14x32"]
    assert h.rules() == []


def test_remove_cue_while_the_capturer_stands_on_its_last_square(hands) -> None:
    h = hands("B:W18,27,5:B14").lift(14).place(32).wait(0.5)
    assert h.tracker.cues.squares == {18: CueKind.REMOVE, 27: CueKind.REMOVE}
    assert h.notations() == []
    h.lift(27).wait(0.5)
    assert h.tracker.cues.squares == {18: CueKind.REMOVE}
    h.lift(18).wait(0.5)
    assert h.notations() == ["14x32"]


def test_pause_mid_jump_guides_without_an_alarm(hands) -> None:
    """R-CAP-3: standing on an intermediate landing is guided at once, not an error."""
    h = hands("B:W18,27,5:B14").lift(14).place(23).wait(1.0)
    assert h.tracker.cues.squares.get(32) is CueKind.CONTINUE_JUMP
    assert h.rules() == []
    h.lift(23).place(32).lift(18, 27).wait(1)
    assert h.notations() == ["14x32"] and h.rules() == []


def test_crowning_lift_by_the_opponent_is_not_a_touch(hands) -> None:
    """R-PRO-1: the new king is cued until crowned; lifting it to crown is allowed."""
    h = hands("B:W21,18:B26").move(26, 31).wait(0.5)
    assert h.notations() == ["26-31"]
    assert h.tracker.cues.squares[31] is CueKind.CROWN
    h.lift(31).wait(0.5).place(31).wait(0.5)
    assert CueKind.CROWN not in h.tracker.cues.squares.values()
    h.move(21, 17).wait(1)
    assert h.notations() == ["26-31", "21-17"]
    assert h.rules() == []


def test_opponent_starting_during_the_settle_window_records_both_moves(hands) -> None:
    h = hands("B:W30:BK1").lift(1).place(10)
    h.lift(30, step=0.1).place(26, step=0.2).wait(1)
    assert h.notations() == ["1-10", "30-26"]
    assert h.rules() == []


def test_set_up_cues_until_the_position_stands(hands) -> None:
    from engine.board import Board
    from engine.sensing import Snapshot
    from engine.tracker import Tracker

    tracker = Tracker(Board("B:W30:B1"))
    events = tracker.feed(Snapshot(0.0, frozenset({1, 5})))
    events += tracker.advance(0.5)
    assert not tracker.started
    assert tracker.cues.squares == {30: CueKind.RESTORE_FILL, 5: CueKind.RESTORE_CLEAR}
    events += tracker.feed(Snapshot(1.0, frozenset({1, 30})))
    events += tracker.advance(1.5)
    assert tracker.started
    assert [e.kind for e in events].count("start") == 1


def test_casual_takeback_by_restoring_the_previous_position(hands) -> None:
    h = hands(takeback=True).move(11, 15).wait(1).lift(15).place(11).wait(1)
    assert [e.notation for e in h.of("takeback")] == ["11-15"]
    assert h.tracker.board.move_stack == []
    h.move(9, 13).wait(1)
    assert h.notations() == ["11-15", "9-13"]
    assert h.rules() == []


def test_no_takeback_in_tournament_profiles(hands) -> None:
    h = hands(takeback=False).move(11, 15).wait(1).lift(15).place(11).wait(1)
    assert h.of("takeback") == []
    assert len(h.tracker.board.move_stack) == 1
    assert h.tracker.cues.squares == {11: CueKind.RESTORE_CLEAR, 15: CueKind.RESTORE_FILL}


def test_a_recorded_move_is_confirmed_then_shows_as_the_last_move(hands) -> None:
    h = hands().lift(11).place(15).wait(0.1)
    assert h.tracker.cues.squares == {11: CueKind.MOVE_FROM, 15: CueKind.CONFIRM}
    h.wait(1.0)
    assert h.tracker.cues.squares == {11: CueKind.MOVE_FROM, 15: CueKind.MOVE_TO}


def test_resuming_accepts_a_move_made_while_the_service_was_down() -> None:
    from engine.board import Board
    from engine.sensing import Snapshot
    from engine.tracker import Tracker

    after = (Board().occupied_squares() - {11}) | {15}
    resumed = Tracker(Board(), resuming=True)
    events = resumed.feed(Snapshot(0.0, after)) + resumed.advance(1.0)
    assert [e.notation for e in events if e.kind == "move"] == ["11-15"]
    fresh = Tracker(Board())  # a new game's set-up never records a move
    events = fresh.feed(Snapshot(0.0, after)) + fresh.advance(1.0)
    assert not fresh.started and [e for e in events if e.kind == "move"] == []
