"""The hall under a full room: 50 tables, a move every 2 s each, one ``poolboard hall``.

    .venv/bin/python bench/hall.py [--tables 50] [--seconds 60] [--interval 2] [--keepalive 5]

A child process runs ``poolboard hall`` with its own Mosquitto on free loopback ports. This process
runs ``--tables`` simulated tables: each a real Session on the simulated board (its own SQLite
file, tracker debounce 10 ms, settle 50 ms) with the real TablePublisher, the pieces moved as a
hand would (lift, set down, take the captured off), every table one move per ``--interval``
seconds, the tables staggered. A WebSocket client on the hall's ``/ws`` (what the hall page
uses) stamps every tile on arrival.

Measured: move recorded at a table (the session announces it; same clock, same process) -> the
tile holding it arrives on the hall page's socket: p50/p95/max (goal p95 <= 250 ms). Then one
real ``poolboard run`` table with ``--keepalive`` is SIGKILLed: time until the hall page shows it
offline (goal <= 1.5 x keepalive). Finally the hall's and the broker's resident memory.
Everything is bounded in time; every process is stopped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from websockets.sync.client import connect

from engine.board import Board
from poolboard.config import Config, StorageConfig, TrackerTimings
from poolboard.hall.link import HallLinkConfig
from poolboard.hall.table import TablePublisher
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.simulator import random_game

HALL_PASSWORD = "bench-hall"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class SimTable:
    """A session on the simulated board publishing to the hall, and the moves it will play."""

    def __init__(self, folder: Path, name: str, port: int, rng: random.Random) -> None:
        self.name = name
        config = Config(
            storage=StorageConfig(path=str(folder / name)),
            tracker=TrackerTimings(debounce=0.01, settle=0.05),
            hall=HallLinkConfig(broker="127.0.0.1", port=port, table=name, password=name + "-pw"),
        )
        self.board = SimulatedBoard()
        self.session = Session(config, self.board)
        self.recorded: dict[int, float] = {}  # plies -> when the session announced them
        self.session.subscribe(self._on_state)
        self.publisher = TablePublisher(self.session, config.hall)
        self.moves = random_game(rng, 200)
        self.position = Board()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.session.run, args=(self.stop,), daemon=True)

    def _on_state(self, state: dict) -> None:
        self.recorded.setdefault(len(state["moves"]), time.monotonic())

    def start(self) -> None:
        self.thread.start()
        self.publisher.start()
        self.board.set_occupied(self.position.occupied_squares())

    def play_next(self) -> bool:
        """Play the next move by hand; False when the game has no more."""
        if not self.moves:
            return False
        move = self.moves.pop(0)
        occupied = set(self.position.occupied_squares())
        occupied.discard(move.from_square)
        self.board.set_occupied(occupied)
        occupied.add(move.to_square)
        self.board.set_occupied(occupied)
        for square in move.captures:
            occupied.discard(square)
            self.board.set_occupied(occupied)
        self.position.push(move)
        return True

    def close(self) -> None:
        self.publisher.stop()
        self.stop.set()
        self.thread.join(timeout=5)
        self.session.close()


def write_hall_config(folder: Path, tables: list[str], broker_port: int, extra: str) -> Path:
    entries = "".join(f'[[tables]]\nname = "{t}"\npassword = "{t}-pw"\n' for t in [*tables, extra])
    path = folder / "hall.toml"
    path.write_text(
        f'[hall]\nevent = "Bench"\ndata = "{folder / "hall-data"}"\nport = 0\n'
        f'[broker]\nport = {broker_port}\nhall_password = "{HALL_PASSWORD}"\n' + entries
    )
    return path


def start_hall(config: Path) -> tuple[subprocess.Popen, str]:
    hall = subprocess.Popen(
        [sys.executable, "-m", "poolboard.cli", "hall", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    for _ in range(5):
        line = hall.stdout.readline() if hall.stdout else ""
        if "pages on " in line:
            return hall, line.split("pages on ", 1)[1].split("/ ", 1)[0]
    hall.kill()
    raise SystemExit("the hall did not start")


class PageSocket:
    """The hall page's WebSocket: every tile stamped on arrival."""

    def __init__(self, url: str) -> None:
        self.tiles: list[tuple[float, dict]] = []
        self.socket = connect(url.replace("http://", "ws://") + "/ws", max_size=None)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for message in self.socket:
                now = time.monotonic()
                self.tiles.extend((now, tile) for tile in json.loads(message))
        except Exception:
            return

    def first(self, table: str, check, since: float, timeout: float) -> float | None:
        """When a tile of ``table`` satisfying ``check`` first arrived after ``since``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for at, tile in list(self.tiles):
                if at >= since and tile["table"] == table and check(tile):
                    return at
            time.sleep(0.05)
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--keepalive", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    names = [f"b{i:02d}" for i in range(1, args.tables + 1)]
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        broker_port = free_port()
        hall, url = start_hall(write_hall_config(folder, names, broker_port, "victim"))
        page = PageSocket(url)
        tables = [SimTable(folder, name, broker_port, rng) for name in names]
        victim: subprocess.Popen | None = None
        try:
            for table in tables:
                table.start()
            time.sleep(3)  # every table connected and set up
            began = time.monotonic()
            cpu_before = cpu_seconds(hall.pid)
            stagger = args.interval / len(tables)
            rounds = int(args.seconds / args.interval)
            for number in range(rounds):
                for index, table in enumerate(tables):
                    due = began + number * args.interval + index * stagger
                    time.sleep(max(0.0, due - time.monotonic()))
                    table.play_next()
            hall_cpu = (cpu_seconds(hall.pid) - cpu_before) / (time.monotonic() - began)
            time.sleep(2)  # the last moves reach the hall
            delays = []
            missed = 0
            for table in tables:
                arrivals: dict[int, float] = {}
                for at, tile in page.tiles:
                    if tile["table"] == table.name:
                        arrivals.setdefault(tile["plies"], at)
                for plies, recorded in table.recorded.items():
                    if plies == 0:
                        continue
                    if plies in arrivals:
                        delays.append((arrivals[plies] - recorded) * 1000)
                    else:
                        missed += 1
            delays.sort()
            p50 = statistics.median(delays)
            p95 = delays[int(0.95 * (len(delays) - 1))]
            print(
                f"{len(tables)} tables, {len(delays)} moves in {args.seconds:.0f} s: move -> hall "
                f"page p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {delays[-1]:.1f} ms, "
                f"missed {missed}; the hall used {hall_cpu:.0%} of one core meanwhile"
            )
            hall_rss = rss_mb(hall.pid)
            broker = subprocess.run(
                ["pgrep", "-f", str(folder / "hall-data" / "broker" / "mosquitto.conf")],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.split()
            broker_rss = rss_mb(int(broker[0])) if broker else float("nan")
            # A real table with the chosen keepalive, killed without a goodbye.
            victim_dir = folder / "victim"
            victim_dir.mkdir()
            (victim_dir / "board.toml").write_text(
                f'[storage]\npath = "{victim_dir}"\n[sensor]\nkind = "simulated"\n[web]\nport = 0\n'
                f'[hall]\nbroker = "127.0.0.1"\nport = {broker_port}\ntable = "victim"\n'
                f'password = "victim-pw"\nkeepalive = {args.keepalive}\n'
            )
            victim = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "poolboard.cli",
                    "run",
                    "--no-web",
                    "--config",
                    str(victim_dir / "board.toml"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            flagged = []
            for how, signum in (
                ("frozen (SIGSTOP: silent, like a pulled cable)", "STOP"),
                ("killed (SIGKILL: the socket closes)", "KILL"),
            ):
                if signum == "KILL":  # start it again
                    victim.kill()
                    victim.wait()
                    victim = subprocess.Popen(
                        victim.args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                    )
                started = time.monotonic()
                if page.first("victim", lambda t: t["online"], started, 20) is None:
                    raise SystemExit("the victim table did not come online")
                time.sleep(1)
                gone = time.monotonic()
                victim.send_signal(getattr(signal, f"SIG{signum}"))
                offline = page.first(
                    "victim", lambda t: t["online"] is False, gone, 4 * args.keepalive
                )
                seconds = (
                    "not within 4 x keepalive" if offline is None else f"{offline - gone:.2f} s"
                )
                flagged.append(f"{how}: {seconds}")
            victim.kill()
            victim.wait()
            print(
                f"offline table shown on the hall page (keepalive {args.keepalive} s, "
                f"goal <= {1.5 * args.keepalive:.1f} s): " + "; ".join(flagged)
            )
            print(
                f"memory: hall {hall_rss:.1f} MB, mosquitto {broker_rss:.1f} MB "
                f"(resident, after the run)"
            )
        finally:
            if victim is not None:
                victim.kill()
                victim.wait()
            for table in tables:
                table.close()
            page.socket.close()
            hall.terminate()
            try:
                hall.wait(timeout=15)
            except subprocess.TimeoutExpired:
                hall.kill()


if __name__ == "__main__":
    main()
