"""Benchmark finding the board with no hand: labelled photos' corners found by the calibration's
own search (markers, the grid detector, the lattice of the corners left), against the labels.

    .venv/bin/python bench/vision_corners.py LABELS.json [--images DIR]

Each photo is searched as `poolboard vision calibrate IMAGE --fen FEN` searches it, with the
labelled position telling which corner is a1 (``locate_board``). Printed per photo: how the
corners were found, the worst corner's distance from the label's as a share of the board's
side, and the seconds the search took on this core. The photos stay where they are.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import numpy as np  # noqa: E402

from bench.labelled import load_photos, photo_arguments  # noqa: E402
from vision.calibration import CalibrationError, locate_board  # noqa: E402


def main() -> int:
    photos = load_photos(photo_arguments(__doc__.splitlines()[0]).parse_args())
    if photos is None:
        return 2
    print("| photo | size | found by | worst corner off (of the side) | seconds |")
    print("| --- | --- | --- | --- | --- |")
    for photo in photos:
        height, width = photo.image.shape[:2]
        side = float(np.linalg.norm(photo.corners[1] - photo.corners[0]))
        started = time.process_time()
        try:
            corners, method, _ = locate_board(photo.image, None, photo.truth)
        except CalibrationError:
            method, off = "not found", "-"
        else:
            off = f"{np.linalg.norm(corners - photo.corners, axis=1).max() / side:.1%}"
        seconds = time.process_time() - started
        print(f"| {photo.name} | {width}x{height} | {method} | {off} | {seconds:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
