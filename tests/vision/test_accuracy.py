"""Reading accuracy over a small randomised set of boards, sets, views and positions."""

from __future__ import annotations

import numpy as np

from vision.calibration import calibrate, read_squares
from vision.synthetic import START, random_position, random_style, random_view, render


def test_squares_read_right_across_sets_views_and_light() -> None:
    rng = np.random.default_rng(2024)
    wrong = total = boards_wrong = crowned = 0
    for board in range(6):
        style = random_style(rng)
        view = random_view(rng)
        markers = board % 2 == 0
        calibration = calibrate(render(START, style, view, markers=markers).image)
        for _ in range(3):
            position = random_position(rng)
            # Same camera, other light: new gradient, tint, glare, shadow and noise.
            other = random_view(rng, corners=view.corners, distortion=view.distortion)
            got = read_squares(calibration, render(position, style, other, markers=markers).image)
            misses = sum(got[s].lower() != position[s] for s in range(1, 33))
            crowned += sum(got[s] in ("B", "W") for s in range(1, 33))  # no king was placed
            wrong += misses
            total += 32
            boards_wrong += misses > 0
    assert wrong / total <= 0.01, f"{wrong} of {total} squares misread"
    assert boards_wrong <= 2, f"{boards_wrong} of 18 boards had a misread square"
    assert crowned / total <= 0.02, f"{crowned} men of {total} squares read as kings"
