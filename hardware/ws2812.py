"""WS2812 ("NeoPixel") frames as SPI bytes: the LED timing drawn with the SPI data line.

A WS2812 reads a bit from how long its data line stays high: about 0.4 us for a 0, 0.8 us for a 1,
in a 1.25 us slot; a low of more than 280 us latches the colours. Clocking SPI at 6.4 MHz makes
one SPI bit 156.25 ns, so each WS2812 bit is one whole SPI byte: ``0b11000000`` (0.31 us high) for
a 0 and ``0b11111000`` (0.78 us high) for a 1. A byte per bit costs 24 bytes per LED, but any gap
the SPI controller leaves between bytes only lengthens a low phase, which the LEDs tolerate; with
3 SPI bits per LED bit at 2.4 MHz a bit would straddle bytes and a gap could corrupt it. Colours
go out green, red, blue, most significant bit first.
"""

from __future__ import annotations

from collections.abc import Iterable

SPI_HZ = 6_400_000
ZERO = 0b1100_0000
ONE = 0b1111_1000
RESET_US = 300  # low time that latches the frame (WS2812B needs more than 280 us)
RESET = bytes(RESET_US * SPI_HZ // 8_000_000 + 1)

#: Each colour byte value -> the 8 SPI bytes that send it.
_BYTE = [bytes(ONE if value >> (7 - i) & 1 else ZERO for i in range(8)) for value in range(256)]


def encode(colours: Iterable[tuple[int, int, int]]) -> bytes:
    """The SPI bytes that set a chain of LEDs to ``colours`` (RGB 0-255), framed by resets.

    The leading reset makes sure the line has been low long enough before the first bit.
    """
    parts = [RESET]
    for red, green, blue in colours:
        parts += (_BYTE[green], _BYTE[red], _BYTE[blue])
    parts.append(RESET)
    return b"".join(parts)
