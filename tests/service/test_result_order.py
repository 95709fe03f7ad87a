"""Results in checkers' order (PDN 2.0 §6.1.1.1.1.5) from a session on its real SQLite store:
``1-0`` when Black, the first mover, wins; ``0-1`` when White does; by the board or the referee."""

from __future__ import annotations

import io

import pytest

from engine.color import Color
from engine.pdn import read_game, write_game
from poolboard.config import RefereeConfig, RulesConfig


def test_a_win_on_the_board_is_stored_and_exported_in_checkers_order(make_table) -> None:
    table = make_table(rules=RulesConfig(fen="B:W18:B14"))
    table.set_up()
    table.move(14, 23, 18)  # White has no piece left: Black wins (R-END-1)
    assert table.session.game.outcome().winner is Color.BLACK
    text = write_game(table.session.store.game(table.session.game_id).record())
    assert '[Result "1-0"]' in text and text.endswith(" 1-0\n")
    assert read_game(io.StringIO(text)).result == "1-0"


@pytest.mark.parametrize(("result", "winner"), [("1-0", Color.BLACK), ("0-1", Color.WHITE)])
def test_a_result_the_referee_declares_names_the_winner_in_checkers_order(
    make_table, result: str, winner: Color
) -> None:
    table = make_table(referee=RefereeConfig(password="x"))
    table.set_up()
    table.move(11, 15)
    table.session.declare_result("ref", result, "resigned")
    assert table.session.game.outcome().winner is winner
    assert table.session.store.game(table.session.game_id).result == result
