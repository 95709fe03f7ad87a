"""Corners clicked or found a little off are snapped onto the board's own grid."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.vision.conftest import CORNERS, PHOTO
from vision.calibration import calibrate, load_image
from vision.grid_snap import snap_corners
from vision.synthetic import Style, random_position, random_view, render


def _clicked_off(corners: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    """Each corner half to all of ``share`` of the board's side away, in any direction."""
    side = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).mean()
    angle = rng.uniform(0, 2 * np.pi, 4)
    reach = rng.uniform(0.5, 1.0, 4) * share * side
    return (corners + np.stack([np.cos(angle), np.sin(angle)], 1) * reach[:, None]).astype(
        np.float32
    )


@pytest.mark.parametrize("seed", [0, 2, 4, 6])
def test_corners_clicked_two_percent_off_land_on_the_squares_edges(seed: int) -> None:
    rng = np.random.default_rng(seed)
    view = random_view(rng)
    frame = render(random_position(rng), Style(), view, markers=False)
    clicked = _clicked_off(frame.corners, 0.02, rng)
    snapped, _ = snap_corners(frame.image, clicked)
    off = np.abs(clicked - frame.corners).max()
    assert off > 3.5  # pixels, of a side near 280
    assert np.abs(snapped - frame.corners).max() < off / 3


@pytest.mark.parametrize("seed", [3, 5])
def test_a_board_calibrated_through_a_bent_lens_at_corners_clicked_off_reads_right(
    seed: int,
) -> None:
    rng = np.random.default_rng(seed)
    view = replace(random_view(rng), distortion=-0.2)
    position = random_position(rng)
    frame = render(position, Style(), view, markers=False)
    clicked = _clicked_off(frame.corners, 0.02, rng)
    calibration = calibrate(frame.image, clicked, position)
    assert np.abs(calibration.corners - frame.corners).max() < np.abs(clicked - frame.corners).max()
    assert calibration.squares_in(frame.image) == {
        s: position.get(s, "empty") for s in range(1, 33)
    }


def test_a_picture_with_no_board_keeps_the_corners_as_given() -> None:
    noise = np.random.default_rng(5).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    corners = np.array([[100, 400], [500, 400], [500, 60], [100, 60]], dtype=np.float32)
    snapped, k1 = snap_corners(noise, corners)
    assert np.array_equal(snapped, corners)
    assert k1 == 0.0


def test_a_real_photo_clicked_off_snaps_where_its_exact_corners_snap() -> None:
    """eppu_initialization.jpg (a wide-angle lens, tall pieces seen aslant): corners clicked 2 %
    of the side off snap, through the lens the calibration found, to a quarter of that distance
    from where the labelled corners snap, on average over the four."""
    photo = load_image(PHOTO)
    calibration = calibrate(photo, CORNERS)
    for seed in range(3):
        clicked = _clicked_off(calibration.corners, 0.02, np.random.default_rng(seed))
        snapped, k1 = snap_corners(photo, clicked, calibration.k1)
        assert k1 == calibration.k1
        before = np.linalg.norm(clicked - calibration.corners, axis=1).mean()
        after = np.linalg.norm(snapped - calibration.corners, axis=1).mean()
        assert after < before / 4


def test_a_board_cut_by_the_pictures_edge_keeps_its_corners() -> None:
    """eppu_initialization.jpg cut below the board's middle: a1 lies outside the picture, where
    the canonical image is black and would pull the grid inwards, so nothing is moved."""
    photo = load_image(PHOTO)
    calibration = calibrate(photo, CORNERS)
    cut = np.ascontiguousarray(photo[:600])
    snapped, k1 = snap_corners(cut, calibration.corners, calibration.k1)
    assert np.array_equal(snapped, calibration.corners) and k1 == calibration.k1
