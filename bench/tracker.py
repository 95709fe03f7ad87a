"""The occupancy tracker on simulated human play: recognition, false alarms, speed, delay.

    .venv/bin/python bench/tracker.py [--games 200] [--plies 100] [--seed 0]

Each game is a random legal game played by simulated hands (slides, hops, bouncing switches,
captured pieces off in any order, crowning lifts, lever presses; poolboard/simulator.py) from the
start position, and a third from positions with kings. Reports:
- recognition: games whose recorded moves equal the played moves exactly (goal 100%);
- false alarms: violations and faults raised on legal play (goal 0);
- processing time per sensor event, p50/p99 (goal p99 <= 1 ms);
- delay from the last sensor change to the recorded move, for men and for kings.
"""

from __future__ import annotations

import argparse
import bisect
import random
import statistics
import time

from engine.board import Board
from engine.events import MoveRecorded
from engine.sensing import Snapshot
from engine.tracker import Tracker
from poolboard.simulator import HumanSimulator, random_game

KING_POSITIONS = ["B:WK30,K27,22,K18:BK1,K3,9,K11", "W:WK29,K32,21:BK4,K6,10,14"]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    exact = alarms = events_fed = 0
    per_event: list[float] = []
    man_delay: list[float] = []
    king_delay: list[float] = []
    for game in range(args.games):
        rng = random.Random(args.seed + game)
        start = Board(KING_POSITIONS[game % 2]) if game % 3 == 2 else Board()
        moves = random_game(rng, args.plies, start)
        sensor_events = HumanSimulator(rng).play(start, moves)
        snapshot_times = [e.t for e in sensor_events if isinstance(e, Snapshot)]
        tracker = Tracker(start)
        output = []
        for event in sensor_events:
            began = time.perf_counter()
            output += tracker.feed(event)
            per_event.append(time.perf_counter() - began)
        output += tracker.advance(sensor_events[-1].t + 10)
        events_fed += len(sensor_events)
        exact += tracker.board.move_stack == moves
        alarms += sum(1 for e in output if e.kind in ("violation", "fault"))
        board = start.copy()
        for event in output:
            if isinstance(event, MoveRecorded):
                last_change = snapshot_times[bisect.bisect_right(snapshot_times, event.t) - 1]
                king = board.piece_at(event.move.from_square).king
                (king_delay if king else man_delay).append(event.t - last_change)
                board.push(event.move)

    def ms(seconds: float) -> str:
        return f"{seconds * 1000:.3f} ms"

    print(f"games: {args.games} ({args.plies} plies max), sensor events: {events_fed}")
    print(f"recognition: {exact}/{args.games} games exact ({100 * exact / args.games:.1f}%)")
    print(f"false alarms: {alarms}")
    print(
        f"processing per sensor event: p50 {ms(percentile(per_event, 0.5))}, "
        f"p99 {ms(percentile(per_event, 0.99))}, max {ms(max(per_event))}"
    )
    for label, delays in (("man moves", man_delay), ("king moves", king_delay)):
        if delays:
            print(
                f"delay last change -> recorded, {label}: median {ms(statistics.median(delays))}, "
                f"p99 {ms(percentile(delays, 0.99))} (n={len(delays)})"
            )


if __name__ == "__main__":
    main()
