"""The running service's resident memory and start-up time (a Pi Zero 2 W has 512 MB).

    .venv/bin/python bench/service.py [--moves 60] [--starts 5] [--web]

Starts the emulated Pico (``poolboard emulate-board``), then ``poolboard run`` reading it over the
pty (``--no-web`` unless ``--web``), plays a random game into it, and reports:
- start-up: from launching ``poolboard run`` to its "ready" line, median of ``--starts`` runs;
- resident memory (VmRSS) after the game, and the peak (VmHWM). Goal: <= 80 MB.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.board import Board
from poolboard.simulator import random_game

POOLBOARD = [sys.executable, "-m", "poolboard.cli"]


def memory_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--web", action="store_true", help="measure with the web UI running")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="poolboard-bench-"))
    emulator = subprocess.Popen(
        [*POOLBOARD, "emulate-board", "--link", str(folder / "board")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    port = emulator.stdout.readline().strip()

    def board(squares: frozenset[int]) -> None:
        emulator.stdin.write("set " + " ".join(map(str, sorted(squares))) + "\n")
        emulator.stdin.flush()
        emulator.stdout.readline()

    config = folder / "board.toml"
    config.write_text(
        f'[sensor]\nkind = "serial"\nspec = "{port}"\n[storage]\npath = "{folder / "data"}"\n'
        "[web]\nport = 0\n"
    )
    command = [*POOLBOARD, "run", "--config", str(config)] + ([] if args.web else ["--no-web"])
    starts = []
    service = None
    for _ in range(args.starts):
        if service is not None:
            service.terminate()
            service.wait()
        began = time.perf_counter()
        service = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        service.stdout.readline()  # the ready line: "recording to ..." or "serving on ..."
        starts.append(time.perf_counter() - began)
    assert service is not None
    position = Board()
    board(position.occupied_squares())
    time.sleep(0.5)
    for move in random_game(random.Random(1), args.moves):
        occupied = set(position.occupied_squares()) - {move.from_square}
        board(frozenset(occupied))
        time.sleep(0.06)
        board(frozenset(occupied | {move.to_square}) - set(move.captures))
        time.sleep(0.45 if position.piece_at(move.from_square).king else 0.1)
        position.push(move)
    rss, peak = memory_mb(service.pid)
    service.terminate()
    service.wait()
    emulator.stdin.write("quit\n")
    emulator.stdin.flush()
    emulator.wait()
    mode = "with the web UI" if args.web else "record only (--no-web)"
    print(f"poolboard run, {mode}, {args.moves} moves played over the emulated Pico")
    print(
        f"start-up to ready: median {statistics.median(starts):.2f} s "
        f"(min {min(starts):.2f}, max {max(starts):.2f}, {len(starts)} starts)"
    )
    print(f"resident memory: {rss:.1f} MB now, {peak:.1f} MB peak (goal <= 80 MB)")


if __name__ == "__main__":
    main()
