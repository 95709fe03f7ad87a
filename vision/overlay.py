"""A picture with what the camera reader sees drawn over it, so a user checks it by looking.

The playing area's grid is drawn where the calibration puts it (bent as the lens bends it),
each dark square gets its number, and each piece read a ring with its letter (``b``/``w`` men,
``B``/``W`` kings, a double ring; ``?`` in yellow, a piece whose side was not seen). Squares
read otherwise than a position given alongside (the one a calibration was learnt from) are
framed in red with what they should hold.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.layout import SQUARE_CENTRES
from vision.outline import UNSEEN_SIDE

_GRID = (0, 220, 255)  # BGR: yellow shows on wood, print, green cloth and black squares alike
_WRONG = (0, 0, 255)
_INK = {"b": (0, 0, 0), "w": (255, 255, 255)}
_HALO = {"b": (255, 255, 255), "w": (0, 0, 0)}
_FONT = cv2.FONT_HERSHEY_SIMPLEX
_STEPS = 16  # points per grid line: a bent lens shows as a bent line
#: A square's side in pixels below which its number and letter cannot be read: a smaller
#: picture (640x480, the board a third of it) is drawn enlarged.
_LEGIBLE_SIDE = 48.0


def _side_px(calibration: Calibration, centre: np.ndarray) -> float:
    """A square's side in picture pixels about a board point (perspective shrinks the far
    rows), for sizing what is drawn there."""
    ends = calibration.to_picture(np.array([centre - (0.5, 0), centre + (0.5, 0)]))
    return float(np.linalg.norm(ends[1] - ends[0]))


def _text(
    image: np.ndarray,
    text: str,
    at: np.ndarray,
    size: float,
    ink: tuple[int, int, int],
    halo: tuple[int, int, int],
) -> None:
    """Write ``text`` centred at ``at``, about ``size`` pixels tall, in ``ink`` edged with
    ``halo`` so it reads on any board."""
    scale = float(np.clip(size / 45, 0.3, 4.0))
    thick = max(1, round(size / 30))
    (width, height), _ = cv2.getTextSize(text, _FONT, scale, thick)
    origin = (int(at[0] - width / 2), int(at[1] + height / 2))
    cv2.putText(image, text, origin, _FONT, scale, halo, thick + 2, cv2.LINE_AA)
    cv2.putText(image, text, origin, _FONT, scale, ink, thick, cv2.LINE_AA)


def _path(calibration: Calibration, points: np.ndarray) -> np.ndarray:
    """Board points (n, 2) as a polyline of picture pixels."""
    return calibration.to_picture(points).round().astype(np.int32)


def _ring(calibration: Calibration, centre: np.ndarray, radius: float) -> np.ndarray:
    angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    return _path(calibration, centre + radius * np.stack([np.cos(angles), np.sin(angles)], 1))


def _stroke(
    image: np.ndarray,
    path: np.ndarray,
    closed: bool,
    ink: tuple[int, int, int],
    halo: tuple[int, int, int],
    width: int,
) -> None:
    """Draw ``path`` ``width`` pixels wide in ``ink`` over a pixel's edge of ``halo`` each side."""
    cv2.polylines(image, [path], closed, halo, width + 2, cv2.LINE_AA)
    cv2.polylines(image, [path], closed, ink, width, cv2.LINE_AA)


def draw_reading(
    image: np.ndarray,
    calibration: Calibration,
    reading: Mapping[int, str],
    expected: Mapping[int, str] | None = None,
) -> np.ndarray:
    """A copy of ``image`` with the grid ``calibration`` places in it (already placed for this
    picture: :meth:`Calibration.placed_in`), each square's number and its ``reading``
    (square -> "empty" | "b" | "w" | "B" | "W" | "?"), and where ``expected`` differs, a red frame;
    enlarged where the board's squares are too small to be written in."""
    side = max(_side_px(calibration, np.array([4.0, 4.0])), 1.0)
    if side < _LEGIBLE_SIDE:
        factor = int(np.ceil(_LEGIBLE_SIDE / side))
        shown = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
        calibration = calibration.scaled_to((shown.shape[1], shown.shape[0]))
        side *= factor
    else:
        shown = image.copy()
    line = max(1, round(side / 40))
    ticks = np.linspace(0, 8, _STEPS + 1)
    for k in range(9):
        for points in (
            np.stack([ticks, np.full_like(ticks, k)], 1),
            np.stack([np.full_like(ticks, k), ticks], 1),
        ):
            _stroke(shown, _path(calibration, points), False, _GRID, (0, 0, 0), line)
    for square, centre in enumerate(SQUARE_CENTRES, 1):
        here = _side_px(calibration, centre)
        kind = reading.get(square, "empty")
        if kind in ("b", "w", "B", "W"):
            ink, halo = _INK[kind.lower()], _HALO[kind.lower()]
            # The side's colour thick, its opposite a thin edge: a ring reads as the side's.
            for radius in (0.37, 0.27) if kind.isupper() else (0.32,):
                _stroke(shown, _ring(calibration, centre, radius), True, ink, halo, 2 * line)
            cv2.fillPoly(shown, [_ring(calibration, centre, 0.17)], ink, cv2.LINE_AA)
            _text(shown, kind, calibration.to_picture(centre[None])[0], 0.5 * here, halo, ink)
        elif kind == UNSEEN_SIDE:  # a piece of neither side's colour: the grid's ink
            _stroke(shown, _ring(calibration, centre, 0.32), True, _GRID, (0, 0, 0), 2 * line)
            _text(
                shown, kind, calibration.to_picture(centre[None])[0], 0.5 * here, _GRID, (0, 0, 0)
            )
        corner = calibration.to_picture(centre[None] - 0.32)[0]  # over the ring, not under
        _text(shown, str(square), corner, 0.5 * here, _GRID, (0, 0, 0))
        if expected is not None and expected.get(square, kind) not in (kind, "unknown"):
            frame = _path(
                calibration, centre + 0.45 * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]])
            )
            cv2.polylines(shown, [frame], True, _WRONG, line + 1, cv2.LINE_AA)
            below = calibration.to_picture(centre[None] + (0, 0.3))[0]
            _text(shown, f"given {expected[square]}", below, 0.6 * here, _WRONG, (255, 255, 255))
    return shown
