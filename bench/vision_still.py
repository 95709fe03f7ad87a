"""Benchmark `poolboard vision calibrate` on a camera's full-size still: time and peak memory.

    .venv/bin/python bench/vision_still.py [IMAGE] [--widths 1920 4056 4608]

A Pi user may calibrate from a still taken at the sensor's full size (the HQ camera's 4056 px,
Camera Module 3's 4608 px) rather than from a 640x480 stream frame. The photo (by default the
committed real photo, tests/data/photos/eppu_initialization.jpg) is scaled to each width and
calibrated without corners (the grid search, then the colours), each in a fresh process so its
peak resident memory is its own.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

PHOTO = _HERE.parent / "tests" / "data" / "photos" / "eppu_initialization.jpg"


def one(image: str, width: int) -> dict[str, float | str]:
    """Calibrate ``image`` scaled to ``width``; seconds, peak MB and how the corners were found
    (run in a child process: the peak is this calibration's alone)."""
    import cv2

    from vision.calibration import calibrate, load_image

    photo = load_image(image)
    scale = width / photo.shape[1]
    still = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    start = time.perf_counter()
    calibration = calibrate(still)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": seconds, "peak_mb": peak, "method": calibration.method}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("image", nargs="?", default=str(PHOTO))
    parser.add_argument("--widths", nargs="*", type=int, default=[1920, 4056, 4608])
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one(args.image, args.child)))
        return 0
    print("| width (px) | corners found by | seconds | peak memory (MB) |")
    print("| --- | --- | --- | --- |")
    for width in args.widths:
        child = subprocess.run(
            [sys.executable, __file__, args.image, "--child", str(width)],
            capture_output=True,
            text=True,
            check=True,
        )
        result = json.loads(child.stdout.splitlines()[-1])
        print(
            f"| {width} | {result['method']} | {result['seconds']:.2f} | {result['peak_mb']:.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
