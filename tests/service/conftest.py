"""Shared fixtures for the service tests: the emulated Pico behind a real pty."""

import subprocess
import sys
from pathlib import Path

import pytest


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
