"""ArUco corner markers: finding them in a frame, turning them into board corners, printing them.

Marker ids 0, 1, 2, 3 (dictionary DICT_4X4_50) go at the a1, h1, h8 and a8 corners. Each marker is
printed on a square white sticker whose quiet margin is ``MARGIN`` of the marker's side; the
sticker's corner is laid on the playing area's corner, diagonally outside it. Which way up the
sticker lies does not matter: the marker corner nearest the board's centre is the one used.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.layout import CORNER_NAMES

MARKER_IDS = (0, 1, 2, 3)  # a1, h1, h8, a8: the order of CORNER_NAMES
MARGIN = 0.25  # white margin around a printed marker, as a fraction of the marker's side

_DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)


def _detector() -> cv2.aruco.ArucoDetector:
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(_DICTIONARY, parameters)


_DETECTOR = _detector()


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The corner markers visible in a BGR or grey image: id -> its four corners (4, 2)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _DETECTOR.detectMarkers(grey)
    if ids is None:
        return {}
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    return {i: found[i] for i in MARKER_IDS if i in found}


def board_corners_from_markers(markers: dict[int, np.ndarray]) -> np.ndarray:
    """The playing area's corners (4, 2) in ``CORNER_NAMES`` order from all four markers.

    ``ValueError`` names the corners whose marker is missing.
    """
    missing = [CORNER_NAMES[i] for i, m in enumerate(MARKER_IDS) if m not in markers]
    if missing:
        raise ValueError(f"corner markers not found for {', '.join(missing)}")
    centre = np.mean([markers[m].mean(axis=0) for m in MARKER_IDS], axis=0)
    result = []
    for marker_id in MARKER_IDS:
        quad = markers[marker_id].astype(np.float32)
        inner = int(np.argmin(np.linalg.norm(quad - centre, axis=1)))
        # In the marker's own unit square, its inner corner is (1, 1) after rolling the corner
        # order; the sticker's corner lies MARGIN further out along both sides.
        rolled = np.roll(quad, -((inner + 2) % 4), axis=0)  # rolled[2] is the inner corner
        unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
        to_image = cv2.getPerspectiveTransform(unit, rolled)
        point = np.array([[[1 + MARGIN, 1 + MARGIN]]], dtype=np.float32)
        result.append(cv2.perspectiveTransform(point, to_image)[0, 0])
    return np.array(result, dtype=np.float32)


def follow_markers(
    corners: np.ndarray, before: dict[int, np.ndarray], after: dict[int, np.ndarray]
) -> np.ndarray | None:
    """Where the board's corners (4, 2) are now, from where all four markers were (``before``)
    and are (``after``), all as a pinhole camera sees them (a lens's bend undone): the markers
    lie on the board's plane, wherever on it, so one homography of that plane moves them and
    the corners alike. ``None`` if their corners fit none."""
    source = np.vstack([before[m] for m in MARKER_IDS]).astype(np.float32)
    target = np.vstack([after[m] for m in MARKER_IDS]).astype(np.float32)
    moved, _ = cv2.findHomography(source, target)
    if moved is None:
        return None
    return cv2.perspectiveTransform(corners.reshape(1, -1, 2).astype(np.float32), moved)[0]


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """One marker on its white sticker (grey, ``side_px`` square including the margin)."""
    inner = round(side_px / (1 + 2 * MARGIN))
    marker = cv2.aruco.generateImageMarker(_DICTIONARY, marker_id, inner)
    sticker = np.full((side_px, side_px), 255, dtype=np.uint8)
    offset = (side_px - inner) // 2
    sticker[offset : offset + inner, offset : offset + inner] = marker
    return sticker


def marker_sheet(sticker_px: int = 600) -> np.ndarray:
    """A printable sheet of the four stickers, each labelled with its id and board corner."""
    gap = sticker_px // 4
    label_h = sticker_px // 6
    width = 2 * sticker_px + 3 * gap
    height = 2 * (sticker_px + label_h) + 3 * gap
    sheet = np.full((height, width), 255, dtype=np.uint8)
    for index, marker_id in enumerate(MARKER_IDS):
        top = gap + (index // 2) * (sticker_px + label_h + gap)
        left = gap + (index % 2) * (sticker_px + gap)
        sheet[top : top + sticker_px, left : left + sticker_px] = marker_image(
            marker_id, sticker_px
        )
        # A thin cutting line around the sticker, outside its margin.
        cv2.rectangle(
            sheet, (left - 2, top - 2), (left + sticker_px + 1, top + sticker_px + 1), 160, 1
        )
        text = f"id {marker_id}: corner {CORNER_NAMES[index]}"
        scale = sticker_px / 400
        cv2.putText(
            sheet,
            text,
            (left, top + sticker_px + int(label_h * 0.7)),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            0,
            max(1, round(scale * 2)),
            cv2.LINE_AA,
        )
    return sheet
