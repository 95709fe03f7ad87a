"""Fixtures: a reed board on simulated GPIO, scanned by hand with a fake clock."""

from __future__ import annotations

import pytest

from engine.sensing import SensorEvent, SensorFault, Snapshot
from hardware.config import MatrixPins, ScanSettings
from hardware.matrix import MatrixMonitor, MatrixScanner
from hardware.sim_gpio import SimGPIO, SimReedBoard

PIN_TABLE = {
    "rows": [4, 17, 27, 22, 5, 6, 13, 26],
    "columns": [23, 24, 25, 12],
    "levers": {"black": 16, "white": 20},
}
PINS = MatrixPins.from_mapping(PIN_TABLE)


class Rig:
    """Simulated GPIO + board + scanner + monitor; ``run`` advances a fake clock scan by scan."""

    def __init__(self, settings: ScanSettings | None = None, rate_hz: float = 250.0) -> None:
        self.gpio = SimGPIO()
        self.board = SimReedBoard(self.gpio, PINS)
        self.scanner = MatrixScanner(self.gpio, PINS, settle_s=0)
        self.scanner.open()
        self.monitor = MatrixMonitor(settings or ScanSettings(), self.scanner.lever_sides)
        self.period = 1.0 / rate_hz
        self.t = 0.0

    def scan(self) -> list[SensorEvent]:
        """One scan at the current time, then the clock moves on one period."""
        events = self.monitor.feed(self.scanner.scan(), self.t)
        self.t += self.period
        return events

    def run(self, seconds: float) -> list[SensorEvent]:
        """Scan for ``seconds`` of fake time."""
        events: list[SensorEvent] = []
        for _ in range(round(seconds / self.period)):
            events += self.scan()
        return events

    @staticmethod
    def snapshots(events: list[SensorEvent]) -> list[frozenset[int]]:
        """The occupancy of each Snapshot among ``events``."""
        return [e.occupied for e in events if isinstance(e, Snapshot)]

    @staticmethod
    def faults(events: list[SensorEvent]) -> list[SensorFault]:
        """The SensorFaults among ``events``."""
        return [e for e in events if isinstance(e, SensorFault)]


@pytest.fixture
def rig() -> Rig:
    return Rig()


@pytest.fixture
def make_rig() -> type[Rig]:
    """The Rig class, for tests that need their own settings."""
    return Rig


@pytest.fixture
def pin_table() -> dict[str, object]:
    """A fresh copy of the default pin table, for tests that spoil it."""
    return {
        "rows": list(PIN_TABLE["rows"]),
        "columns": list(PIN_TABLE["columns"]),
        "levers": dict(PIN_TABLE["levers"]),
    }
