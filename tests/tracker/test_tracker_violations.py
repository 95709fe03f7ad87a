"""Each violation kind is raised when, and only when, a player breaks the rule."""

from engine.color import Color
from engine.cues import CueKind
from engine.events import Severity
from engine.sensing import Snapshot
from poolboard.words import said


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


def test_r_cap_3_thinking_on_a_landing_square_is_guided_never_charged(hands) -> None:
    """R-CAP-3, APCA 10 and 21: a jump is incomplete only once the turn has ended. Standing on
    a landing square, the captured man lifted, is thinking: a cue, then a reminder, no penalty."""
    h = hands("B:W18,27,5:B14").lift(14).place(23).lift(18).wait(5)
    assert h.tracker.cues.squares[32] is CueKind.CONTINUE_JUMP
    assert h.of("state")[-1].detail == "capture under way: jump on from 23 to 32"
    h.wait(6)  # past the reminder (10 s)
    assert h.tracker.cues.squares[32] is CueKind.JUMP_REMINDER
    assert h.of("state")[-1].detail == (
        "the capture is not finished: jump on from 23 to 32 (R-CAP-3)"
    )
    h.lift(23).place(32).lift(27).wait(1)
    assert h.notations() == ["14x32"]
    assert h.rules() == [] and h.of("mended") == []


def test_r_cap_3_a_flying_king_resting_between_landings_is_still_moving(hands) -> None:
    """R-KNG-2: a king capturing 1x19x26 set down on 6, short of the man it jumps, is on its
    way: no capture to continue from there, no reminder, nothing charged."""
    h = hands("B:W10,23:BK1").lift(1).place(6).wait(70)
    assert h.of("state")[-1].detail == "move in progress" and h.rules() == []
    h.lift(6).place(19).wait(3)
    assert h.of("state")[-1].detail == "capture under way: jump on from 19 to 26 or 30"
    h.lift(19).place(26).lift(10, 23).wait(1)
    assert h.notations() == ["1x26"] and h.rules() == []


def test_r_cap_3_standing_past_the_long_wait_ends_the_turn_then_mended(hands) -> None:
    h = hands("B:W18,27,5:B14").lift(14).place(23).lift(18).wait(59)
    assert h.rules() == []
    h.wait(2)
    (violation,) = h.of("violation")
    assert violation.rule == "R-CAP-3" and violation.severity is Severity.VIOLATION
    assert violation.message == (
        "incomplete jump (R-CAP-3): the capture stopped on 23 and it stood too long; "
        "finish it: jump on from 23 to 32"
    )
    h.lift(23).place(32).lift(27).wait(1)
    assert h.notations() == ["14x32"]
    (mended,) = h.of("mended")
    assert (mended.rule, mended.side, mended.raised) == ("R-CAP-3", Color.BLACK, violation.t)
    assert mended.message == "mended at once: 14x32 finished the capture"


def test_r_cap_3_abandoned_jump_lever_pressed_is_penalised_once(hands) -> None:
    """The lever pressed mid-jump ends the turn: one R-CAP-3, told at once, however the board
    goes on (the lever again, the piece moved about) until the capture is finished."""
    h = hands("B:W18,27,5:B14").lift(14).place(23).lift(18).lever(Color.BLACK)
    (violation,) = h.of("violation")
    assert violation.rule == "R-CAP-3" and violation.t == h.t
    assert violation.message == (
        "incomplete jump (R-CAP-3): the capture stopped on 23 and the clock was pressed; "
        "finish it: jump on from 23 to 32"
    )
    assert h.of("state")[-1].detail == (
        "incomplete jump (R-CAP-3): the capture stopped on 23: jump on from 23 to 32"
    )
    assert h.tracker.cues.squares[32] is CueKind.JUMP_REMINDER
    h.lever(Color.BLACK).lift(23).place(24).wait(1).lever(Color.BLACK)  # a wrong way on
    assert h.rules() == ["R-CAP-3"]
    h.lift(24).place(23).wait(1).lift(23).place(32).lift(27).wait(1)
    assert h.notations() == ["14x32"] and h.rules() == ["R-CAP-3"]
    assert [m.raised for m in h.of("mended")] == [violation.t]


def test_r_cap_3_the_other_side_moving_ends_the_turn(hands) -> None:
    h = hands("B:W18,27,5:B14").lift(14).place(23).lift(18).wait(3)
    assert h.rules() == []
    h.lift(5).wait(1)  # White starts a move while the capture stands open
    (violation,) = h.of("violation")
    assert violation.rule == "R-CAP-3" and violation.side is Color.BLACK
    assert violation.message.startswith(
        "incomplete jump (R-CAP-3): the capture stopped on 23 was not finished: restore the "
        "position: put a piece on 5, 14, 18; clear 23; then move the piece on 14 (R-TCH-1): 14x32"
    )


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


def test_r_ill_1_one_improper_move_is_corrected_continuing_flags_a_forfeit(hands) -> None:
    """APCA 10: a false move is pointed out and put right; the player who goes on making them
    forfeits at the referee's judgment. One move is one offence, whatever boards it passes."""
    h = hands("B:W30:B14").move(14, 10).wait(1).lift(10).place(9).wait(1)  # on to 9: same move
    h.lift(9).place(14).wait(1)
    assert [(v.severity, v.referee) for v in h.of("violation")] == [(Severity.VIOLATION, False)]
    h.move(14, 10).wait(1).lift(10).place(14).wait(1)
    assert [v.severity for v in h.of("violation")] == [Severity.VIOLATION, Severity.FORFEIT]
    assert h.of("violation")[-1].referee


def test_r_tch_1_touched_piece_put_back_then_another_moved(hands) -> None:
    h = hands(referee_flags=True).lift(11).place(11).wait(0.5)
    assert h.tracker.cues.squares == {11: CueKind.TOUCH_MOVE}
    h.move(9, 13).wait(1)
    assert h.notations() == ["9-13"]  # the move is recorded
    (violation,) = h.of("violation")
    assert violation.rule == "R-TCH-1" and violation.referee
    assert violation.squares == {9, 11}


def test_r_ill_1_the_message_says_what_was_played_and_what_to_do(hands) -> None:
    """Item 3: "10-17 is not a legal move", then how to restore, then the touched piece's
    moves (R-TCH-1)."""
    h = hands().lift(10).place(17).wait(1)
    (violation,) = h.of("violation")
    assert violation.message == (
        "10-17 is not a legal move (R-ILL-1): restore the position: put a piece on 10; "
        "clear 17; then move the piece on 10 (R-TCH-1): 10-14 or 10-15"
    )
    assert h.of("state")[-1].detail == violation.message
    h.lift(17).place(18).wait(1)  # on to 18: the same improper move, still told as one
    assert h.rules() == ["R-ILL-1"]
    assert h.of("state")[-1].detail == (
        "10-17 is not a legal move (R-ILL-1): restore the position: put a piece on 10; "
        "clear 18; then move the piece on 10 (R-TCH-1): 10-14 or 10-15"
    )


def test_r_ill_1_the_message_is_words_each_language_can_say(hands) -> None:
    """#36: the message is a phrase and the phrases it quotes, each an English key of the
    catalogues with its values (squares and moves as they are), so a page says it in Spanish."""
    h = hands().lift(10).place(17).wait(1)
    (violation,) = h.of("violation")
    said = violation.said.to_json()
    assert said["message"] == "{wrong}: {restore}{then}"
    wrong, restore, then = (said["values"][name] for name in ("wrong", "restore", "then"))
    assert wrong == {"message": "{move} is not a legal move (R-ILL-1)", "values": {"move": "10-17"}}
    assert restore["message"] == "restore the position: {parts}"
    assert restore["values"]["parts"] == {
        "message": "{first}; {then}",
        "values": {
            "first": {"message": "put a piece on {squares}", "values": {"squares": "10"}},
            "then": {"message": "clear {squares}", "values": {"squares": "17"}},
        },
    }
    assert then["values"] == {
        "square": 10,
        "moves": {"message": "{first} or {then}", "values": {"first": "10-14", "then": "10-15"}},
    }
    assert h.of("state")[-1].said == violation.said


def test_r_tch_1_a_refused_move_put_back_is_told_then_its_breach_too(hands) -> None:
    """Item 2: after a refused move is put back, the player is told at once that the piece
    must be moved (R-TCH-1); moving another is recorded for the referee and told at once."""
    h = hands().lift(10).place(17).wait(1).lift(17).place(10).wait(1)
    assert h.tracker.cues.squares == {10: CueKind.TOUCH_MOVE}
    assert h.of("state")[-1].detail == (
        "Black to move: the piece on 10 was lifted, so it is the one to move (R-TCH-1)"
    )
    h.move(9, 13).wait(0.5)
    assert h.notations() == ["9-13"]
    assert [v.rule for v in h.of("violation")] == ["R-ILL-1", "R-TCH-1"]
    touch = h.of("violation")[-1]
    assert touch.message == (
        "touch move (R-TCH-1): Black lifted the piece on 10, which could move, then played "
        "9-13; the touched piece must be moved, for the referee to judge"
    )
    assert h.of("state")[-1].detail == f"White to move — {touch.message}"
    assert h.tracker.cues.squares[10] is CueKind.ERROR
    assert [m.rule for m in h.of("mended")] == ["R-ILL-1"]  # the refused move, not touch move
    h.wait(5)  # told for the notice time, then the board is quiet again
    assert h.of("state")[-1].detail == "White to move"
    assert 10 not in h.tracker.cues.squares


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
    assert h.tracker.cues.squares == {1: CueKind.ERROR}  # told at once, on the board too
    assert h.of("state")[-1].detail == (
        "Black to move — touch move (R-TCH-2): Black touched the piece on 1, which cannot be "
        "played: a caution"
    )
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
    # Worded for any language: the Spanish says the square and the quiet time as they are.
    assert faults[0].said is not None and str(faults[0].said) == faults[0].message
    assert said(faults[0].said, "es") == (
        "la casilla 13 parpadea sin parar: fallo del sensor; no se tiene en cuenta hasta que "
        "lleve 5 s quieta"
    )
    assert h.tracker.board.move_stack == [] and h.rules() == []
    assert h.tracker.cues.squares.get(13) is CueKind.ERROR
    h.move(9, 14).wait(1)  # play goes on around the faulty square
    assert h.notations() == ["9-14"]
    h.wait(6)
    quiet = h.of("fault")[-1]
    assert quiet.message == "square 13 is quiet again"
    assert (
        quiet.said is not None and said(quiet.said, "es") == "la casilla 13 vuelve a estar quieta"
    )


def test_stuck_square_is_suspected_and_nothing_recorded(hands) -> None:
    # 11 moves to 15 but square 11 keeps reading occupied (a reed switch stuck closed).
    h = hands().place(15).wait(6)
    assert h.notations() == []
    (fault,) = h.of("fault")
    assert fault.squares == {11}
    assert "may be stuck" in fault.message
    assert fault.said is not None and said(fault.said, "es") == (
        "la casilla 11 se sigue leyendo ocupada: si su pieza está donde debe, el sensor de esa "
        "casilla puede estar atascado"
    )
