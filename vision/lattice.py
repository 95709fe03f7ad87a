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

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

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
_HELD = 0.8  # share of the best window's saddles another window must hold to be tried


@dataclass(frozen=True)
class _Saddles:
    """Saddle points of one channel at working size: where, how strong, and the Hessian."""

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
            length = min(float(np.linalg.norm(u)), float(np.linalg.norm(v)))
            if float(u[0] * v[1] - u[1] * v[0]) <= 0.35 * float(
                np.linalg.norm(u) * np.linalg.norm(v)
            ):
                continue  # not a cell turning the picture's way, or too flat
            opposite = points[a] + v
            far = int(np.argmin(np.linalg.norm(points - opposite, axis=1)))
            if np.linalg.norm(points[far] - opposite) > 0.25 * length:
                continue
            to_image = cv2.getPerspectiveTransform(cell, points[[seed, a, b, far]])
            parity = float(_polarity(saddles, to_image, np.zeros((1, 2), np.float32))[0])
            lattice = _fit(saddles, to_image, parity) if parity else None
            if lattice is not None and len(lattice) >= _FEWEST:
                return lattice
    return None


def lattice_quads(
    image: np.ndarray, channels: Callable[[np.ndarray], list[np.ndarray]]
) -> list[np.ndarray]:
    """Candidate boards' outer quads (4, 2) in picture pixels, some turn order: the 8x8 windows
    of each lattice found in each of ``channels`` (of the shrunk picture) that hold the most of
    its saddles, the same quad found in several channels given once."""
    scale = min(1.0, _WORKING_PX / max(image.shape[:2]))
    small = image if scale == 1 else cv2.resize(image, None, fx=scale, fy=scale,
                                                interpolation=cv2.INTER_AREA)  # fmt: skip
    quads: list[np.ndarray] = []
    for channel in channels(small):
        for lattice in _lattices(_saddles(channel))[:_LATTICES]:
            quads.extend(q for q in _windows(lattice, scale) if not _seen(q, quads))
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


def _windows(lattice: np.ndarray, scale: float) -> list[np.ndarray]:
    """The outer quads (picture pixels) of the 8x8 windows whose 7x7 inner points hold nearly
    as many of the lattice's saddles as the best one."""
    to_image, _ = cv2.findHomography(lattice[:, :2], (lattice[:, 2:] + 0.5) / scale - 0.5)
    if to_image is None:
        return []
    ij = lattice[:, :2].astype(int)
    low, high = ij.min(axis=0), ij.max(axis=0)
    starts = [(i0, j0) for i0 in range(min(low[0], high[0] - 6), max(low[0], high[0] - 6) + 1)
              for j0 in range(min(low[1], high[1] - 6), max(low[1], high[1] - 6) + 1)]  # fmt: skip
    held = [
        int(((ij >= start) & (ij <= np.array(start) + 6)).all(axis=1).sum()) for start in starts
    ]
    found = []
    for (i0, j0), count in zip(starts, held, strict=True):
        if count >= _HELD * max(held):
            outline = np.array([[i0 - 1, j0 - 1], [i0 + 7, j0 - 1], [i0 + 7, j0 + 7],
                                [i0 - 1, j0 + 7]], dtype=np.float32)  # fmt: skip
            found.append(cv2.perspectiveTransform(outline[None], to_image)[0])
    return found
