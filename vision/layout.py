"""The canonical top-down board image and where each square's sample regions lie in it.

Every calibration maps the camera frame onto one canonical image: the 8x8 playing area seen from
White's side, ``SQUARE_PX`` pixels a square, row 0 (squares 1-4) at the top. Corners are always
listed in the order of ``CORNER_NAMES``: White's near-left (a1, square 29 is there), near-right
(h1), far-right (h8), far-left (a8).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.geometry import SQUARES, row_col

SQUARE_PX = 40
BOARD_PX = 8 * SQUARE_PX
CORNER_NAMES = ("a1", "h1", "h8", "a8")
#: The four playing-area corners in the canonical image, in ``CORNER_NAMES`` order.
CANONICAL_CORNERS = np.array(
    [[0, BOARD_PX], [BOARD_PX, BOARD_PX], [BOARD_PX, 0], [0, 0]], dtype=np.float32
)
#: Light squares as (row, column), row 0 the far row; they never hold a piece.
LIGHT_SQUARES = tuple((r, c) for r in range(8) for c in range(8) if (r + c) % 2 == 0)

_DISC_RADIUS = 0.25  # of a square: inside any piece, even one set a little off-centre
_PATCH_INSET = (0.05, 0.17)  # corner patches of a dark square: outside any round piece
_SAMPLE_STEP = 2  # sample every other pixel: medians need no more


def _grid(top: int, left: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel offsets (y, x) of one square's sample grid, relative to its top-left corner."""
    ys, xs = np.mgrid[0:SQUARE_PX:_SAMPLE_STEP, 0:SQUARE_PX:_SAMPLE_STEP]
    return ys.ravel() + top, xs.ravel() + left


def _flat(ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    return (ys * BOARD_PX + xs).astype(np.intp)


def _disc(row: int, col: int, radius: float) -> np.ndarray:
    ys, xs = _grid(row * SQUARE_PX, col * SQUARE_PX)
    centre = SQUARE_PX / 2 - 0.5
    inside = (ys - row * SQUARE_PX - centre) ** 2 + (xs - col * SQUARE_PX - centre) ** 2
    keep = inside <= (radius * SQUARE_PX) ** 2
    return _flat(ys[keep], xs[keep])


def _corner_patches(row: int, col: int) -> np.ndarray:
    ys, xs = _grid(row * SQUARE_PX, col * SQUARE_PX)
    low, high = (int(v * SQUARE_PX) for v in _PATCH_INSET)
    dy, dx = ys - row * SQUARE_PX, xs - col * SQUARE_PX
    near_y = ((dy >= low) & (dy < high)) | ((dy >= SQUARE_PX - high) & (dy < SQUARE_PX - low))
    near_x = ((dx >= low) & (dx < high)) | ((dx >= SQUARE_PX - high) & (dx < SQUARE_PX - low))
    keep = near_y & near_x
    return _flat(ys[keep], xs[keep])


@dataclass(frozen=True)
class SampleLayout:
    """Flat pixel indices into the canonical image, one equal-length row per region."""

    discs: np.ndarray  # (32, n): centre disc of squares 1-32
    corners: np.ndarray  # (32, m): the four corner patches of squares 1-32
    light: np.ndarray  # (32, k): centre disc of each light square
    neighbours: np.ndarray  # (32, 4): indices into ``light`` around each dark square (repeats)


def _light_neighbours(row: int, col: int) -> list[int]:
    index = {rc: i for i, rc in enumerate(LIGHT_SQUARES)}
    found = [
        index[(row + dr, col + dc)]
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if (row + dr, col + dc) in index
    ]
    return (found * 4)[:4]  # edge squares have two or three: repeat to a fixed width


def build_layout() -> SampleLayout:
    """The sample regions of every square in the canonical image."""
    discs = [_disc(*row_col(s), _DISC_RADIUS) for s in SQUARES]
    corners = [_corner_patches(*row_col(s)) for s in SQUARES]
    light = [_disc(r, c, 0.3) for r, c in LIGHT_SQUARES]
    neighbours = [_light_neighbours(*row_col(s)) for s in SQUARES]
    return SampleLayout(
        discs=np.stack(discs),
        corners=np.stack(corners),
        light=np.stack(light),
        neighbours=np.array(neighbours, dtype=np.intp),
    )


LAYOUT = build_layout()
