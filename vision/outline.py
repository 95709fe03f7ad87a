"""A piece whose colour was never learnt, found by its round outline.

A spare from another set or a coin standing in for a lost piece may look, to the colours learnt
at calibration, nearest the empty squares (one project's green "crowned" pieces on black
squares do). What no empty square shows is a round edge: the piece's outline, a circle on the
canonical image where the camera looks down on the board. So a square the colours read as empty
is looked at once more where the camera sees it from near overhead: if a circle of a piece's
size, centred where a piece set up to 0.3 square off-centre would stand, runs along a sharp
edge nearly all the way round, the square holds a piece whose side the camera cannot tell
(:data:`UNSEEN_SIDE`). The edges of the square itself (straight, on the grid lines), a shadow
(soft) and a neighbour leaning in (part of a circle centred elsewhere) give no such circle.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.colour import STACKS_SEEN, Sampler
from vision.layout import CANVAS_PX, MARGIN_PX, SQUARE_CENTRES, SQUARE_PX, offsets_disc

#: The kind of a square holding a piece whose side the camera cannot tell.
UNSEEN_SIDE = "?"

_RADII = np.arange(0.25, 0.4251, 0.025)  # squares: a piece fits its square, a coin may be small
_ANGLES = np.linspace(0, 2 * np.pi, 48, endpoint=False)
_UNIT = np.stack([np.cos(_ANGLES), np.sin(_ANGLES)], axis=1)
_OFF_CENTRE = 0.3  # squares a hand may leave a piece off its square's centre
_STEP = 0.05  # squares between the centres tried
_GRID_BAND = 0.12  # squares either side of a grid line, where the squares' own edges lie
_COUNTED = 0.5  # least share of an outline that must lie clear of the grid lines
_EDGE = 0.3  # an outline's edge is at least this share of the board's own light/dark edge
_RADIAL = 0.8  # least share of the edge's strength across the outline (a cosine)
_ROUND = 0.8  # share of the outline's points that must show such an edge
_TOP_SHIFT = 0.5  # squares of height a piece's top may stand above the board (see the rise)
_BUSY = 0.05  # share of a square's inside with an edge, below which no outline is looked for
_SHARP_OVER = 0.125  # squares either side of a rim over which its edge fades
_SHARP = 2.0  # how many times stronger a rim's edge is than that far either side of it
_TRIED = 6  # circles with the most votes (of a piece's size, where one may stand) tried in full
#: Empty squares with edges in them past which something lies over the board (a hand, a
#: sleeve) or the board itself is patterned: no outline is looked for in such a frame.
_CROWDED = 4


#: Where a piece's centre may stand, from its square's centre (squares).
_CENTRES = offsets_disc(_OFF_CENTRE, _STEP)


def _edges(canvas: np.ndarray) -> np.ndarray:
    """The canonical image's colour edges: per pixel the sums over the channels of gx * gx,
    gy * gy and gx * gy (3, h, w), so that an edge in one channel alone (a green piece on a
    black square) counts, and the strength across any direction n is n' G n."""
    smooth = cv2.GaussianBlur(canvas, (5, 5), 1.2)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    channels = np.ones((1, 3), np.float32)
    return np.stack(
        [cv2.transform(cv2.multiply(a, b), channels) for a, b in ((gx, gx), (gy, gy), (gx, gy))]
    )


def _board_edge(strength: np.ndarray) -> float:
    """How strong the board's own edges between light and dark squares are (squared, on the
    inner grid lines; pieces cover some of them, so an upper quartile)."""
    inner = np.arange(MARGIN_PX + 4, MARGIN_PX + 8 * SQUARE_PX - 4)
    lines = MARGIN_PX + SQUARE_PX * np.arange(1, 8)
    across = [strength[inner][:, x - 2 : x + 2].max(axis=1) for x in lines]
    down = [strength[y - 2 : y + 2, inner].max(axis=0) for y in lines]
    return float(np.percentile(np.concatenate(across + down), 75))


def _inside_points() -> np.ndarray:
    """Canvas offsets (row, column pixels) of a square's inside, clear of its edges."""
    band = round(_GRID_BAND * SQUARE_PX)
    axis = np.arange(band, SQUARE_PX - band)
    ys, xs = np.meshgrid(axis, axis, indexing="ij")
    return np.stack([ys.ravel(), xs.ravel()], axis=1) - SQUARE_PX // 2


_INSIDE = _inside_points()
#: Canvas pixels of the centres tried, from a square's centre; and their circles' radii.
_REACH = round((_OFF_CENTRE + _TOP_SHIFT * STACKS_SEEN + _RADII[-1]) * SQUARE_PX) + 2
_RADII_PX = _RADII * SQUARE_PX


def _to_pixels(points: np.ndarray) -> np.ndarray:
    return np.clip(np.round(points * SQUARE_PX + MARGIN_PX).astype(np.intp), 0, CANVAS_PX - 1)


def _clear_of_grid(points: np.ndarray) -> np.ndarray:
    """Which board points (..., 2) lie clear of the grid lines, where the squares' own edges
    are."""
    return (np.abs(points - np.round(points)) > _GRID_BAND).all(axis=-1)


def _roundness(
    edges: np.ndarray, strength: np.ndarray, centres: np.ndarray, radii: np.ndarray, least: float
) -> float:
    """The largest share, over circles of ``centres`` (c, 2) and ``radii`` (c,) in squares, of a
    circle's points clear of the grid lines that show a sharp edge at least ``least`` strong
    (squared) across the circle; 0 where less than half of a circle lies clear of them.
    ``strength``: the edges' strength in any direction (gx * gx + gy * gy)."""
    points = centres[:, None] + radii[:, None, None] * _UNIT[None]
    counted = _clear_of_grid(points)
    pixels = _to_pixels(points)
    gxx, gyy, gxy = edges[:, pixels[..., 1], pixels[..., 0]]
    c, s = _UNIT[:, 0], _UNIT[:, 1]
    across = c * c * gxx + 2 * c * s * gxy + s * s * gyy
    # A piece's rim is a step: its edge fades within a few pixels either side, where a lamp's
    # soft reflection brightens gradually, its gradient as strong a little further in or out.
    fading = np.zeros_like(across)
    for side in (-_SHARP_OVER, _SHARP_OVER):
        near = centres[:, None] + (radii + side)[:, None, None] * _UNIT[None]
        at = _to_pixels(near)
        # (the squares' own edges beside a piece that fills its square are no fading)
        fading = np.maximum(
            fading, np.where(_clear_of_grid(near), strength[at[..., 1], at[..., 0]], 0)
        )
    edge = (across >= least) & (across >= _RADIAL**2 * (gxx + gyy)) & counted
    edge &= across >= _SHARP**2 * fading
    seen = counted.sum(axis=-1)
    shares = np.where(seen >= _COUNTED * len(_ANGLES), edge.sum(axis=-1) / np.maximum(seen, 1), 0)
    return float(shares.max())


def _likely_circles(
    edges: np.ndarray, strength: np.ndarray, least: float, centres: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The ``_TRIED`` circles (centres in squares, radii) among ``centres`` (n, 2) and every
    radius that the edges round them vote for most (a Hough transform: each edge pixel votes
    for the centres one radius away across its edge, either side)."""
    middle = _to_pixels(centres.mean(axis=0))
    low = np.maximum(middle - _REACH, 0)
    high = np.minimum(middle + _REACH + 1, CANVAS_PX)
    box = strength[low[1] : high[1], low[0] : high[0]]
    ys, xs = np.nonzero(box >= least)
    gxx, gyy, gxy = (e[low[1] : high[1], low[0] : high[0]][ys, xs] for e in edges)
    angle = 0.5 * np.arctan2(2 * gxy, gxx - gyy)  # the direction across the edge
    step = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    height, width = box.shape
    votes = np.zeros((len(_RADII), height, width), np.float32)
    for index, radius in enumerate(_RADII_PX):
        for sign in (1, -1):
            x = np.round(xs + sign * radius * step[:, 0]).astype(np.intp)
            y = np.round(ys + sign * radius * step[:, 1]).astype(np.intp)
            inside = (x >= 0) & (x < width) & (y >= 0) & (y < height)
            np.add.at(votes[index], (y[inside], x[inside]), 1)
        votes[index] = cv2.blur(votes[index], (3, 3))  # an edge is 2-3 pixels wide
    at = np.clip(_to_pixels(centres) - low, 0, [width - 1, height - 1])
    tally = votes[:, at[:, 1], at[:, 0]].T  # (n, radii)
    best = np.argsort(tally, axis=None)[::-1][:_TRIED]
    which, radius = np.unravel_index(best, tally.shape)
    return centres[which], _RADII[radius]


def round_outlines(canvas: np.ndarray, sampler: Sampler, squares: Sequence[int]) -> list[int]:
    """Which of ``squares`` (indices 0-31, read as empty by their colours) show a piece's round
    outline where the camera sees them from near overhead; none while more than ``_CROWDED`` of
    them have edges in them at all (a hand over the board, or a patterned board)."""
    near = [s for s in squares if sampler.rise[s] < STACKS_SEEN]
    if not near:
        return []
    edges = _edges(canvas)
    strength = edges[0] + edges[1]
    least = _EDGE**2 * _board_edge(strength)
    middles = _to_pixels(SQUARE_CENTRES[near])
    inside = strength[middles[:, 1, None] + _INSIDE[:, 0], middles[:, 0, None] + _INSIDE[:, 1]]
    busy = [
        s for s, share in zip(near, (inside >= least).mean(axis=1), strict=True) if share >= _BUSY
    ]
    if len(busy) > _CROWDED:
        return []
    found = []
    for index in busy:  # a bare square, nothing in it with an edge, holds no piece
        centre = SQUARE_CENTRES[index]
        tops = np.arange(0, _TOP_SHIFT * sampler.rise[index] + 1e-9, _STEP)
        centres = centre + _CENTRES[:, None] + tops[None, :, None] * sampler.along[index]
        circles, radii = _likely_circles(edges, strength, least, centres.reshape(-1, 2))
        if _roundness(edges, strength, circles, radii, least) >= _ROUND:
            found.append(index)
    return found
