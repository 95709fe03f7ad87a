"""Square windows cut from rendered boards, with what each holds: what the square reader learns
from (``vision/train_squares.py``) and what its tests read.

Every render draws a board and set, a camera and a position at random from the renderer's whole
range (:mod:`vision.synthetic`); its windows are cut exactly as a calibrated camera's are
(:mod:`vision.patches`), from the render's true corners.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np

from . import synthetic
from .camera import camera_pose, undistort
from .patches import Windows

#: What the reader tells apart on each square, whatever the set's colours.
KINDS = ("empty", "man", "king")
KIND_OF = {"empty": 0, "b": 1, "w": 1, "B": 2, "W": 2}
#: Which side: 0 Black's (the darker or redder set, R-BRD-3), 1 White's, -1 none.
SIDE_OF = {"empty": -1, "b": 0, "B": 0, "w": 1, "W": 1}


@dataclass(frozen=True)
class Board:
    """One rendered picture's windows and what each square holds."""

    patches: np.ndarray  # (32, PATCH_PX, PATCH_PX, 3) float32
    position: dict[int, str]

    @property
    def kinds(self) -> np.ndarray:
        """Each square's index in :data:`KINDS`."""
        return np.array([KIND_OF[self.position.get(s, "empty")] for s in range(1, 33)])

    @property
    def sides(self) -> np.ndarray:
        """Each square's side (:data:`SIDE_OF`)."""
        return np.array([SIDE_OF[self.position.get(s, "empty")] for s in range(1, 33)])


def windows_of(frame: synthetic.Frame, view: synthetic.View) -> Windows:
    """The windows of a render, placed by its true corners (as a calibration would place them)."""
    size = view.size
    ideal = undistort(frame.corners, view.distortion, size)
    return Windows.build(frame.corners, view.distortion, size, camera_pose(ideal, size))


def _stock_style(rng: np.random.Generator) -> synthetic.Style:
    pick = rng.integers(3)
    if pick == 0:
        return synthetic.random_style(rng)
    if pick == 1:
        return synthetic.hardened_style(rng)
    board = str(rng.choice(sorted(synthetic.PRINTED_BOARDS)))
    return synthetic.sticker_style(
        board, float(rng.uniform(0.3, 0.42)), str(rng.choice(["star", "square"]))
    )


def _stock_position(rng: np.random.Generator) -> dict[int, str]:
    pick = rng.integers(3)
    if pick == 0:
        return dict(synthetic.START)
    if pick == 1:
        return synthetic.hardened_position(rng)
    return synthetic.late_position(rng, int(rng.integers(0, 6)), int(rng.integers(1, 6)))


def _draw(rng: np.random.Generator) -> tuple[synthetic.Style, synthetic.View, dict[int, str]]:
    """A style, view and position: three times in four from the renderer's whole varied range,
    else from its stock and hardened sets."""
    if rng.random() < 0.75:
        style = synthetic.varied_style(rng)
        view = synthetic.varied_view(rng)
        return style, view, synthetic.varied_position(rng)
    view = synthetic.hardened_view(rng) if rng.random() < 0.6 else synthetic.random_view(rng)
    return _stock_style(rng), view, _stock_position(rng)


def boards(seed: int, count: int) -> Iterator[Board]:
    """``count`` rendered boards, the same for the same seed."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        style, view, position = _draw(rng)
        # A lens from a few dozen: the renderer keeps each one's pixel map, the slow part.
        view = replace(view, distortion=round(view.distortion, 2))
        frame = synthetic.render(position, style, view, markers=bool(rng.random() < 0.5))
        yield Board(windows_of(frame, view).patches(frame.image), position)
