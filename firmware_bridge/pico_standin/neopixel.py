"""A stand-in for MicroPython's ``neopixel`` on the unix port: the strip reports what it shows."""

import machine


class NeoPixel:
    """``n`` pixels on ``pin``; ``write()`` sends the colours to the emulator (a ``leds`` line)."""

    def __init__(self, pin, n):
        self.pin = pin
        self.n = n
        self._pixels = [(0, 0, 0)] * n

    def __setitem__(self, index, rgb):
        self._pixels[index] = rgb

    def __getitem__(self, index):
        return self._pixels[index]

    def __len__(self):
        return self.n

    def write(self):
        text = "".join("{:02x}{:02x}{:02x}".format(*rgb) for rgb in self._pixels)
        machine.board.status("leds " + text)
