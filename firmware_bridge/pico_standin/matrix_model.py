"""A reed-switch matrix as a circuit: which lines read low while one row is driven low.

MicroPython-compatible (the stand-in ``machine`` module uses it under the unix port; hal_sim uses
it on CPython). Each crossing is a reed switch in series with a diode, anode to the column, band
toward the row; columns and idle rows have pull-ups. A missing (or shorted) diode lets current
flow back from an idle row into a column, which is what makes ghosts.
"""


class Matrix:
    """``switches`` bit ``row * columns + column`` is that crossing's switch closed;
    ``missing_diodes`` the same for a crossing whose diode is missing or shorted."""

    def __init__(self, rows, columns):
        self.rows = rows
        self.columns = columns
        self.switches = 0
        self.missing_diodes = 0

    def levels(self, driven):
        """``(columns_low, idle_rows_low)`` masks while row ``driven`` is driven low (None: none).

        Current flows from a pulled-up column through a closed switch into a low row; where a
        diode is missing it also flows from a pulled-up row back into a low column.
        """
        if driven is None:
            return 0, 0
        width = self.columns
        closed = self.switches
        backwards = closed & self.missing_diodes
        rows_low = 1 << driven
        columns_low = 0
        grew = True
        while grew:
            grew = False
            for row in range(self.rows):
                if rows_low >> row & 1:
                    found = (closed >> (row * width)) & ((1 << width) - 1) & ~columns_low
                    if found:
                        columns_low |= found
                        grew = True
            for row in range(self.rows):
                leaks = (backwards >> (row * width)) & columns_low & ((1 << width) - 1)
                if leaks and not rows_low >> row & 1:
                    rows_low |= 1 << row
                    grew = True
        return columns_low, rows_low & ~(1 << driven)
