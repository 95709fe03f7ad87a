"""The camera's pose from the board's corners stays steady when the corners are clicked a little
off: the focal length, ill-determined by one picture's corners, is pooled with the
calibration's (bench/vision_real.py, "corners off by <= 1 % of the side")."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.vision.conftest import CORNERS, PHOTO
from vision.calibration import (
    Calibration,
    CalibrationError,
    calibrate,
    load_image,
    read_squares,
)
from vision.camera import camera_pose, focal_estimate, undistort
from vision.grid_snap import snap_corners
from vision.photo_changes import turned_upright
from vision.synthetic import camera_corners

SIZE = (640, 480)


def _clicked_off(corners: np.ndarray, share: float, seed: int) -> list[np.ndarray]:
    """Six copies of the corners, each corner moved up to ``share`` of the board's side."""
    side = float(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).mean())
    rng = np.random.default_rng(seed)
    return [corners + rng.uniform(-1, 1, (4, 2)).astype(np.float32) * share * side
            for _ in range(6)]  # fmt: skip


def test_the_focal_length_of_an_exact_view_is_found_and_known_to_be_steady() -> None:
    corners = np.array(camera_corners(40, 0, 0, SIZE), dtype=np.float32)  # focal: 1 long side
    estimate = focal_estimate(corners, SIZE)
    assert abs(estimate.sides - 1.0) < 0.01
    assert estimate.variance < 0.05**2  # 40 degrees off the vertical: well determined


def test_seen_straight_down_the_focal_length_is_unknown_and_gives_way() -> None:
    overhead = focal_estimate(np.array(camera_corners(0, 0, 0, SIZE), dtype=np.float32), SIZE)
    oblique = focal_estimate(np.array(camera_corners(40, 0, 0, SIZE), dtype=np.float32), SIZE)
    assert overhead.variance > 1.0
    assert abs(overhead.pooled(oblique).log - oblique.log) < 0.01


def test_pooled_with_a_known_camera_a_view_clicked_off_keeps_its_height() -> None:
    exact = np.array(camera_corners(25, 0, 0, SIZE), dtype=np.float32)
    camera, truth = focal_estimate(exact, SIZE), camera_pose(exact, SIZE).height
    own, pooled = [], []
    for corners in _clicked_off(exact, 0.01, seed=3):
        own.append(abs(camera_pose(corners, SIZE).height / truth - 1))
        focal = camera.pooled(focal_estimate(corners, SIZE)).sides
        pooled.append(abs(camera_pose(corners, SIZE, focal).height / truth - 1))
    assert max(own) > 0.2  # one picture's corners alone: the height is off by a fifth or more
    assert max(pooled) < 0.05


def test_a_real_photo_read_with_corners_clicked_off_keeps_the_calibrations_camera() -> None:
    """eppu_initialization.jpg: read with its corners 1 % of the side off (and snapped to the
    grid, as `vision read --corners` does), the camera's height (which sets how tall a stack
    must look to be a king) stays near the calibration's."""
    photo = load_image(PHOTO)
    calibration = calibrate(photo, CORNERS)
    height = calibration.pose.height
    own, seen = [], []
    for corners in _clicked_off(calibration.corners, 0.01, seed=5):
        alone = undistort(corners, calibration.k1, calibration.image_size)
        own.append(abs(camera_pose(alone, calibration.image_size).height / height - 1))
        snapped, _ = snap_corners(photo, corners, calibration.k1)
        seen.append(abs(calibration.seen_at(snapped, photo).pose.height / height - 1))
    assert max(own) > 0.25
    assert max(seen) < 0.12
    assert np.mean(seen) < np.mean(own) / 2


def test_a_saved_calibration_keeps_its_cameras_focal_length(tmp_path) -> None:
    calibration = calibrate(load_image(PHOTO), CORNERS)
    path = tmp_path / "cal.json"
    calibration.save(path)
    loaded = Calibration.load(path)
    assert loaded.focal is not None and calibration.focal is not None
    assert abs(loaded.focal.log - calibration.focal.log) < 1e-4
    assert loaded.pose.height == pytest.approx(calibration.pose.height, rel=1e-3)
    data = json.loads(path.read_text())
    for bad in ([0.1, 0.0], [0.1], ["x", 1.0], [5.0, 1.0], [0.1, 1e-9]):
        path.write_text(json.dumps(data | {"focal": bad}))
        with pytest.raises(CalibrationError, match="malformed calibration"):
            Calibration.load(path)


def test_a_camera_found_again_at_the_same_corners_keeps_its_pose() -> None:
    """The watcher finds the board again whenever the view stays changed (a lamp, an object
    left on it), often at the very same corners: the focal length those corners imply is
    pooled with the calibration picture's once, not once more each time, so a camera that
    really moves later is still judged from its new corners."""
    calibration = calibrate(load_image(PHOTO), CORNERS)
    moved = calibration.moved_to(CORNERS + np.float32(2.0), {})
    again = moved
    for _ in range(30):
        again = again.moved_to(CORNERS + np.float32(2.0), {})
    assert again.pose == moved.pose
    elsewhere = _clicked_off(CORNERS, 0.01, seed=7)[0]
    assert again.moved_to(elsewhere, {}).pose == calibration.moved_to(elsewhere, {}).pose


def test_a_camera_turned_to_portrait_keeps_its_lens_and_pose() -> None:
    """eppu_initialization.jpg (a wide-angle lens) turned upright: its lens, focal length and
    camera height are measured in the picture's long side, so they come out as before, and
    the squares read the same (they once depended on which side was the width)."""
    photo = load_image(PHOTO)
    landscape = calibrate(photo, CORNERS)
    image, corners = turned_upright(photo, CORNERS)
    portrait = calibrate(image, corners)
    assert landscape.k1 < -0.1  # the wide-angle lens is found at all
    assert portrait.k1 == landscape.k1
    assert portrait.pose.focal == pytest.approx(landscape.pose.focal, rel=0.03)
    assert portrait.pose.height == pytest.approx(landscape.pose.height, rel=0.03)
    assert read_squares(portrait, image) == read_squares(landscape, photo)


def test_a_version_2_calibration_loads_unless_its_picture_wasturned_upright(tmp_path) -> None:
    """Version 2 measured the lens in picture widths: a landscape picture's file means the
    same now; a portrait one's would bend the board otherwise, so it asks for a new one."""
    path = tmp_path / "cal.json"
    photo = load_image(PHOTO)
    for image, corners in ((photo, CORNERS), turned_upright(photo, CORNERS)):
        calibration = calibrate(image, corners)
        path.write_text(json.dumps(calibration.to_json() | {"version": 2}))
        if image.shape[1] > image.shape[0]:
            loaded = Calibration.load(path)
            assert loaded.k1 == calibration.k1
            assert loaded.pose.height == pytest.approx(calibration.pose.height, rel=1e-3)
        else:
            with pytest.raises(CalibrationError, match=r"portrait picture.*recalibrate"):
                Calibration.load(path)
