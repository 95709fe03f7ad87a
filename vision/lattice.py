"""Finding a checker board whose inner corners are partly hidden, by fitting a lattice.

OpenCV's chessboard detector needs every one of the 7x7 inner corners; pieces seen from the side
(a camera on a stand beside the table) hide many of them. Here each corner where four squares
meet is a saddle of the picture's brightness (or of a colour-opponent channel), found on its
own; a unit cell of four neighbouring saddles gives a first map from lattice coordinates to the
picture, which grows outwards over the saddles that fall on lattice points (those hidden are
simply missing), and the 8x8 window of the lattice that frames the checker pattern best is the
board. Adjacent saddles of a checker pattern curve opposite ways, diagonal ones the same way:
this keeps a cell from being read along a diagonal and most clutter out of the lattice.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.camera import bent_outline

#: Pixels across the picture is searched at (the saddles are found on a shrunk copy).
_WORKING_PX = 960
_BLUR = 2.0  # Gaussian sigma (working pixels) before the saddles' second derivatives
_PER_CHANNEL = 150  # strongest saddles kept in each channel
_SEEDS = 40  # strongest saddles each tried as a lattice cell's corner
_NEIGHBOURS = 6  # nearest saddles tried as the cell's other corners
_ON_LATTICE = 0.2  # largest distance from a lattice point, in cells, of a saddle on it
_GROWTH = (1.5, 2.5, 3.5, 5.0, 7.0, 9.0)  # lattice radii the fit grows through
_FEWEST = 12  # fewest saddles on a lattice worth trying as a board
_LATTICES = 3  # biggest lattices of each channel tried
_CELL_PX = 20  # pixels a lattice cell when the colour steps over its edges are measured
#: A board's outline in lattice cells, from the first cell of its window.
_GRID_OUTLINE = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], dtype=np.float32)


@dataclass(frozen=True)
class _Saddles:
    """Saddle points of one channel at working size, strongest first, and the Hessian at each."""

    points: np.ndarray  # (n, 2) float32, working pixels
    hessian: np.ndarray  # (n, 2, 2) float32


def _saddles(channel: np.ndarray) -> _Saddles:
    """The channel's strongest saddle points (a negative Hessian determinant) after a blur."""
    smooth = cv2.GaussianBlur(channel.astype(np.float32), (0, 0), _BLUR)
    dxx = cv2.Sobel(smooth, cv2.CV_32F, 2, 0, ksize=3)
    dyy = cv2.Sobel(smooth, cv2.CV_32F, 0, 2, ksize=3)
    dxy = cv2.Sobel(smooth, cv2.CV_32F, 1, 1, ksize=3)
    response = dxy * dxy - dxx * dyy
    peak = cv2.dilate(response, np.ones((7, 7), np.uint8))
    ys, xs = np.nonzero((response == peak) & (response > 0.05 * max(float(response.max()), 1e-6)))
    order = np.argsort(-response[ys, xs])[:_PER_CHANNEL]
    ys, xs = ys[order], xs[order]
    hessian = np.stack([np.stack([dxx[ys, xs], dxy[ys, xs]], -1),
                        np.stack([dxy[ys, xs], dyy[ys, xs]], -1)], -2)  # fmt: skip
    return _Saddles(np.stack([xs, ys], axis=-1).astype(np.float32), hessian.astype(np.float32))


def _polarity(saddles: _Saddles, to_image: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """The sign of each saddle's curvature across the lattice's two directions there."""
    steps = np.array([[0.0, 0.0], [0.5, 0.0], [0.0, 0.5]], dtype=np.float32)
    around = (lattice[:, None, :] + steps[None]).reshape(1, -1, 2).astype(np.float32)
    mapped = cv2.perspectiveTransform(around, to_image)[0].reshape(-1, 3, 2)
    u, v = mapped[:, 1] - mapped[:, 0], mapped[:, 2] - mapped[:, 0]
    return np.sign(np.einsum("ni,nij,nj->n", u, saddles.hessian, v))


def _fit(saddles: _Saddles, to_image: np.ndarray, parity: float) -> np.ndarray | None:
    """Grow a lattice from a first map: (n, 4) rows of lattice i, j and picture x, y, or None."""
    found = None
    for radius in _GROWTH:
        try:
            to_lattice = np.linalg.inv(to_image)
        except np.linalg.LinAlgError:
            return None
        lattice = cv2.perspectiveTransform(saddles.points[None], to_lattice)[0]
        nearest = np.round(lattice)
        off = np.linalg.norm(lattice - nearest, axis=1)
        expected = parity * np.where(nearest.sum(axis=1) % 2 == 0, 1.0, -1.0)
        near = (off < _ON_LATTICE) & (np.abs(nearest).max(axis=1) <= radius)
        near &= _polarity(saddles, to_image, nearest) == expected
        index = np.flatnonzero(near)
        index = index[np.argsort(off[index])]
        _, first = np.unique(nearest[index], axis=0, return_index=True)
        index = index[first]
        if len(index) < 4:
            return None
        refit, _ = cv2.findHomography(nearest[index], saddles.points[index])
        if refit is None:
            return None
        to_image = refit
        found = np.hstack([nearest[index], saddles.points[index]])
    return found


def _lattices(saddles: _Saddles) -> list[np.ndarray]:
    """Every distinct lattice grown from a cell of four neighbouring saddles, biggest first."""
    points = saddles.points
    if len(points) < _FEWEST:
        return []
    distances = np.linalg.norm(points[:, None] - points[None], axis=-1)
    taken: set[int] = set()
    grown = []
    for seed in range(min(_SEEDS, len(points))):
        if seed in taken:
            continue
        lattice = _grow_from(saddles, seed, np.argsort(distances[seed])[1 : _NEIGHBOURS + 1])
        if lattice is not None:
            grown.append(lattice)
            on = (points[:, None, :] == lattice[None, :, 2:]).all(axis=-1).any(axis=1)
            taken |= {int(i) for i in np.flatnonzero(on)}
    grown.sort(key=len, reverse=True)
    return grown


def _grow_from(saddles: _Saddles, seed: int, near: np.ndarray) -> np.ndarray | None:
    """The first lattice of ``_FEWEST`` saddles or more grown from a cell at ``seed`` whose
    other corners are among ``near``, or None."""
    points = saddles.points
    cell = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], dtype=np.float32)
    for a in near:
        for b in near:
            u, v = points[a] - points[seed], points[b] - points[seed]
            lengths = float(np.linalg.norm(u)), float(np.linalg.norm(v))
            if float(u[0] * v[1] - u[1] * v[0]) <= 0.35 * lengths[0] * lengths[1]:
                continue  # not a cell turning the picture's way, or too flat (sine < 0.35)
            opposite = points[a] + v
            far = int(np.argmin(np.linalg.norm(points - opposite, axis=1)))
            if np.linalg.norm(points[far] - opposite) > 0.25 * min(lengths):
                continue  # no saddle at the cell's fourth corner
            to_image = cv2.getPerspectiveTransform(cell, points[[seed, a, b, far]])
            parity = float(_polarity(saddles, to_image, np.zeros((1, 2), np.float32))[0])
            lattice = _fit(saddles, to_image, parity) if parity else None
            if lattice is not None and len(lattice) >= _FEWEST:
                return lattice
    return None


def lattice_quads(
    image: np.ndarray, channels: Callable[[np.ndarray], list[np.ndarray]]
) -> list[np.ndarray]:
    """Candidate boards' outer quads (4, 2) in picture pixels, some turn order: for each lattice
    found in each of ``channels`` (of the shrunk picture), the 8x8 window of it framing the
    checker pattern best (:func:`_board_window`), the same quad found twice given once."""
    scale = min(1.0, _WORKING_PX / max(image.shape[:2]))
    small = image if scale == 1 else cv2.resize(image, None, fx=scale, fy=scale,
                                                interpolation=cv2.INTER_AREA)  # fmt: skip
    planes = channels(small)
    colours = np.stack(planes, axis=-1).astype(np.float32)
    quads: list[np.ndarray] = []
    for plane in planes:
        for lattice in _lattices(_saddles(plane))[:_LATTICES]:
            trimmed = _trimmed(lattice)
            window = _board_window(trimmed, colours) if len(trimmed) >= _FEWEST else None
            quad = None if window is None else (window + 0.5) / scale - 0.5
            if quad is not None and not _seen(quad, quads):
                quads.append(quad)
    return quads


def _seen(quad: np.ndarray, quads: list[np.ndarray]) -> bool:
    """Whether a quad's corners all lie within a third of a square of another's (any turn)."""
    tolerance = 0.3 * np.linalg.norm(quad[1] - quad[0]) / 8
    return any(
        (np.linalg.norm(np.roll(other, k, axis=0)[order] - quad, axis=1) < tolerance).all()
        for other in quads
        for k in range(4)
        for order in ([0, 1, 2, 3], [3, 2, 1, 0])
    )


def _trimmed(lattice: np.ndarray) -> np.ndarray:
    """The lattice's saddles in the 9x9 lattice points holding the most of them (a board's 7x7
    inner corners and its edge): saddles further out are clutter and would bend the fit."""
    ij = lattice[:, :2]
    spans = zip(ij.min(axis=0).astype(int), ij.max(axis=0).astype(int), strict=True)
    starts = itertools.product(*(range(lo - 8, hi + 1) for lo, hi in spans))
    best = max(
        starts, key=lambda start: int(((ij >= start) & (ij <= np.add(start, 8))).all(axis=1).sum())
    )
    return lattice[((ij >= best) & (ij <= np.add(best, 8))).all(axis=1)]


def _board_window(lattice: np.ndarray, colours: np.ndarray) -> np.ndarray | None:
    """The outer quad (working pixels) of the 8x8 cells of the lattice where the checker pattern
    shows most, or None: each cell edge scores its colour step signed by the pattern's parity,
    so the frame round a board (no step) and pieces (steps either way) add nothing."""
    to_image, _ = cv2.findHomography(lattice[:, :2], lattice[:, 2:])
    if to_image is None:
        return None
    low, high = lattice[:, :2].min(axis=0).astype(int), lattice[:, :2].max(axis=0).astype(int)
    origin = high - 8  # the first cell any window may hold
    cells = (low + 8) - origin  # cells across and down that windows may hold
    shift = -origin * _CELL_PX
    to_canvas = np.array([[_CELL_PX, 0, shift[0]], [0, _CELL_PX, shift[1]], [0, 0, 1]],
                         dtype=np.float64) @ np.linalg.inv(to_image)  # fmt: skip
    canvas = cv2.warpPerspective(colours, to_canvas, tuple(int(c) * _CELL_PX for c in cells),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)  # fmt: skip
    if canvas.ndim == 2:
        canvas = canvas[..., None]
    across, down = _cell_steps(canvas, origin)
    best, start = -1.0, None
    for a in range(int(cells[0]) - 7):
        for b in range(int(cells[1]) - 7):
            inside = across[:, b : b + 8, a : a + 7].sum(axis=(1, 2))
            inside += down[:, b : b + 7, a : a + 8].sum(axis=(1, 2))
            if float(np.abs(inside).max()) > best:
                best, start = float(np.abs(inside).max()), origin + [a, b]
    if start is None:
        return None
    outline = (_GRID_OUTLINE + start).astype(np.float32)
    height, width = colours.shape[:2]
    return bent_outline(lattice[:, :2], lattice[:, 2:], outline, (width, height))


def _cell_steps(canvas: np.ndarray, origin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per channel, the colour steps from each cell to the next across (channels, rows, cols - 1)
    and down (channels, rows - 1, cols): the medians of strips a tenth to a third of a cell
    from the edge, away from the corners, signed by the checker parity, in units of the
    channel's spread."""
    rows, cols = canvas.shape[0] // _CELL_PX, canvas.shape[1] // _CELL_PX
    cells = canvas.reshape(rows, _CELL_PX, cols, _CELL_PX, -1)
    near, far = _CELL_PX // 10, _CELL_PX // 3
    side = slice(_CELL_PX // 4, _CELL_PX - _CELL_PX // 4)
    left = np.median(cells[:, side, :, near:far], axis=(1, 3))  # (rows, cols, channels)
    right = np.median(cells[:, side, :, -far:-near], axis=(1, 3))
    top = np.median(cells[:, near:far, :, side], axis=(1, 3))
    bottom = np.median(cells[:, -far:-near, :, side], axis=(1, 3))
    parity = (np.add.outer(np.arange(rows) + origin[1], np.arange(cols) + origin[0]) % 2) * 2 - 1
    signed = parity[..., None] / (canvas.reshape(-1, canvas.shape[2]).std(axis=0) + 1e-6)
    across = (right[:, :-1] - left[:, 1:]) * signed[:, :-1]
    down = (bottom[:-1] - top[1:]) * signed[:-1]
    return np.moveaxis(across, -1, 0), np.moveaxis(down, -1, 0)
