"""Where each square's reed switch and LED sit: config.py's ORIENTATION / SQUARE_MAP and LAYOUT /
START / SQUARES, the same options under the same names as the Pi's board file (docs/hardware.md).

MicroPython code; the emulator imports it too, to wire its simulated board the same ways. A bad
value raises ValueError naming the setting: on a Pico the host then shows it as the firmware's
failure.
"""

from .protocol import LAYOUTS, ORIENTATIONS

SQUARE_COUNT = 32


def crossings(settings, rows, columns):
    """The matrix crossing (row * columns + column) of each square, square 1 first.

    ``ORIENTATION = "white"``: square n at crossing n - 1 (8 x 4: row 0 holds squares 1-4, the far
    row seen from White; 4 x 8: two board rows a matrix row); ``"black"``: the grid wired from
    Black's side, square n at crossing 32 - n. ``SQUARE_MAP``, 32 (row, column) pairs, square 1
    first, describes any other wiring.
    """
    square_map = getattr(settings, "SQUARE_MAP", None)
    if square_map is None:
        orientation = getattr(settings, "ORIENTATION", "white")
        if orientation not in ORIENTATIONS:
            raise ValueError("config.ORIENTATION: 'white' or 'black', not " + repr(orientation))
        if rows * columns != SQUARE_COUNT:
            raise ValueError("config.ORIENTATION needs 32 crossings; give config.SQUARE_MAP")
        if orientation == "white":
            return list(range(SQUARE_COUNT))
        return [SQUARE_COUNT - 1 - index for index in range(SQUARE_COUNT)]
    if len(square_map) != SQUARE_COUNT:
        raise ValueError("config.SQUARE_MAP: 32 (row, column) pairs, square 1 first")
    found = []  # type: list[int]
    for index in range(SQUARE_COUNT):
        row, column = square_map[index]
        if not (0 <= row < rows and 0 <= column < columns):
            raise ValueError(
                f"config.SQUARE_MAP: square {index + 1}: no crossing ({row}, {column})"
                f" in {rows} rows x {columns} columns"
            )
        crossing = row * columns + column
        if crossing in found:
            first = found.index(crossing) + 1
            raise ValueError(
                f"config.SQUARE_MAP: square {index + 1}: crossing ({row}, {column})"
                f" is already square {first}"
            )
        found.append(crossing)
    return found


def strip(settings):
    """The LED strip index of each square, square 1 first (the status LEDs follow at 32, 33).

    ``LAYOUT = "in-order"``: every row left to right as White sees it; ``"serpentine"``: the rows
    alternate direction. ``START = 32``: the strip begins at square 32. ``SQUARES``, the strip
    index of each square 1-32, describes any other strip.
    """
    squares = getattr(settings, "SQUARES", None)
    if squares is not None:
        if len(squares) != SQUARE_COUNT or sorted(squares) != list(range(SQUARE_COUNT)):
            raise ValueError("config.SQUARES: the strip index 0-31 of each square, each once")
        return list(squares)
    layout = getattr(settings, "LAYOUT", "in-order")
    start = getattr(settings, "START", 1)
    if layout not in LAYOUTS:
        raise ValueError("config.LAYOUT: 'in-order' or 'serpentine', not " + repr(layout))
    if start not in (1, 32):
        raise ValueError("config.START: 1 or 32, not " + repr(start))
    order = []  # squares in strip order
    for row in range(8):
        squares_in_row = [row * 4 + column + 1 for column in range(4)]
        if layout == "serpentine" and row % 2:
            squares_in_row.reverse()
        order.extend(squares_in_row)
    if start == 32:
        order = [SQUARE_COUNT + 1 - square for square in order]
    leds = [0] * SQUARE_COUNT
    for index in range(SQUARE_COUNT):
        leds[order[index] - 1] = index
    return leds
