"""Robustness sweep of the camera reader on labelled real photos: each photo read after a change
another camera, light or hand would make, under ``poolboard vision evaluate``'s cross-validation.

    .venv/bin/python bench/vision_real.py LABELS.json [--images DIR] [--only NAME ...] [--seed 1]

The photos stay where they are (outside the repository). Every photo is read as ``evaluate``
reads it (calibrated on the other photos of its board, or on the other half of its squares),
once per change in ``changes``: a fixed, seeded list. Most change the picture read; the
``calibration:`` ones change the calibration picture instead (the light changed between
calibration and play), and the ``both:`` ones both pictures (another camera altogether).
Printed per change: squares right exactly and in occupancy and colour, and each miss the
unchanged photos do not show (photo square: label -> read).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name hides the vision
# package: look in the repository root instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]


from bench.labelled import load_photos, photo_arguments  # noqa: E402
from vision.evaluate import Trial, trials, unchanged  # noqa: E402
from vision.photo_changes import changes  # noqa: E402


def misses(done: list[Trial]) -> set[tuple[str, str, int, str, str]]:
    """(photo, calibration picture, square, label, reading) of every square read wrong."""
    return {
        (t.photo, t.learnt_from, s, truth, got)
        for t in done
        for s, truth, got in t.compared()
        if truth != got
    }


def main() -> int:
    parser = photo_arguments(__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="run only changes whose name starts so")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    photos = load_photos(args)
    if photos is None:
        return 2
    baseline: set[tuple[str, str, int, str, str]] | None = None
    rows = []
    started = time.perf_counter()
    for name, (side, change) in changes(args.seed).items():
        if args.only and name != "none" and not any(name.startswith(o) for o in args.only):
            continue
        read_as = change if side in ("read", "both") else unchanged
        learn_as = change if side in ("calibration", "both") else unchanged
        done = trials(photos, read_as=read_as, learn_as=learn_as)
        compared = [c for t in done for c in t.compared()]
        exact = sum(truth == got for _, truth, got in compared)
        colour = sum(truth.lower() == got.lower() for _, truth, got in compared)
        wrong = misses(done)
        if baseline is None:
            baseline = wrong
            new, mended = sorted(wrong), set()
        else:
            new, mended = sorted(wrong - baseline), baseline - wrong
        rows.append((name, exact, colour, len(compared)))
        print(f"{name}: exact {exact}/{len(compared)}, occupancy+colour {colour}/{len(compared)}")
        if refused := sum(bool(t.refused) for t in done):
            print(f"    ({refused} reads not made: their calibration picture refused)")
        for photo, learnt, square, truth, got in new:
            kind = "king/man" if truth.lower() == got.lower() else "OCC/COLOUR"
            print(f"    {photo} {square}: {truth} -> {got} ({kind}; learnt from {learnt})")
        if mended:
            print(f"    ({len(mended)} of the unchanged photos' misses read right)")
    print(f"\n{time.perf_counter() - started:.0f} s\n")
    print("| change | exact | occupancy + colour |")
    print("| --- | --- | --- |")
    for name, exact, colour, total in rows:
        print(f"| {name} | {exact}/{total} | {colour}/{total} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
