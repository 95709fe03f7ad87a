"""Starts the real firmware (main.py, unchanged) under the MicroPython unix port.

    micropython boot.py FIRMWARE_PARENT STANDIN_DIR [NAME=JSON ...]

FIRMWARE_PARENT holds the ``firmware`` package (firmware_bridge/), STANDIN_DIR the stand-in
``machine`` and ``neopixel``; NAME=JSON pairs override settings in firmware/config.py (tests use
a faster heartbeat, another orientation). The emulator (firmware_bridge/emulator.py) runs this.
"""

import json
import sys

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])

from firmware import config

for pair in sys.argv[3:]:
    name, value = pair.split("=", 1)
    setattr(config, name, json.loads(value))

import firmware.main  # noqa: E402, F401  - runs the firmware, as /main.py does on a Pico
