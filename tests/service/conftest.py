"""Shared fixtures for the service tests: the emulated Pico behind a real pty."""

import subprocess
import sys
from pathlib import Path

import pytest

from poolboard.config import Config, StorageConfig
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard


class Emulator:
    def __init__(self, tmp_path: Path) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "poolboard.cli",
                "emulate-board",
                "--link",
                str(tmp_path / "board"),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.port = self.process.stdout.readline().strip()

    def set(self, squares: frozenset[int]) -> None:
        self.process.stdin.write("set " + " ".join(map(str, sorted(squares))) + "\n")
        self.process.stdin.flush()
        self.process.stdout.readline()

    def close(self) -> None:
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        self.process.wait(timeout=10)


@pytest.fixture
def emulator(tmp_path: Path):
    """``poolboard emulate-board`` running the real firmware behind a pty; closed afterwards."""
    board = Emulator(tmp_path)
    yield board
    board.close()


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Table:
    """A session on a simulated board, driven by hand on a fake clock."""

    def __init__(self, tmp_path: Path, **sections: object) -> None:
        self.time = FakeTime()
        self.config = Config(storage=StorageConfig(path=str(tmp_path)), **sections)
        self.board = SimulatedBoard(now=self.time)
        self.session = Session(self.config, self.board, now=self.time)
        self.occupied = set(self.session.game.board.occupied_squares())

    def reopen(self) -> None:
        """A new process on the same storage (after a crash: nothing was closed)."""
        self.board = SimulatedBoard(now=self.time)
        self.session = Session(self.config, self.board, now=self.time)

    def settle(self, seconds: float = 0.5) -> None:
        self.time.now += seconds
        self.session.process(None)

    def show(self, squares: set[int]) -> None:
        self.occupied = set(squares)
        self.board.set_occupied(self.occupied)
        self.session.process(self.board.read(0))
        self.settle(0.1)

    def move(self, start: int, end: int, *captured: int) -> None:
        self.show(self.occupied - {start})
        self.show(self.occupied | {end})
        for square in captured:
            self.show(self.occupied - {square})
        self.settle()

    def set_up(self) -> None:
        self.show(set(self.session.game.board.occupied_squares()))


@pytest.fixture
def make_table(tmp_path: Path):
    """``table(**config_sections)``: a session on a simulated board, driven on a fake clock."""
    return lambda **sections: Table(tmp_path, **sections)


class Service:
    """``poolboard run`` (or any long-running command) as a real process, its log in ``log``;
    ``url`` is its web address when it serves one."""

    def __init__(self, log: Path, *args: str) -> None:
        self.log = log
        with open(log, "w") as handle:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "poolboard.cli", *args],
                stdout=subprocess.PIPE,
                stderr=handle,
                text=True,
            )
        self.url = ""
        self.lines = [self.process.stdout.readline()]  # until it serves, records or exits
        while self.lines[-1] and not any(
            started in self.lines[-1] for started in ("web UI on", "recording to")
        ):
            self.lines.append(self.process.stdout.readline())
        if "web UI on " in self.lines[-1]:
            self.url = self.lines[-1].split("web UI on ", 1)[1].split("/ ", 1)[0]

    @property
    def pid(self) -> int:
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        self.process.stdout.close()


@pytest.fixture
def services(tmp_path: Path):
    """``services(*args)`` starts ``poolboard <args>``; every one is killed afterwards."""
    started: list[Service] = []

    def start(*args: str) -> Service:
        started.append(Service(tmp_path / f"service-{len(started)}.log", *args))
        return started[-1]

    yield start
    for service in started:
        service.kill()


@pytest.fixture
def table_in():
    """``table_in(folder, **config_sections)``: a Table whose data folder is ``folder``."""
    return lambda folder, **sections: Table(folder, **sections)
