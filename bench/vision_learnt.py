"""Benchmark the learnt square reader: time per 640x480 frame on one core, squares right on
renders it never learnt from (each board calibrated on its start position, then read in other
positions under other light).

    taskset -c 0 .venv/bin/python bench/vision_learnt.py [--boards 30] [--positions 5]

Real photos, board by board: `poolboard vision evaluate LABELS.json --reader learnt`.
Goals: <= 15 ms a frame on one core; >= 99.9 % of squares in occupancy and colour.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import synthetic  # noqa: E402
from vision.calibration import calibrate  # noqa: E402


def time_frames(frames: int, seed: int) -> tuple[float, float]:
    """Median and 95th percentile ms to read one 640x480 frame (windows, network, decision)."""
    rng = np.random.default_rng(seed)
    style, view = synthetic.hardened_style(rng), synthetic.hardened_view(rng, distortion=-0.2)
    start = synthetic.render(synthetic.START, style, view)
    calibration = calibrate(start.image, start.corners, synthetic.START, True, "learnt")
    frame = synthetic.render(synthetic.hardened_position(rng), style, view)
    placed = calibration.seen_at(frame.corners, frame.image)
    placed.squares_in(frame.image)  # the windows are placed once, as the camera sensor does
    times = []
    for _ in range(frames):
        began = time.perf_counter()
        placed.squares_in(frame.image)
        times.append(1000 * (time.perf_counter() - began))
    return statistics.median(times), float(np.percentile(times, 95))


def accuracy(boards: int, positions: int, seed: int, hardened: bool) -> tuple[int, int, int]:
    """Squares right exactly, in occupancy and colour, and in all, over rendered boards."""
    rng = np.random.default_rng(seed)
    exact = colour = total = 0
    for _ in range(boards):
        if hardened:
            style, view = synthetic.hardened_style(rng), synthetic.hardened_view(rng)
        else:
            style, view = synthetic.random_style(rng), synthetic.random_view(rng)
        start = synthetic.render(synthetic.START, style, view)
        calibration = calibrate(start.image, start.corners, synthetic.START, True, "learnt")
        for _ in range(positions):
            if hardened:
                position = synthetic.hardened_position(rng)
            else:
                position = synthetic.random_position(rng)
            brightness, seed = float(rng.uniform(0.7, 1.3)), int(rng.integers(9999))
            light = replace(view, brightness=brightness, seed=seed)
            frame = synthetic.render(position, style, light)
            reading = calibration.seen_at(frame.corners, frame.image).squares_in(frame.image)
            for square in range(1, 33):
                truth, got = position.get(square, "empty"), reading[square]
                exact += truth == got
                colour += truth.lower() == got.lower()
                total += 1
    return exact, colour, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=30)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--frames", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    median, p95 = time_frames(args.frames, args.seed)
    print(f"time per 640x480 frame: median {median:.2f} ms, p95 {p95:.2f} ms (goal 15 ms)")
    for name, hardened in (("stock", False), ("hardened", True)):
        exact, colour, total = accuracy(args.boards, args.positions, args.seed, hardened)
        print(
            f"{name}: {100 * exact / total:.2f} % exact, "
            f"{100 * colour / total:.2f} % in occupancy and colour ({total} squares)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
