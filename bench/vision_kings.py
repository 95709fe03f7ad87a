"""Benchmark how the camera tells kings of every kind from men, calibrated with and without kings.

    .venv/bin/python bench/vision_kings.py [--seeds 1] [--sets 8] [--positions 3]

For each seed, ``--sets`` rendered boards (vision.synthetic's random sets and views, pieces up to
0.15 square off-centre) for each kind of king: stacks, printed marks, coloured inserts, flat
pieces 1.25 and 1.15 times the men's size, flat squares 0.8 times it, and hexagons the men's
size. Each board is calibrated twice, on the start position (no king: what a king looks like
must come from the reader's own rules) and on a late position with three kings a side, then
reads ``--positions`` late positions (four men and four kings a side). It prints, per kind and
calibration, kings read as kings, men read as kings and squares wrong in occupancy or colour.
These are our own renders: they find which kinds the reader cannot tell, they prove nothing
about real sets.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name hides the vision
# package: look in the repository root instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import numpy as np  # noqa: E402

from vision.calibration import CalibrationError, calibrate, read_squares  # noqa: E402
from vision.synthetic import (  # noqa: E402
    START,
    View,
    camera_corners,
    late_position,
    random_style,
    random_view,
    render,
)

#: Each kind of king, as vision.synthetic.Style draws it.
KINDS: dict[str, dict[str, object]] = {
    "stacks": {"kings": "stack"},
    "printed marks": {"kings": "emblem"},
    "coloured inserts": {"kings": "insert"},
    "flat, 1.25 x": {"kings": "shape", "king_shape": "circle", "king_scale": 1.25},
    "flat, 1.15 x": {"kings": "shape", "king_shape": "circle", "king_scale": 1.15},
    "flat squares, 0.8 x": {"kings": "shape", "king_shape": "square", "king_scale": 0.8},
    "hexagons, 1 x": {"kings": "shape", "king_shape": "hexagon"},
}


def _view(rng: np.random.Generator, index: int) -> View:
    """Every other board from above (askew), the others from a stand 20-45 degrees off."""
    if index % 2:
        return random_view(rng, jitter=0.15)
    tilt, azimuth = float(rng.uniform(20, 45)), float(rng.uniform(0, 360))
    return View(corners=camera_corners(tilt, azimuth, 0.0, (640, 480), 0.55), jitter=0.15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--sets", type=int, default=8, help="boards per kind of king")
    parser.add_argument("--positions", type=int, default=3, help="positions read per board")
    args = parser.parse_args()
    counts: Counter[tuple[str, str, str]] = Counter()
    for seed in args.seeds:
        rng = np.random.default_rng(seed)
        for kind, change in KINDS.items():
            for index in range(args.sets):
                style = replace(random_style(rng), **change)  # type: ignore[arg-type]
                view = _view(rng, index)
                late = late_position(rng, 5, 3)
                reads = [late_position(rng, 4, 4) for _ in range(args.positions)]
                for shown, known in (("start", dict(START)), ("kings", late)):
                    known = {s: known.get(s, "empty") for s in range(1, 33)}
                    try:
                        image = render(known, style, view).image
                        calibration = calibrate(image, np.array(view.corners), known)
                    except CalibrationError:
                        counts[kind, shown, "refused"] += 1
                        continue
                    for number, position in enumerate(reads):
                        frame = render(position, style, replace(view, seed=number)).image
                        got = read_squares(calibration, frame)
                        for square, truth in position.items():
                            read = got[square]
                            counts[kind, shown, "wrong"] += read.lower() != truth.lower()
                            if truth in ("B", "W"):
                                counts[kind, shown, "kings"] += 1
                                counts[kind, shown, "kings read"] += read == truth
                            elif truth in ("b", "w"):
                                counts[kind, shown, "men"] += 1
                                counts[kind, shown, "men crowned"] += read == truth.upper()
    print(f"seeds {' '.join(map(str, args.seeds))}, {args.sets} sets a kind and seed\n")
    print("| kings | calibrated on | kings read | men read as kings | squares wrong | refused |")
    print("| --- | --- | --- | --- | --- | --- |")
    for kind in KINDS:
        for shown in ("start", "kings"):
            c = {key: counts[kind, shown, key] for key in
                 ("kings read", "kings", "men crowned", "men", "wrong", "refused")}  # fmt: skip
            print(
                f"| {kind} | {shown} | {c['kings read']}/{c['kings']} | "
                f"{c['men crowned']}/{c['men']} | {c['wrong']} | {c['refused']} |"
            )


if __name__ == "__main__":
    main()
