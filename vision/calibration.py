"""Calibration: where the board is in the camera's picture and what its pieces look like.

``calibrate`` takes one picture of the start position: it finds the corners (ArUco markers first,
then the checker grid, or corners given by hand), maps the picture onto the canonical board and
learns the colours of empty squares and of both sides' pieces. The result is saved as JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.colour import START_KINDS, ColourModel, Features, measure
from vision.corners import CornerError, check_quad, find_board_corners, homography, warp
from vision.layout import CORNER_NAMES
from vision.markers import MARKER_IDS, board_corners_from_markers, detect_markers

VERSION = 1
METHODS = ("markers", "auto", "manual")
_MIN_SEPARATION = 12.0  # squared distance between kinds below which the set cannot be read


class CalibrationError(ValueError):
    """A picture that cannot be calibrated from, or a calibration file that cannot be used."""


@dataclass
class Calibration:
    """Board corners in the camera picture, the homography to the canonical board, colour models.

    ``light`` holds each light square's log colour at calibration: light squares never hold a
    piece, so a change there means a hand, a shadow or a moved camera.
    """

    corners: np.ndarray  # (4, 2): a1, h1, h8, a8 in picture pixels
    method: str  # how the corners were found: one of METHODS
    image_size: tuple[int, int]  # (width, height) of the calibration picture
    colours: ColourModel
    light: np.ndarray  # (32, 3)
    markers: dict[int, np.ndarray] = field(default_factory=dict)  # id -> (4, 2) at calibration

    @property
    def homography(self) -> np.ndarray:
        """Picture -> canonical board image."""
        return homography(self.corners)

    def scaled_to(self, size: tuple[int, int]) -> Calibration:
        """The same calibration for pictures of another resolution of the same view."""
        if size == self.image_size:
            return self
        factor = np.array(size, dtype=np.float32) / np.array(self.image_size, dtype=np.float32)
        return Calibration(
            corners=self.corners * factor,
            method=self.method,
            image_size=size,
            colours=self.colours,
            light=self.light,
            markers={i: m * factor for i, m in self.markers.items()},
        )

    def moved_to(self, corners: np.ndarray, markers: dict[int, np.ndarray]) -> Calibration:
        """The same colours with new corners, after the camera has moved."""
        return Calibration(
            corners.astype(np.float32), self.method, self.image_size, self.colours, self.light,
            markers,
        )  # fmt: skip

    def seen_at(self, corners: np.ndarray, image: np.ndarray) -> Calibration:
        """The same colours for another picture of the board whose corners are known."""
        height, width = image.shape[:2]
        moved = self.moved_to(corners, {})
        moved.image_size = (width, height)
        return moved

    def to_json(self) -> dict[str, object]:
        """The calibration as the JSON object ``save`` writes."""
        return {
            "version": VERSION,
            "method": self.method,
            "image_size": list(self.image_size),
            "corners": {
                n: c.round(2).tolist() for n, c in zip(CORNER_NAMES, self.corners, strict=True)
            },
            "homography": self.homography.round(8).tolist(),
            "colours": self.colours.to_json(),
            "light": self.light.round(5).tolist(),
            "markers": {str(i): m.round(2).tolist() for i, m in self.markers.items()},
        }

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        """Inverse of :meth:`to_json`; ``CalibrationError`` names what is wrong."""
        if not isinstance(data, dict) or data.get("version") != VERSION:
            found = data.get("version") if isinstance(data, dict) else None
            raise CalibrationError(f"calibration version {found!r} is not {VERSION}: recalibrate")
        try:
            corners = np.array([data["corners"][n] for n in CORNER_NAMES], dtype=np.float32)
            light = np.array(data["light"], dtype=np.float64)
            width, height = (int(v) for v in data["image_size"])
            calibration = cls(
                corners=corners.reshape(4, 2),
                method=str(data["method"]),
                image_size=(width, height),
                colours=ColourModel.from_json(data["colours"]),
                light=light,
                markers={
                    int(i): np.array(m, dtype=np.float32).reshape(4, 2)
                    for i, m in data.get("markers", {}).items()
                },
            )
        except (KeyError, TypeError, ValueError) as error:
            raise CalibrationError(f"malformed calibration: {error}") from None
        if calibration.method not in METHODS or light.shape != (32, 3):
            raise CalibrationError("malformed calibration: bad method or light square table")
        return calibration

    def save(self, path: str | Path) -> None:
        """Write the calibration as JSON."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read a calibration written by :meth:`save`; ``CalibrationError`` if unusable."""
        try:
            data = json.loads(Path(path).read_text())
        except FileNotFoundError:
            raise CalibrationError(f"calibration file {str(path)!r} does not exist") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CalibrationError(f"cannot read calibration {str(path)!r}: {error}") from None
        return cls.from_json(data)


def locate_board(
    image: np.ndarray, corners: np.ndarray | None = None
) -> tuple[np.ndarray, str, dict[int, np.ndarray]]:
    """Corners (a1, h1, h8, a8), the method that found them and the markers seen.

    Order: given corners, else all four markers, else the checker grid.
    """
    if corners is not None:
        check_quad(corners)
        return corners.astype(np.float32), "manual", {}
    markers = detect_markers(image)
    if len(markers) == len(MARKER_IDS):
        return board_corners_from_markers(markers), "markers", markers
    try:
        return find_board_corners(image), "auto", {}
    except CornerError as error:
        seen = ", ".join(str(i) for i in sorted(markers)) or "none"
        raise CalibrationError(
            f"corner markers not found (ids seen: {seen} of 0-3) and {error}; "
            "give the corners by hand with --corners x,y,x,y,x,y,x,y (a1, h1, h8, a8)"
        ) from None


def calibrate(
    image: np.ndarray,
    corners: np.ndarray | None = None,
    position: dict[int, str] | None = None,
) -> Calibration:
    """Calibrate from one picture of a known position (by default the start position)."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise CalibrationError("calibration needs a colour picture")
    found, method, markers = locate_board(image, corners)
    features = measure(warp(image, homography(found)))
    known = START_KINDS if position is None else tuple(position[s].lower() for s in range(1, 33))
    colours = ColourModel.learn(features, known)
    if colours.separation() < _MIN_SEPARATION:
        raise CalibrationError(
            "empty squares, Black's and White's pieces look too alike: is the board in the "
            "start position, lit evenly, with the corners right?"
        )
    kinds, unknown = colours.classify(features)
    wrong = [
        s
        for s, (k, want) in enumerate(zip(kinds, known, strict=True), 1)
        if k != want and want != "unknown"
    ]
    if wrong:
        raise CalibrationError(
            f"the picture does not read as the start position (squares {wrong} differ): "
            "set up the start position, or check the corners"
        )
    if unknown.any():
        odd = [int(s) + 1 for s in np.flatnonzero(unknown)]
        raise CalibrationError(
            f"squares {odd} look unlike the rest of their kind (glare? something on them?): "
            "move the lamp or the camera and calibrate again"
        )
    height, width = image.shape[:2]
    return Calibration(found, method, (width, height), colours, features.light, markers)


def board_colours(image: np.ndarray, corners: np.ndarray, truth: dict[int, str]) -> np.ndarray:
    """Empty squares' and both sides' log colours against the light squares' (9 numbers)."""
    features = measure(warp(image, homography(corners))).squares[:, :3]
    kinds = [[s - 1 for s, v in truth.items() if v.lower() == k] for k in ("empty", "b", "w")]
    return np.concatenate([np.median(features[k], axis=0) if k else np.zeros(3) for k in kinds])


def read_squares(calibration: Calibration, image: np.ndarray) -> dict[int, str]:
    """One picture's reading, square -> "b" | "w" | "empty", with no stillness or hand checks."""
    height, width = image.shape[:2]
    scaled = calibration.scaled_to((width, height))
    features: Features = measure(warp(image, scaled.homography))
    kinds, _ = scaled.colours.classify(features)
    return dict(zip(range(1, 33), kinds, strict=True))


def load_image(path: str | Path) -> np.ndarray:
    """A colour picture from a file; ``CalibrationError`` if missing or unreadable."""
    if not Path(path).is_file():
        raise CalibrationError(f"image {str(path)!r} does not exist")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise CalibrationError(f"image {str(path)!r} is not a picture OpenCV can read")
    return image
