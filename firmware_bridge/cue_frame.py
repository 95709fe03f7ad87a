"""Turns the cue picture into the board's LED entries (colour + blink code per LED)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cues import CUE_STYLES, Blink, Cues
from firmware_bridge.firmware.protocol import (
    BLINK_FAST,
    BLINK_SLOW,
    BLINK_SOLID,
    SQUARE_LEDS,
    STATUS_LEDS,
)

#: One LED in a frame: red, green, blue (0-255) and a blink code.
Entry = tuple[int, int, int, int]

BLINK_CODES: dict[Blink, int] = {
    Blink.SOLID: BLINK_SOLID,
    Blink.SLOW: BLINK_SLOW,
    Blink.FAST: BLINK_FAST,
}
DARK: Entry = (0, 0, 0, BLINK_SOLID)
#: Status LED 1 once the host has linked: dim green.
LINKED: Entry = (0, 40, 0, BLINK_SOLID)


def entry(rgb: tuple[int, int, int], blink: Blink = Blink.SOLID) -> Entry:
    """One LED entry; ``ValueError`` if a colour component is outside 0-255."""
    if len(rgb) != 3 or any(not 0 <= c <= 255 for c in rgb):
        raise ValueError(f"colour {rgb!r} must be three components 0-255")
    return (*rgb, BLINK_CODES[blink])


def frame_entries(cues: Cues, status: Sequence[Entry] = (LINKED, DARK)) -> list[Entry]:
    """Squares 1-32 in chain order with each cue's CUE_STYLES colour and blink, then the status."""
    if len(status) != STATUS_LEDS:
        raise ValueError(f"expected {STATUS_LEDS} status LED entries, got {len(status)}")
    entries = [DARK] * SQUARE_LEDS
    for square, kind in cues:
        style = CUE_STYLES[kind]
        entries[square - 1] = entry(style.rgb, style.blink)
    return entries + list(status)
