"""Each dark square as a small picture of its own, turned so that what stands on it leans up.

The square reader (:mod:`vision.squares`) looks at one square at a time through a window two
squares wide around it, resampled straight from the camera frame (lens and perspective undone in
one ``cv2.remap``). A piece's top is seen beyond its base, away from the camera's foot on the
board; each window is turned so that this direction points to the window's top row, so a man,
a stack or a tall travel piece looks alike from any side of the board. Colours are divided by
the light squares' median colour in the same frame (light squares never hold a piece): a
brighter, dimmer or warmer light, or a camera's exposure, cancels.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .camera import CameraPose
from .corners import in_picture
from .layout import LIGHT_CENTRES, MARGIN_PX, SQUARE_CENTRES, SQUARE_PX

#: Pixels a side of each square's window.
PATCH_PX = 32
#: The window's reach from the square's centre, in squares: across, behind and beyond (towards
#: where a piece's top leans).
ACROSS, BEHIND, BEYOND = 1.0, 0.8, 1.2
_LIGHT_PX = 6  # pixels a side of the sample taken from each light square
_LIGHT_REACH = 0.3  # its half-side, in squares
#: A picture whose squares span more pixels than this many times a window's is shrunk first
#: (by area), so that resampling does not alias fine grain, print or noise.
_OVERSAMPLED = 1.5


def lean_directions(pose: CameraPose) -> np.ndarray:
    """Unit vectors (32, 2) in board squares: where a piece's top is seen from its base."""
    away = SQUARE_CENTRES - np.array(pose.foot)
    length = np.linalg.norm(away, axis=1, keepdims=True)
    up = np.array([[0.0, -1.0]])  # straight overhead: any way will do; towards Black's side
    return np.where(length > 1e-6, away / np.maximum(length, 1e-6), up)


def window_points(pose: CameraPose) -> np.ndarray:
    """Board points (32 * PATCH_PX, PATCH_PX, 2), in squares, sampled by the 32 windows."""
    beyond = lean_directions(pose)  # (32, 2): window rows run from BEYOND down to -BEHIND
    across = np.stack([-beyond[:, 1], beyond[:, 0]], axis=1)
    steps = (np.arange(PATCH_PX) + 0.5) / PATCH_PX
    along_row = BEYOND - steps * (BEYOND + BEHIND)  # top row is furthest along the lean
    along_column = (steps - 0.5) * 2 * ACROSS
    points = (
        SQUARE_CENTRES[:, None, None, :]
        + along_row[None, :, None, None] * beyond[:, None, None, :]
        + along_column[None, None, :, None] * across[:, None, None, :]
    )
    return points.reshape(32 * PATCH_PX, PATCH_PX, 2)


def _light_points() -> np.ndarray:
    axis = ((np.arange(_LIGHT_PX) + 0.5) / _LIGHT_PX - 0.5) * 2 * _LIGHT_REACH
    xs, ys = np.meshgrid(axis, axis)
    offsets = np.stack([xs, ys], axis=-1)
    return (LIGHT_CENTRES[:, None, None, :] + offsets[None]).reshape(32 * _LIGHT_PX, _LIGHT_PX, 2)


@dataclass(frozen=True)
class Windows:
    """Where, in pictures of one size through one calibration, each square's window lies."""

    squares: tuple[np.ndarray, np.ndarray]  # x and y maps, (32 * PATCH_PX, PATCH_PX) float32
    light: tuple[np.ndarray, np.ndarray]  # x and y maps, (32 * _LIGHT_PX, _LIGHT_PX)
    shrink: float  # the picture is resized by this factor (at most 1) before sampling

    @classmethod
    def build(
        cls, corners: np.ndarray, k1: float, size: tuple[int, int], pose: CameraPose
    ) -> Windows:
        """The windows of a picture of ``size`` whose playing-area corners are ``corners``."""

        sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
        square_px = float(sides.max()) / 8
        shrink = min(1.0, _OVERSAMPLED * PATCH_PX / (2 * ACROSS) / max(square_px, 1e-6))

        def picture(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            canonical = points.reshape(-1, 2) * SQUARE_PX + MARGIN_PX
            found = (in_picture(canonical, corners, k1, size) * shrink).astype(np.float32)
            found = found.reshape(*points.shape[:2], 2)
            return np.ascontiguousarray(found[..., 0]), np.ascontiguousarray(found[..., 1])

        return cls(picture(window_points(pose)), picture(_light_points()), shrink)

    def _shrunk(self, image: np.ndarray) -> np.ndarray:
        if self.shrink >= 1.0:
            return image
        height, width = image.shape[:2]
        size = (max(1, round(width * self.shrink)), max(1, round(height * self.shrink)))
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA)

    def light_colour(self, image: np.ndarray) -> np.ndarray:
        """The light squares' median colour (3,) in a shrunk picture, BGR, at least 1."""
        light = cv2.remap(
            image, *self.light, cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )  # fmt: skip
        return np.maximum(np.median(light.reshape(-1, 3), axis=0).astype(np.float32), 1.0)

    def patches(self, image: np.ndarray) -> np.ndarray:
        """The 32 windows (32, PATCH_PX, PATCH_PX, 3) float32, in units of the light squares'
        colour (1.0 is as bright as a light square), clipped to 0-2."""
        return self.lit_patches(image)[0]

    def lit_patches(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`patches`, and the light's colour cast (3,): the light squares' colour over its
        mean brightness, which the windows (divided by the brightness alone) still carry."""
        image = self._shrunk(image)
        squares = cv2.remap(
            image, *self.squares, cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )  # fmt: skip
        light = self.light_colour(image)
        brightness = float(light.mean())
        scaled = squares.astype(np.float32) / brightness
        windows = np.clip(scaled, 0.0, 2.0).reshape(32, PATCH_PX, PATCH_PX, 3)
        return windows, light / brightness
