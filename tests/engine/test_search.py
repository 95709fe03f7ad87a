"""The search plays only legal moves, finds forced wins, stops on time and respects the counts."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.game import Game
from engine.search import Limits, Root, Searcher, mate_in


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=40))
def test_never_an_illegal_move(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = Board()
    for _ in range(plies):
        moves = board.generate_legal_moves()
        if not moves:
            return
        board.push(rng.choice(moves))
    legal = board.generate_legal_moves()
    result = Searcher().search(Root.from_board(board), Limits(depth=3, nodes=3000))
    assert (result.best is None) == (not legal)
    if result.best is not None:
        assert result.best in legal


def test_captures_are_compulsory_in_the_answer() -> None:
    # R-CAP-1: Black's man on 14 must take the man on 18.
    result = Searcher().search(Root.from_board(Board("B:W18,30:B14,1")), Limits(depth=4))
    assert result.best is not None and result.best.path == (14, 23)


def test_finds_a_forced_win_against_a_lone_man() -> None:
    # Two Black kings against one White man on 21 that cannot escape: a forced win.
    result = Searcher().search(Root.from_board(Board("B:W21:BK6,K15")), Limits(depth=12))
    won = mate_in(result.score)
    assert won is not None and won > 0


def test_a_movetime_search_ends_with_a_move() -> None:
    # How closely the time is kept is measured by bench/search_speed.py (docs/benchmarks.md).
    result = Searcher().search(Root.from_board(Board()), Limits(movetime=0.3))
    assert result.depth >= 1 and result.best is not None


def test_a_running_13_count_scores_a_draw_when_it_runs_out() -> None:
    # R-DRW-2: three kings v one with the lone king's 13 moves nearly used up: no win in reach.
    game = Game("W:WK1,K2,K3:BK32", profile="apca")
    root = Root.from_game(game)
    assert root.count_plies is not None and root.count_plies == 26
    root.count_plies = 1
    result = Searcher().search(root, Limits(depth=6))
    assert result.score == 0
