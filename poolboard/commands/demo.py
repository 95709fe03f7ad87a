"""``poolboard demo``: a game played by simulated hands on the simulated board, in the terminal.

The sensor events come from :mod:`poolboard.simulator` and go through the real occupancy tracker,
exactly as a reed board's would, so the demo shows what the tracker recognises and when.
"""

from __future__ import annotations

import argparse
import random
import time

from engine.board import Board
from engine.tracker import Tracker
from poolboard.simulator import HumanSimulator, random_game


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="watch a game played by simulated hands on the simulated board",
        description="Play a random legal game with simulated hands through the tracker.",
    )
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument("--plies", type=int, default=60, help="longest game (default 60)")
    parser.add_argument(
        "--speed",
        type=float,
        default=8.0,
        help="times faster than real time (default 8; 0: no waits)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    rng = random.Random(seed)
    start = Board()
    moves = random_game(rng, args.plies, start)
    sensor_events = HumanSimulator(rng).play(start, moves)
    print(
        f"poolboard demo (seed {seed}): {len(moves)} moves by simulated hands, "
        f"{len(sensor_events)} sensor events\n"
    )
    tracker = Tracker(start)
    began = time.monotonic()
    for sensor_event in sensor_events:
        if args.speed > 0:
            time.sleep(max(0.0, began + sensor_event.t / args.speed - time.monotonic()))
        for event in tracker.feed(sensor_event):
            if event.kind in ("move", "correction"):
                number = (event.ply + 1) // 2
                dots = "." if event.side.value == "black" else "..."
                print(f"{event.t:7.2f} s  {number}{dots} {event.notation}  ({event.side.value})")
                print("          " + str(tracker.board).replace("\n", "\n          ") + "\n")
            elif event.kind in ("violation", "fault"):
                print(f"{event.t:7.2f} s  {event.kind}: {event.message}")
    tracker.advance(sensor_events[-1].t + 10)
    recorded = tracker.board.move_stack
    verdict = "every move recognised" if recorded == moves else "MISMATCH"
    print(f"{len(recorded)} moves recorded of {len(moves)} played: {verdict}")
    return 0 if recorded == moves else 1
