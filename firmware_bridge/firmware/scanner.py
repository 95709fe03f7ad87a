"""Reads the reed matrix and the clock levers through the HAL, debounced, and counts presses.

Idle rows are pulled-up inputs, so an idle row that reads low while another row is driven can
only be current flowing backwards through a switch: its diode is missing or shorted. The scanner
then names the squares involved (``fault``) and keeps the ones a ghost could fake at their last
settled value, as hardware/matrix.py does on the Pi's own GPIO.
"""

from .debounce import Debouncer
from .layout import crossings


class Scanner:
    """The board's inputs: a debounced occupancy mask, a press counter per lever, diode faults.

    A lever already held when the firmware starts is not a press.
    """

    def __init__(self, hal, debounce_scans, settings):
        self.hal = hal
        self.crossings = crossings(settings, hal.rows, hal.columns)
        self._squares_of = _row_tables(self.crossings, hal.rows, hal.columns)
        self.squares = Debouncer(debounce_scans)
        self.levers = Debouncer(debounce_scans)
        self.presses = [0, 0]
        self.pressed = False  # a lever went down in the last scan
        self.fault = 0  # squares a diode fault touched in the last scan (0: none)
        self._row_bits = [0] * hal.rows  # each row's last reading, as a column mask
        self._doubtful = 0

    def remap(self, new_crossings):
        """Take another square -> crossing map (from the host's LAYOUT) and translate what has
        been read so far into it, so no square seems to change; returns the translation."""
        old, hal = self.crossings, self.hal

        def translate(mask):
            out = 0
            for index in range(len(old)):
                if mask >> index & 1 and old[index] in new_crossings:
                    out |= 1 << new_crossings.index(old[index])
            return out

        squares = self.squares
        if squares.settled is not None:
            squares.settled = translate(squares.settled)
        squares._history = [translate(raw) for raw in squares._history]
        self.crossings = new_crossings
        self._squares_of = _row_tables(new_crossings, hal.rows, hal.columns)
        return translate

    def scan_matrix(self):
        """One raw scan: bit n-1 set when square n's switch reads closed; sets ``fault``."""
        hal = self.hal
        squares_of = self._squares_of
        row_bits = self._row_bits
        mask = 0
        self.fault = 0
        self._doubtful = 0
        for row in range(hal.rows):
            hal.select_row(row)
            bits = hal.read_columns()
            row_bits[row] = bits
            if bits:
                leaking = hal.read_idle_rows()
                if leaking:
                    self._leaks(row, bits, leaking)
            mask |= squares_of[row][bits]
        hal.release_rows()
        return mask

    def _leaks(self, row, bits, leaking):
        """Row ``row`` is driven and reads ``bits``; the rows in ``leaking`` read low too."""
        squares_of = self._squares_of
        row_bits = self._row_bits
        for other in range(len(row_bits)):
            shared = row_bits[other] & bits
            if other == row or not (leaking >> other & 1) or not shared:
                continue
            doubtful = row_bits[other]
            if shared & (shared - 1) == 0:  # one shared column: its own reading made the leak
                doubtful &= ~shared
            self.fault |= squares_of[other][shared] | squares_of[row][doubtful]
            self._doubtful |= squares_of[row][doubtful]

    def scan(self):
        """Scan once: ``squares.settled`` (None before N scans), ``pressed``, ``fault``.

        Returns nothing, so a scan allocates nothing (a returned tuple would, under MicroPython).
        """
        raw = self.scan_matrix()
        if self._doubtful:  # a ghost never reaches the host: keep the last settled value
            settled = self.squares.settled or 0
            raw = (raw & ~self._doubtful) | (settled & self._doubtful)
        self.squares.feed(raw)
        before = self.levers.settled
        after = self.levers.feed(self.hal.read_levers())
        self.pressed = False
        if before is not None and after is not None:
            for side in (0, 1):
                bit = 1 << side
                if after & bit and not before & bit:
                    self.presses[side] += 1
                    self.pressed = True


def _row_tables(square_crossings, rows, columns):
    """For each matrix row, the square mask of every reading of its columns: a lookup a scan
    makes per row, so mapping crossings to squares allocates nothing."""
    square_at = {}
    for index in range(len(square_crossings)):
        square_at[square_crossings[index]] = 1 << index
    tables = []
    for row in range(rows):
        table = []
        for bits in range(1 << columns):
            mask = 0
            for column in range(columns):
                if bits >> column & 1:
                    mask |= square_at.get(row * columns + column, 0)
            table.append(mask)
        tables.append(table)
    return tables
