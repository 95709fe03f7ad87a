"""``kill -9`` at random moments loses no recorded move, and the game goes on after a restart.

Everything is real but the Pico: the firmware runs in ``poolboard emulate-board`` behind a pty,
``poolboard run --no-web`` reads it through the serial driver and records into SQLite, and the
service is killed with SIGKILL at random moments, mid-move included, then started again.
"""

import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from engine.board import Board, Move
from poolboard.simulator import random_game


def hand_steps(board: Board, move: Move) -> list[frozenset[int]]:
    """The occupancies a hand passes through: lift, set down, take the captured pieces off."""
    occupied = set(board.occupied_squares())
    steps = []
    occupied.discard(move.from_square)
    steps.append(frozenset(occupied))
    occupied.add(move.to_square)
    steps.append(frozenset(occupied))
    for square in move.captures:
        occupied.discard(square)
        steps.append(frozenset(occupied))
    return steps


def start_service(config: Path) -> subprocess.Popen:
    service = subprocess.Popen(
        [sys.executable, "-m", "poolboard.cli", "run", "--no-web", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert "recording to" in service.stdout.readline()
    time.sleep(0.5)  # the serial handshake and the first snapshot
    return service


def stored_moves(database: Path) -> list[tuple[int, ...]]:
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT path FROM moves ORDER BY game_id, ply").fetchall()
    return [tuple(int(s) for s in path.strip("[]").split(", ")) for (path,) in rows]


def test_sigkill_at_random_moments_loses_no_recorded_move(tmp_path: Path, emulator) -> None:
    rng = random.Random(20261122)
    moves = random_game(rng, 24)
    config = tmp_path / "board.toml"
    config.write_text(
        f'[sensor]\nkind = "serial"\nspec = "{emulator.port}"\n'
        f'[storage]\npath = "{tmp_path / "data"}"\n[clock]\ntime_control = "600"\n'
    )
    database = tmp_path / "data" / "games.sqlite3"
    board = Board()
    emulator.set(board.occupied_squares())
    service = start_service(config)
    replay = Board()
    moments = []
    for index, move in enumerate(moves):
        moments += [(index, step) for step in range(len(hand_steps(replay, move)))]
        replay.push(move)
    kills = set(rng.sample(moments, 6))
    killed = 0
    try:
        for index, move in enumerate(moves):
            king = board.piece_at(move.from_square).king
            for step, occupied in enumerate(hand_steps(board, move)):
                emulator.set(occupied)
                time.sleep(0.1)
                if (index, step) in kills:
                    time.sleep(rng.uniform(0.0, 0.1))
                    service.kill()  # SIGKILL: no clean-up of any kind
                    service.wait()
                    recorded = stored_moves(database)
                    assert [m.path for m in moves[: len(recorded)]] == recorded
                    killed += 1
                    service = start_service(config)
            board.push(move)
            time.sleep(0.45 if king else 0.1)  # a king's move waits for the settle window
        deadline = time.monotonic() + 10
        while len(stored_moves(database)) < len(moves) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert stored_moves(database) == [m.path for m in moves]
        assert killed == len(kills)
    finally:
        service.kill()
