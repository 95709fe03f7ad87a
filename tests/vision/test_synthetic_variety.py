"""The renderer's variety (vision.synthetic), which a reader learns boards from (issue #31):
draws are reproducible from a seed, corners land on the playing area, every option shows in the
picture, kings are drawn as asked, and the varied draws cover the space they promise."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import pytest

from vision.camera import distort
from vision.layout import BOARD_CORNERS, SQUARE_CENTRES
from vision.synthetic import (
    START,
    Style,
    Tag,
    View,
    camera_corners,
    render,
    varied_position,
    varied_style,
    varied_view,
)

#: Overhead, squares 40 pixels wide, nothing spoiling the picture: what is drawn is what shows.
CLEAN = View(corners=((160, 400), (480, 400), (480, 80), (160, 80)), noise=0.0)
OBLIQUE = replace(CLEAN, corners=camera_corners(40, 0, 0))
#: Men and kings of both sides in the board's middle (squares 14, 15, 18, 19).
MIXED = {14: "b", 15: "B", 18: "w", 19: "W"}


def _draw(seed: int) -> tuple[dict[int, str], Style, View]:
    rng = np.random.default_rng(seed)
    return varied_position(rng), varied_style(rng), varied_view(rng)


def _calm(view: View) -> View:
    """The view's camera with nothing spoiling the picture."""
    return replace(
        view, noise=0.0, glare=None, streaks=(), arm=0.0, shadows=(), gradient=(0.0, 0.0),
        vignette=0.0, blur=0.0, motion=0.0, jpeg=0, tint=(1.0, 1.0, 1.0), brightness=1.0,
        gamma=1.0, bloom=0.0, saturation=1.0, spares=(),
    )  # fmt: skip


def _pixel(image: np.ndarray, point: np.ndarray) -> np.ndarray:
    """The median colour of the 3x3 pixels round a point (x, y)."""
    x, y = (round(float(v)) for v in point)
    return np.median(image[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3), axis=0)


def _on_picture(view: View, board_points: np.ndarray) -> np.ndarray:
    """Where board points (squares, on the board's surface) land in the view's picture."""
    to_image = cv2.getPerspectiveTransform(BOARD_CORNERS, np.array(view.corners, np.float32))
    points = cv2.perspectiveTransform(board_points.astype(np.float32)[None], to_image)[0]
    return distort(points, view.distortion, view.size)


def test_a_seed_draws_the_same_frame_again_and_another_seed_another() -> None:
    first, again = render(*_draw(5)), render(*_draw(5))
    assert np.array_equal(first.image, again.image)
    assert np.array_equal(first.corners, again.corners)
    assert not np.array_equal(first.image, render(*_draw(6)).image)


def test_a_board_keeps_its_grain_shades_and_tags_from_view_to_view() -> None:
    style = replace(
        varied_style(np.random.default_rng(3)), texture="wood", grain=1.0, dark_spread=0.8,
        tags=(Tag(0.2, 0.3),), wobble=0.0,  # clay outlines are drawn afresh each frame
    )  # fmt: skip
    one = render(START, style, replace(CLEAN, seed=1)).image
    other = render(START, style, replace(CLEAN, seed=2)).image
    assert np.array_equal(one, other)  # the view's seed draws noise and jitter, not the board
    reseeded = render(START, replace(style, seed=style.seed + 1), CLEAN).image
    assert not np.array_equal(one, reseeded)


@pytest.mark.parametrize("seed", range(8))
def test_corners_land_on_the_playing_areas_corners(seed: int) -> None:
    view = _calm(varied_view(np.random.default_rng(seed)))
    style = Style(
        light=(230, 230, 230), dark=(20, 20, 20), frame=(20, 20, 230), table=(20, 230, 20)
    )
    frame = render({}, style, view, markers=False)
    width, height = view.size
    assert all(0 <= x < width and 0 <= y < height for x, y in frame.corners)
    assert np.allclose(frame.corners, _on_picture(view, BOARD_CORNERS), atol=1e-3)
    # A quarter square inside each corner is its square (a1 and h8 dark, h1 and a8 light); a
    # sixth of a square outside it is the frame (red) where the picture shows it.
    inward = np.sign(4 - BOARD_CORNERS)
    inside = _on_picture(view, BOARD_CORNERS + 0.25 * inward)
    outside = _on_picture(view, BOARD_CORNERS - 0.17 * inward)
    for name, point, dark in zip(("a1", "h1", "h8", "a8"), inside, (1, 0, 1, 0), strict=True):
        colour = _pixel(frame.image, point)
        assert (colour.max() < 80) if dark else (colour.min() > 180), (name, colour)
    for name, point in zip(("a1", "h1", "h8", "a8"), outside, strict=True):
        if not (1 <= point[0] < width - 1 and 1 <= point[1] < height - 1):
            continue
        blue, green, red = _pixel(frame.image, point)
        assert red > 150 and green < 100, (name, blue, green, red)


STYLE_CHANGES: dict[str, dict[str, Any]] = {
    "wood": {"texture": "wood", "grain": 0.8},
    "paper": {"texture": "paper", "grain": 0.8},
    "dark squares that vary": {"dark_spread": 0.8},
    "engraved dark squares": {"engraved": 0.8},
    "labels": {"labels": True},
    "a fiducial tag": {"tags": (Tag(2.9, 3.1, size=0.6),)},
    "an AprilTag": {"tags": (Tag(7.9, 0.2, size=0.8, angle=20, kind="apriltag", code=3),)},
    "a sticker": {"tags": (Tag(5.0, 4.1, size=0.5, kind="sticker", colour=(60, 200, 240)),)},
    "ridged pieces": {"profile": "ridged"},
    "domed pieces": {"profile": "domed"},
    "pegs": {"profile": "peg"},
    "shading": {"shading": 0.8},
    "shadows": {"shadow": 0.5},
    "uneven outlines": {"wobble": 0.08},
    "emblem kings": {"kings": "emblem"},
    "marked stacks": {"kings": "stack-emblem"},
    "kings of another shape": {"kings": "shape"},
    "kings with an insert": {"kings": "insert"},
}


@pytest.mark.parametrize("change", STYLE_CHANGES.values(), ids=STYLE_CHANGES.keys())
def test_every_style_option_shows_on_the_board(change: dict[str, Any]) -> None:
    before = render(MIXED, Style(), OBLIQUE).image
    after = render(MIXED, replace(Style(), **change), OBLIQUE).image
    changed = np.abs(before.astype(int) - after).max(axis=2) > 12
    assert changed.sum() > 20
    # ... on the board and its frame, never elsewhere
    ys, xs = np.nonzero(changed)
    corners = np.array(OBLIQUE.corners)
    low, high = corners.min(axis=0) - 30, corners.max(axis=0) + 30
    assert low[0] < xs.min() and xs.max() < high[0]
    assert low[1] < ys.min() and ys.max() < high[1]


KING_CHANGES: dict[str, dict[str, Any]] = {
    "emblem crown": {"emblem": "crown"},
    "emblem ring": {"emblem": "ring"},
    "emblem dot": {"emblem": "dot"},
    "emblem square": {"emblem": "square"},
    "emblem size": {"emblem_size": 0.4},
    "gold ink": {"emblem_ink": "gold"},
    "engraved mark": {"emblem_ink": "engraved"},
    "hexagon king": {"kings": "shape", "king_shape": "hexagon"},
    "larger king": {"kings": "shape", "king_shape": "circle", "king_scale": 1.2},
    "insert colour": {"kings": "insert", "insert": (200, 60, 60)},
}


@pytest.mark.parametrize("change", KING_CHANGES.values(), ids=KING_CHANGES.keys())
def test_every_king_option_changes_the_kings_and_only_them(change: dict[str, Any]) -> None:
    style = Style(kings="emblem", shading=0.5)
    before = render(MIXED, style, CLEAN).image
    after = render(MIXED, replace(style, **change), CLEAN).image
    changed = np.abs(before.astype(int) - after).max(axis=2) > 12
    assert changed.sum() > 10
    centres = _on_picture(CLEAN, SQUARE_CENTRES)
    ys, xs = np.nonzero(changed)
    nearest = np.argmin(np.hypot(xs[:, None] - centres[:, 0], ys[:, None] - centres[:, 1]), axis=1)
    assert set(nearest + 1) <= {15, 19}  # the kings' squares


VIEW_CHANGES: dict[str, dict[str, Any]] = {
    "focus blur": {"blur": 1.5},
    "motion blur": {"motion": 6.0, "motion_angle": 30.0},
    "JPEG": {"jpeg": 30},
    "gamma": {"gamma": 1.3},
    "vignette": {"vignette": 0.5},
    "streaks": {"streaks": ((200, 100, 420, 380, 10, 120),)},
    "camera noise": {"noise": 4.0, "noise_kind": "camera"},
    "a hand": {"arm": 0.8, "hand": True},
    "the lamp's direction": {"lamp": 300.0},
    "the lamp's height": {"lamp_height": 30.0},
    "bloom": {"bloom": 1.0},
    "spare pieces": {"spares": ((-0.8, 3.0, "b"), (8.9, 5.0, "W"))},
    "saturation": {"saturation": 0.6},
}


@pytest.mark.parametrize("change", [{"clutter": 12, "seed": 4}, {"sheet": 0.5}], ids=str)
def test_a_sheet_and_clutter_lie_round_the_board_not_on_it(change: dict[str, Any]) -> None:
    view = replace(CLEAN, corners=camera_corners(0, 0, 0, fill=0.5))
    before = render(START, Style(), view).image
    after = render(START, Style(**change), view).image
    changed = np.abs(before.astype(int) - after).max(axis=2) > 12
    frame = cv2.convexHull(np.array(view.corners, np.float32)).reshape(-1, 2)
    inside = np.zeros(changed.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(frame).astype(np.int32), 1)
    inside = cv2.dilate(inside, np.ones((9, 9), np.uint8)).astype(bool)  # the frame's width
    assert changed[~inside].sum() > 200
    assert not changed[inside].any()


@pytest.mark.parametrize("change", VIEW_CHANGES.values(), ids=VIEW_CHANGES.keys())
def test_every_view_option_changes_the_picture(change: dict[str, Any]) -> None:
    style = Style(shading=0.8, shadow=0.5)
    before = render(MIXED, style, OBLIQUE).image
    after = render(MIXED, style, replace(OBLIQUE, **change)).image
    assert np.abs(before.astype(int) - after).max(axis=2).sum() > 2000


def test_a_hand_is_drawn_unlike_the_old_arm() -> None:
    arm = replace(CLEAN, arm=0.8)
    assert not np.array_equal(render(START, Style(), arm).image,
                              render(START, Style(), replace(arm, hand=True)).image)  # fmt: skip


def _top_centre(image: np.ndarray, square: int) -> np.ndarray:
    return _pixel(image, _on_picture(CLEAN, SQUARE_CENTRES[square - 1 : square])[0])


def test_kings_are_drawn_as_specified() -> None:
    white = (225, 232, 236)
    emblem = render(MIXED, Style(kings="emblem", emblem_ink="dark"), CLEAN).image
    assert _top_centre(emblem, 19).max() < 80  # the dark mark on White's king
    assert _top_centre(emblem, 18).min() > 200  # a man: his own colour
    ring = render(MIXED, Style(kings="emblem", emblem="ring", emblem_ink="dark"), CLEAN).image
    assert _top_centre(ring, 19).min() > 200  # a ring's middle is the piece's own colour
    insert = render(MIXED, Style(kings="insert", insert=(200, 60, 60)), CLEAN).image
    assert np.allclose(_top_centre(insert, 19), (200, 60, 60), atol=15)
    assert np.allclose(_top_centre(insert, 18), white, atol=15)

    def area(style: Style, square: int, view: View = CLEAN) -> int:
        empty = render({}, style, view).image
        placed = render({square: MIXED[square]}, style, view).image
        return int((np.abs(empty.astype(int) - placed).max(axis=2) > 30).sum())

    larger = Style(kings="shape", king_shape="circle", king_scale=1.25)
    assert area(larger, 19) > 1.4 * area(larger, 18)
    smaller = Style(kings="shape", king_shape="square", king_scale=0.8)
    assert area(smaller, 19) < 0.8 * area(smaller, 18)
    thick = Style(piece_height=0.2)
    assert area(thick, 19, OBLIQUE) > 1.1 * area(thick, 18, OBLIQUE)  # a stack stands taller
    marked = render(MIXED, Style(kings="stack-emblem", emblem_ink="dark"), OBLIQUE).image
    plain = render(MIXED, Style(), OBLIQUE).image
    assert np.abs(marked.astype(int) - plain).max() > 100


def test_varied_positions_are_positions_games_have() -> None:
    rng = np.random.default_rng(11)
    kinds_seen = set()
    starts = kings_of_both = 0
    for _ in range(150):
        position = varied_position(rng)
        assert sorted(position) == list(range(1, 33))
        assert set(position.values()) <= {"empty", "b", "w", "B", "W"}
        assert all(position[s] != "b" for s in range(29, 33))  # a man there is crowned (R-PRO-1)
        assert all(position[s] != "w" for s in range(1, 5))
        for side in "bw":
            assert sum(v.lower() == side for v in position.values()) <= 12
        kinds_seen |= set(position.values())
        starts += position == {s: START.get(s, "empty") for s in range(1, 33)}
        kings_of_both += "B" in position.values() and "W" in position.values()
    assert kinds_seen == {"empty", "b", "w", "B", "W"}
    assert starts > 5 and kings_of_both > 30


def test_varied_views_run_from_overhead_to_oblique_from_every_side() -> None:
    rng = np.random.default_rng(12)
    squeezes, quadrants = [], set()
    for _ in range(80):
        view = varied_view(rng)
        corners = np.array(view.corners)
        width, height = view.size
        assert (corners >= 0).all() and (corners[:, 0] < width).all()
        assert (corners[:, 1] < height).all()
        sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
        squeezes.append(min(sides[0] / sides[2], sides[2] / sides[0], sides[1] / sides[3],
                            sides[3] / sides[1]))  # fmt: skip
        a1 = corners[0] - corners.mean(axis=0)
        quadrants.add((bool(a1[0] > 0), bool(a1[1] > 0)))
    assert min(squeezes) < 0.7 and max(squeezes) > 0.95
    assert len(quadrants) == 4


def test_varied_styles_cover_every_kind() -> None:
    rng = np.random.default_rng(13)
    styles = [varied_style(rng) for _ in range(300)]
    assert {s.kings for s in styles} == {"stack", "emblem", "stack-emblem", "shape", "insert"}
    assert {s.profile for s in styles} == {"flat", "ridged", "domed", "peg"}
    assert {s.texture for s in styles} == {"flat", "wood", "paper"}
    assert {s.emblem for s in styles} == {"star", "square", "crown", "ring", "dot"}
    assert any(s.tags for s in styles) and any(s.engraved for s in styles)
    assert any(s.dark_spread > 0.5 for s in styles)
    close = [s for s in styles if np.abs(np.subtract(s.black, s.dark)).max() < 40]
    assert close  # black men on black squares
    assert min(s.piece_height for s in styles) < 0.04 < 0.2 < max(s.piece_height for s in styles)
