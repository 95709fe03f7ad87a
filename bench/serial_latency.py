"""Serial bridge latency: from a state frame written on the pty to the host's Snapshot event.

The real firmware runs in the emulator behind a real pty and the real host driver reads it, both
in this process (one clock). Each round puts a new random occupancy on the simulated board; the
time the firmware's report leaves for the pty and the Snapshot's time stamp are compared.

Run: .venv/bin/python bench/serial_latency.py [--frames N] [--interpreter micropython|cpython]

With ``micropython`` the firmware is main.py under MicroPython's unix port in its own process
(pipes to the emulator, then the pty); with ``cpython`` it is firmware/app.py in a thread.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.geometry import square_set
from engine.sensing import Snapshot
from firmware_bridge.emulator import Emulator
from firmware_bridge.firmware.protocol import STATE_CHANGE, Deframer, unpack_state
from firmware_bridge.host import SerialBoard


def measure(
    frames: int, seed: int = 1, interpreter: str = "cpython"
) -> tuple[list[float], list[float]]:
    """Seconds from frame written to Snapshot, and from switches set to Snapshot (with debounce),
    for ``frames`` occupancy changes."""
    emulator = Emulator(seed=seed, interpreter=interpreter)
    written: dict[frozenset[int], float] = {}
    deframer = Deframer()
    tapped = emulator.hal if emulator.hal is not None else emulator.board  # who calls output()
    forward = tapped.output

    def stamp(frame: bytes) -> None:
        for kind, _, payload in deframer.feed(frame):
            if kind == STATE_CHANGE:
                written[square_set(unpack_state(payload)[0])] = time.monotonic()
        forward(frame)

    tapped.output = stamp
    emulator.start()
    board = SerialBoard(str(emulator.link))
    rng = random.Random(seed)
    latencies: list[float] = []
    end_to_end: list[float] = []
    try:
        while board.read(timeout=3.0) is None or not board.counters.connected:
            pass
        current: frozenset[int] = frozenset()
        while len(latencies) < frames:
            target = current
            while target == current:
                target = frozenset(rng.sample(range(1, 33), rng.randrange(0, 25)))
            changed = time.monotonic()
            emulator.set_occupied(target)
            deadline = time.monotonic() + 2.0
            while time.monotonic() < deadline:
                event = board.read(timeout=0.5)
                if isinstance(event, Snapshot) and event.occupied == target:
                    latencies.append(event.t - written[target])
                    end_to_end.append(event.t - changed)
                    break
            else:
                raise SystemExit(f"no Snapshot for {sorted(target)} within 2 s")
            current = target
    finally:
        board.close()
        emulator.close()
    return latencies, end_to_end


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=500, help="occupancy changes to time")
    parser.add_argument("--interpreter", choices=("cpython", "micropython"), default="cpython")
    args = parser.parse_args()
    wire, total = measure(args.frames, interpreter=args.interpreter)
    for name, values in (("frame on pty -> Snapshot", wire), ("switch -> Snapshot", total)):
        values.sort()
        p50 = statistics.median(values) * 1000
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))] * 1000
        print(
            f"{name} over {len(values)} frames: p50 {p50:.2f} ms, p99 {p99:.2f} ms, "
            f"max {values[-1] * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
