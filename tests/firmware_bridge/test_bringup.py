"""``poolboard monitor --check`` on the emulated Pico: faults wired in, named at the end."""

from __future__ import annotations

import re
import subprocess
import sys
from types import SimpleNamespace

import pytest

from firmware_bridge.emulator import Emulator
from firmware_bridge.firmware.layout import crossings
from firmware_bridge.host import SerialBoard
from poolboard.bringup import BringUpCheck, CheckReport


class Person:
    """Does what the check says on the emulated board and answers what the LEDs show; the reed
    switches in ``broken`` never close, whatever is put on them."""

    def __init__(self, emulator: Emulator, broken: frozenset[int] = frozenset()) -> None:
        self.emulator = emulator
        self.broken = broken
        self.heard: list[str] = []

    def say(self, text: str) -> None:
        self.heard.append(text)
        square = _square(text)
        if text.startswith("Put a piece") and square not in self.broken:
            self.emulator.command(f"place {square}")
        elif text.startswith("Take the piece off"):
            self.emulator.command(f"lift {square}")
        elif text.startswith("Take every piece"):
            self.emulator.command("set")

    def ask(self, question: str) -> str:
        lit = self.emulator.describe_leds().split()[1:]
        return "y" if any(led.startswith(f"{_square(question)}=") for led in lit) else "n"


def _square(text: str) -> int:
    found = re.search(r"square (\d+)", text)
    return int(found.group(1)) if found else 0


def _check(emulator: Emulator, person: Person, wait: float = 1.0) -> CheckReport:
    emulator.start()
    board = SerialBoard(str(emulator.link))
    try:
        return BringUpCheck(board, board, person.say, person.ask, wait=wait).run()
    finally:
        board.close()
        emulator.close()


def test_the_check_names_swapped_rows_a_dead_led_and_a_dead_switch() -> None:
    wiring = crossings(SimpleNamespace(ORIENTATION="white"), 8, 4)
    wiring[8:12], wiring[12:16] = wiring[12:16], wiring[8:12]  # matrix rows 2 and 3 swapped
    emulator = Emulator(seed=3, wiring=wiring)
    emulator.dead_leds = frozenset({20})
    person = Person(emulator, broken=frozenset({27}))
    report = _check(emulator, person)
    assert report.never_closed == [27]
    assert {r.square: set(r.closed) for r in report.misread} == {
        **{s: {s + 4} for s in range(9, 13)},
        **{s: {s - 4} for s in range(13, 17)},
    }
    assert report.dark == [20]
    lines = report.lines()
    assert "never closed: square 27" in lines
    assert "a piece on 9 closed square 13 instead" in lines
    assert "LED not lit: square 20" in lines
    assert not report.faults and not report.ok
    assert person.heard[-1] == "Take every piece off the board: the check is done."


@pytest.mark.system  # a long run (seconds of simulated scanning)
def test_the_check_names_a_missing_diode() -> None:
    """Two rows of pieces at once put closed switches on both sides of every column: the leak
    back through the missing diode is seen and reported, naming its square."""
    emulator = Emulator(seed=3)
    emulator.command("diode 6")
    report = _check(emulator, Person(emulator))
    (diode,) = report.faults
    assert diode.startswith("diode missing or shorted")
    named = diode.split("squares ")[1].split(" may")[0]
    assert 6 in {int(square) for square in named.split(", ")}
    assert not report.ok


def test_a_well_wired_board_passes() -> None:
    emulator = Emulator(seed=3)
    report = _check(emulator, Person(emulator), wait=2.0)
    assert report.ok, report.lines()
    assert len(report.results) == 32


def test_monitor_offers_the_check() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "monitor", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "--check" in result.stdout and "--wait" in result.stdout
