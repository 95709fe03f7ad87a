"""What the voice costs a move: the session's handling of a move's final sensor reading, with
the voice off, on with the audio device missing, and on with a device that takes a second per
sentence.

    .venv/bin/python bench/voice.py [--games 5] [--moves 40]

Plays the same random games on the simulated board (a fake clock; real SQLite in a temporary
folder) three ways and reports each way's median and p99 time per move: the voice only queues
the session's events, so the figures should not differ beyond noise.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from poolboard.config import Config, StorageConfig, VoiceConfig
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.simulator import random_game
from poolboard.voice import Announcer


def slow_device(folder: Path) -> str:
    """A stand-in for espeak-ng on a device that takes a second to say a sentence."""
    program = folder / "slow-espeak"
    program.write_text('#!/bin/sh\nsleep 1\nexec espeak-ng "$@" -w /dev/null\n')
    program.chmod(0o755)
    return str(program)


class FakeTime:
    """The session's clock, moved on by hand (half a second a reading)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def play_game(voice: VoiceConfig | None, seed: int, moves: int, times: list[float]) -> None:
    """One random game; the seconds the session took over each move's last reading go to
    ``times``."""
    with tempfile.TemporaryDirectory() as folder:
        clock = FakeTime()
        board = SimulatedBoard(now=clock)
        session = Session(Config(storage=StorageConfig(path=folder)), board, now=clock)
        announcer = None
        if voice is not None:
            announcer = Announcer(session, voice, "en")
            announcer.start()

        def show(squares: set[int], timed: bool = False) -> None:
            board.set_occupied(squares)
            began = time.perf_counter()
            session.process(board.read(0))
            clock.now += 0.5
            session.process(None)  # settled: the move is recorded here
            if timed:
                times.append(time.perf_counter() - began)

        occupied = set(session.game.board.occupied_squares())
        show(occupied)
        for move in random_game(random.Random(seed), moves):
            occupied -= {move.path[0]}
            show(occupied)
            occupied -= set(move.captures)
            occupied |= {move.path[-1]}
            show(occupied, timed=True)
        if announcer is not None:
            announcer.stop()
        session.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        ways = {
            "voice off": None,
            "voice on, no audio device": VoiceConfig(enabled=True),
            "voice on, a device taking 1 s a sentence": VoiceConfig(
                enabled=True, program=slow_device(Path(folder))
            ),
        }
        for name, voice in ways.items():
            times: list[float] = []
            for seed in range(args.games):
                play_game(voice, seed, args.moves, times)
            times.sort()
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(
                f"{name}: {len(times)} moves, median {statistics.median(times) * 1000:.2f} ms, "
                f"p99 {p99 * 1000:.2f} ms a move"
            )


if __name__ == "__main__":
    main()
