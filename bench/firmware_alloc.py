"""Heap allocations of the Pico firmware under MicroPython's unix port (gc.mem_alloc deltas).

    .venv/bin/python bench/firmware_alloc.py [--passes 400]

Runs firmware_bridge/pico_standin/alloc_probe.py under ``micropython`` with the stand-in
``machine`` wired to a board holding the start position, and prints the bytes allocated per
matrix scan, per pass of the main loop (scan, reports, LED redraws at 5 ms a pass) and per
second, the live heap and how long one full collection took here.
"""

from __future__ import annotations

import argparse
import os
import subprocess

from firmware_bridge.micropython_board import BRIDGE, STANDIN, find_micropython

START = sum(1 << (square - 1) for square in [*range(1, 13), *range(21, 33)])


def measure(passes: int) -> dict[str, int]:
    """Run the probe once; its figures by name."""
    control_in, control = os.pipe()
    status, status_out = os.pipe()
    idle_port, host_side = (
        os.pipe()
    )  # the firmware's stdin: open, nothing written, as a quiet USB port
    os.write(control, f"switches {START}\n".encode())
    env = dict(os.environ, POOLBOARD_PICO_CONTROL=f"{control_in},{status_out}")
    probe = STANDIN / "alloc_probe.py"
    try:
        result = subprocess.run(
            [find_micropython(), str(probe), str(BRIDGE), str(STANDIN), str(passes)],
            stdin=idle_port,
            capture_output=True,
            pass_fds=(control_in, status_out),
            env=env,
            timeout=120,
            check=True,
        )
    finally:
        for fd in (control_in, control, status, status_out, idle_port, host_side):
            os.close(fd)
    line = result.stdout.decode(errors="replace").split("\x00")[-1].strip().splitlines()[-1]
    return {name: int(value) for name, value in (pair.split("=") for pair in line.split())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=400)
    figures = measure(parser.parse_args().passes)
    print(f"matrix scan:         {figures['scan_bytes']} bytes allocated")
    print(f"main-loop pass:      {figures['step_bytes']} bytes allocated")
    print(f"per second (5 ms):   {figures['per_second']} bytes")
    print(f"live heap:           {figures['live_bytes']} bytes")
    print(f"gc.collect() here:   {figures['collect_us']} us (unix port, x86-64)")


if __name__ == "__main__":
    main()
