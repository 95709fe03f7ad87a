"""A simulated HAL for CPython: settable switches and levers, recorded LEDs, byte streams.

It follows PicoHal's contract (same methods, same meaning) so the firmware cannot tell them
apart. Nothing picks it by default: tests and the emulator pass it in by hand.
"""

import threading
import time


class SimHal:
    """A board whose pieces are bits: ``switches`` bit n-1 is square n's reed switch closed.

    ``output`` is called with every chunk the firmware writes (one whole frame per call);
    ``now`` is the clock in seconds (tests pass a fake one).
    """

    def __init__(self, rows=8, columns=4, board_id=b"EMULATED", output=None, now=time.monotonic):
        self.rows = rows
        self.columns = columns
        self.switches = 0
        self.levers = 0
        self.pixels = None
        self.led_writes = 0
        self.output = output if output is not None else self._collect
        self.written = bytearray()
        self._board_id = bytes(board_id)
        self._row = None
        self._input = bytearray()
        self._lock = threading.Lock()
        self._now = now
        self._start = now()

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

    def select_row(self, row):
        self._row = row

    def release_rows(self):
        self._row = None

    def read_columns(self):
        if self._row is None:
            return 0
        return (self.switches >> (self._row * self.columns)) & ((1 << self.columns) - 1)

    def read_levers(self):
        return self.levers

    def write_leds(self, pixels):
        self.pixels = list(pixels)
        self.led_writes += 1

    def read(self):
        with self._lock:
            data = bytes(self._input)
            self._input = bytearray()
        return data

    def write(self, data):
        self.output(bytes(data))
