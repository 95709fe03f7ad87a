"""Search speed and time keeping of the pool checkers player (``engine/search.py``).

    .venv/bin/python -m bench.search_speed [--seconds 1.0] [--searches 200]

Three measures:

- nodes per second and the depth completed in ``--seconds`` from the start position and from
  middle-game positions of the recorded club games in ``tests/data/pdn/club_night.pdn``
  (the first quiet position after 10, 16 and 22 moves of each game's main line);
- the time-budget overshoot: ``--searches`` searches with move times drawn from 50-300 ms,
  from the same positions, each timed from the call to the return; the overshoot is the time
  past the budget (p50, p99, max).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from pathlib import Path

from engine.board import Board
from engine.pdn import read_games
from engine.search import Limits, Root, Searcher

SAMPLE = Path(__file__).parents[1] / "tests" / "data" / "pdn" / "club_night.pdn"
#: Plies into each recorded game from which the next quiet position (no capture to make, a
#: choice of moves) is taken.
MIDDLE_GAME_PLIES = (20, 32, 44)


def positions() -> list[tuple[str, Board]]:
    """The start position, then middle-game positions from the recorded games."""
    found = [("start", Board())]
    with SAMPLE.open(encoding="utf-8") as handle:
        for number, record in enumerate(read_games(handle, name=SAMPLE.name), start=1):
            board = record.starting_board()
            wanted = list(MIDDLE_GAME_PLIES)
            for ply, node in enumerate(record.moves, start=1):
                board.push(node.move)
                quiet = not board.has_capture() and board.count_legal_moves() > 1
                if wanted and ply >= wanted[0] and quiet:
                    wanted.pop(0)
                    label = f"game {number} ply {ply} ({board.occupied.bit_count()} pieces)"
                    found.append((label, board.copy(stack=False)))
    return found


def speed(seconds: float) -> None:
    """Depth and nodes per second in a fixed time, one fresh searcher per position."""
    print(f"\nOne search of {seconds:g} s per position (fresh table):")
    print("| position | depth | nodes | nodes/s | best | score |")
    print("| --- | ---: | ---: | ---: | --- | ---: |")
    total_nodes = total_time = 0.0
    for label, board in positions():
        result = Searcher().search(Root.from_board(board), Limits(movetime=seconds))
        total_nodes += result.nodes
        total_time += result.seconds
        move = board.notation(result.best) if result.best is not None else "-"
        print(
            f"| {label} | {result.depth} | {result.nodes:,} | "
            f"{result.nodes / result.seconds:,.0f} | {move} | {result.score} |"
        )
    print(f"all positions: {total_nodes / total_time:,.0f} nodes/s")


def overshoot(searches: int, seed: int) -> None:
    """Time past the budget over many short searches, measured around the whole call."""
    rng = random.Random(seed)
    boards = [board for _, board in positions()]
    over_ms: list[float] = []
    for index in range(searches):
        budget = rng.uniform(0.05, 0.30)
        searcher = Searcher()
        root = Root.from_board(boards[index % len(boards)])
        started = time.perf_counter()
        searcher.search(root, Limits(movetime=budget))
        over_ms.append((time.perf_counter() - started - budget) * 1000)
    over_ms.sort()
    p99 = over_ms[min(len(over_ms) - 1, int(0.99 * len(over_ms)))]
    print(
        f"\nOvershoot over {searches} searches of 50-300 ms (negative: returned early, "
        "an iteration not started):"
    )
    print(
        f"p50 {statistics.median(over_ms):+.1f} ms, p99 {p99:+.1f} ms, "
        f"max {over_ms[-1]:+.1f} ms, past the budget in {sum(o > 0 for o in over_ms)} searches"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per speed search")
    parser.add_argument("--searches", type=int, default=200, help="short searches timed")
    parser.add_argument("--seed", type=int, default=1, help="seed of the move times")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    speed(args.seconds)
    overshoot(args.searches, args.seed)


if __name__ == "__main__":
    main()
