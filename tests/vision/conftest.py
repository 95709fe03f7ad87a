"""Shared scenes for the vision tests: one calibrated view of a red/white set on a green board,
and a real photo of a board with its corners."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.calibration import Calibration, calibrate
from vision.layout import SQUARE_CENTRES
from vision.synthetic import START, Style, View, render


@pytest.fixture(scope="session")
def view() -> View:
    return View(gradient=(0.3, -0.2), glare=(330, 150, 90), noise=2.5)


@pytest.fixture(scope="session")
def calibration(view: View) -> Calibration:
    return calibrate(render(START, Style(), view).image)


#: A real photo of a board in its start position, and its playing area's corners
#: (a1, h1, h8, a8), picked by hand on it.
PHOTO = Path(__file__).parent.parent / "data" / "photos" / "eppu_initialization.jpg"
#: The playing area's corners (a1, h1, h8, a8), picked by hand on the photo.
CORNERS = np.array([[925, 680], [1392, 589], [1254, 161], [812, 189]], dtype=np.float32)

#: The same corners clicked a tenth of the board inside it: the squares between them no
#: longer line up with the board's.
CORNERS_INSIDE = (CORNERS.mean(axis=0) + (CORNERS - CORNERS.mean(axis=0)) * 0.9).astype(np.float32)


def disc(calibration: Calibration, square: int, radius: float) -> np.ndarray:
    """The outline (picture pixels) of a flat disc of ``radius`` squares centred on ``square``."""
    angles = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    circle = SQUARE_CENTRES[square - 1] + radius * np.stack([np.cos(angles), np.sin(angles)], 1)
    return calibration.to_picture(circle).round().astype(np.int32)


#: A dark green (BGR): on this board's blue squares no colour learnt at calibration is nearer
#: than the empty squares', as one project's green "crowned" pieces were on its black ones.
SPARE = (68, 96, 22)
