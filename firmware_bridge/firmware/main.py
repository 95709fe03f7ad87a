"""Pico entry point (copied to the Pico as /main.py): run the bridge firmware on real pins."""

from firmware.app import Firmware
from firmware.hal_pico import PicoHal

Firmware(PicoHal()).run()
