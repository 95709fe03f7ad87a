"""A move chosen off the board (the computer's, a far board's) is cued square by square, and the
tracker records exactly it once the board shows it; anything else is cued back, naming it."""

import pytest

from engine.board import Board
from engine.color import Color
from engine.sensing import Snapshot
from engine.tracker import Tracker, TrackerConfig


def expect(h, notation: str) -> None:
    board = h.tracker.board.copy()
    h.events += h.tracker.expect(board.parse_move(notation), h.t)


def test_the_cues_follow_a_double_jump_done_in_steps_and_it_is_recorded(hands) -> None:
    h = hands("W:W27,30:B23,15,2")
    expect(h, "27x11")
    assert h.tracker.cues.to_json() == {
        "11": "play-to",
        "15": "remove",
        "18": "play-path",
        "23": "remove",
        "27": "play-from",
    }
    assert h.tracker.state is not None and "play 27x11" in h.tracker._state[1]
    h.lift(27).wait(0.1)  # in the hand: the start goes dark, the rest stays lit
    assert h.tracker.cues.to_json() == {
        "11": "play-to",
        "15": "remove",
        "18": "play-path",
        "23": "remove",
    }
    h.place(11).wait(0.1)
    assert h.tracker.cues.to_json() == {"15": "remove", "23": "remove"}
    h.lift(23).wait(1.0)
    assert h.notations() == [] and h.tracker.cues.to_json() == {"15": "remove"}
    h.lift(15).wait(1.0)
    assert h.notations() == ["27x11"]
    assert h.tracker.expected is None
    assert h.rules() == []


def test_another_legal_move_is_cued_back_naming_the_expected_move(hands) -> None:
    h = hands("W:W27,30:B24,20,2")
    expect(h, "30-26")
    h.move(27, 23).wait(1.0)
    assert h.notations() == []
    assert h.tracker._state is not None
    detail = h.tracker._state[1]
    assert detail.startswith("27-23 is not the move to make: restore the position")
    assert detail.endswith("then play 30-26")
    cues = h.tracker.cues.to_json()
    assert cues["23"] == "restore-clear" and cues["27"] == "restore-fill"
    assert cues["30"] == "play-from" and cues["26"] == "play-to"
    # The hand plays for the opponent: no rule is broken, nothing is reported.
    assert h.rules() == []
    h.lift(23).place(27).wait(1.0)
    assert h.notations() == [] and h.tracker.cues.to_json() == {"26": "play-to", "30": "play-from"}
    h.move(30, 26).wait(1.0)
    assert h.notations() == ["30-26"]
    assert h.rules() == []


def test_a_wrong_square_is_cued_back_and_nothing_is_recorded(hands) -> None:
    h = hands("W:W27,30:B24,20,2")
    expect(h, "30-26")
    h.move(30, 25).wait(1.0)
    cues = h.tracker.cues.to_json()
    assert cues["25"] == "restore-clear" and cues["30"] == "restore-fill"
    assert cues["26"] == "play-to"
    assert h.notations() == [] and h.rules() == []
    h.lift(25).place(26).wait(1.0)
    assert h.notations() == ["30-26"]


def test_expect_refuses_a_move_that_is_not_legal_and_none_goes_back_to_any_move(hands) -> None:
    h = hands()
    with pytest.raises(ValueError, match="not a legal move"):
        h.tracker.expect(Board("W:W22:B11").parse_move("22-18"), h.t)  # Black is to move
    expect(h, "11-15")
    h.events += h.tracker.expect(None, h.t)
    assert h.tracker.cues.to_json() == {}
    h.move(9, 13).wait(1.0)
    assert h.notations() == ["9-13"]


def test_a_hint_lights_until_the_next_move(hands) -> None:
    h = hands()
    h.events += h.tracker.show_hint(Board().parse_move("11-15"), h.t)
    assert h.tracker.cues.to_json() == {"11": "hint-from", "15": "hint-to"}
    h.move(9, 14).wait(1.0)
    assert h.notations() == ["9-14"]
    assert "hint-from" not in h.tracker.cues.to_json().values()
    assert h.tracker.hint is None


def test_casual_takeback_against_an_opponent_takes_back_its_reply_too(hands) -> None:
    h = hands(takeback=True)
    h.tracker = Tracker(Board(), TrackerConfig(takeback=True), opponent=Color.WHITE)
    h.events += h.tracker.feed(Snapshot(h.t, frozenset(h.occupied)))
    h.move(11, 15).wait(1.0)
    expect(h, "22-18")
    h.move(22, 18).wait(1.0)
    assert h.notations() == ["11-15", "22-18"]
    # The opponent's piece back first: "taking back?" waits for the player's own move too.
    h.lift(18).place(22).wait(1.0)
    assert [e.notation for e in h.of("takeback")] == []
    assert "put back your own move too" in h.tracker._state[1]
    h.lift(15).place(11).wait(1.0)
    assert [e.notation for e in h.of("takeback")] == ["22-18", "11-15"]
    assert h.tracker.board.move_stack == []
    assert h.tracker.board.turn is Color.BLACK


def test_a_king_slid_past_its_square_and_back_is_the_expected_move_with_no_violation(
    hands,
) -> None:
    h = hands("W:WK29:B3")
    expect(h, "29-22")
    h.lift(29).place(25, step=0.05).lift(25, step=0.05).place(22, step=0.05)
    h.lift(22, step=0.05).place(18, step=0.05)  # past it: not recorded on the way
    assert h.notations() == []
    h.lift(18, step=0.1).place(22, step=0.1).wait(1.0)
    assert h.notations() == ["29-22"]
    assert h.rules() == [] and h.of("correction") == []


def test_nothing_is_recorded_for_the_opponent_before_its_move_is_known(hands) -> None:
    h = hands()
    h.tracker = Tracker(Board(), TrackerConfig(), opponent=Color.WHITE)
    h.events += h.tracker.feed(Snapshot(h.t, frozenset(h.occupied)))
    h.move(11, 15).wait(1.0)
    h.lift(22).place(22).wait(1.0)  # a piece of the opponent's touched: no touch rule for it
    # The hand plays a legal move for the opponent while it still thinks: not its move.
    h.move(22, 18).wait(1.0)
    assert h.notations() == ["11-15"]
    assert h.tracker._state is not None
    assert h.tracker._state[1].endswith("then wait for White's move")
    cues = h.tracker.cues.to_json()
    assert cues["18"] == "restore-clear" and cues["22"] == "restore-fill"
    assert h.rules() == []  # no rule broken on the opponent's behalf
    h.lift(18).place(22).wait(1.0)
    expect(h, "22-17")
    h.move(22, 17).wait(1.0)
    assert h.notations() == ["11-15", "22-17"]
