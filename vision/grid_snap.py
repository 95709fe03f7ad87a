"""Corners snapped onto the board's own grid: clicked or found a little off, they are moved to
where the squares' edges line up best, the lens's bend fitted with them.

A corner clicked a few pixels off, or extrapolated by the grid finder past a lens's bend, slides
every square's sample regions towards its neighbours: at 2 % of the board's side, green pieces
on a dark square read as empty board. The picture says where the squares are: the canonical
image of the given corners is aligned with an ideal checker pattern by OpenCV's enhanced
correlation (``cv2.findTransformECC``, a homography), looking only at the light squares and a
band along every edge (a piece covers a dark square's middle, never its edges), and the
corners move by the homography found. Brightness and contrast cancel in that correlation; the
colour channel that shows the pattern best is used, and a board whose playing squares are the
lighter ones is matched with the pattern turned over.

A homography can take up part of a wide-angle lens's bend by moving the corners, so where the
lens is not known yet (at calibration) the alignment is made through each lens the calibration
considers (:data:`vision.corners.K1_CANDIDATES`) and the best kept: the lens the corners as
given show (:func:`vision.corners.lens_distortion`), unless another lines the edges up clearly
better. The corners move only when the squares' edges then line up better than as given
(:func:`vision.corners.board_likeness`) and each by less than a quarter of a square, and only
where the whole playing area is in the picture (a part cut off, black in the canonical image,
would pull the grid inwards).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.corners import (
    K1_CANDIDATES,
    K1_GAIN,
    board_likeness,
    canvas_maps,
    in_picture,
    lens_distortion,
    pattern_agreement,
    remap,
)
from vision.layout import CANONICAL_CORNERS, CANVAS_PX, MARGIN_PX, SQUARE_PX

#: Farthest a corner may be moved, in squares: a larger move is another grid, not a slip.
FARTHEST = 0.25
#: Band along each square's edge, in squares, matched besides the light squares.
_EDGE = 0.15
_STEPS = 100  # most iterations of the correlation's ascent
_CONVERGED = 1e-5  # change of the correlation below which it has converged
_SUBSAMPLES = 4  # samples a side of each pixel of the ideal pattern


def _pattern() -> tuple[np.ndarray, np.ndarray]:
    """The ideal canonical image (light squares 1, dark 0) and where it is matched. Canvas
    pixel i samples the canonical point i (:func:`vision.corners.canvas_maps`), so a pixel on
    an edge is half light: each pixel is the light share of its area, four samples a side."""
    ys, xs = np.mgrid[0:CANVAS_PX, 0:CANVAS_PX].astype(np.float64)
    x, y = (xs - MARGIN_PX) / SQUARE_PX, (ys - MARGIN_PX) / SQUARE_PX
    offsets = (np.arange(_SUBSAMPLES) + 0.5) / _SUBSAMPLES - 0.5
    light = np.zeros((CANVAS_PX, CANVAS_PX))
    for dy in offsets:
        for dx in offsets:
            px, py = x + dx / SQUARE_PX, y + dy / SQUARE_PX
            light += (np.floor(px) + np.floor(py)) % 2 == 0
    light /= _SUBSAMPLES**2
    inside = (x >= 0) & (x <= 8) & (y >= 0) & (y <= 8)
    fx, fy = x % 1, y % 1
    edge = (np.minimum(fx, 1 - fx) < _EDGE) | (np.minimum(fy, 1 - fy) < _EDGE)
    return light.astype(np.float32), (inside & ((light > 0) | edge)).astype(np.uint8)


_IDEAL, _MATCHED = _pattern()


def _likeness(image: np.ndarray, corners: np.ndarray, k1: float) -> float:
    """How well the squares' edges line up between ``corners`` through a lens ``k1``."""
    height, width = image.shape[:2]
    return board_likeness(remap(image, canvas_maps(corners, k1, (width, height))))


def _aligned(image: np.ndarray, corners: np.ndarray, k1: float) -> np.ndarray | None:
    """``corners`` moved by the homography that best aligns the picture, seen through a lens
    ``k1``, with the ideal pattern; None where the alignment fails or moves a corner too far."""
    height, width = image.shape[:2]
    canvas = remap(image, canvas_maps(corners, k1, (width, height)))
    agreement = pattern_agreement(canvas)
    channel = int(np.argmax(np.abs(agreement)))
    if agreement[channel] == 0:
        return None
    seen = canvas[..., channel].astype(np.float32) / 255
    if agreement[channel] < 0:  # the playing squares are the lighter ones
        seen = 1 - seen
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, _STEPS, _CONVERGED)
    try:
        _, warp = cv2.findTransformECC(
            _IDEAL, seen, np.eye(3, dtype=np.float32), cv2.MOTION_HOMOGRAPHY, criteria, _MATCHED, 5
        )
    except cv2.error:  # no convergence: the picture shows no grid near these corners
        return None
    moved = cv2.perspectiveTransform(CANONICAL_CORNERS.reshape(1, 4, 2), np.asarray(warp))
    moved = moved.reshape(4, 2)
    if not np.isfinite(moved).all() or np.abs(moved - CANONICAL_CORNERS).max() > (
        FARTHEST * SQUARE_PX
    ):
        return None
    return in_picture(moved, corners, k1, (width, height)).reshape(4, 2)


def snap_corners(
    image: np.ndarray, corners: np.ndarray, k1: float | None = None
) -> tuple[np.ndarray, float]:
    """``corners`` (a1, h1, h8, a8) moved onto the grid the picture shows, and the lens's k1:
    ``k1`` where the camera's lens is known (a calibration's), else the one fitted with the
    corners. Where the picture shows no better grid, the corners as given."""
    corners = np.asarray(corners, dtype=np.float32)
    if not _within(image, corners):  # the part cut off would pull the grid into the picture
        return corners, lens_distortion(image, corners) if k1 is None else k1
    if k1 is not None:
        lenses = [k1]
        given = k1
    else:
        lenses = list(K1_CANDIDATES)
        given = lens_distortion(image, corners)
    found: dict[float, tuple[float, np.ndarray]] = {}
    for lens in lenses:
        moved = _aligned(image, corners, lens)
        if moved is not None:
            found[lens] = (_likeness(image, moved, lens), moved)
    if not found:
        return corners, given
    best = max(found, key=lambda lens: found[lens][0])
    if given in found and found[best][0] <= found[given][0] + K1_GAIN:
        best = given  # another lens than the corners' own only where it is clearly better
    likeness, snapped = found[best]
    # Once more from there: the first alignment was made on a picture resampled where the
    # corners were off, and stops a pixel or two short of the edges.
    again = _aligned(image, snapped, best)
    if again is not None and _near(again, corners):
        closer = _likeness(image, again, best)
        likeness, snapped = (closer, again) if closer > likeness else (likeness, snapped)
    if likeness <= _likeness(image, corners, given) or not _within(image, snapped):
        return corners, given
    return snapped.astype(np.float32), best


def _near(moved: np.ndarray, corners: np.ndarray) -> bool:
    """Whether no corner moved farther than :data:`FARTHEST` squares from ``corners``."""
    side = float(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).max())
    return float(np.linalg.norm(moved - corners, axis=1).max()) <= FARTHEST * side / 8


def _within(image: np.ndarray, corners: np.ndarray) -> bool:
    """Whether all four corners lie in the picture (the whole playing area is seen)."""
    height, width = image.shape[:2]
    x, y = corners[:, 0], corners[:, 1]
    return bool(((x >= 0) & (x <= width - 1) & (y >= 0) & (y <= height - 1)).all())
