"""Synthetic camera frames of a board, for tests and benchmarks: no camera needed to check vision.

The board is drawn top-down (squares, frame, ArUco stickers) and seen through a camera:
perspective, then the pieces as cylinders with height, drawn in perspective from where the
camera stands (kings as two-piece stacks or with an emblem on top, each piece set off its
square's centre by up to ``View.jitter``), then lens distortion, a light gradient and tint, a
glare spot, shadows, noise and optionally an arm reaching over the board. Every frame knows
its true board corners. ``hardened_*`` draw the hard cases real boards show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from engine.geometry import row_col
from vision.camera import camera_pose, distort, long_side, undistort
from vision.layout import BOARD_CORNERS, CORNER_NAMES
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
    piece_height: float = 0.12  # of a square: a man's thickness
    kings: str = "stack"  # how a king shows: "stack" (two men) or "emblem" (a mark on top)
    emblem: str = "star"  # an emblem king's mark: "star" or "square"
    emblem_size: float = 0.6  # the mark's reach from the piece's centre, of its radius
    #: The mark's ink: "contrast" (dark on a bright piece, gold on a dark one) or "dark" (dark
    #: on either side, as printed sticker sets do; gold only on a piece too dark to show it).
    emblem_ink: str = "contrast"


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
    distortion: float = 0.0  # radial k1 (``vision.camera.distort``); negative is barrel
    gradient: tuple[float, float] = (0.0, 0.0)  # light change across the frame in x and y
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    brightness: float = 1.0
    glare: tuple[float, float, float] | None = None  # (x, y, strength) of a bright spot
    shadows: tuple[tuple[float, float, float, float], ...] = ()  # (x, y, radius, depth)
    noise: float = 2.0
    arm: float = 0.0  # how far an arm reaches over the board, 0 (none) to 1 (to the middle)
    arm_from: str = "bottom"  # the frame edge the arm comes from
    jitter: float = 0.0  # largest offset of a piece from its square's centre, in squares
    glare_size: float = 6.0  # the glare spot's radius (pixels)
    seed: int = 0


@dataclass(frozen=True)
class Frame:
    """A rendered camera image and the playing area's true corners in it (a1, h1, h8, a8)."""

    image: np.ndarray
    corners: np.ndarray = field(repr=False)


def _top_down(style: Style, markers: bool, markers_off: float) -> np.ndarray:
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
    if markers:
        side = round(1.1 * _Q)
        off = round(markers_off * _Q)
        low, high = _PAD - side - off, _PAD + 8 * _Q + off
        places = {"a1": (high, low), "h1": (high, high), "h8": (low, high), "a8": (low, low)}
        for marker_id, name in zip(MARKER_IDS, CORNER_NAMES, strict=True):
            top, left = places[name]
            sticker = marker_image(marker_id, side)
            scene[top : top + side, left : left + side] = sticker[..., None]
    return scene


@lru_cache(maxsize=64)
def _lens_maps(k1: float, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Where each pixel of a picture through a lens of distortion ``k1`` comes from."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    source = undistort(np.stack([xs, ys], axis=-1), k1, (width, height)).astype(np.float32)
    return np.ascontiguousarray(source[..., 0]), np.ascontiguousarray(source[..., 1])


def _distort(image: np.ndarray, k1: float) -> np.ndarray:
    """The picture through a lens of radial distortion ``k1`` (``vision.camera.distort``)."""
    height, width = image.shape[:2]
    maps = _lens_maps(k1, width, height)
    return cv2.remap(image, *maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _emblem(centre: np.ndarray, radius: float, shape: str) -> np.ndarray:
    """The outline of a crown's mark: a five-pointed star, or a square standing on its side."""
    if shape == "square":
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * radius / np.sqrt(2)
        return centre + corners
    return _star(centre, radius)


def _star(centre: np.ndarray, radius: float) -> np.ndarray:
    angles = np.arange(10) * np.pi / 5 - np.pi / 2
    radii = np.where(np.arange(10) % 2, radius * 0.45, radius)
    return centre + np.stack([np.cos(angles), np.sin(angles)], axis=1) * radii[:, None]


def _draw_pieces(
    image: np.ndarray,
    position: Mapping[int, str],
    style: Style,
    view: View,
    rng: np.random.Generator,
) -> None:
    """Draw each piece as a cylinder seen from the camera the corners imply, far ones first."""
    corners = np.array(view.corners, dtype=np.float32)
    to_image = cv2.getPerspectiveTransform(BOARD_CORNERS, corners)
    pose = camera_pose(corners, view.size)
    circle = np.stack(
        [np.cos(np.linspace(0, 2 * np.pi, 48)), np.sin(np.linspace(0, 2 * np.pi, 48))]
    )
    pieces = []
    for square, kind in sorted(position.items()):
        if kind == "empty":
            continue
        row, col = row_col(square)
        base = np.array([col + 0.5, row + 0.5]) + rng.uniform(-view.jitter, view.jitter, 2)
        pieces.append((base, kind))
    pieces.sort(key=lambda p: -float(np.linalg.norm(p[0] - np.array(pose.foot))))

    def project(points: np.ndarray, height: float) -> np.ndarray:
        leaned = pose.lean(points, height).astype(np.float32)
        return cv2.perspectiveTransform(leaned[None], to_image)[0]

    for base, kind in pieces:
        colour = np.array(style.black if kind in "bB" else style.white, dtype=np.float64)
        side, rim = tuple(colour * 0.7), tuple(colour * 0.8)
        outline = base + style.piece_radius * circle.T
        layers = 2 if kind in "BW" and style.kings == "stack" else 1
        for layer in range(layers):
            low, high = layer * style.piece_height, (layer + 1) * style.piece_height
            bottom, top = project(outline, low), project(outline, high)
            hull = cv2.convexHull(np.vstack([bottom, top]).astype(np.float32))
            cv2.fillPoly(image, [np.round(hull * 16).astype(np.int32)], side, cv2.LINE_AA, 4)
            if layer:  # the seam between the two men of a stack
                seam = np.round(bottom * 16).astype(np.int32)
                cv2.polylines(image, [seam], True, tuple(colour * 0.45), 1, cv2.LINE_AA, 4)
        face = project(outline, layers * style.piece_height)
        cv2.fillPoly(image, [np.round(face * 16).astype(np.int32)], rim, cv2.LINE_AA, 4)
        inner = project(base + 0.88 * style.piece_radius * circle.T, layers * style.piece_height)
        cv2.fillPoly(image, [np.round(inner * 16).astype(np.int32)], tuple(colour), cv2.LINE_AA, 4)
        if kind in "BW" and style.kings == "emblem":
            outline = _emblem(base, style.emblem_size * style.piece_radius, style.emblem)
            mark_outline = project(outline, style.piece_height)
            dark_ink = colour.mean() > 90 or (style.emblem_ink == "dark" and colour.max() > 120)
            mark = (40, 40, 40) if dark_ink else (60, 200, 235)
            points = np.round(mark_outline * 16).astype(np.int32)
            cv2.fillPoly(image, [points], mark, cv2.LINE_AA, 4)


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
    markers_off: float = 0.0,
) -> Frame:
    """A camera frame of ``position`` (square -> "b" | "w" | "empty"; missing squares are empty).

    ``markers_off`` moves the markers that far (squares, up to 0.8) diagonally out from where
    ``poolboard vision markers`` says they go: another project's, at a sheet's corners.
    """
    if not 0 <= markers_off <= 0.8:
        raise ValueError(f"markers_off {markers_off} is not 0-0.8 squares")
    rng = np.random.default_rng(view.seed)
    width, height = view.size
    scene = _top_down(style, markers, markers_off)
    board = np.array(
        [[_PAD, _PAD + 8 * _Q], [_PAD + 8 * _Q] * 2, [_PAD + 8 * _Q, _PAD], [_PAD, _PAD]],
        dtype=np.float32,
    )
    corners = np.array(view.corners, dtype=np.float32)
    homography = cv2.getPerspectiveTransform(board, corners)
    image = cv2.warpPerspective(
        scene, homography, (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    _draw_pieces(image, position, style, view, rng)
    image = image.astype(np.float32)
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
        spot = np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * view.glare_size**2))
        spot = strength * spot * light
        image += spot[..., None]  # a reflection of the lamp: as bright as the lamp is
    image = cv2.GaussianBlur(image, (0, 0), 0.7)
    image += rng.normal(0, view.noise, image.shape).astype(np.float32)
    image = np.clip(image, 0, 255).astype(np.uint8)
    if view.distortion:
        image = _distort(image, view.distortion)
        corners = distort(corners, view.distortion, view.size).astype(np.float32)
    return Frame(image=image, corners=corners)


def random_view(rng: np.random.Generator, **changes: Any) -> View:
    """A plausible overhead view: the board fills most of a 640x480 frame, seen a little askew."""
    centre = np.array([320, 240]) + rng.uniform(-20, 20, 2)
    half = rng.uniform(125, 150)
    angle = rng.uniform(-0.15, 0.15) + rng.integers(0, 4) * np.pi / 2
    base = np.array([[-1, 1], [1, 1], [1, -1], [-1, -1]], dtype=np.float64) * half
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    corners = base @ rotation.T + centre + rng.uniform(-15, 15, (4, 2))
    board_x = rng.uniform(corners[:, 0].min() + 40, corners[:, 0].max() - 40)
    board_y = rng.uniform(corners[:, 1].min() + 40, corners[:, 1].max() - 40)
    tint = rng.uniform(0.88, 1.12, 3)
    view = View(
        corners=tuple((float(x), float(y)) for x, y in corners),
        distortion=float(rng.uniform(-0.04, 0.04)),
        gradient=(float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.5, 0.5))),
        tint=(float(tint[0]), float(tint[1]), float(tint[2])),
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
        return (int(shifted[0]), int(shifted[1]), int(shifted[2]))

    return replace(
        base,
        light=jitter(base.light),
        dark=jitter(base.dark),
        black=jitter(base.black),
        white=jitter(base.white),
        piece_radius=float(rng.uniform(0.33, 0.4)),
    )


#: Sets whose pieces are hard to tell from the squares: black men on near-black squares, pale
#: men on cream light squares (and dark squares close to the black pieces' hue).
HARD_STYLES = {
    "black on near-black": Style(
        light=(150, 185, 205), dark=(52, 50, 55), black=(28, 26, 30), white=(215, 225, 230)
    ),
    "red on brown": Style(
        light=(160, 200, 225), dark=(40, 60, 110), black=(35, 40, 150), white=(190, 215, 230)
    ),
}


def camera_corners(
    tilt: float, azimuth: float, roll: float, size: tuple[int, int] = (640, 480), fill: float = 0.7
) -> tuple[tuple[float, float], ...]:
    """The board's corners (a1, h1, h8, a8) seen by a camera looking at its centre from
    ``tilt`` degrees off the vertical, from ``azimuth`` degrees round from White's side, turned
    ``roll`` degrees about its axis, the board spanning about ``fill`` of the picture."""
    width, height = size
    t, a = np.radians(tilt), np.radians(azimuth)
    board = np.hstack([BOARD_CORNERS - 4.0, np.zeros((4, 1))])  # centred, z = 0
    direction = np.array([np.sin(t) * np.sin(a), np.sin(t) * np.cos(a), -np.cos(t)])
    distance = 12.0
    for _ in range(4):
        camera = distance * direction
        forward = -direction
        hint = np.array([0.0, 1.0, 0.0]) if tilt < 1 else np.array([0.0, 0.0, -1.0])
        right = np.cross(hint, forward) if tilt < 1 else np.cross(forward, hint)
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        rel = board - camera
        z = rel @ forward
        points = np.stack([rel @ right / z, rel @ down / z], axis=1) * long_side(size)
        spread = np.ptp(points, axis=0).max() / long_side(size)
        distance *= spread / fill
    turn = np.radians(roll)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    points = points @ rotation.T
    area = cv2.contourArea(points.astype(np.float32), oriented=True)
    if (area > 0) != (cv2.contourArea(BOARD_CORNERS, oriented=True) > 0):
        points[:, 0] = -points[:, 0]  # seen from above, a board never comes out mirrored
    points += [width / 2, height / 2]
    return tuple((float(x), float(y)) for x, y in points)


def hardened_view(rng: np.random.Generator, **changes: Any) -> View:
    """A hard view: up to 45 degrees off the vertical, barrel distortion down to k1 = -0.3,
    pieces up to 0.3 square off-centre, exposure from half to one and a half, a large glare."""
    corners = camera_corners(
        float(rng.uniform(0, 45)), float(rng.uniform(0, 360)), float(rng.uniform(-15, 15)),
        fill=float(rng.uniform(0.6, 0.8)),
    )  # fmt: skip
    xs, ys = zip(*corners, strict=True)
    view = View(
        corners=corners,
        distortion=float(rng.uniform(-0.3, 0.0)),
        gradient=(float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.5, 0.5))),
        tint=(float(rng.uniform(0.85, 1.15)), 1.0, float(rng.uniform(0.85, 1.15))),
        brightness=float(rng.choice([0.55, 0.8, 1.0, 1.25, 1.5])),
        glare=(float(rng.uniform(min(xs), max(xs))), float(rng.uniform(min(ys), max(ys))),
               float(rng.uniform(60, 200))),
        glare_size=float(rng.uniform(6, 25)),
        shadows=((float(rng.uniform(100, 540)), float(rng.uniform(80, 400)), 90.0, 0.45),),
        noise=float(rng.uniform(1.0, 4.0)),
        jitter=0.3,
        seed=int(rng.integers(1 << 30)),
    )  # fmt: skip
    return replace(view, **changes)


def hardened_style(rng: np.random.Generator) -> Style:
    """A stock or hard set, with either kind of king: stacks of men 0.08-0.3 square thick, or
    an emblem (a star or a square reaching 0.45-0.7 of the piece's radius, in contrasting or
    dark ink) on pieces 0.03-0.3 square thick (flat sticker discs up to turned wood)."""
    styles = list(STYLES.values()) + list(HARD_STYLES.values())
    base = styles[rng.integers(len(styles))]
    radius, height = float(rng.uniform(0.34, 0.42)), float(rng.uniform())
    kings = str(rng.choice(["stack", "emblem"]))
    emblem, ink = str(
        rng.choice(["star/contrast", "square/contrast", "star/dark", "square/dark"])
    ).split("/")
    thinnest = 0.08 if kings == "stack" else 0.03
    return replace(
        base,
        piece_radius=radius,
        piece_height=thinnest + height * (0.3 - thinnest),
        kings=kings,
        emblem=emblem,
        emblem_size=float(rng.uniform(0.45, 0.7)),
        emblem_ink=ink,
    )


def hardened_position(rng: np.random.Generator) -> dict[int, str]:
    """A random position with kings: each square empty, "b", "w", "B" or "W"."""
    kinds = rng.choice(["empty", "b", "w", "B", "W"], size=32, p=[0.4, 0.2, 0.2, 0.1, 0.1])
    return {square: str(kind) for square, kind in zip(range(1, 33), kinds, strict=True)}


def late_position(rng: np.random.Generator, men: int, kings: int = 9) -> dict[int, str]:
    """A late position on random squares: ``kings`` kings and ``men`` men of each side."""
    squares = [int(s) for s in rng.permutation(np.arange(1, 33))]
    position = dict.fromkeys(range(1, 33), "empty")
    for kind, count in (("b", men), ("w", men), ("B", kings), ("W", kings)):
        for _ in range(count):
            position[squares.pop()] = kind
    return position


#: Printed boards that sticker sets come on (issue #10's kind): light and dark squares (BGR).
PRINTED_BOARDS = {
    "black-and-white": ((235, 238, 240), (30, 30, 30)),
    "grey-and-white": ((230, 232, 235), (110, 110, 110)),
    "green": ((200, 225, 230), (70, 120, 60)),
}


def sticker_style(board: str, radius: float, mark: str = "star") -> Style:
    """Red and green flat stickers of ``radius`` (squares) on one of :data:`PRINTED_BOARDS`,
    each king with a dark ``mark`` ("star" or "square") reaching 0.6 of its radius."""
    light, dark = PRINTED_BOARDS[board]
    return Style(
        light=light, dark=dark, black=(45, 45, 200), white=(70, 175, 60), frame=(40, 40, 40),
        table=(120, 120, 120), piece_radius=radius, piece_height=0.02, kings="emblem",
        emblem=mark, emblem_size=0.6,
    )  # fmt: skip
