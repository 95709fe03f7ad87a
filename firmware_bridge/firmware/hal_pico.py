"""The HAL on a real Pico: machine.Pin for the matrix and levers, neopixel, USB serial stdio.

Also what runs under the MicroPython unix port in the tests and the emulator, where
firmware_bridge/pico_standin provides ``machine`` and ``neopixel``.
"""

import os
import select
import sys
import time

import machine
import micropython
import neopixel

from . import config
from .protocol import LED_SLOTS


class PicoHal:
    """Pins from ``config``; rows idle as pulled-up inputs and are driven low one at a time."""

    def __init__(self, settings=config):
        self._watchdog = machine.WDT(timeout=settings.WATCHDOG_MS)
        pull_up = machine.Pin.PULL_UP
        self.settle_us = settings.SETTLE_US
        self._rows = [machine.Pin(gp, machine.Pin.IN, pull_up) for gp in settings.ROW_PINS]
        self._columns = [machine.Pin(gp, machine.Pin.IN, pull_up) for gp in settings.COLUMN_PINS]
        self._levers = [machine.Pin(gp, machine.Pin.IN, pull_up) for gp in settings.LEVER_PINS]
        self.rows = len(self._rows)
        self.columns = len(self._columns)
        self._strip = neopixel.NeoPixel(machine.Pin(settings.LED_PIN), LED_SLOTS)
        self._row = None
        micropython.kbd_intr(-1)  # byte 0x03 is data here, not Ctrl-C
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._out_poll = select.poll()
        self._out_poll.register(sys.stdout, select.POLLOUT)
        self._stdin = sys.stdin.buffer
        self._stdout = sys.stdout.buffer

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, later, earlier):
        return time.ticks_diff(later, earlier)

    def sleep_ms(self, ms):
        time.sleep_ms(ms)

    def board_id(self):
        return machine.unique_id()

    def boot_id(self):
        return os.urandom(4)  # the RP2040's ring oscillator: differs from boot to boot

    def feed_watchdog(self):
        self._watchdog.feed()

    def reset(self):
        machine.reset()

    def select_row(self, row):
        if self._row is not None:
            self._rows[self._row].init(machine.Pin.IN, machine.Pin.PULL_UP)
        pin = self._rows[row]
        pin.init(machine.Pin.OUT, value=0)
        self._row = row
        time.sleep_us(self.settle_us)

    def release_rows(self):
        if self._row is not None:
            self._rows[self._row].init(machine.Pin.IN, machine.Pin.PULL_UP)
            self._row = None

    def read_columns(self):
        return _low_pins(self._columns)

    def read_idle_rows(self):
        rows = self._rows
        mask = 0
        for index in range(len(rows)):
            if index != self._row and rows[index].value() == 0:
                mask |= 1 << index
        return mask

    def read_levers(self):
        return _low_pins(self._levers)

    def write_leds(self, rgb):
        strip = self._strip
        for index in range(len(rgb) // 3):
            at = 3 * index
            strip[index] = (rgb[at], rgb[at + 1], rgb[at + 2])
        strip.write()

    def read(self):
        if not _ready(self._poll):
            return b""  # the usual case: nothing allocated
        data = bytearray()
        while len(data) < 256 and _ready(self._poll):
            byte = self._stdin.read(1)
            if not byte:  # end of input: only off the Pico, when the other side went away
                break
            data.extend(byte)
        return data

    def write(self, data):
        if not _ready(self._out_poll):  # the host is not reading: drop, never block the scan
            return False
        self._stdout.write(data)
        return True


def _ready(poll):
    """Whether a registered stream is ready now; ``ipoll`` reuses its tuple (no allocation)."""
    for _ in poll.ipoll(0):  # MicroPython's select.poll (see pyproject: mypy)
        return True
    return False


def _low_pins(pins):
    """Bit i set when ``pins[i]`` reads low (indexing, not enumerate: no allocation per call)."""
    mask = 0
    for index in range(len(pins)):
        if pins[index].value() == 0:
            mask |= 1 << index
    return mask
