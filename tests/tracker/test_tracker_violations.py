"""Each violation kind is raised when, and only when, a player breaks the rule."""

from engine.color import Color
from engine.cues import CueKind
from engine.events import Severity
from engine.sensing import Snapshot


def test_r_cap_1_missed_capture_is_not_recorded_and_play_goes_on(hands) -> None:
    h = hands("B:W18,30:B14,1").move(1, 5).wait(1)
    assert h.notations() == []
    (violation,) = h.of("violation")
    assert violation.rule == "R-CAP-1"
    assert 14 in violation.squares and "capture is compulsory" in violation.message
    assert h.tracker.cues.squares == {
        14: CueKind.MUST_CAPTURE,
        1: CueKind.RESTORE_FILL,
        5: CueKind.ERROR,
    }
    h.lift(5).place(1).wait(1)
    assert h.tracker.cues.squares == {}
    h.move(14, 23, 18).wait(1)
    assert h.notations() == ["14x23"]
    assert h.rules() == ["R-CAP-1"]


def test_r_cap_3_standing_mid_capture_becomes_a_violation_after_the_timeout(hands) -> None:
    h = hands("B:W18,27,5:B14").lift(14).place(23).lift(18).wait(1.5)
    assert h.rules() == []  # a pause is guided, not an error
    h.wait(1.0)
    assert h.rules() == ["R-CAP-3"]
    assert h.notations() == []


def test_r_cap_3_lever_press_mid_capture_is_a_violation_at_once(hands) -> None:
    h = hands("B:W18,27,5:B14").lift(14).place(23).lift(18).lever(Color.BLACK, step=0.1)
    assert h.rules() == ["R-CAP-3"]
    assert h.of("violation")[0].t == h.t


def test_r_ill_1_illegal_move_cues_the_way_back(hands) -> None:
    h = hands("B:W30:B14").move(14, 10).wait(1)
    assert h.notations() == []
    (violation,) = h.of("violation")
    assert violation.rule == "R-ILL-1" and violation.severity is Severity.VIOLATION
    assert violation.squares == {10, 14}
    assert h.tracker.cues.squares == {10: CueKind.ERROR, 14: CueKind.RESTORE_FILL}
    h.lift(10).wait(1)
    assert h.tracker.cues.squares == {}  # piece in hand: every legal move is open again
    h.place(14).wait(1)
    assert h.tracker.cues.squares == {14: CueKind.TOUCH_MOVE}  # touched: it must be moved
    h.move(14, 18).wait(1)
    assert h.notations() == ["14-18"]


def test_r_ill_1_repeated_illegal_moves_flag_a_forfeit(hands) -> None:
    h = hands("B:W30:B14")
    for _ in range(3):
        h.move(14, 10).wait(1).lift(10).place(14).wait(1)
    severities = [v.severity for v in h.of("violation")]
    assert severities == [Severity.VIOLATION, Severity.VIOLATION, Severity.FORFEIT]
    assert h.of("violation")[-1].referee


def test_r_tch_1_touched_piece_put_back_then_another_moved(hands) -> None:
    h = hands(referee_flags=True).lift(11).place(11).wait(0.5)
    assert h.tracker.cues.squares == {11: CueKind.TOUCH_MOVE}
    h.move(9, 13).wait(1)
    assert h.notations() == ["9-13"]  # the move is recorded
    (violation,) = h.of("violation")
    assert violation.rule == "R-TCH-1" and violation.referee
    assert violation.squares == {9, 11}


def test_r_tch_1_casual_is_not_flagged_for_a_referee(hands) -> None:
    h = hands(referee_flags=False).lift(11).place(11).move(9, 13).wait(1)
    (violation,) = h.of("violation")
    assert violation.rule == "R-TCH-1" and not violation.referee


def test_r_tch_1_moving_the_touched_piece_is_fine(hands) -> None:
    h = hands().lift(11).place(11).move(11, 16).wait(1)
    assert h.notations() == ["11-16"] and h.rules() == []


def test_r_tch_2_unplayable_piece_caution_then_forfeit(hands) -> None:
    h = hands().lift(1).place(1).wait(0.5)
    assert [(v.rule, v.severity) for v in h.of("violation")] == [("R-TCH-2", Severity.CAUTION)]
    h.lift(2).place(2).wait(0.5)
    assert [v.severity for v in h.of("violation")] == [Severity.CAUTION, Severity.FORFEIT]


def test_r_tch_3_adjust_notice_makes_the_next_lift_an_adjustment(hands) -> None:
    h = hands().adjust(Color.BLACK).lift(11).place(11).wait(0.5).move(9, 13).wait(1)
    assert h.notations() == ["9-13"] and h.rules() == []


def test_debounce_a_blip_shorter_than_40_ms_is_noise(hands) -> None:
    h = hands().lift(11).place(11, step=0.02).wait(1)
    assert h.of("state")[-1].detail == "Black to move"
    assert h.tracker.board.move_stack == [] and h.rules() == []
    assert [e for e in h.events if e.t > 0.1 and e.kind in {"move", "violation", "cues"}] == []


def test_flickering_square_is_a_sensor_fault_never_a_move(hands) -> None:
    h = hands()
    for i in range(80):  # square 13 chatters at 25 Hz
        h.t += 0.02
        occupied = h.occupied | {13} if i % 2 == 0 else h.occupied
        h.events += h.tracker.feed(Snapshot(h.t, frozenset(occupied)))
    h.wait(1)
    faults = h.of("fault")
    assert faults and faults[0].squares == {13} and "flickers" in faults[0].message
    assert h.tracker.board.move_stack == [] and h.rules() == []
    assert h.tracker.cues.squares.get(13) is CueKind.ERROR
    h.move(9, 14).wait(1)  # play goes on around the faulty square
    assert h.notations() == ["9-14"]
    h.wait(6)
    assert "quiet again" in h.of("fault")[-1].message


def test_stuck_square_is_suspected_and_nothing_recorded(hands) -> None:
    # 11 moves to 15 but square 11 keeps reading occupied (a reed switch stuck closed).
    h = hands().place(15).wait(6)
    assert h.notations() == []
    (fault,) = h.of("fault")
    assert fault.squares == {11}
    assert "may be stuck" in fault.message
