"""Fixtures: the emulated Pico behind a real pty, and the real host driver on its path."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from engine.sensing import LinkHealth, SensorEvent
from firmware_bridge.emulator import Emulator
from firmware_bridge.firmware import config
from firmware_bridge.host import SerialBoard
from tests.patience import PATIENCE


class Link:
    """An emulator and a host driver on its pty; ``until`` reads events until one matches."""

    def __init__(self, emulator: Emulator, board: SerialBoard) -> None:
        self.emulator = emulator
        self.board = board
        self.events: list[SensorEvent] = []

    def until(
        self, predicate: Callable[[SensorEvent], bool], timeout: float = PATIENCE
    ) -> SensorEvent:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            event = self.board.read(timeout=0.05)
            if event is not None:
                self.events.append(event)
                if predicate(event):
                    return event
        raise AssertionError(f"no matching event within {timeout} s; got {self.events}")

    def drain(self, seconds: float) -> list[SensorEvent]:
        """Every event within ``seconds``."""
        events = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            event = self.board.read(timeout=left)
            if event is not None:
                events.append(event)
        return events

    def wait_leds(self, expected: str | Callable[[str], bool], timeout: float = PATIENCE) -> None:
        """Until the LEDs show ``expected`` (or ``expected(shown)`` holds)."""
        shows = expected if callable(expected) else expected.__eq__
        deadline = time.monotonic() + timeout
        while not shows(self.emulator.describe_leds()):
            if time.monotonic() > deadline:
                raise AssertionError(f"LEDs show {self.emulator.describe_leds()!r}")
            time.sleep(0.01)

    def until_link(self, connected: bool = True, timeout: float = PATIENCE) -> LinkHealth:
        event = self.until(
            lambda e: isinstance(e, LinkHealth) and e.connected is connected, timeout
        )
        assert isinstance(event, LinkHealth)
        return event


@pytest.fixture
def firmware_settings() -> Callable[..., SimpleNamespace]:
    """The firmware config with some values changed (e.g. a faster heartbeat)."""

    def make(**overrides: int) -> SimpleNamespace:
        values = {name: getattr(config, name) for name in dir(config) if name.isupper()}
        values.update(overrides)
        return SimpleNamespace(**values)

    return make


@pytest.fixture
def make_link() -> Iterator[Callable[..., Link]]:
    opened: list[tuple[Emulator, SerialBoard]] = []

    def make(
        firmware_settings: SimpleNamespace | None = None,
        interpreter: str = "cpython",
        build: dict[str, Any] | None = None,
        **driver: float,
    ) -> Link:
        """``build``: how the emulated board is built (Emulator's ``wiring``, ``strip``)."""
        emulator = Emulator(
            seed=7, settings=firmware_settings or config, interpreter=interpreter, **(build or {})
        )
        emulator.start()
        board = SerialBoard(str(emulator.link), **driver)
        opened.append((emulator, board))
        link = Link(emulator, board)
        link.until_link()
        return link

    yield make
    for emulator, board in opened:
        board.close()
        emulator.close()
