"""Benchmark the camera with no hand on labelled real photos: every board calibrated and read
with the corners it finds itself, as a user who clicks nothing meets it.

    .venv/bin/python bench/vision_no_hands.py LABELS.json [--images DIR]

Each board (grouped as ``poolboard vision evaluate`` groups them) is calibrated on each of its
photos in turn with the position that photo shows and no corners (markers, the grid, the
lattice: :func:`vision.calibration.locate_board`); each other photo of the board is read
with the corners found in it the same way, snapped onto the grid through the calibration's
lens (:mod:`vision.grid_snap`) and turned nearest the calibration's where the photo was taken
from the calibration's pose (within a square), as the camera in play turns them; from another
pose, by the position it shows. A square
counts right in occupancy and colour. Where a photo shows a position that is its own mirror,
the camera may take the other side as Black than the labels do (R-BRD-3: the darker; the
labels: red), numbering the board from the other end: each read is scored in the labels'
numbering and the mirrored one (the read photo's turn), with the labels' sides and swapped
(the calibration's), the best counted. Printed per
board: calibrations refused, squares right; then the total.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import numpy as np  # noqa: E402

from bench.labelled import load_photos, photo_arguments  # noqa: E402
from vision.calibration import Calibration, CalibrationError, calibrate  # noqa: E402
from vision.corners import CornerError, find_board_corners  # noqa: E402
from vision.evaluate import Photo, boards  # noqa: E402
from vision.grid_snap import snap_corners  # noqa: E402

_SWAPPED = {"b": "w", "w": "b", "B": "W", "W": "B"}


def _right(truth: dict[int, str], reading: dict[int, str], mirrored: bool, swapped: bool) -> int:
    """Squares right in occupancy and colour, the reading in the labels' numbering or mirrored
    (the read photo's turn) and with the labels' sides or swapped (the calibration's)."""
    right = 0
    for square, label in truth.items():
        seen = reading[33 - square] if mirrored else reading[square]
        seen = _SWAPPED.get(seen, seen) if swapped else seen
        if label == "unknown":
            continue
        if label == "empty" or seen == "empty":
            right += label == seen
        else:
            right += label.lower() == seen.lower()
    return right


def _read(
    calibration: Calibration, photo: Photo, found: dict[str, np.ndarray | None]
) -> dict[int, str] | None:
    """The photo read with the corners found in it (kept in ``found`` by photo, as the search
    takes seconds); None where none were found. Taken from the calibration's pose, the corners
    are turned as the camera in play turns them, nearest the calibration's; from another
    pose, by the position the photo shows."""
    if photo.name not in found:
        try:
            found[photo.name] = find_board_corners(photo.image, position=photo.truth)
        except CornerError:
            found[photo.name] = None
    corners = found[photo.name]
    if corners is None:
        return None
    turns = [np.roll(corners, k, axis=0) for k in range(4)]
    nearest = min(turns, key=lambda c: float(np.abs(c - calibration.corners).max()))
    side = float(np.linalg.norm(calibration.corners[1] - calibration.corners[0]))
    if np.abs(nearest - calibration.corners).max() < side / 8:  # within a square: same pose
        corners = nearest
    corners, _ = snap_corners(photo.image, corners, calibration.k1)  # as the camera in play
    placed = calibration.seen_at(corners, photo.image)
    return placed.squares_in(photo.image)


def main() -> int:
    photos = load_photos(photo_arguments(__doc__.splitlines()[0]).parse_args())
    if photos is None:
        return 2
    print("| board | calibrations refused | squares right |")
    print("| --- | --- | --- |")
    all_right = all_counted = 0
    found: dict[str, np.ndarray | None] = {}
    for board in boards(photos):
        refused = right = counted = 0
        for learnt in board:
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    calibration = calibrate(learnt.image, None, learnt.truth)
            except CalibrationError:
                refused += 1
                continue
            for photo in board:
                if photo is learnt:
                    continue
                labelled = sum(v != "unknown" for v in photo.truth.values())
                counted += labelled
                reading = _read(calibration, photo, found)
                if reading is not None:
                    right += max(
                        _right(photo.truth, reading, mirrored, swapped)
                        for mirrored in (False, True)
                        for swapped in (False, True)
                    )
        share = f"{right / counted:.2%}" if counted else "-"
        print(f"| {board[0].name} +{len(board) - 1} | {refused}/{len(board)} | "
              f"{right}/{counted} ({share}) |")  # fmt: skip
        all_right += right
        all_counted += counted
    print(f"total: {all_right}/{all_counted} squares right in occupancy and colour")
    return 0


if __name__ == "__main__":
    sys.exit(main())
