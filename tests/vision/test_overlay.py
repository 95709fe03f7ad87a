"""What the reader saw, drawn over a real photo (the committed Apache-2.0 one): the grid where
the calibration puts it, each piece's mark, and the squares read otherwise than a given
position framed in red. Checked on the photo's pixels, and by the CLI writing real PNGs."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.poolboard_cli import poolboard
from tests.vision.conftest import CORNERS, CORNERS_INSIDE, PHOTO
from vision.calibration import Calibration, calibrate, load_image, read_squares
from vision.colour import START_POSITION
from vision.layout import BOARD_CORNERS, SQUARE_CENTRES
from vision.overlay import draw_reading

CORNERS_ARG = ",".join(str(int(v)) for v in CORNERS.ravel())


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    return load_image(PHOTO)


@pytest.fixture(scope="module")
def calibration(photo: np.ndarray) -> Calibration:
    return calibrate(photo, CORNERS)


def _near(image: np.ndarray, at: np.ndarray, colour: tuple[int, int, int], reach: int = 3) -> bool:
    """Whether a pixel of ``colour`` (give or take JPEG-free antialiasing) lies within ``reach``
    pixels of ``at``."""
    x, y = (round(float(v)) for v in at)
    patch = image[y - reach : y + reach + 1, x - reach : x + reach + 1].astype(int)
    return bool((np.abs(patch - colour).max(axis=2) <= 40).any())


def _badge(image: np.ndarray, calibration: Calibration, square: int) -> float:
    """Mean brightness of the middle of a square's mark (letter and all)."""
    angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    disc = SQUARE_CENTRES[square - 1] + 0.15 * np.stack([np.cos(angles), np.sin(angles)], 1)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [calibration.to_picture(disc).round().astype(np.int32)], 1)
    return float(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)[mask == 1].mean())


def test_board_points_land_where_the_lens_puts_them(calibration: Calibration) -> None:
    """The wide-angle lens bends this photo (k1 about -0.35): the playing area's corners map
    back onto the calibration's corners (those given, snapped to the grid by a few pixels)."""
    assert calibration.k1 < -0.2
    assert np.abs(calibration.to_picture(BOARD_CORNERS) - calibration.corners).max() < 0.5
    assert np.abs(calibration.corners - CORNERS).max() < 10  # a square is 60 px here


def test_the_reading_is_drawn_where_the_squares_are(
    photo: np.ndarray, calibration: Calibration
) -> None:
    reading = read_squares(calibration, photo)
    given = dict(START_POSITION) | {20: "w"}  # a square the photo does not show as given
    shown = draw_reading(photo, calibration, reading, given)
    assert shown.shape == photo.shape and not np.array_equal(shown, photo)
    assert np.array_equal(photo, load_image(PHOTO))  # the picture itself is left alone
    for corner in calibration.to_picture(BOARD_CORNERS):
        assert _near(shown, corner, (0, 220, 255)), f"no grid line at {corner}"
    badge = {s: _badge(shown, calibration, s) for s in range(1, 33)}
    assert all(badge[s] < 90 for s in range(1, 13)), "Black's men carry a black badge"
    assert all(badge[s] > 170 for s in range(21, 33)), "White's men carry a white badge"
    frame_corner = calibration.to_picture(SQUARE_CENTRES[19] + np.array([[-0.45, -0.45]]))[0]
    assert _near(shown, frame_corner, (0, 0, 255)), "square 20 is not framed in red"
    for square in (13, 16, 17):
        corner = calibration.to_picture(SQUARE_CENTRES[square - 1] + np.array([[-0.45, -0.45]]))[0]
        assert not _near(shown, corner, (0, 0, 255)), f"square {square} framed, yet read as given"


def test_calibrate_and_read_write_the_pictures(tmp_path: Path, photo: np.ndarray) -> None:
    cal, check = tmp_path / "cal.json", tmp_path / "check.png"
    done = poolboard(
        "vision", "calibrate", str(PHOTO), "--corners", CORNERS_ARG, "--out", str(cal),
        "--show", str(check),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"drawn on the picture in {check}" in done.stdout
    drawn = load_image(check)
    assert drawn.shape == photo.shape and not np.array_equal(drawn, photo)
    done = poolboard(
        "vision", "read", str(PHOTO), "--calibration", str(cal), "--show", str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    read = load_image(tmp_path / "eppu_initialization-read.png")
    assert read.shape == photo.shape and not np.array_equal(read, photo)


def test_where_the_pictures_cannot_go_is_one_line(tmp_path: Path) -> None:
    cal = tmp_path / "cal.json"
    done = poolboard(
        "vision", "calibrate", str(PHOTO), "--corners", CORNERS_ARG, "--out", str(cal),
        "--show", str(tmp_path / "check"),
    )  # fmt: skip
    assert done.returncode == 2 and not cal.exists()
    assert done.stderr.strip() == (
        f"poolboard vision: --show '{tmp_path / 'check'}' needs an image suffix such as .png"
    )
    assert (
        poolboard(
            "vision", "calibrate", str(PHOTO), "--corners", CORNERS_ARG, "--out", str(cal)
        ).returncode
        == 0
    )
    saved = cal.read_bytes() + b" "  # what a run that calibrates would overwrite
    cal.write_bytes(saved)
    for show, problem in (
        (tmp_path / "check.xyz", "no '.xyz' pictures can be written (try .png or .jpg)"),
        (tmp_path / "none" / "check.png", f"--show '{tmp_path / 'none'}' is not a folder"),
    ):
        done = poolboard(
            "vision", "calibrate", str(PHOTO), "--corners", CORNERS_ARG, "--out", str(cal),
            "--show", str(show),
        )  # fmt: skip
        assert done.returncode == 2 and done.stdout == "", "checked before calibrating"
        assert len(done.stderr.splitlines()) == 1 and problem in done.stderr
        assert cal.read_bytes() == saved, "the calibration saved before is left alone"
    done = poolboard(
        "vision", "read", str(PHOTO), "--calibration", str(cal), "--show", "no-such-dir"
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "poolboard vision: --show 'no-such-dir' is not a folder"


def test_evaluate_draws_the_readings_with_a_square_wrong(tmp_path: Path) -> None:
    """A label that says square 20 holds a White man (the photo shows it empty): the half of
    the photo read with 20 among its squares is drawn, with 20 framed in red; the other half,
    read right, is not."""
    truth = {str(s): v for s, v in START_POSITION.items()} | {"20": "w"}
    entry = {"source": "eppu", "corners_a1_h1_h8_a8": CORNERS.tolist(), "squares": truth}
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps({"photos": {PHOTO.name: entry}}))
    shown = tmp_path / "shown"
    shown.mkdir()
    done = poolboard(
        "vision", "evaluate", str(labels), "--images", str(PHOTO.parent), "--show", str(shown)
    )
    assert done.returncode == 0, done.stderr
    assert "eppu_initialization.jpg 20: w -> empty x1" in done.stdout
    assert [p.name for p in shown.iterdir()] == ["eppu_initialization--other-half.png"]
    drawn = load_image(shown / "eppu_initialization--other-half.png")
    calibration = calibrate(load_image(PHOTO), CORNERS)
    corner = calibration.to_picture(SQUARE_CENTRES[19] + np.array([[-0.45, -0.45]]))[0]
    assert _near(drawn, corner, (0, 0, 255)), "square 20 is not framed in red"


def test_corners_that_miss_the_squares_are_refused_and_drawn(
    tmp_path: Path, photo: np.ndarray
) -> None:
    """Corners clicked 10 % inside the playing area: the squares between them do not line up
    with the board's, so calibration is refused (every reading would be), and the grid they
    give is drawn, to show where the corners went; nothing is saved."""
    given = ",".join(str(round(float(v))) for v in CORNERS_INSIDE.ravel())
    cal, check = tmp_path / "cal.json", tmp_path / "check.png"
    done = poolboard(
        "vision", "calibrate", str(PHOTO), "--corners", given, "--out", str(cal),
        "--show", str(check),
    )  # fmt: skip
    assert done.returncode == 2 and not cal.exists()
    assert done.stderr.strip() == (
        "poolboard vision: the squares do not line up with the corners given: click the "
        f"playing area's own corners, a1 first (the grid they give is drawn in {check})"
    )
    drawn = load_image(check)
    assert not np.array_equal(drawn, photo)
    assert _near(drawn, CORNERS_INSIDE[0], (0, 220, 255)), "no grid line at the a1 corner given"


def test_a_small_picture_is_drawn_enlarged(photo: np.ndarray, calibration: Calibration) -> None:
    """At 640x360 this board's squares are about 20 pixels: too small to write a number and a
    letter in, so the picture is drawn three times as large, the grid still on the board."""
    small = cv2.resize(photo, (640, 360), interpolation=cv2.INTER_AREA)
    placed = calibration.placed_in(small)
    shown = draw_reading(small, placed, {1: "B"})
    assert shown.shape == (1080, 1920, 3)
    for corner in placed.to_picture(BOARD_CORNERS) * 3:
        assert _near(shown, corner, (0, 220, 255), reach=4), f"no grid line at {corner}"


def test_a_board_given_turned_round_is_warned_of(tmp_path: Path) -> None:
    """Corners given from h8 instead of a1 (the board turned round) make the white discs
    Black's, and every later reading swaps the sides; calibrate warns, since Black is the
    darker or red side (R-BRD-3). Given the right way round, no warning."""
    cal = tmp_path / "cal.json"
    turned = ",".join(str(int(v)) for v in CORNERS[[2, 3, 0, 1]].ravel())
    for corners, warned in ((turned, True), (CORNERS_ARG, False)):
        done = poolboard("vision", "calibrate", str(PHOTO), "--corners", corners, "--out", str(cal))
        assert done.returncode == 0, done.stderr
        said = (
            "warning: the pieces taken for Black's are lighter than White's, where Black is "
            "the darker or red side (R-BRD-3): if the board is turned round, give the corners "
            "starting at a1"
        )
        assert (said in done.stdout.splitlines()) == warned, done.stdout
