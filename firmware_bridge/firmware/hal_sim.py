"""A simulated HAL for CPython: settable switches and levers, recorded LEDs, byte streams.

It follows PicoHal's contract (same methods, same meaning) so the firmware cannot tell them
apart; the matrix is the circuit model the MicroPython stand-in uses too, missing diodes and
all. Nothing picks it by default: tests and the emulator pass it in by hand.
"""

import os
import threading
import time

from firmware_bridge.pico_standin.matrix_model import Matrix


class SimHal:
    """A board whose pieces are bits: ``switches`` bit n-1 is square n's reed switch closed.

    ``output`` is called with every chunk the firmware writes (one whole frame per call);
    ``now`` is the clock in seconds (tests pass a fake one).
    """

    def __init__(self, rows=8, columns=4, board_id=b"EMULATED", output=None, now=time.monotonic):
        self.rows = rows
        self.columns = columns
        self.matrix = Matrix(rows, columns)
        self._switches = 0
        self.levers = 0
        self.pixels = None
        self.led_writes = 0
        self.output = output if output is not None else self._collect
        self.written = bytearray()
        self._board_id = bytes(board_id)
        self._row = None
        self._levels = (0, 0)
        self.resets = 0
        self._input = bytearray()
        self._lock = threading.Lock()
        self._now = now
        self._start = now()

    @property
    def switches(self):
        """Bit n-1: square n's reed switch is closed (taken in between scans, all at once)."""
        return self._switches

    @switches.setter
    def switches(self, mask):
        self._switches = mask

    @property
    def missing_diodes(self):
        """Bit n-1: square n's diode is missing or shorted."""
        return self.matrix.missing_diodes

    @missing_diodes.setter
    def missing_diodes(self, mask):
        self.matrix.missing_diodes = mask

    def _collect(self, data):
        self.written.extend(data)

    def feed(self, data):
        """Bytes arriving from the host (any thread)."""
        with self._lock:
            self._input.extend(data)

    def ticks_ms(self):
        return int((self._now() - self._start) * 1000)

    def ticks_diff(self, later, earlier):
        return later - earlier

    def sleep_ms(self, ms):
        time.sleep(ms / 1000)

    def board_id(self):
        return self._board_id

    def boot_id(self):
        return os.urandom(4)

    def feed_watchdog(self):
        pass  # nothing here can hang the simulated board

    def reset(self):
        self.resets += 1

    def select_row(self, row):
        if row == 0:
            self.matrix.switches = self._switches
        self._row = row
        self._levels = self.matrix.levels(row)

    def release_rows(self):
        self._row = None
        self._levels = (0, 0)

    def read_columns(self):
        return self._levels[0]

    def read_idle_rows(self):
        return self._levels[1]

    def read_levers(self):
        return self.levers

    def write_leds(self, rgb):
        self.pixels = [tuple(rgb[i : i + 3]) for i in range(0, len(rgb), 3)]
        self.led_writes += 1

    def read(self):
        with self._lock:
            data = bytes(self._input)
            self._input = bytearray()
        return data

    def write(self, data):
        self.output(bytes(data))
        return True
