"""Words for the audience (poolboard/words.py): no rule codes, times as people say them."""

import pytest

from engine.clock import TimeControl
from engine.color import Color
from poolboard import words


@pytest.mark.parametrize(
    ("control", "said"),
    [
        ("apca-match", "45 minutes a side for the whole match"),
        ("300", "5 minutes a side"),
        ("300+5", "5 minutes a side, 5 seconds added a move"),
        ("300d5", "5 minutes a side, 5 seconds delay a move"),
        ("5400", "1 hour 30 minutes a side"),
        ("40/7200:1800", "40 moves in 2 hours, then 30 minutes"),
        ("move:300", "5 minutes a move"),
    ],
)
def test_a_time_control_in_words(control: str, said: str) -> None:
    assert words.time_control(TimeControl.from_string(control)) == said


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("White has no pieces left (R-END-1)", "White has no pieces left"),
        ("R-ILL-1: 12-17 is not a legal move", "12-17 is not a legal move"),
        ("draw by agreement (R-END-2)", "draw by agreement"),
        (
            "Black forfeits for repeated breaches of R-TCH-2 (R-END-3): touched 9 again",
            "Black forfeits for repeated breaches of the touch rule: touched 9 again",
        ),
        ("per-move limit (R-TIM-1, R-TIM-2)", "per-move limit"),
    ],
)
def test_rule_codes_are_left_out(text: str, plain: str) -> None:
    assert words.without_rule_codes(text) == plain


def test_counts_and_the_result() -> None:
    assert [words.count(n, "piece") for n in (0, 1, 2)] == ["0 pieces", "1 piece", "2 pieces"]
    assert words.count(1, "ply", "plies") == "1 ply" and words.count(3, "ply", "plies") == "3 plies"
    assert words.result(None, "draw by agreement (R-END-2)", "Bo", "Ann") == (
        "Draw — draw by agreement"
    )
    assert words.result(Color.WHITE, "Black ran out of time (R-TIM-4)", "Bo", "?") == (
        "White (Bo) wins — Black ran out of time"
    )
