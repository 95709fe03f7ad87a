"""Heap allocations of the Pico firmware under MicroPython's unix port (gc.mem_alloc deltas).

    .venv/bin/python bench/firmware_alloc.py [--passes 400]

Runs firmware_bridge/pico_standin/alloc_probe.py under ``micropython`` with the stand-in
``machine`` wired to a board holding the start position, and prints the bytes allocated per
matrix scan, per pass of the main loop (scan, reports, LED redraws at 5 ms a pass) and per
second, the live heap and how long one full collection took here.
"""

from __future__ import annotations

import argparse

from firmware_bridge.micropython_board import measure_allocations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=400)
    figures = measure_allocations(parser.parse_args().passes)
    print(f"matrix scan:         {figures['scan_bytes']} bytes allocated")
    print(f"main-loop pass:      {figures['step_bytes']} bytes allocated")
    print(f"per second (5 ms):   {figures['per_second']} bytes")
    print(f"live heap:           {figures['live_bytes']} bytes")
    print(f"gc.collect() here:   {figures['collect_us']} us (unix port, x86-64)")


if __name__ == "__main__":
    main()
