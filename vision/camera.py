"""Where the camera stands over the board, from the board's four corners alone: for parallax.

A piece has height, so in an oblique view its top is seen beyond its base, away from the camera.
A pinhole camera with square pixels and its principal point at the picture's centre is assumed;
its focal length follows from the board being a square (Zhang's two constraints on the plane's
homography). Seen nearly straight down the focal length cannot be told, and does not matter:
then a typical webcam's is taken, and parallax is small anyway. That estimate is ill-conditioned
(corners clicked 1 % of the board's side off can move it by a third, and the pose's height with
it), so each estimate carries its spread under such clicks (``FocalEstimate``), and the
estimates of pictures from one camera are pooled, each weighted by how well it is determined.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.layout import BOARD_CORNERS

_TYPICAL_FOCAL = 1.0  # focal length in long sides (about a 53 degree field of view)
FOCAL_RANGE = (0.3, 6.0)  # long sides: outside this an estimate is noise
_CLICK = 0.005  # how far off (share of the board's side) a corner found by hand or eye may lie
#: The variances a log focal length's estimate may have: from corners that fix it well to
#: corners that cannot tell it.
FOCAL_VARIANCE = (1e-6, 100.0)


def long_side(size: tuple[int, int]) -> float:
    """A picture's longer side in pixels (size is width, height): focal lengths and lens
    distortion are measured in it, so a camera turned to portrait keeps its figures."""
    return float(max(size))


@dataclass(frozen=True)
class FocalEstimate:
    """A camera's focal length in long sides (:func:`long_side`), as its log and that log's
    variance."""

    log: float
    variance: float

    @property
    def sides(self) -> float:
        """The focal length in long sides."""
        return float(np.exp(self.log))

    def pooled(self, other: FocalEstimate) -> FocalEstimate:
        """Two estimates of one camera's focal length, each weighted by its precision."""
        first, second = 1 / self.variance, 1 / other.variance
        log = (self.log * first + other.log * second) / (first + second)
        return FocalEstimate(log, 1 / (first + second))


@dataclass(frozen=True)
class CameraPose:
    """The camera's centre over the board: its foot (x, y) and height, in squares, and the
    focal length used (long sides)."""

    foot: tuple[float, float]
    height: float
    focal: float = _TYPICAL_FOCAL

    def lean(self, points: np.ndarray, height: float) -> np.ndarray:
        """Where a point ``height`` squares above each board point (..., 2) is seen on the board."""
        foot = np.array(self.foot)
        return points + (points - foot) * (height / max(self.height - height, 1e-3))

    def parallax(self, height: float) -> float:
        """How far (squares) a point ``height`` above the board's centre is seen displaced."""
        centre = np.array([[4.0, 4.0]])
        return float(np.linalg.norm(self.lean(centre, height) - centre))

    def to_json(self) -> dict[str, object]:
        """The pose as plain numbers."""
        return {
            "foot": [round(v, 3) for v in self.foot],
            "height": round(self.height, 3),
            "focal": round(self.focal, 4),
        }


def _focal(board_to_image: np.ndarray, centre: tuple[float, float]) -> float | None:
    g = board_to_image / board_to_image[2, 2]
    a = g[0] - centre[0] * g[2]
    b = g[1] - centre[1] * g[2]
    c = g[2]
    estimates = []
    if abs(c[0] * c[1]) > 1e-12:
        estimates.append(-(a[0] * a[1] + b[0] * b[1]) / (c[0] * c[1]))
    if abs(c[0] ** 2 - c[1] ** 2) > 1e-12:
        estimates.append((a[1] ** 2 + b[1] ** 2 - a[0] ** 2 - b[0] ** 2) / (c[0] ** 2 - c[1] ** 2))
    focals = [float(np.sqrt(e)) for e in estimates if e > 0]
    return float(np.exp(np.mean(np.log(focals)))) if focals else None


def focal_estimate(corners: np.ndarray, size: tuple[int, int]) -> FocalEstimate:
    """The focal length the corners (a1, h1, h8, a8) imply, with its variance when each corner
    coordinate may be ``_CLICK`` of the board's side off (from the estimate's derivatives)."""
    width, height = size
    centre = (width / 2, height / 2)
    side = long_side(size)
    low, high = FOCAL_RANGE

    def log_focal(points: np.ndarray) -> float | None:
        board_to_image = cv2.getPerspectiveTransform(BOARD_CORNERS, points.astype(np.float32))
        focal = _focal(board_to_image, centre)
        return None if focal is None or not low <= focal / side <= high else np.log(focal / side)

    found = log_focal(corners)
    if found is None:
        return FocalEstimate(float(np.log(_TYPICAL_FOCAL)), FOCAL_VARIANCE[1])
    step = _CLICK * float(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).mean())
    variance = 0.0
    for index in range(8):
        moved = np.zeros(8)
        moved[index] = step
        ahead = log_focal(corners + moved.reshape(4, 2))
        behind = log_focal(corners - moved.reshape(4, 2))
        if ahead is None or behind is None:
            return FocalEstimate(float(found), FOCAL_VARIANCE[1])
        variance += ((ahead - behind) / 2) ** 2
    return FocalEstimate(float(found), float(np.clip(variance, *FOCAL_VARIANCE)))


def camera_pose(
    corners: np.ndarray, size: tuple[int, int], focal_sides: float | None = None
) -> CameraPose:
    """The camera's pose from the playing area's corners (a1, h1, h8, a8) in a picture, with
    the camera's focal length in long sides when known (else estimated from the corners)."""
    width, height = size
    centre = (width / 2, height / 2)
    side = long_side(size)
    board_to_image = cv2.getPerspectiveTransform(BOARD_CORNERS, corners.astype(np.float32))
    low, high = (v * side for v in FOCAL_RANGE)
    if focal_sides is not None:
        focal: float | None = focal_sides * side
    else:
        focal = _focal(board_to_image, centre)
    if focal is None or not low <= focal <= high:
        focal = _TYPICAL_FOCAL * side
    intrinsics = np.array([[focal, 0, centre[0]], [0, focal, centre[1]], [0, 0, 1]])
    columns = np.linalg.solve(intrinsics, board_to_image)
    scale = 2 / (np.linalg.norm(columns[:, 0]) + np.linalg.norm(columns[:, 1]))
    r1, r2, t = (columns[:, i] * scale for i in range(3))
    if t[2] < 0:  # the board must lie in front of the camera
        r1, r2, t = -r1, -r2, -t
    rotation, _, vt = np.linalg.svd(np.stack([r1, r2, np.cross(r1, r2)], axis=1))
    rotation = rotation @ vt
    centre_on_board = -rotation.T @ t
    return CameraPose(
        foot=(float(centre_on_board[0]), float(centre_on_board[1])),
        height=float(abs(centre_on_board[2])),
        focal=focal / side,
    )


def _radial(points: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, float]:
    width, height = size
    return np.asarray(points, dtype=np.float64) - [width / 2, height / 2], long_side(size)


def distort(points: np.ndarray, k1: float, size: tuple[int, int]) -> np.ndarray:
    """Where an ideal pinhole's picture points (..., 2) land through a lens with radial
    distortion ``k1`` (negative: barrel), radius measured in long sides (:func:`long_side`) from
    the centre."""
    offset, scale = _radial(points, size)
    factor = 1 + k1 * (offset**2).sum(axis=-1, keepdims=True) / scale**2
    return offset * factor + [size[0] / 2, size[1] / 2]


def bent_outline(
    grid: np.ndarray, seen: np.ndarray, outline: np.ndarray, size: tuple[int, int]
) -> np.ndarray:
    """Where board points ``outline`` (n, 2) lie in a picture of ``size`` whose board points
    ``grid`` (m, 2) were ``seen`` there (m, 2): extrapolated along the lines the lens bends (a
    wide-angle lens pulls the outer squares in, and a straight extrapolation then overshoots).
    The points seen, undistorted with each k1 tried, fit one plane's view best with the lens's
    own; no bend unless that cuts the straight fit's error clearly (``_BEND_FIT``)."""

    def fitted(k1: float) -> tuple[float, np.ndarray]:
        flat = undistort(seen, k1, size).astype(np.float32)
        to_image, _ = cv2.findHomography(grid.astype(np.float32), flat)
        if to_image is None:
            return np.inf, np.eye(3)
        fit = cv2.perspectiveTransform(grid[None].astype(np.float32), to_image)[0]
        return float(np.linalg.norm(fit - flat, axis=1).mean()), to_image

    straight, to_image = fitted(0.0)
    (error, bent), k1 = min(((fitted(k1), k1) for k1 in _BENDS), key=lambda t: t[0][0])
    points = outline[None].astype(np.float32)
    if not error < _BEND_FIT * straight:
        return cv2.perspectiveTransform(points, to_image)[0]
    return distort(cv2.perspectiveTransform(points, bent)[0], k1, size).astype(np.float32)


#: The lens distortions a picture's board may be fitted with (the calibration's own range,
#: vision.corners.K1_RANGE).
_BENDS = np.linspace(-0.35, 0.1, 19)
#: Share of the straight fit's error a bent one must be under to be believed: a tenth less
#: (one more parameter fitted on a hundred coordinates cuts pure noise by about a hundredth).
_BEND_FIT = 0.9


def undistort(points: np.ndarray, k1: float, size: tuple[int, int]) -> np.ndarray:
    """Inverse of :func:`distort` (a fixed-point search: the distortion is mild near the board)."""
    target, scale = _radial(points, size)
    guess = target.copy()
    for _ in range(30):
        guess = target / (1 + k1 * (guess**2).sum(axis=-1, keepdims=True) / scale**2)
    return guess + [size[0] / 2, size[1] / 2]
