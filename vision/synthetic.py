"""Synthetic camera frames of a board, for tests and benchmarks: no camera needed to check vision.

A scene is drawn top-down (board, frame, pieces of any colours, ArUco stickers), then seen through
a camera: perspective, lens distortion, a light gradient and tint, a glare spot, shadows, noise
and optionally an arm reaching over the board. Every frame knows its true board corners.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from engine.geometry import row_col
from vision.layout import CORNER_NAMES
from vision.markers import MARKER_IDS, marker_image

BGR = tuple[int, int, int]
START = {**dict.fromkeys(range(1, 13), "b"), **dict.fromkeys(range(21, 33), "w")}

_Q = 48  # top-down pixels per square
_PAD = 2 * _Q  # table around the playing area in the top-down scene
_SIZE = 8 * _Q + 2 * _PAD


@dataclass(frozen=True)
class Style:
    """Colours (BGR) of one board and set."""

    light: BGR = (170, 205, 225)
    dark: BGR = (60, 110, 45)
    black: BGR = (40, 40, 175)  # the Black side's pieces (red in tournament sets)
    white: BGR = (225, 232, 236)
    frame: BGR = (40, 80, 120)
    table: BGR = (95, 100, 105)
    piece_radius: float = 0.38  # of a square


STYLES = {
    "red-white on green": Style(),
    "black-white on brown": Style(
        light=(150, 190, 215), dark=(45, 75, 115), black=(35, 35, 40), white=(210, 225, 230)
    ),
    "green-red on black": Style(
        light=(200, 210, 215), dark=(35, 35, 35), black=(40, 110, 30), white=(60, 60, 210)
    ),
    "red-black on black": Style(
        light=(50, 45, 170), dark=(70, 70, 72), black=(25, 25, 28), white=(45, 45, 200)
    ),
}


@dataclass(frozen=True)
class View:
    """How the camera sees the scene and what spoils the picture."""

    corners: tuple[tuple[float, float], ...] = ((175, 395), (465, 395), (450, 90), (190, 90))
    size: tuple[int, int] = (640, 480)
    distortion: float = 0.0  # radial k1 over the normalised radius; negative is barrel
    gradient: tuple[float, float] = (0.0, 0.0)  # light change across the frame in x and y
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    brightness: float = 1.0
    glare: tuple[float, float, float] | None = None  # (x, y, strength) of a bright spot
    shadows: tuple[tuple[float, float, float, float], ...] = ()  # (x, y, radius, depth)
    noise: float = 2.0
    arm: float = 0.0  # how far an arm reaches over the board, 0 (none) to 1 (to the middle)
    arm_from: str = "bottom"  # the frame edge the arm comes from
    seed: int = 0


@dataclass(frozen=True)
class Frame:
    """A rendered camera image and the playing area's true corners in it (a1, h1, h8, a8)."""

    image: np.ndarray
    corners: np.ndarray = field(repr=False)


def _top_down(position: Mapping[int, str], style: Style, markers: bool) -> np.ndarray:
    scene = np.full((_SIZE, _SIZE, 3), style.table, dtype=np.uint8)
    border = _Q // 3
    cv2.rectangle(
        scene, (_PAD - border, _PAD - border), (_PAD + 8 * _Q + border, _PAD + 8 * _Q + border),
        style.frame, -1,
    )  # fmt: skip
    for row in range(8):
        for col in range(8):
            colour = style.dark if (row + col) % 2 else style.light
            top, left = _PAD + row * _Q, _PAD + col * _Q
            scene[top : top + _Q, left : left + _Q] = colour
    for square, kind in position.items():
        if kind == "empty":
            continue
        row, col = row_col(square)
        centre = (_PAD + col * _Q + _Q // 2, _PAD + row * _Q + _Q // 2)
        colour = style.black if kind == "b" else style.white
        radius = round(style.piece_radius * _Q)
        rim = tuple(int(c * 0.75) for c in colour)
        cv2.circle(scene, centre, radius, rim, -1, cv2.LINE_AA)
        cv2.circle(scene, centre, radius - 2, colour, -1, cv2.LINE_AA)
        cv2.circle(scene, centre, round(radius * 0.7), rim, 1, cv2.LINE_AA)
    if markers:
        side = round(1.1 * _Q)
        low, high = _PAD - side, _PAD + 8 * _Q
        places = {"a1": (high, low), "h1": (high, high), "h8": (low, high), "a8": (low, low)}
        for marker_id, name in zip(MARKER_IDS, CORNER_NAMES, strict=True):
            top, left = places[name]
            sticker = marker_image(marker_id, side)
            scene[top : top + side, left : left + side] = sticker[..., None]
    return scene


def _distort(image: np.ndarray, k1: float) -> np.ndarray:
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    cx, cy, norm = width / 2, height / 2, max(width, height) / 2
    x, y = (xs - cx) / norm, (ys - cy) / norm
    factor = 1 + k1 * (x * x + y * y)
    return cv2.remap(
        image, x * factor * norm + cx, y * factor * norm + cy, cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip


def _undistort_points(points: np.ndarray, k1: float, size: tuple[int, int]) -> np.ndarray:
    """Where points of the undistorted picture land after ``_distort`` (by fixed-point search)."""
    width, height = size
    cx, cy, norm = width / 2, height / 2, max(width, height) / 2
    target = (points - [cx, cy]) / norm
    guess = target.copy()
    for _ in range(20):
        factor = 1 + k1 * (guess**2).sum(axis=1, keepdims=True)
        guess = target / factor
    return guess * norm + [cx, cy]


def _arm(view: View, rng: np.random.Generator) -> tuple[np.ndarray, BGR]:
    width, height = view.size
    mask = np.zeros((height, width), dtype=np.uint8)
    corners = np.array(view.corners, dtype=np.float32)
    middle = corners.mean(axis=0)
    starts = {
        "bottom": (middle[0] + rng.uniform(-60, 60), height + 40),
        "top": (middle[0] + rng.uniform(-60, 60), -40),
        "left": (-40, middle[1] + rng.uniform(-60, 60)),
        "right": (width + 40, middle[1] + rng.uniform(-60, 60)),
    }
    start = np.array(starts[view.arm_from], dtype=np.float32)
    end = start + (middle - start) * view.arm
    thick = int(0.12 * width)
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in end), 255, thick)
    cv2.circle(mask, tuple(int(v) for v in end), int(thick * 0.8), 255, -1)
    skin = (int(rng.uniform(90, 150)), int(rng.uniform(130, 175)), int(rng.uniform(180, 230)))
    return cv2.GaussianBlur(mask, (0, 0), 4), skin


def render(
    position: Mapping[int, str] = START,
    style: Style = Style(),
    view: View = View(),
    *,
    markers: bool = True,
) -> Frame:
    """A camera frame of ``position`` (square -> "b" | "w" | "empty"; missing squares are empty)."""
    rng = np.random.default_rng(view.seed)
    width, height = view.size
    scene = _top_down(position, style, markers)
    board = np.array(
        [[_PAD, _PAD + 8 * _Q], [_PAD + 8 * _Q] * 2, [_PAD + 8 * _Q, _PAD], [_PAD, _PAD]],
        dtype=np.float32,
    )
    corners = np.array(view.corners, dtype=np.float32)
    homography = cv2.getPerspectiveTransform(board, corners)
    image = cv2.warpPerspective(
        scene, homography, (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    ).astype(np.float32)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    light = view.brightness * (
        1 + view.gradient[0] * (xs / width - 0.5) + view.gradient[1] * (ys / height - 0.5)
    )
    for x, y, radius, depth in view.shadows:
        spot = np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * radius**2))
        light = light * (1 - depth * spot)
    image = image * light[..., None] * np.array(view.tint, dtype=np.float32)
    if view.arm > 0:
        mask, skin = _arm(view, rng)
        alpha = (mask.astype(np.float32) / 255)[..., None]
        shade = np.array(skin, dtype=np.float32) * light[..., None]
        image = image * (1 - alpha) + shade * alpha
    if view.glare is not None:
        x, y, strength = view.glare
        spot = strength * np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * 6.0**2)) * light
        image += spot[..., None]  # a reflection of the lamp: as bright as the lamp is
    image = cv2.GaussianBlur(image, (0, 0), 0.7)
    image += rng.normal(0, view.noise, image.shape).astype(np.float32)
    image = np.clip(image, 0, 255).astype(np.uint8)
    if view.distortion:
        image = _distort(image, view.distortion)
        corners = _undistort_points(corners, view.distortion, view.size).astype(np.float32)
    return Frame(image=image, corners=corners)


def random_view(rng: np.random.Generator, **changes: object) -> View:
    """A plausible overhead view: the board fills most of a 640x480 frame, seen a little askew."""
    centre = np.array([320, 240]) + rng.uniform(-20, 20, 2)
    half = rng.uniform(125, 150)
    angle = rng.uniform(-0.15, 0.15) + rng.integers(0, 4) * np.pi / 2
    base = np.array([[-1, 1], [1, 1], [1, -1], [-1, -1]], dtype=np.float64) * half
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    corners = base @ rotation.T + centre + rng.uniform(-15, 15, (4, 2))
    board_x = rng.uniform(corners[:, 0].min() + 40, corners[:, 0].max() - 40)
    board_y = rng.uniform(corners[:, 1].min() + 40, corners[:, 1].max() - 40)
    view = View(
        corners=tuple(tuple(float(v) for v in c) for c in corners),
        distortion=float(rng.uniform(-0.04, 0.04)),
        gradient=(float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.5, 0.5))),
        tint=tuple(float(v) for v in rng.uniform(0.88, 1.12, 3)),
        brightness=float(rng.uniform(0.75, 1.15)),
        glare=(board_x, board_y, float(rng.uniform(40, 140))),
        shadows=((float(rng.uniform(100, 540)), float(rng.uniform(80, 400)), 70.0, 0.35),),
        noise=float(rng.uniform(1.0, 4.0)),
        seed=int(rng.integers(1 << 30)),
    )
    return replace(view, **changes)


def random_position(rng: np.random.Generator) -> dict[int, str]:
    """A random mid-game-like occupancy: each square empty, "b" or "w"."""
    kinds = rng.choice(["empty", "b", "w"], size=32, p=[0.4, 0.3, 0.3])
    return {square: str(kind) for square, kind in zip(range(1, 33), kinds, strict=True)}


def random_style(rng: np.random.Generator) -> Style:
    """One of the stock sets, its colours shifted a little."""
    base = list(STYLES.values())[rng.integers(len(STYLES))]

    def jitter(colour: BGR) -> BGR:
        shifted = np.clip(np.array(colour) + rng.integers(-15, 16, 3), 0, 255)
        return tuple(int(v) for v in shifted)

    return replace(
        base,
        light=jitter(base.light),
        dark=jitter(base.dark),
        black=jitter(base.black),
        white=jitter(base.white),
        piece_radius=float(rng.uniform(0.33, 0.4)),
    )
