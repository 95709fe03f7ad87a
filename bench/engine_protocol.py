"""``poolboard engine`` over real pipes: how fast ``stop`` is answered, how far ``go movetime``
overruns its budget, both measured at the client, from the line sent to the ``bestmove`` read.

    .venv/bin/python bench/engine_protocol.py [--rounds 12] [--think 1.5] [--movetime 300]

Each round sets a position (the start, or one of a few middle-game positions from
tests/data/pdn/club_night.pdn), sends ``go infinite``, lets it think ``--think`` seconds (the
transposition table grows meanwhile) and sends ``stop``; then ``go movetime MS`` from the same
position.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine.pdn import read_games

GAMES = Path(__file__).parents[1] / "tests" / "data" / "pdn" / "club_night.pdn"


def positions() -> list[str]:
    """``position`` lines: the start and the first game after 12, 20 and 30 plies."""
    with open(GAMES, encoding="utf-8") as handle:
        record = next(read_games(handle))
    lines = ["position startpos"]
    for plies in (12, 20, 30):
        lines.append(
            "position startpos moves " + " ".join(n.notation for n in record.moves[:plies])
        )
    return lines


class Engine:
    """The engine process; ``until`` reads lines up to one starting with a word."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "poolboard.cli", "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, word: str) -> str:
        assert self.process.stdout is not None
        while line := self.process.stdout.readline():
            if line.startswith(word):
                return line
        raise RuntimeError("the engine closed its output")

    def close(self) -> None:
        self.send("quit")
        self.process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--think", type=float, default=1.5, help="seconds before each stop")
    parser.add_argument("--movetime", type=int, default=300, help="milliseconds per go")
    args = parser.parse_args()
    engine = Engine()
    engine.send("isready")
    engine.until("readyok")
    stops, overruns = [], []
    lines = positions()
    for round_ in range(args.rounds):
        engine.send(lines[round_ % len(lines)])
        engine.send("go infinite")
        engine.until("info")
        time.sleep(args.think)
        sent = time.perf_counter()
        engine.send("stop")
        engine.until("bestmove")
        stops.append((time.perf_counter() - sent) * 1000)
        sent = time.perf_counter()
        engine.send(f"go movetime {args.movetime}")
        engine.until("bestmove")
        overruns.append((time.perf_counter() - sent) * 1000 - args.movetime)
    engine.close()
    print(f"rounds: {args.rounds}, {args.think} s of thinking before each stop")
    print(
        f"stop to bestmove:       median {statistics.median(stops):6.1f} ms, "
        f"max {max(stops):6.1f} ms"
    )
    print(
        f"movetime {args.movetime} ms overrun: median {statistics.median(overruns):6.1f} ms, "
        f"max {max(overruns):6.1f} ms (negative: done early)"
    )


if __name__ == "__main__":
    main()
