"""A piece of neither side's colour is seen by its sharp round rim, and a lamp's soft round
reflection, which has none, is not taken for one (``vision.outline``; the real-photo case is in
``test_real_photo.py``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.calibration import calibrate, read_squares
from vision.colour import START_POSITION
from vision.evaluate import Trial, report
from vision.layout import SQUARE_CENTRES
from vision.synthetic import STYLES, View, render


@pytest.mark.parametrize("strength", [60, 140])
def test_a_lamps_reflection_on_an_empty_square_is_no_piece(strength: float) -> None:
    """Black squares and dark pieces (the set where the bench's overhead boards showed it): a
    reflection's brightening is round, but it fades over a fifth of a square with no rim, so
    the squares under it read empty, not as a piece whose side is not seen."""
    style, view = STYLES["red-black on black"], View()
    calibration = calibrate(render(START_POSITION, style, view).image, np.array(view.corners))
    for square in (13, 14, 17, 18):
        x, y = calibration.to_picture(SQUARE_CENTRES[square - 1][None])[0]
        lit = render(START_POSITION, style, replace(view, glare=(x, y, strength))).image
        assert read_squares(calibration, lit)[square] == "empty"


def test_evaluate_counts_a_piece_of_no_side_right_in_occupancy_alone() -> None:
    """``evaluate``'s report: a square labelled a king and read ``?`` is a piece (occupancy
    right) whose colour was not seen (wrong in occupancy and colour), shown as ``no side``."""
    truth = {1: "W", 2: "empty", 3: "b", 4: "empty"}
    trial = Trial("spare.jpg", "other half", truth, {1: "?", 2: "empty", 3: "b", 4: "?"})
    lines = report([trial])
    total = next(line for line in lines if line.startswith("total")).split()
    assert total[1:] == ["2/4", "50.00", "50.00", "75.00"]  # 4 is a phantom: wrong in all
    header = lines[lines.index("confusion (rows: label, columns: read)") + 1]
    assert header.endswith("w king no side")
    w_king = next(line for line in lines if line.startswith("w king")).split()
    assert w_king[-1] == "1"  # the king read as a piece of no side
