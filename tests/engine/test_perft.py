"""Perft against the published pool table: the move generator's end-to-end check (R-MAN, R-KNG,
R-CAP, R-PRO). Depth 8 is where pool parts from Russian draughts (R-PRO-2)."""

import subprocess
import sys

import pytest

from engine.board import Board
from engine.perft import POOL_PERFT, divide, perft


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_matches_published_pool_counts(depth: int) -> None:
    assert perft(Board(), depth) == POOL_PERFT[depth - 1]


@pytest.mark.slow
def test_perft_depth_8_no_crowning_in_passing() -> None:
    """R-PRO-2: at depth 8 pool (929896) differs from Russian draughts."""
    assert perft(Board(), 8) == 929896


def test_bulk_count_equals_generated_moves_on_the_way() -> None:
    board = Board()
    stack = [board.copy()]
    seen = 0
    while stack and seen < 3000:
        position = stack.pop()
        moves = position.generate_legal_moves()
        assert position.count_legal_moves() == len(moves) == position.legal_moves.count()
        seen += 1
        for move in moves[:3]:
            child = position.copy(stack=False)
            child.push(move)
            stack.append(child)


def test_divide_sums_to_perft() -> None:
    parts = divide(Board(), 4)
    assert set(parts) == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
    assert sum(parts.values()) == POOL_PERFT[3]


def test_perft_command_prints_each_depth() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "perft", "4"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert [int(line.split()[3]) for line in out] == list(POOL_PERFT[:4])


def test_perft_command_rejects_bad_fen_with_a_message() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "perft", "2", "--fen", "Q:W1:B2"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "side to move must be B or W" in result.stderr
    assert "Traceback" not in result.stderr
