"""The learnt reader's second opinion on the colours' reading (``Calibration.read``): where the
network is sure of a square and the colours were divided over it, the network's reading stands;
where the colours see one thing alone, they do."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.calibration import Calibration, calibrate
from vision.layout import SQUARE_CENTRES
from vision.synthetic import (
    START,
    STYLES,
    Style,
    View,
    render,
    varied_position,
    varied_style,
    varied_view,
)


def _varied_board(seed: int, board: int, shown: int) -> tuple[Style, View, dict[int, str], View]:
    """The style, view, ``shown``-th position and its view of ``board`` in the sequence that
    ``bench/vision_varied.py --seeds seed`` renders (earlier boards drawn, not rendered)."""
    rng = np.random.default_rng(seed)
    for index in range(board + 1):
        style = varied_style(rng)
        view = replace(varied_view(rng), arm=0.0, spares=())
        for position_index in range(6):
            position = varied_position(rng)
            light = float(np.exp(rng.uniform(-0.2, 0.2)))
            seen = replace(
                view, brightness=view.brightness * light, seed=int(rng.integers(1 << 30))
            )
            if index == board and position_index == shown:
                return style, view, position, seen
    raise AssertionError("unreachable: the loops return")


def _both_readings(calibration: Calibration, image: np.ndarray) -> tuple[list[str], list[str]]:
    """The colours' reading alone and with the learnt reader's second opinion."""
    placed = calibration.placed_in(image)
    canvas = placed.canvas(image)
    return placed.read(canvas)[0], placed.read(canvas, image=image)[0]


@pytest.mark.parametrize(
    ("board", "shown", "square", "truth", "misread"),
    [
        (13, 0, 17, "empty", "w"),  # a lamp's reflection over part of an empty square
        (4, 1, 12, "b", "empty"),  # a dark green man on a dark green square
        (4, 2, 9, "empty", "b"),  # a square of another shade, taken for part of such a man
    ],
)
def test_a_sure_second_opinion_mends_a_square_the_colours_were_divided_over(
    board: int, shown: int, square: int, truth: str, misread: str
) -> None:
    """Rendered boards of bench/vision_varied.py's seed 11, calibrated on their start position:
    the colours misread one square, the network is sure of it, and its reading stands. Every
    other square reads as the colours read it."""
    style, view, position, seen = _varied_board(11, board, shown)
    start = render(START, style, view)
    calibration = calibrate(start.image, start.corners)
    assert calibration.opinion is not None
    alone, seconded = _both_readings(calibration, render(position, style, seen).image)
    assert position[square] == truth
    assert (alone[square - 1], seconded[square - 1]) == (misread, truth)
    assert [k for i, k in enumerate(alone) if i != square - 1] == [
        k for i, k in enumerate(seconded) if i != square - 1
    ]


def test_a_lamps_reflection_the_network_takes_for_a_king_stays_empty() -> None:
    """A strong reflection centred on an empty black square: the network is sure it is a king,
    but no part of the square looks like a piece to the colours, so it stays empty."""
    style, view = STYLES["red-black on black"], View()
    calibration = calibrate(render(START, style, view).image, np.array(view.corners))
    x, y = calibration.to_picture(SQUARE_CENTRES[16][None])[0]  # square 17's centre
    lit = render(START, style, replace(view, glare=(x, y, 140))).image
    assert calibration.opinion is not None
    patches, cast = calibration.windows.lit_patches(lit)
    assert calibration.opinion.sure_readings(patches[16:17], cast) == ["W"]
    assert _both_readings(calibration, lit)[1][16] == "empty"


def test_only_squares_that_differ_from_the_known_position_are_asked() -> None:
    """In play the camera asks the network only where the colours' reading differs from the
    last confirmed position: a misread square that agrees with it is left to the game."""
    style, view, position, seen = _varied_board(11, 13, 0)
    start = render(START, style, view)
    calibration = calibrate(start.image, start.corners)
    image = render(position, style, seen).image
    placed = calibration.placed_in(image)
    canvas = placed.canvas(image)
    alone = placed.read(canvas)[0]
    assert alone[16] == "w"
    assert placed.read(canvas, image=image, known=alone)[0] == alone
    known = [*alone[:16], "empty", *alone[17:]]
    assert placed.read(canvas, image=image, known=known)[0][16] == "empty"
