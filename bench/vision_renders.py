"""Benchmark the renderer a reader is trained on: CPU time per varied 640x480 frame on one core.

    .venv/bin/python bench/vision_renders.py [--frames 60] [--seed 5] [--same-board]
        [--write DIR]

Each frame draws a new board and set (``vision.synthetic.varied_style``), view and position,
as a training run that renders thousands does; ``--same-board`` keeps the first board for every
frame (its top-down picture is then drawn once), as rendering many positions of one board does.
Times are thread CPU time (other work sharing the machine lengthens wall time much more than
this). ``--write DIR`` saves the frames as PNG to look at.
Goal: under 60 ms a frame.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name hides the vision
# package: look in the repository root instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import synthetic  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--same-board", action="store_true")
    parser.add_argument("--write", type=Path, help="a folder to save the frames in")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    draws = [
        (synthetic.varied_position(rng), synthetic.varied_style(rng), synthetic.varied_view(rng))
        for _ in range(args.frames)
    ]
    if args.same_board:
        draws = [(position, draws[0][1], view) for position, _, view in draws]
    if args.write:
        args.write.mkdir(parents=True, exist_ok=True)
    synthetic.render(*draws[0])  # imports and tables made once, not timed
    times = []
    for index, (position, style, view) in enumerate(draws):
        began = time.thread_time()
        frame = synthetic.render(position, style, view)
        times.append((time.thread_time() - began) * 1000)
        if args.write:
            cv2.imwrite(str(args.write / f"frame{index:04d}.png"), frame.image)
    times.sort()
    print(
        f"{len(times)} frames, {'one board' if args.same_board else 'a new board each'}: "
        f"median {statistics.median(times):.1f} ms, mean {statistics.fmean(times):.1f} ms, "
        f"95th percentile {times[int(0.95 * (len(times) - 1))]:.1f} ms, max {times[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
