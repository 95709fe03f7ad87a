"""``poolboard monitor --check`` on the Pi's GPIO route: a simulated reed board and SPI strip,
faults wired in, named at the end."""

from __future__ import annotations

import re

import pytest

from hardware.config import MatrixPins
from hardware.matrix import MatrixSensor
from hardware.sim_gpio import SimGPIO, SimReedBoard
from hardware.sim_spidev import SimSpiDev
from hardware.spi_leds import LedLayout, SpiCueDisplay
from poolboard.bringup import BringUpCheck, CheckReport

ROWS = [4, 17, 27, 22, 5, 6, 13, 26]
COLUMNS = [23, 24, 25, 12]


class Person:
    """Moves pieces on the simulated board as told and says which LEDs the strip lights."""

    def __init__(self, board: SimReedBoard, spi: SimSpiDev, dead: frozenset[int]) -> None:
        self.board = board
        self.spi = spi
        self.dead = dead

    def say(self, text: str) -> None:
        found = re.search(r"square (\d+)", text)
        if text.startswith("Put a piece") and found:
            self.board.place(int(found.group(1)))
        elif text.startswith("Take the piece off") and found:
            self.board.lift(int(found.group(1)))
        elif text.startswith("Take every piece"):
            self.board.set_pieces([])

    def ask(self, question: str) -> str:
        found = re.search(r"square (\d+)", question)
        assert found is not None
        square = int(found.group(1))
        lit = self.spi.frames and self.spi.frames[-1][square - 1] != (0, 0, 0)
        return "y" if lit and square not in self.dead else "n"


def _check(board_rows: list[int], missing_diode: int | None = None) -> CheckReport:
    """The board as built has ROWS; the board file (and so the scanner) says ``board_rows``."""
    gpio = SimGPIO()
    board = SimReedBoard(gpio, MatrixPins.from_mapping({"rows": ROWS, "columns": COLUMNS}))
    if missing_diode is not None:
        board.remove_diode(missing_diode)
    spi = SimSpiDev()
    display = SpiCueDisplay(LedLayout(), spi=spi, refresh_hz=0)
    pins = MatrixPins.from_mapping({"rows": board_rows, "columns": COLUMNS})
    sensor = MatrixSensor(pins, gpio=gpio)
    person = Person(board, spi, dead=frozenset({3}))
    try:
        return BringUpCheck(sensor, display, person.say, person.ask, wait=1.0).run()
    finally:
        sensor.close()
        display.close()


def test_the_check_names_swapped_rows_and_a_dead_led() -> None:
    swapped = ROWS[:4] + [ROWS[5], ROWS[4]] + ROWS[6:]  # rows 4 and 5 wired the other way round
    report = _check(swapped)
    assert {r.square: set(r.closed) for r in report.misread} == {
        **{s: {s + 4} for s in range(17, 21)},
        **{s: {s - 4} for s in range(21, 25)},
    }
    assert report.dark == [3]
    assert report.never_closed == []
    assert "a piece on 17 closed square 21 instead" in report.lines()


@pytest.mark.system  # a long run (seconds of simulated scanning)
def test_the_check_names_a_missing_diode() -> None:
    report = _check(ROWS, missing_diode=10)
    assert any(fault.startswith("diode missing or shorted at") for fault in report.faults)
    assert any("10" in fault for fault in report.faults)
