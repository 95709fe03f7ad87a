"""Heap bytes the firmware allocates per scan and per pass of its loop, under MicroPython.

    micropython alloc_probe.py FIRMWARE_PARENT STANDIN_DIR PASSES

Run by bench/firmware_alloc.py (which gives the stand-in its pipes). gc is disabled while
counting, so ``gc.mem_alloc()`` deltas are every byte allocated, none freed in between.
"""

import gc
import sys
import time

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])

from firmware import config
from firmware.app import Firmware
from firmware.hal_pico import PicoHal

passes = int(sys.argv[3])
hal = PicoHal()
hal._strip.write = lambda: None  # the stand-in's report to the emulator; on a Pico it is C code
firmware = Firmware(hal)
firmware.boot()
for _ in range(20):  # settle: the first reports, the first LED frames
    hal.feed_watchdog()
    firmware.step()

gc.collect()
gc.disable()
before = gc.mem_alloc()
for _ in range(passes):
    firmware.scanner.scan()
scan = (gc.mem_alloc() - before) / passes

gc.collect()
before = gc.mem_alloc()
started = time.ticks_ms()
for _ in range(passes):
    firmware.step()
    time.sleep_ms(config.SCAN_PERIOD_MS)
elapsed = time.ticks_diff(time.ticks_ms(), started) / 1000
step = (gc.mem_alloc() - before) / passes
gc.enable()

live = gc.mem_alloc()
started = time.ticks_us()
gc.collect()
pause_us = time.ticks_diff(time.ticks_us(), started)
figures = (int(scan), int(step), int(step * passes / elapsed), live, pause_us)
print("scan_bytes={} step_bytes={} per_second={} live_bytes={} collect_us={}".format(*figures))
