"""How fast a recorded move reaches every spectator: N WebSocket clients on a real server.

    .venv/bin/python bench/spectators.py [--clients 500] [--moves 10] [--seed 1]

A child process runs a session on the simulated board with the web UI on a free loopback port
(tracker debounce and settle 0, so a move is recorded as soon as its snapshot is processed).
This process connects ``--clients`` WebSocket spectators, then plays ``--moves`` random legal
moves through ``POST /api/board`` (the piece lifted, then the board as it stands after the move).
For every move and client, the delay is from sending the move's final snapshot to that client
receiving the state that holds the move: HTTP request, tracker, the move written to disk (SQLite,
synchronous=FULL), then the fan-out. Reports p50/p95/max; goal p95 <= 100 ms. Everything is
bounded in time and the child is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
import websockets

from engine.board import Board

SERVER = """
import sys, threading
from poolboard.config import Config, StorageConfig, TrackerTimings
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.web.app import WebServer
from poolboard.web.limits import WebLimits

config = Config(
    storage=StorageConfig(path=sys.argv[1]),
    tracker=TrackerTimings(debounce=0.0, settle=0.0),
)
session = Session(config, SimulatedBoard())
stop = threading.Event()
threading.Thread(target=session.run, args=(stop,), daemon=True).start()
# Every spectator comes from 127.0.0.1 here: lift the per-address cap (docs/service.md).
server = WebServer(session, "127.0.0.1", 0, limits=WebLimits(max_connections=1100, per_client=1100))
print(server.start(), flush=True)
sys.stdin.read()  # until the benchmark closes our stdin
server.stop()
stop.set()
"""


class Spectator:
    """One WebSocket client that stamps every message on arrival (parsed later, not now)."""

    def __init__(self) -> None:
        self.received: list[tuple[float, str]] = []
        self.socket: websockets.ClientConnection | None = None
        self.task: asyncio.Task | None = None

    async def connect(self, url: str) -> None:
        self.socket = await websockets.connect(url, max_size=None, open_timeout=30)
        self.received.append((time.perf_counter(), await self.socket.recv()))
        self.task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        async for message in self.socket:
            self.received.append((time.perf_counter(), message))

    def arrival(self, since: float, plies: int) -> float | None:
        """When the first state with ``plies`` moves arrived after ``since``."""
        for stamp, text in self.received:
            if stamp >= since and len(json.loads(text)["moves"]) == plies:
                return stamp
        return None

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.socket is not None:
            await self.socket.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def measure(url: str, clients: int, moves: int, seed: int) -> None:
    ws_url = url.replace("http://", "ws://") + "/ws"
    spectators = [Spectator() for _ in range(clients)]
    began = time.perf_counter()
    for start in range(0, clients, 50):  # in batches, as people arrive
        await asyncio.gather(*(s.connect(ws_url) for s in spectators[start : start + 50]))
    print(f"{clients} spectators connected in {time.perf_counter() - began:.2f} s")
    rng = random.Random(seed)
    board = Board()
    delays: list[float] = []
    missed = 0
    changes = {"X-Poolboard": "1"}  # as the virtual board's page sends (poolboard/web/guard.py)
    async with httpx.AsyncClient(base_url=url, timeout=10, headers=changes) as http:

        async def snapshot(squares: frozenset[int]) -> None:
            response = await http.post("/api/board", json={"occupied": sorted(squares)})
            response.raise_for_status()

        await snapshot(board.occupied_squares())  # the players set up; the clock starts
        await asyncio.sleep(0.5)
        for ply in range(1, moves + 1):
            move = rng.choice(board.generate_legal_moves())
            await snapshot(board.occupied_squares() - {move.from_square})
            await asyncio.sleep(0.2)
            board.push(move)
            sent = time.perf_counter()
            await snapshot(board.occupied_squares())
            await asyncio.sleep(1.0)
            for spectator in spectators:
                arrived = spectator.arrival(sent, ply)
                if arrived is None:
                    missed += 1
                else:
                    delays.append((arrived - sent) * 1000)
    await asyncio.gather(*(s.close() for s in spectators))
    if not delays:
        raise SystemExit("no spectator saw a move")
    print(
        f"{len(delays)} deliveries ({moves} moves x {clients} clients, {missed} missed): "
        f"p50 {statistics.median(delays):.1f} ms, p95 {percentile(delays, 0.95):.1f} ms, "
        f"max {max(delays):.1f} ms (goal p95 <= 100 ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, data],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            url = server.stdout.readline().strip()
            if not url.startswith("http://"):
                raise SystemExit("the server did not start")
            budget = 60 + args.clients * 0.05 + args.moves * 2
            asyncio.run(asyncio.wait_for(measure(url, args.clients, args.moves, args.seed), budget))
        finally:
            server.stdin.close()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


if __name__ == "__main__":
    main()
