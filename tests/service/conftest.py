"""Shared fixtures for the service tests: the emulated Pico behind a real pty."""

import subprocess
import sys
from pathlib import Path

import pytest

from engine.board import Board, Move
from engine.color import Color
from engine.cues import CueKind, Cues
from poolboard.config import Config, StorageConfig
from poolboard.opponents import Answer, Opponent, Position
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


def doctor(config: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``poolboard doctor --config config extra...`` as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "doctor", "--config", str(config), *extra],
        capture_output=True,
        text=True,
        timeout=60,
    )


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


class Leds:
    """The cues as an LED chain receives them (the session's CueDisplay)."""

    def __init__(self) -> None:
        self.shown = Cues.none()

    def show(self, cues: Cues) -> None:
        self.shown = cues

    def close(self) -> None:
        pass

    def squares(self, kind: CueKind) -> list[int]:
        return sorted(square for square, shown in self.shown if shown is kind)


class OpponentTable(Table):
    """A table whose session plays ``opponent``, its cues going to :class:`Leds`."""

    def __init__(self, folder: Path, player: Opponent, **sections: object) -> None:
        self.time = FakeTime()
        storage = StorageConfig(path=str(folder))
        self.config = Config(storage=storage, **sections)  # type: ignore[arg-type]
        self.board = SimulatedBoard(now=self.time)
        self.leds = Leds()
        self.session = Session(self.config, self.board, [self.leds], now=self.time, opponent=player)
        self.occupied = set(self.session.game.board.occupied_squares())


def status(table: Table) -> str:
    return table.session.state()["opponent"]["status"]


class ScriptedOpponent(Opponent):
    """An opponent whose answers the test gives: the interface as a remote board uses it."""

    kind = "scripted"

    def __init__(self, side: Color) -> None:
        super().__init__(side)
        self.positions: list[Position] = []
        self.answer: Answer | None = None

    def update(self, position: Position, answer: Answer) -> None:
        self.positions.append(position)
        self.answer = answer
