"""Kings against a lone king from the solved table (engine/endgame.py): the wins search alone
misses within the counts (R-DRW-2 13 count, R-DRW-3 long line), for either colour."""

from __future__ import annotations

import pytest

from engine.board import Board
from engine.endgame import KingsEnding
from engine.game import Game
from engine.search import Limits, Root, Searcher, mate_in


@pytest.fixture
def table(kings_ending: KingsEnding) -> KingsEnding:
    return kings_ending  # some seconds to build: once per run (tests/conftest.py)


def play_out(game: Game, table: KingsEnding, plies: int = 40) -> None:
    """The strong side plays from the table, the lone king defends with a depth-4 search."""
    strong_side = game.board.turn
    strong, defender = Searcher(), Searcher()
    strong.endgame = table
    for _ in range(plies):
        if game.is_over():
            return
        side = strong if game.board.turn is strong_side else defender
        game.push(side.search(Root.from_game(game), Limits(depth=4)).best)


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        ("W:WK19,K22,K25:BK2", 5),  # depth 6 alone drew it (bench/kings_table.py)
        ("W:WK22,K29,K30:BK2", 11),  # 21 plies: far past any depth a move's time reaches
        ("B:BK1,K2,K3:WK31", None),  # Black the strong side: the table read turned round
    ],
)
def test_the_table_wins_within_the_13_count(table: KingsEnding, fen: str, moves) -> None:
    game = Game(fen, profile="apca")
    strong = game.board.turn
    known = table.winning_move(game.board)
    assert known is not None
    if moves is not None:
        assert known[1] == moves
    searcher = Searcher()
    searcher.endgame = table
    result = searcher.search(Root.from_game(game), Limits(depth=1))
    assert result.best == known[0] and mate_in(result.score) == known[1]
    play_out(game, table)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is strong and outcome.rule == "R-END-1"


def test_a_win_longer_than_the_count_leaves_is_not_claimed(table: KingsEnding) -> None:
    board = Board("W:WK22,K29,K30:BK2")
    assert table.winning_move(board, budget=11) is not None
    assert table.winning_move(board, budget=10) is None  # R-DRW-2: the count would draw first


def test_other_positions_are_left_to_the_search(table: KingsEnding) -> None:
    assert table.winning_move(Board()) is None  # men on the board
    assert table.winning_move(Board("B:WK19,K22,K25:BK2")) is None  # the lone king to move
    assert table.winning_move(Board("W:WK19,K22,K25:BK2,K3")) is None  # two against three
    assert table.winning_move(Board("W:WK19,K22,K25:BK2")) is not None
