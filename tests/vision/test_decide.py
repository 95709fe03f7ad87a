"""The per-square decision on measured shares: a crown's emblem decides whose piece it is."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import _emblem
from vision.camera import CameraPose
from vision.colour import (
    BLACK,
    EMPTY,
    WHITE,
    PixelModel,
    Sampler,
    SquareModel,
    Squares,
    _central_hole,
)


def _shares(first: dict[int, float]) -> np.ndarray:
    shares = np.zeros((32, 5))
    shares[:, EMPTY] = 1.0
    shares[0] = 0.0
    for index, share in first.items():
        shares[0, index] = share
    return shares


def _one_square(
    box: dict[int, float], base: dict[int, float], emblems: tuple[float, float]
) -> Squares:
    """Squares where square 1 shows ``box`` and ``base`` (class -> share of the square less a
    margin, of the disc round its centre) and every other square is empty board."""
    marks = np.zeros((32, 2))
    marks[0] = emblems
    return Squares(
        fractions=_shares(box), odd=np.zeros(32), base=_shares(base), heights=np.zeros((32, 2)),
        emblems=marks, light=np.ones(32),
    )  # fmt: skip


@pytest.fixture(scope="module")
def overhead() -> tuple[SquareModel, Sampler]:
    """A model that never sees stacks (a camera straight overhead), emblems from 0.05."""
    pixels = PixelModel(np.zeros((1, 3)), np.array([EMPTY]), 1.0)
    return SquareModel(pixels, (0.1, 0.1), 0.05), Sampler.build(CameraPose((4.0, 4.0), 20.0))


@pytest.mark.parametrize(
    ("box", "base", "emblems", "expected"),
    [
        # A gold square filling the middle of a dark king (measured so on the hardened
        # synthetic set): White's colour fills the disc round the centre.
        ({BLACK: 0.48, WHITE: 0.29, EMPTY: 0.23}, {BLACK: 0.18, WHITE: 0.55, EMPTY: 0.27},
         (0.19, 0.0), "B"),
        # A dark square on a pale king set off-centre: little of the piece is in the box.
        ({WHITE: 0.15, EMPTY: 0.85}, {WHITE: 0.1, BLACK: 0.3, EMPTY: 0.6}, (0.0, 0.25), "W"),
        # A pale man with a dark knob the calibration called a mark: stays a man.
        ({WHITE: 0.7, EMPTY: 0.3}, {WHITE: 0.9, EMPTY: 0.1}, (0.0, 0.03), "w"),
        # A pale stack whose shaded wall looks dark and encloses its pale top (a real
        # fhgr photo): the top, the larger part, says it is White's; no crown is made of it.
        ({WHITE: 0.54, BLACK: 0.3, EMPTY: 0.16}, {WHITE: 0.53, BLACK: 0.3, EMPTY: 0.17},
         (0.167, 0.0), "w"),
    ],
)  # fmt: skip
def test_an_emblem_names_the_side_its_rim_shows(
    overhead: tuple[SquareModel, Sampler],
    box: dict[int, float],
    base: dict[int, float],
    emblems: tuple[float, float],
    expected: str,
) -> None:
    model, sampler = overhead
    kinds, _ = model.decide(_one_square(box, base, emblems), sampler)
    assert kinds[0] == expected
    assert kinds[1:] == ["empty"] * 31


def _ring(hole_cells: int) -> tuple[np.ndarray, np.ndarray]:
    """A piece's outline on the emblem window's grid (0.1 square a cell): a ring two cells
    wide round a square hole ``hole_cells`` cells across, in the middle of the window."""
    piece = np.zeros((13, 22), dtype=bool)
    top, left = (13 - hole_cells) // 2 - 2, 6
    piece[top : top + hole_cells + 4, left : left + hole_cells + 4] = True
    holes = np.zeros_like(piece)
    holes[top + 2 : top + 2 + hole_cells, left + 2 : left + 2 + hole_cells] = True
    piece &= ~holes
    return piece, holes


def test_a_hole_larger_than_a_mark_on_a_piece_that_fits_its_square_is_no_emblem() -> None:
    """A crown's mark 0.5 square across counts; an empty square 0.8 across ringed by a pale
    blur (the board's far edge in a small picture, a king leaning in) is no king (R-PRO-1)."""
    assert _central_hole(*_ring(5)) > 0.05
    assert _central_hole(*_ring(8)) == 0.0


def _marked(kings: float, men: float) -> Squares:
    """Squares 1-8 Black kings whose marks fill ``kings`` of the piece, 9-16 Black men showing
    marks of ``men``, the rest empty."""
    marks = np.zeros((32, 2))
    marks[:8, 0], marks[8:16, 0] = kings, men
    return Squares(
        fractions=np.zeros((32, 5)), odd=np.zeros(32), base=np.zeros((32, 5)),
        heights=np.zeros((32, 2)), emblems=marks, light=np.ones(32),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("kings", "men", "expected"),
    [
        (0.0, 0.0, 0.05),  # unmarked kings (stacks seen from above): the usual floor
        (0.2, 0.0, 0.05),  # large marks: found as ever
        (0.03, 0.0, 0.015),  # a printed star's core: half what the kings showed
        (0.03, 0.01, 0.02),  # never below twice the men's marks
        (0.03, 0.03, 0.06),  # men marked like the kings: twice their marks, as ever
    ],
)
def test_the_kings_marks_at_calibration_set_the_floor(
    overhead: tuple[SquareModel, Sampler], kings: float, men: float, expected: float
) -> None:
    """Kings seen from above at calibration with small marks (a printed star whose thin arms
    blur into the sticker) lower the emblem floor to half their share (issue #10), never below
    the men's marks."""
    _, sampler = overhead
    position = {s: "B" for s in range(1, 9)} | {s: "b" for s in range(9, 17)}
    assert _emblem(_marked(kings, men), position, sampler) == pytest.approx(expected)
