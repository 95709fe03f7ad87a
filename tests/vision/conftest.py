"""Shared scenes for the vision tests: one calibrated view of a red/white set on a green board."""

from __future__ import annotations

import pytest

from vision.calibration import Calibration, calibrate
from vision.synthetic import START, Style, View, render


@pytest.fixture(scope="session")
def view() -> View:
    return View(gradient=(0.3, -0.2), glare=(330, 150, 90), noise=2.5)


@pytest.fixture(scope="session")
def calibration(view: View) -> Calibration:
    return calibrate(render(START, Style(), view).image)
