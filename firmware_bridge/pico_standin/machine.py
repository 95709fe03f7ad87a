"""A stand-in for a Pico's ``machine`` module on the MicroPython unix port, wired to a reed matrix.

The firmware runs unchanged; only the hardware is simulated: ``Pin`` reads the matrix of
matrix_model.Matrix (rows, columns and levers as firmware/config.py wires them), ``WDT`` and
``reset`` report to the emulator, which plays the watchdog and the reset line. MicroPython code:
no threads, no ``time.monotonic``.

The emulator talks to it over two pipes named in ``POOLBOARD_PICO_CONTROL`` ("IN,OUT" file
descriptors). In: ``switches N``, ``levers N``, ``diodes N`` (crossings whose diode is missing),
``crash`` (the next column read raises), ``hang`` (the next column read never returns); applied
between scans, when the firmware feeds its watchdog. Out: ``wdt MS``, ``fed``, ``leds HEX``,
``reset``. End of input means the emulator is gone: the board powers off.
"""

import binascii
import os
import select
import sys

from firmware import config
from matrix_model import Matrix

FEEDS_PER_REPORT = 8  # "fed" lines are sent for every 8th feed (the emulator times them)
_IDLE = (0, 0)  # no row driven: nothing reads low


class _Board:
    """The simulated board behind the pins, and the two pipes to the emulator."""

    def __init__(self):
        self.matrix = Matrix(len(config.ROW_PINS), len(config.COLUMN_PINS))
        self.levers = 0
        self.driven = None  # the row index driven low, if any
        self.fault = None  # "crash" or "hang", injected by the emulator
        self.feeds = 0
        self._levels = _IDLE
        self._by_row = [_IDLE] * self.matrix.rows
        ends = (os.getenv("POOLBOARD_PICO_CONTROL") or "").split(",")
        if len(ends) != 2:
            raise RuntimeError("POOLBOARD_PICO_CONTROL must name two file descriptors: IN,OUT")
        self._control = open(int(ends[0]), "rb")  # noqa: SIM115 - open for the board's life
        self._status = open(int(ends[1]), "wb")  # noqa: SIM115
        self._poll = select.poll()
        self._poll.register(self._control, select.POLLIN)
        self.apply()

    def status(self, line):
        """One line to the emulator."""
        self._status.write(line.encode() + b"\n")  # unbuffered; flush() would fsync a pipe

    def apply(self):
        """Take in the emulator's changes: switches, levers, missing diodes, injected faults."""
        while self._poll.poll(0):
            line = self._control.readline()
            if not line:
                sys.exit(0)  # the emulator is gone: the board loses its power
            words = line.split()
            name = words[0].decode()
            if name == "switches":
                self.matrix.switches = int(words[1])
            elif name == "diodes":
                self.matrix.missing_diodes = int(words[1])
            elif name == "levers":
                self.levers = int(words[1])
            else:
                self.fault = name
            rows = range(self.matrix.rows)
            self._by_row = [self.matrix.levels(row) for row in rows]  # none computed per scan
            self._levels = self._by_row[self.driven] if self.driven is not None else (0, 0)

    def drive(self, row, low):
        """A row pin became an output driven low (``low``) or was released."""
        if low:
            self.driven = row
            self._levels = self._by_row[row]
        elif self.driven == row:
            self.driven = None
            self._levels = _IDLE

    def level(self, gp, pin):
        """What GPIO ``gp`` reads now: 0 low, 1 high (pull-ups everywhere)."""
        if gp in config.COLUMN_PINS:
            if self.fault == "crash":
                self.fault = None
                raise OSError("injected fault: column read failed")
            while self.fault == "hang":
                pass  # a driver stuck for good: only the watchdog gets the board out
            return 0 if self._levels[0] >> config.COLUMN_PINS.index(gp) & 1 else 1
        if gp in config.ROW_PINS:
            if pin.mode == Pin.OUT:
                return pin.out
            return 0 if self._levels[1] >> config.ROW_PINS.index(gp) & 1 else 1
        if gp in config.LEVER_PINS:
            return 0 if self.levers >> config.LEVER_PINS.index(gp) & 1 else 1
        return 1


board = _Board()


class Pin:
    """The part of ``machine.Pin`` the firmware uses: ``init``, ``value``, IN/OUT, PULL_UP."""

    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, gp, mode=-1, pull=-1, value=None):
        self.gp = gp
        self.mode = Pin.IN
        self.out = 1
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self.mode = mode
        if value is not None:
            self.out = value
        if self.gp in config.ROW_PINS:
            row = config.ROW_PINS.index(self.gp)
            board.drive(row, self.mode == Pin.OUT and not self.out)

    def value(self, level=None):
        if level is not None:
            self.init(value=level)
            return None
        return board.level(self.gp, self)


class WDT:
    """The watchdog: the emulator resets the board when no ``fed`` line comes for ``timeout``."""

    def __init__(self, id=0, timeout=5000):
        board.status("wdt " + str(timeout))

    def feed(self):
        board.apply()
        board.feeds += 1
        if board.feeds % FEEDS_PER_REPORT == 0:
            board.status("fed")


def reset():
    """A hard reset: the emulator starts the firmware again from power-up."""
    board.status("reset")
    sys.exit(0)


def unique_id():
    """The board id the emulator was given (``POOLBOARD_PICO_ID``, hex)."""
    return binascii.unhexlify(os.getenv("POOLBOARD_PICO_ID") or "454d554c41544544")
