"""Benchmark the camera pipeline: time per 640x480 frame on one core, accuracy per square.

    .venv/bin/python bench/vision.py [--boards 40] [--positions 10] [--frames 300] [--seed 1]

Accuracy runs over synthetic renders (vision.synthetic): random sets, views, lens distortion,
light gradients, tints, glare and shadows; each board is calibrated from its start position and
then read in random positions under other light. Goals: <= 15 ms a frame, >= 99.9 % of squares.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name hides the vision
# package: look in the repository root instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.calibration import CalibrationError, calibrate, read_squares  # noqa: E402
from vision.pipeline import BoardWatcher  # noqa: E402
from vision.synthetic import START, random_position, random_style, random_view, render  # noqa: E402


def time_frames(frames: int, seed: int) -> tuple[float, float, float]:
    """Median, 95th percentile and mean milliseconds of ``BoardWatcher.feed`` per frame."""
    rng = np.random.default_rng(seed)
    style, view = random_style(rng), random_view(rng, glare=None)  # a view that calibrates
    watcher = BoardWatcher(calibrate(render(START, style, view).image))
    images = [render(START, style, replace(view, seed=k)).image for k in range(10)]
    times = []
    for k in range(frames):
        start = time.perf_counter()
        watcher.feed(images[k % len(images)], float(k))
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * len(times))], statistics.fmean(times)


def accuracy(boards: int, positions: int, seed: int) -> tuple[int, int, int, int, list[str]]:
    """(squares wrong, squares read, boards with a misread, boards read, failed calibrations)."""
    rng = np.random.default_rng(seed)
    wrong = total = boards_wrong = boards_read = 0
    failures = []
    for board in range(boards):
        style, view = random_style(rng), random_view(rng)
        markers = board % 2 == 0
        try:
            calibration = calibrate(render(START, style, view, markers=markers).image)
        except CalibrationError as error:
            failures.append(f"board {board}: {error}")
            continue
        for _ in range(positions):
            position = random_position(rng)
            other = random_view(rng, corners=view.corners, distortion=view.distortion)
            got = read_squares(calibration, render(position, style, other, markers=markers).image)
            misses = sum(got[s] != position[s] for s in range(1, 33))
            wrong += misses
            total += 32
            boards_wrong += misses > 0
            boards_read += 1
    return wrong, total, boards_wrong, boards_read, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    median, p95, mean = time_frames(args.frames, args.seed)
    print(
        f"frame 640x480, one thread: median {median:.2f} ms, p95 {p95:.2f} ms, mean {mean:.2f} ms"
    )
    wrong, total, boards_wrong, boards_read, failures = accuracy(
        args.boards, args.positions, args.seed
    )
    print(
        f"squares: {total - wrong}/{total} right = {100 * (1 - wrong / max(total, 1)):.3f} %; "
        f"boards: {boards_read - boards_wrong}/{boards_read} read without a miss; "
        f"calibrations failed: {len(failures)}/{args.boards}"
    )
    for failure in failures:
        print(f"  {failure}")


if __name__ == "__main__":
    main()
