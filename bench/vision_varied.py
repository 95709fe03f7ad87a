"""Benchmark the camera's reader on boards of every kind the renderer draws, light held steady.

    .venv/bin/python bench/vision_varied.py [--seeds 11 12 13] [--boards 30] [--positions 6]

For each seed, ``--boards`` rendered boards of vision.synthetic's varied kinds (wood grain,
printed and engraved boards, dark squares of different shades, tags, every style of piece and
king) under varied views (overhead to 50 degrees, any lens, lamp, exposure, glare, blur, noise
and JPEG; no arm, no spares), each calibrated on its start position with its corners given and
then reading ``--positions`` game-like positions from the same view, its exposure up to a fifth
either way and its noise drawn anew: a camera in play, not a new scene. It prints, per seed,
squares right in occupancy and colour and exactly, and the worst boards. These are our own
renders: they find the kinds of board the reader reads worst, they prove nothing about real
boards.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name hides the vision
# package: look in the repository root instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from vision.calibration import CalibrationError, calibrate, read_squares  # noqa: E402
from vision.synthetic import START, render, varied_boards  # noqa: E402


def seed_run(seed: int, boards: int, positions: int) -> tuple[int, int, int, int, list[str]]:
    """Squares right in occupancy and colour, right exactly, read, calibrations refused, and a
    line for each board with a square wrong (worst first)."""
    right = exact = total = refused = 0
    worst: list[tuple[float, str]] = []
    for board, varied in enumerate(varied_boards(seed, boards, positions)):
        style = varied.style
        start = render(START, style, varied.view)
        try:
            calibration = calibrate(start.image, start.corners)
        except CalibrationError as error:
            refused += 1
            worst.append((-1.0, f"board {board}: refused: {error}"))
            continue
        board_right = 0
        for position, seen in varied.shown:
            got = read_squares(calibration, render(position, style, seen).image)
            board_right += sum(position[s].lower() == got[s].lower() for s in range(1, 33))
            exact += sum(position[s] == got[s] for s in range(1, 33))
        right += board_right
        total += 32 * positions
        if board_right < 32 * positions:
            share = board_right / (32 * positions)
            kind = (
                f"{style.texture} board, kings {style.kings}, dark spread {style.dark_spread:.2f}"
            )
            worst.append((share, f"board {board}: {100 * share:.1f} % ({kind})"))
    return right, exact, total, refused, [line for _, line in sorted(worst)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 12, 13])
    parser.add_argument("--boards", type=int, default=30)
    parser.add_argument("--positions", type=int, default=6)
    args = parser.parse_args()
    for seed in args.seeds:
        right, exact, total, refused, worst = seed_run(seed, args.boards, args.positions)
        print(
            f"seed {seed}: {right}/{total} in occupancy and colour "
            f"({100 * right / max(total, 1):.2f} %), {exact} exactly; "
            f"calibrations refused {refused}/{args.boards}"
        )
        for line in worst[:5]:
            print(f"  {line}")


if __name__ == "__main__":
    main()
