"""Perft speed of poolboard's move generator beside py-draughts' RussianBoard.

Russian draughts and pool checkers have the same perft counts at depths 1-7 (they part at depth 8,
where pool has no crowning in passing, R-PRO-2), so both generators walk the same trees.

    .venv/bin/python bench/perft.py [--depth 7]

Prints nodes/s of each per depth (best of ``--repeat`` runs) and the ratio (goal: >= 2x).
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable

from engine.board import Board
from engine.perft import POOL_PERFT, perft


def draughts_perft(board, depth: int) -> int:
    """The same bulk-counting perft written against py-draughts' public API."""
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += draughts_perft(board, depth - 1)
        board.pop()
    return total


def timed(count: Callable[[], int], repeat: int) -> tuple[int, float]:
    """Nodes counted and the best time of ``repeat`` runs (the least disturbed one)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        nodes = count()
        best = min(best, time.perf_counter() - started)
    return nodes, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=7, help="deepest depth, 1-7 (default 7)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per depth, best kept")
    args = parser.parse_args()
    from draughts import RussianBoard  # dev extra; imported here so --help works without it

    print(f"python {platform.python_version()} on {platform.machine()}")
    print(f"{'depth':>5} {'nodes':>9} {'poolboard n/s':>14} {'py-draughts n/s':>16} {'ratio':>6}")
    ours_total = theirs_total = 0.0
    for depth in range(1, min(args.depth, 7) + 1):
        ours_nodes, ours_time = timed(lambda d=depth: perft(Board(), d), args.repeat)
        theirs_nodes, theirs_time = timed(
            lambda d=depth: draughts_perft(RussianBoard(), d), args.repeat
        )
        if ours_nodes != POOL_PERFT[depth - 1] or theirs_nodes != ours_nodes:
            raise SystemExit(
                f"depth {depth}: poolboard {ours_nodes}, py-draughts {theirs_nodes}, "
                f"published {POOL_PERFT[depth - 1]}"
            )
        ours_total += ours_time
        theirs_total += theirs_time
        print(
            f"{depth:5d} {ours_nodes:9d} {ours_nodes / ours_time:14,.0f} "
            f"{theirs_nodes / theirs_time:16,.0f} {theirs_time / ours_time:6.1f}x"
        )
    print(
        f"total time: poolboard {ours_total:.2f} s, py-draughts {theirs_total:.2f} s, "
        f"ratio {theirs_total / ours_total:.1f}x"
    )


if __name__ == "__main__":
    main()
