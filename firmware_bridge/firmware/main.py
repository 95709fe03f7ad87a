"""Pico entry point (copied to the Pico as /main.py): run the bridge firmware on real pins.

Hold Black's lever while plugging in to skip it and keep the REPL, e.g. for mpremote: while the
firmware runs, Ctrl-C is switched off (byte 0x03 is data), so nothing can interrupt it. The
firmware feeds a watchdog and resets the board on any error (app.run_or_reset).
"""

import machine
from firmware import config

maintenance = machine.Pin(config.LEVER_PINS[0], machine.Pin.IN, machine.Pin.PULL_UP)
if maintenance.value() == 1:
    from firmware.app import run_or_reset
    from firmware.hal_pico import PicoHal

    run_or_reset(PicoHal())
