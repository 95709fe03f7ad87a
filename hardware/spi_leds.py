"""Cues on a WS2812 strip driven straight from the Pi's SPI MOSI (GPIO 10): Pi 4 and Pi 5 alike.

:class:`SpiCueDisplay` is a :class:`engine.sensing.CueDisplay`: ``show(cues)`` sets the picture and
a small refresh thread redraws it ``refresh_hz`` times a second so blinking cues blink (frames are
sent only when they change). With ``refresh_hz=0`` there is no thread and the caller drives
``render(t)``, which is what tests do. ``spidev`` is imported only when no ``spi`` is passed
(project extra ``spi-leds``). Encoding: :mod:`hardware.ws2812`. Wiring: docs/hardware.md.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from engine.cues import CUE_STYLES, Blink, Cues
from hardware import ws2812
from hardware.config import check_keys, integer, number, section

LAYOUTS = ("in-order", "serpentine")

Rgb = tuple[int, int, int]


class SpiDevice(Protocol):
    """The part of ``spidev.SpiDev`` the display uses."""

    max_speed_hz: int
    mode: int
    bits_per_word: int

    def open(self, bus: int, device: int) -> None: ...

    def writebytes2(self, data: bytes) -> None: ...

    def close(self) -> None: ...


def square_order(layout: str, start: int) -> list[int]:
    """LED index of each square 1-32 (list position = square - 1) for a strip laid row by row.

    ``"in-order"``: every row left to right as White sees it, from square 1 on; ``"serpentine"``:
    the rows alternate direction. ``start=32`` means the strip begins at square 32 instead.
    """
    order: list[int] = []  # squares in strip order
    for row in range(8):
        squares = list(range(row * 4 + 1, row * 4 + 5))
        order += squares[::-1] if layout == "serpentine" and row % 2 else squares
    if start == 32:
        order = [33 - s for s in order]
    leds = [0] * 32
    for index, square in enumerate(order):
        leds[square - 1] = index
    return leds


@dataclass(frozen=True, slots=True)
class LedLayout:
    """Where each square's LED sits on the strip, the status LEDs, brightness and SPI device."""

    squares: tuple[int, ...] = tuple(range(32))  # LED index of square 1, 2, ... 32
    status: Mapping[str, int] = field(default_factory=dict)  # name -> LED index
    count: int = 32
    brightness: float = 0.25  # 0-1; a WS2812 at full white draws 60 mA
    spi_bus: int = 0
    spi_device: int = 0
    refresh_hz: float = 30.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", MappingProxyType(dict(self.status)))

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, object], where: str = "leds") -> LedLayout:
        """Build from a ``[leds]`` table; ``ValueError`` names the bad key.

        Squares come from ``squares`` (32 LED indices, square 1 first) or from ``layout``
        ("in-order" or "serpentine") and ``start`` (1 or 32, the square the strip begins at).
        """
        keys = ("squares", "layout", "start", "status", "count", "brightness")
        check_keys(mapping, where, (*keys, "spi_bus", "spi_device", "refresh_hz"))
        if "squares" in mapping:
            if "layout" in mapping or "start" in mapping:
                raise ValueError(f"{where}: give either 'squares' or 'layout'/'start', not both")
            value = mapping["squares"]
            if not isinstance(value, list | tuple) or len(value) != 32:
                raise ValueError(f"{where}.squares: expected 32 LED indices, got {value!r}")
            squares = [integer(v, f"{where}.squares[{i}]", 0, 9999) for i, v in enumerate(value)]
        else:
            layout = mapping.get("layout", "in-order")
            if layout not in LAYOUTS:
                raise ValueError(
                    f"{where}.layout: expected one of {', '.join(LAYOUTS)}, got {layout!r}"
                )
            start = mapping.get("start", 1)
            if start not in (1, 32) or isinstance(start, bool):
                raise ValueError(f"{where}.start: expected 1 or 32, got {start!r}")
            squares = square_order(str(layout), int(start))
        status_table = section(mapping, "status", where)
        status = {
            str(name): integer(v, f"{where}.status.{name}", 0, 9999)
            for name, v in status_table.items()
        }
        used: dict[int, str] = {}
        for name, index in [(f"squares[{i}]", v) for i, v in enumerate(squares)] + [
            (f"status.{n}", v) for n, v in status.items()
        ]:
            if index in used:
                raise ValueError(f"{where}.{name}: LED {index} is already {where}.{used[index]}")
            used[index] = name
        needed = max(used) + 1
        count = integer(mapping.get("count", needed), f"{where}.count", needed, 9999)
        return cls(
            squares=tuple(squares),
            status=status,
            count=count,
            brightness=number(mapping.get("brightness", 0.25), f"{where}.brightness", 0, 1),
            spi_bus=integer(mapping.get("spi_bus", 0), f"{where}.spi_bus", 0, 6),
            spi_device=integer(mapping.get("spi_device", 0), f"{where}.spi_device", 0, 3),
            refresh_hz=number(mapping.get("refresh_hz", 30.0), f"{where}.refresh_hz", 0, 200),
        )


class SpiUnavailable(RuntimeError):
    """The SPI device cannot be opened; the message says how to fix it."""


def open_spidev(bus: int, device: int) -> SpiDevice:
    """Open ``/dev/spidev<bus>.<device>`` with the real ``spidev`` module, imported only now."""
    try:
        spidev = importlib.import_module("spidev")
    except ImportError:
        raise SpiUnavailable("spidev is not installed: pip install 'poolboard[spi-leds]'") from None
    spi = spidev.SpiDev()
    try:
        spi.open(bus, device)
    except FileNotFoundError:
        raise SpiUnavailable(
            f"/dev/spidev{bus}.{device} is missing: enable SPI (sudo raspi-config nonint do_spi 0)"
        ) from None
    except PermissionError:
        raise SpiUnavailable(
            f"no access to /dev/spidev{bus}.{device}: add the user to the spi group"
        ) from None
    return spi


class SpiCueDisplay:
    """Shows :class:`engine.cues.Cues` on a WS2812 strip wired to SPI MOSI through a level shifter.

    Example::

        display = SpiCueDisplay(LedLayout.from_mapping(table["leds"]))
        display.show(Cues({12: CueKind.REMOVE}))
        display.set_status("link", (0, 0, 255))
        display.close()  # all LEDs off
    """

    def __init__(
        self,
        layout: LedLayout | None = None,
        spi: SpiDevice | None = None,
        refresh_hz: float | None = None,
    ) -> None:
        self.layout = layout or LedLayout()
        self.spi = spi
        if self.spi is None:
            self.spi = open_spidev(self.layout.spi_bus, self.layout.spi_device)
        else:
            self.spi.open(self.layout.spi_bus, self.layout.spi_device)
        self.spi.max_speed_hz = ws2812.SPI_HZ
        self.spi.mode = 0
        self.spi.bits_per_word = 8
        self._cues = Cues.none()
        self._status: dict[str, tuple[Rgb, Blink]] = {}
        self._sent: bytes | None = None
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        hz = self.layout.refresh_hz if refresh_hz is None else refresh_hz
        if hz > 0:
            self._thread = threading.Thread(
                target=self._refresh, args=(1.0 / hz,), name="spi-leds", daemon=True
            )
            self._thread.start()

    def show(self, cues: Cues) -> None:
        """Replace the whole picture (drawn at once, then kept blinking by the refresh thread)."""
        with self._lock:
            self._cues = cues
        self.render(time.monotonic())

    def set_status(self, name: str, rgb: Rgb | None, blink: Blink = Blink.SOLID) -> None:
        """Light a status LED named in the layout (``None`` turns it off)."""
        if name not in self.layout.status:
            raise KeyError(f"no status LED {name!r} (layout has {sorted(self.layout.status)})")
        with self._lock:
            if rgb is None:
                self._status.pop(name, None)
            else:
                self._status[name] = (rgb, blink)
        self.render(time.monotonic())

    def colours(self, t: float) -> list[Rgb]:
        """Every LED's colour at time ``t`` (seconds; blink phases follow :meth:`Blink.is_on`)."""
        scale = self.layout.brightness
        frame = [(0, 0, 0)] * self.layout.count
        with self._lock:
            lit = [
                (self.layout.squares[square - 1], CUE_STYLES[kind].rgb, CUE_STYLES[kind].blink)
                for square, kind in self._cues
            ]
            lit += [
                (self.layout.status[name], rgb, blink)
                for name, (rgb, blink) in self._status.items()
            ]
        for index, rgb, blink in lit:
            if blink.is_on(t):
                frame[index] = (
                    round(rgb[0] * scale),
                    round(rgb[1] * scale),
                    round(rgb[2] * scale),
                )
        return frame

    def render(self, t: float) -> None:
        """Send the frame for time ``t`` if it differs from the last one sent."""
        with self._lock:  # one frame at a time, so a stale frame never overtakes a new one
            data = ws2812.encode(self.colours(t))
            if data == self._sent or self.spi is None:
                return
            self._sent = data
            self.spi.writebytes2(data)

    def _refresh(self, period: float) -> None:
        while not self._stop.wait(period):
            self.render(time.monotonic())

    def close(self) -> None:
        """Stop refreshing, turn every LED off and release the SPI device."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            self._cues = Cues.none()
            self._status.clear()
        self.render(0.0)
        with self._lock:
            if self.spi is not None:
                self.spi.close()
                self.spi = None

    def __enter__(self) -> SpiCueDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
