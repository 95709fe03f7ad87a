"""A simulated ``spidev.SpiDev`` with a WS2812 chain on its MOSI line, for tests.

It does not trust the encoder: every transfer is turned back into a waveform at ``max_speed_hz``
and read the way a WS2812B datasheet says the chip reads it (high 0.25-0.55 us = 0, 0.65-0.95 us
= 1, lows of 0.2-5 us between bits, a low of 50 us or more = latch). Pulses outside those
windows raise :class:`WaveformError`, so a wrong clock or bit pattern fails the test instead of
lighting the wrong colours.
"""

from __future__ import annotations

import errno
from collections.abc import Iterable

ZERO_HIGH_NS = (250, 550)
ONE_HIGH_NS = (650, 950)
LOW_NS = (200, 5_000)  # the low between bits; longer lows are undefined until a latch
LATCH_NS = 50_000


class WaveformError(ValueError):
    """The SPI stream would not be read as valid WS2812 bits."""


class SimSpiDev:
    """Stands in for ``spidev.SpiDev()``; ``frames`` holds what the LEDs showed at each latch.

    Example::

        spi = SimSpiDev()
        display = SpiCueDisplay(layout, spi=spi, refresh_hz=0)
        spi.frames[-1][5]  # (r, g, b) of LED 5 after the last latch
    """

    def __init__(self, leds: int = 64) -> None:
        self.leds = leds
        self.max_speed_hz = 0
        self.mode = 0
        self.bits_per_word = 8
        self.opened: tuple[int, int] | None = None
        self.frames: list[list[tuple[int, int, int]]] = []
        self._showing = [(0, 0, 0)] * leds
        self._shift: list[int] = []  # bits received since the last latch

    def open(self, bus: int, device: int) -> None:
        """Open ``/dev/spidev<bus>.<device>``."""
        self.opened = (bus, device)

    def close(self) -> None:
        """Close the device."""
        self.opened = None

    def writebytes2(self, data: Iterable[int]) -> None:
        """Send bytes on MOSI at ``max_speed_hz`` (mode 0, MSB first)."""
        if self.opened is None:
            raise OSError(errno.EBADF, "SPI device is not open")
        if self.max_speed_hz <= 0 or self.mode != 0 or self.bits_per_word != 8:
            raise WaveformError("SPI must be set up as mode 0, 8 bits per word, with a clock")
        bit_ns = 1e9 / self.max_speed_hz
        level, run = 0, 0
        for byte in bytes(data):
            for i in range(7, -1, -1):
                bit = byte >> i & 1
                if bit != level:
                    self._edge(level, run * bit_ns)
                    level, run = bit, 0
                run += 1
        self._edge(level, run * bit_ns)
        if level:
            raise WaveformError("the transfer ends with MOSI high")

    def _edge(self, level: int, ns: float) -> None:
        """The line was at ``level`` for ``ns`` nanoseconds and now changes (or the data ended)."""
        if level:
            if ZERO_HIGH_NS[0] <= ns <= ZERO_HIGH_NS[1]:
                self._shift.append(0)
            elif ONE_HIGH_NS[0] <= ns <= ONE_HIGH_NS[1]:
                self._shift.append(1)
            else:
                raise WaveformError(f"a high pulse of {ns:.0f} ns is neither a WS2812 0 nor 1")
        elif ns >= LATCH_NS:
            self._latch()
        elif self._shift and not LOW_NS[0] <= ns <= LOW_NS[1]:
            raise WaveformError(f"a low of {ns:.0f} ns between bits is out of range")

    def _latch(self) -> None:
        if not self._shift:
            return
        bits = self._shift
        if len(bits) % 24:
            raise WaveformError(f"{len(bits)} bits latched: not a whole number of LEDs")
        showing = list(self._showing)
        for led in range(min(len(bits) // 24, self.leds)):
            value = int("".join(map(str, bits[led * 24 : led * 24 + 24])), 2)
            green, red, blue = value >> 16, value >> 8 & 0xFF, value & 0xFF
            showing[led] = (red, green, blue)
        self._showing = showing
        self.frames.append(showing)
        self._shift = []
