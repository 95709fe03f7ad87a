"""Words for the audience (poolboard/words.py): no rule codes, times as people say them."""

import re

import pytest

from engine.clock import TimeControl
from engine.color import Color
from poolboard import records, words


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
        "Bo (White) wins — Black ran out of time"
    )


@pytest.mark.parametrize(
    ("winner", "reason", "said"),
    [
        (Color.WHITE, "Black resigned", "Gana Bo (Blancas) — Negras abandonan"),
        (
            Color.BLACK,
            "White did not complete the move in time (R-TIM-1)",
            "Ganan las negras — Blancas no completaron la jugada a tiempo",
        ),
        (
            Color.BLACK,
            "White forfeits for repeated breaches of R-TCH-2 (R-END-3): touched 9 again",
            "Ganan las negras — Blancas pierden por infringir varias veces la regla de pieza "
            "tocada: touched 9 again",
        ),
        (
            None,
            "draw: 13 count: lone king has made 13 of 13 moves (R-DRW-2)",
            "Tablas — tablas: cuenta de 13: la dama solitaria ha hecho 13 de 13 jugadas",
        ),
        (
            None,
            "draw declared by the referee: neither side can force a win (R-END-2)",
            "Tablas — tablas declaradas por el árbitro: ningún bando puede forzar la victoria",
        ),
        (  # a remote game's result taken from the other board, which sent no reason
            Color.WHITE,
            "decided on the other board",
            "Gana Bo (Blancas) — decidido en el otro tablero",
        ),
    ],
)
def test_the_result_in_spanish_with_its_reason(
    winner: Color | None, reason: str, said: str
) -> None:
    """#36: the reason as stored (English) is said in Spanish, its parts found back by the
    templates that made it; a referee's own words stay as typed."""
    assert words.result(winner, reason, "Bo", "?", "es") == said
    assert words.result(winner, reason, "Bo", "?", "en") == words.result(winner, reason, "Bo", "?")


def test_every_reason_is_found_back_by_the_template_that_made_it() -> None:
    """Each template of records.REASONS, filled in, reads back as itself, so a result is never
    said in Spanish from the wrong sentence."""
    samples = {"side": "White", "rule": "R-TIM-3", "made": "5", "limit": "13"}
    for template in records.REASONS:
        names = re.findall(r"\{(\w+)\}", template.message)
        text = template.message.format(**{name: samples.get(name, "odd words") for name in names})
        found = records.reason_said(text)
        assert (found.message, str(found)) == (template.message, text)
