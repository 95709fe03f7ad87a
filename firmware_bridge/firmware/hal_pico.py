"""The HAL on a real Pico: machine.Pin for the matrix and levers, neopixel, USB serial stdio."""

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
        mask = 0
        for index, pin in enumerate(self._columns):
            if pin.value() == 0:
                mask |= 1 << index
        return mask

    def read_levers(self):
        mask = 0
        for index, pin in enumerate(self._levers):
            if pin.value() == 0:
                mask |= 1 << index
        return mask

    def write_leds(self, pixels):
        strip = self._strip
        for index, rgb in enumerate(pixels):
            strip[index] = rgb
        strip.write()

    def read(self):
        data = bytearray()
        while len(data) < 256 and self._poll.poll(0):
            data.extend(self._stdin.read(1))
        return data

    def write(self, data):
        self._stdout.write(data)
