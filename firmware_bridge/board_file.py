"""The Pico's layout from the host's board file: the options of the Pi's board file that say
where the squares sit (docs/hardware.md), sent to the board at every link-up.

    [matrix]
    orientation = "black"        # or square_map = { "1" = [row, column], ... }
    [leds]
    layout = "serpentine"        # start = 32, or squares = [strip index of square 1, ...]

They replace the firmware's ORIENTATION / SQUARE_MAP / LAYOUT / START / SQUARES (config.py)
until the board resets. The Pico's pins and timing stay in its config.py.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path

from firmware_bridge.firmware.layout import strip
from firmware_bridge.firmware.protocol import Layout, pack_layout

_KEYS = {"matrix": ("orientation", "square_map"), "leds": ("layout", "start", "squares")}
#: config.py's names -> the board file's, for error messages.
_NAMES = {
    "config.ORIENTATION": "matrix.orientation",
    "config.SQUARE_MAP": "matrix.square_map",
    "config.LAYOUT": "leds.layout",
    "config.START": "leds.start",
    "config.SQUARES": "leds.squares",
}


def read_layout(path: str | Path) -> bytes:
    """The LAYOUT payload the board file at ``path`` describes; ``ValueError`` naming the file
    and the key that is wrong."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
        return pack_layout(_layout(data))
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path}: {error}") from None
    except ValueError as error:
        text = str(error)
        for config_name, file_name in _NAMES.items():
            text = text.replace(config_name, file_name)
        raise ValueError(f"{path}: {text}") from None


def _table(data: Mapping[str, object], name: str) -> Mapping[str, object]:
    table = data.get(name, {})
    if not isinstance(table, Mapping):
        raise ValueError(f"{name}: expected a table")
    for key in table:
        if key not in _KEYS[name]:
            raise ValueError(
                f"{name}: unknown key {key!r} (expected one of {', '.join(_KEYS[name])}; the"
                " Pico's pins and timing are in its config.py)"
            )
    return table


def _layout(data: Mapping[str, object]) -> Layout:
    for name in data:
        if name not in _KEYS:
            raise ValueError(f"unknown table [{name}] (expected [matrix] and [leds])")
    matrix, leds = _table(data, "matrix"), _table(data, "leds")
    if "orientation" in matrix and "square_map" in matrix:
        raise ValueError("matrix: give either 'orientation' or 'square_map', not both")
    if "squares" in leds and ("layout" in leds or "start" in leds):
        raise ValueError("leds: give either 'squares' or 'layout'/'start', not both")
    layout = Layout(
        orientation=matrix.get("orientation", "white"),
        layout=leds.get("layout", "in-order"),
        start=leds.get("start", 1),
        squares=leds.get("squares"),
    )
    if layout.ORIENTATION not in ("white", "black"):
        raise ValueError(f"config.ORIENTATION: 'white' or 'black', not {layout.ORIENTATION!r}")
    if "square_map" in matrix:
        layout.SQUARE_MAP = _square_map(matrix["square_map"])
    strip(layout)  # checks layout, start and squares as the firmware will
    return layout


def _square_map(value: object) -> list[tuple[int, int]]:
    if not isinstance(value, Mapping) or set(value) != {str(s) for s in range(1, 33)}:
        raise ValueError('config.SQUARE_MAP: a table of all 32 squares, "1" = [row, column]')
    pairs: list[tuple[int, int]] = []
    for square in range(1, 33):
        cell = value[str(square)]
        if (
            not isinstance(cell, list)
            or len(cell) != 2
            or not all(isinstance(n, int) and 0 <= n <= 15 for n in cell)
        ):
            raise ValueError(f"config.SQUARE_MAP.{square}: expected [row, column], each 0-15")
        if (cell[0], cell[1]) in pairs:
            raise ValueError(f"config.SQUARE_MAP.{square}: crossing {cell} is used twice")
        pairs.append((cell[0], cell[1]))
    return pairs
