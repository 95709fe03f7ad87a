"""The canonical top-down board image and where each square's sample regions lie in it.

Every calibration maps the camera frame onto one canonical image: the 8x8 playing area seen from
White's side, ``SQUARE_PX`` pixels a square, row 0 (squares 1-4) at the top, inside a margin of
``MARGIN`` squares (tall pieces on the edge rows lean out of the playing area in oblique views).
Board coordinates are in squares, (0, 0) the a8 corner, x to the right, y towards White. Corners
are always listed in the order of ``CORNER_NAMES``: White's near-left (a1, square 29 is there),
near-right (h1), far-right (h8), far-left (a8).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.geometry import SQUARES, row_col

SQUARE_PX = 32
MARGIN = 1.5  # squares of canvas around the playing area
MARGIN_PX = round(MARGIN * SQUARE_PX)
BOARD_PX = 8 * SQUARE_PX
CANVAS_PX = BOARD_PX + 2 * MARGIN_PX
CORNER_NAMES = ("a1", "h1", "h8", "a8")
#: The four playing-area corners in board coordinates (squares), in ``CORNER_NAMES`` order.
BOARD_CORNERS = np.array([[0, 8], [8, 8], [8, 0], [0, 0]], dtype=np.float32)
#: The same corners in the canonical image.
CANONICAL_CORNERS = (BOARD_CORNERS * SQUARE_PX + MARGIN_PX).astype(np.float32)
#: Light squares as (row, column), row 0 the far row; they never hold a piece.
LIGHT_SQUARES = tuple((r, c) for r in range(8) for c in range(8) if (r + c) % 2 == 0)
#: Centre of each dark square 1-32 in board coordinates, shape (32, 2) as (x, y).
SQUARE_CENTRES = np.array([(c + 0.5, r + 0.5) for r, c in map(row_col, SQUARES)], dtype=float)
#: Centre of each light square in board coordinates, shape (32, 2).
LIGHT_CENTRES = np.array([(c + 0.5, r + 0.5) for r, c in LIGHT_SQUARES], dtype=float)

#: Index standing for "outside the canvas": one past the last pixel of the flattened image.
VOID = CANVAS_PX * CANVAS_PX

_SAMPLE_STEP = 2  # sample every other pixel: fractions and medians need no more


def flat(points: np.ndarray) -> np.ndarray:
    """Flat canvas indices of board points (..., 2) in squares; ``VOID`` outside the canvas."""
    pixels = np.floor(points * SQUARE_PX + MARGIN_PX).astype(np.intp)
    inside = ((pixels >= 0) & (pixels < CANVAS_PX)).all(axis=-1)
    return np.where(inside, pixels[..., 1] * CANVAS_PX + pixels[..., 0], VOID)


def offsets_disc(radius: float, step: float = _SAMPLE_STEP / SQUARE_PX) -> np.ndarray:
    """Sample offsets (n, 2), in squares, covering a disc of ``radius`` squares every ``step``
    (by default every other canvas pixel)."""
    axis = np.arange(-radius, radius + 1e-9, step)
    xs, ys = np.meshgrid(axis, axis)
    keep = xs**2 + ys**2 <= radius**2
    return np.stack([xs[keep], ys[keep]], axis=1)


def offsets_box(half: float) -> np.ndarray:
    """Sample offsets (n, 2), in squares, covering a square of half-side ``half``."""
    step = _SAMPLE_STEP / SQUARE_PX
    axis = np.arange(-half + step / 2, half, step)
    xs, ys = np.meshgrid(axis, axis)
    return np.stack([xs.ravel(), ys.ravel()], axis=1)


@dataclass(frozen=True)
class SampleLayout:
    """Flat pixel indices into the canonical image, one equal-length row per region; fixed
    regions that do not depend on the camera (used to orient a board found by its grid)."""

    discs: np.ndarray  # (32, n): centre disc of squares 1-32
    corners: np.ndarray  # (32, m): the four corner patches of squares 1-32
    light: np.ndarray  # (32, k): centre disc of each light square


def _corner_offsets() -> np.ndarray:
    box = offsets_box(0.45)
    keep = (np.abs(box) > 0.33).all(axis=1)
    return box[keep]


def build_layout() -> SampleLayout:
    """The fixed sample regions of every square in the canonical image."""
    disc, corners, light = offsets_disc(0.25), _corner_offsets(), offsets_disc(0.3)
    return SampleLayout(
        discs=flat(SQUARE_CENTRES[:, None, :] + disc[None]),
        corners=flat(SQUARE_CENTRES[:, None, :] + corners[None]),
        light=flat(LIGHT_CENTRES[:, None, :] + light[None]),
    )


LAYOUT = build_layout()
#: Which of ``LAYOUT.corners``' samples lie clear of the blur along a square's edges (which
#: mixes in the next squares): one in each corner.
CLEAR_CORNERS = np.flatnonzero((np.abs(_corner_offsets()) < 0.37).all(axis=1))
