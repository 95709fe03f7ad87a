"""Reads the reed matrix and the clock levers through the HAL, debounced, and counts presses."""

from .debounce import Debouncer


class Scanner:
    """The board's inputs: a debounced occupancy mask and a press counter per lever.

    A lever already held when the firmware starts is not a press.
    """

    def __init__(self, hal, debounce_scans):
        self.hal = hal
        self.squares = Debouncer(debounce_scans)
        self.levers = Debouncer(debounce_scans)
        self.presses = [0, 0]

    def scan_matrix(self):
        """One raw scan: bit n-1 set when square n's switch is closed."""
        hal = self.hal
        width = hal.columns
        mask = 0
        for row in range(hal.rows):
            hal.select_row(row)
            mask |= hal.read_columns() << (row * width)
        hal.release_rows()
        return mask

    def scan(self):
        """Scan once; returns ``(occupancy or None, lever_pressed)``."""
        occupancy = self.squares.feed(self.scan_matrix())
        before = self.levers.settled
        after = self.levers.feed(self.hal.read_levers())
        pressed = False
        if before is not None and after is not None:
            for side in (0, 1):
                bit = 1 << side
                if after & bit and not before & bit:
                    self.presses[side] += 1
                    pressed = True
        return occupancy, pressed
