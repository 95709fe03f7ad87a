"""Each dark square's look, to tell which squares changed between two pictures of a board
at rest: a piece put on or taken off moves a square's look far more than light and noise do.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

import cv2
import numpy as np

from vision.layout import BOARD_PX, MARGIN_PX, SQUARE_CENTRES

_LOOK_CELLS = 8  # cells a side of a square's look
#: Numbers in a square's look (three colours on its cells).
LOOK_SIZE = 3 * _LOOK_CELLS**2


def square_looks(canonical: np.ndarray) -> np.ndarray:
    """Each dark square's look in a canonical image: its log colour on an 8x8 grid (32, 192)."""
    board = canonical[MARGIN_PX : MARGIN_PX + BOARD_PX, MARGIN_PX : MARGIN_PX + BOARD_PX]
    cells = cv2.resize(board, (8 * _LOOK_CELLS, 8 * _LOOK_CELLS), interpolation=cv2.INTER_AREA)
    logs = np.log1p(cells.astype(np.float32))
    looks = []
    for x, y in SQUARE_CENTRES - 0.5:
        row, col = int(y) * _LOOK_CELLS, int(x) * _LOOK_CELLS
        looks.append(logs[row : row + _LOOK_CELLS, col : col + _LOOK_CELLS].ravel())
    return np.array(looks)


def look_change(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """How far each square's look moved (32,): the root mean square of its log-colour change,
    less the frame's overall change (the light, the exposure)."""
    change = after - before
    change -= np.median(change.mean(axis=1))
    return np.sqrt((change**2).mean(axis=1))


@dataclass(frozen=True)
class CalibratedView:
    """What the calibration picture showed: the position given (square -> "b" | "w" | "B" |
    "W"; squares not named are empty) and each dark square's look. A board set up as it was
    calibrated is then read against it from the first frame: a square that still looks so
    holds what the position says, whatever it reads as on its own."""

    position: dict[int, str]
    looks: np.ndarray  # (32, LOOK_SIZE)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The position as squares 1-32: "b" | "w" | "B" | "W" | "empty"."""
        return tuple(self.position.get(square, "empty") for square in range(1, 33))

    def looks_text(self) -> str:
        """The looks as the calibration file keeps them: half floats, base64 (16 kB)."""
        return base64.b64encode(self.looks.astype("<f2").tobytes()).decode("ascii")

    @staticmethod
    def looks_from_text(text: str) -> np.ndarray:
        """Inverse of :meth:`looks_text`; ``ValueError`` unless it holds 32 finite looks."""
        try:
            raw = base64.b64decode(text, validate=True)
        except ValueError:
            raise ValueError("not base64") from None
        if len(raw) != 32 * LOOK_SIZE * 2:
            raise ValueError(f"{len(raw)} bytes, not the {32 * LOOK_SIZE * 2} of 32 looks")
        looks = np.frombuffer(raw, dtype="<f2").astype(np.float32).reshape(32, LOOK_SIZE)
        if not np.isfinite(looks).all():
            raise ValueError("a look that is not a finite number")
        return looks
