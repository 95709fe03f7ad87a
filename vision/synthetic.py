"""Synthetic camera frames of a board: for tests, benchmarks, and training a reader on many boards.

``render(position, style, view)`` draws the board top-down (squares, frame, ArUco corner
stickers, tags lying on it), sees it through a camera (the perspective its corners imply),
draws the pieces there as solids with height seen from where that camera stands, then spoils
the picture as cameras do. Every frame knows its true board corners (a1, h1, h8, a8).

A board and its set are a :class:`Style`, the camera and the light a :class:`View`. Every option
below defaults to "off", so the stock sets and views render as they always have;
:func:`varied_style`, :func:`varied_view` and :func:`varied_position` draw from the whole space,
so a reader trained on many draws has seen every kind. One ``Style`` (its ``seed``) is one
board: its grain, shades and tags stay put from frame to frame while the view changes, and its
top-down picture is drawn once. Everything random comes from ``Style.seed`` and ``View.seed``.
The older ``random_*``, ``hardened_*`` and ``sticker_style`` draws are narrower; the tests and
benchmarks that use them keep their figures.

Board: ``light``, ``dark``, ``frame``, ``table``; ``texture`` "flat", "wood" (grain, squares
inlaid crosswise on some boards) or "paper" (fibres and blotches), ``grain`` its strength;
``dark_spread`` how far single dark squares lighten towards the light squares (0 all alike, 1
from the set shade to barely darker than the light ones); ``engraved`` grain burnt into the dark
squares; ``labels`` a-h and 1-8 printed on the frame; ``tags`` (:class:`Tag`) fiducials (ArUco or
AprilTag) and stickers lying over squares; a ``sheet`` of paper (``sheet_colour``) under the
board; ``clutter`` on the table round it.

Set: ``black``, ``white``, ``piece_radius``, ``piece_height``; ``profile`` "flat" (a disc with
a rim), "ridged" (grooved top, fluted side), "domed" or "peg" (a tall peg with a knob on a
disc, as 3-D printed and travel sets have); ``shading`` how much the lamp models them (0 flat
fills; 1 lit and shaded sides, shaded top, rim highlight); ``shadow`` the depth of each piece's
soft shadow; ``wobble`` an uneven outline (moulded clay; each frame draws the outlines anew).

Kings (``kings``): "stack" (two men), "emblem" (a mark on top: ``emblem`` "star", "square",
"crown", "ring" or "dot" reaching ``emblem_size`` of the radius, in ``emblem_ink`` "contrast",
"dark", "gold" or "engraved"), "stack-emblem" (both), "shape" (one flat piece of another outline,
``king_shape`` "octagon", "hexagon", "square" or "circle", ``king_scale`` times a man's size) and
"insert" (a disc of colour ``insert`` set into the top).

View: ``corners`` and ``size``; lens ``distortion``; light ``gradient``, ``tint`` (white
balance), ``brightness`` (exposure), ``gamma``, ``saturation``, ``vignette``, ``shadows`` (dark
patches), ``lamp`` and ``lamp_height`` (where the light comes from, for the pieces' shading and
shadows); ``glare`` (a spot of ``glare_size``), ``streaks`` (long reflections on a glossy
board), ``bloom`` (light past white bleeding over its surroundings); an ``arm`` reaching from
``arm_from`` (``hand``: with fingers, shading and a shadow); piece ``jitter``; ``spares``
(pieces lying off the board); ``blur`` (focus) and ``motion`` blur (``motion_angle``);
``noise`` (``noise_kind`` "pixel", or "camera": grain with coarser colour blotches); ``jpeg``
quality (0: none).

A varied 640x480 frame on a new board takes about 50 ms of one core here (65-75 ms of CPU time
while other work shares the machine); ``bench/vision_renders.py`` measures it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from engine.board import Board
from engine.color import Color
from engine.geometry import row_col
from vision.camera import camera_pose, distort, long_side, undistort
from vision.layout import BOARD_CORNERS, CORNER_NAMES
from vision.markers import MARKER_IDS, marker_image

BGR = tuple[int, int, int]
START = {**dict.fromkeys(range(1, 13), "b"), **dict.fromkeys(range(21, 33), "w")}

_Q = 48  # top-down pixels per square
_PAD = 2 * _Q  # table around the playing area in the top-down scene
_SIZE = 8 * _Q + 2 * _PAD
_SEGMENTS = 48  # points round a piece's outline


#: The dark squares by row and column (row 0 the far row), and the top-down playing area's dark
#: pixels.
_DARK_SQUARES = np.indices((8, 8)).sum(axis=0) % 2 == 1
_DARK = np.kron(_DARK_SQUARES, np.ones((_Q, _Q))).astype(bool)


_APRILTAGS = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)


@dataclass(frozen=True)
class Tag:
    """Something flat lying on the board: a fiducial tag or a plain sticker, in board squares
    ((0, 0) the a8 corner, x to the right, y towards White)."""

    x: float
    y: float
    size: float = 0.6  # its side
    angle: float = 0.0  # degrees
    kind: str = "fiducial"  # "fiducial" (an ArUco tag), "apriltag" (36h11) or "sticker"
    colour: BGR = (230, 232, 235)  # a sticker's colour
    code: int = 7  # a fiducial's id (ArUco 4x4_50 ids 0-3 are the corner markers': not those)


@dataclass(frozen=True)
class Style:
    """What one board and set look like (colours BGR); see the module's docstring."""

    light: BGR = (170, 205, 225)
    dark: BGR = (60, 110, 45)
    black: BGR = (40, 40, 175)  # the Black side's pieces (red in tournament sets)
    white: BGR = (225, 232, 236)
    frame: BGR = (40, 80, 120)
    table: BGR = (95, 100, 105)
    piece_radius: float = 0.38  # of a square
    piece_height: float = 0.12  # of a square: a man's thickness
    kings: str = "stack"  # "stack", "emblem", "stack-emblem", "shape" or "insert"
    emblem: str = "star"  # an emblem king's mark: "star", "square", "crown", "ring" or "dot"
    emblem_size: float = 0.6  # the mark's (or insert's) reach from the centre, of the radius
    #: The mark's ink: "contrast" (dark on a bright piece, gold on a dark one), "dark" (dark
    #: on either side, as printed sticker sets do; gold only on a piece too dark to show it),
    #: "gold", or "engraved" (cut into the piece: its own colour in shadow, a lit edge).
    emblem_ink: str = "contrast"
    king_shape: str = "octagon"  # a "shape" king's: "octagon", "hexagon", "square", "circle"
    king_scale: float = 1.0  # a "shape" king's size against a man's
    insert: BGR = (40, 170, 215)  # an "insert" king's inlay
    texture: str = "flat"  # the board's surface: "flat", "wood" or "paper"
    grain: float = 0.0  # the texture's strength (0 none, 1 strong)
    dark_spread: float = 0.0  # how far single dark squares lighten towards the light squares
    engraved: float = 0.0  # grain cut into the dark squares (0 none, 1 strong)
    labels: bool = False  # a-h and 1-8 printed on the frame
    tags: tuple[Tag, ...] = ()
    profile: str = "flat"  # pieces: "flat", "ridged", "domed" or "peg"
    shading: float = 0.0  # how much the lamp models the pieces (0 flat fills)
    shadow: float = 0.0  # depth of each piece's soft shadow (0 none)
    wobble: float = 0.0  # how uneven a piece's outline is, of its radius
    sheet: float = 0.0  # a sheet of paper under the board, reaching this far beyond its frame
    sheet_colour: BGR = (235, 238, 240)
    clutter: int = 0  # how many things (papers, cups, pens) lie on the table round the board
    seed: int = 0  # the board's own grain, shades and outlines


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

#: A glare streak: from (x0, y0) to (x1, y1) in pixels, its width (pixels) and strength.
Streak = tuple[float, float, float, float, float, float]


@dataclass(frozen=True)
class View:
    """How the camera sees the scene and what spoils the picture; see the module's docstring."""

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
    hand: bool = False  # draw the arm as a shaded hand with fingers, casting a shadow
    lamp: float = 135.0  # where the light comes from, degrees round the board from +x
    lamp_height: float = 55.0  # the light's elevation, degrees
    streaks: tuple[Streak, ...] = ()
    gamma: float = 1.0
    vignette: float = 0.0  # darkening towards the frame's corners (0 none)
    blur: float = 0.0  # focus blur's sigma beyond the lens's own (pixels)
    motion: float = 0.0  # motion blur's length (pixels)
    motion_angle: float = 0.0  # degrees
    noise_kind: str = "pixel"  # "pixel" (independent per pixel) or "camera"
    jpeg: int = 0  # JPEG quality the frame is saved at (0: not compressed)
    bloom: float = 0.0  # how far light past white bleeds into its surroundings (0 none)
    #: Pieces off the board (captured, or waiting): (x, y, kind) in board squares, (0, 0) the
    #: a8 corner, kind "b", "w", "B" or "W".
    spares: tuple[tuple[float, float, str], ...] = ()
    saturation: float = 1.0  # the camera's colour: 0 grey, 1 as lit, above 1 more vivid


@dataclass(frozen=True)
class Frame:
    """A rendered camera image and the playing area's true corners in it (a1, h1, h8, a8)."""

    image: np.ndarray
    corners: np.ndarray = field(repr=False)


def _smooth(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Smooth noise in about [-1, 1]: uniform values on a coarse grid of ``cells``, resized."""
    coarse = rng.uniform(-1, 1, cells).astype(np.float32)
    return cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _soft(image: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur; a wide one is done on a smaller copy (a soft field loses nothing)."""
    if sigma < 4:
        return cv2.GaussianBlur(image, (0, 0), sigma)
    height, width = image.shape[:2]
    shrink = int(sigma // 2)
    small = cv2.resize(image, (width // shrink, height // shrink), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / shrink)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)


def _wood(rng: np.random.Generator, size: int) -> np.ndarray:
    """Wood grain running along x, (size, size) about [-1, 1]: dark late-wood lines, fibres."""
    ys = np.arange(size, dtype=np.float32)[:, None]
    warp = _smooth(rng, (size, size), (4, 3)) * np.float32(rng.uniform(8, 30))
    period = np.float32(rng.uniform(5, 12))
    rings = np.sin((ys + warp) * np.float32(2 * np.pi) / period)
    lines = np.clip((rings - 0.3) / 0.7, 0, 1) ** 2
    fibres = _smooth(rng, (size, size), (size // 2, 10))
    return 1.4 * lines + 0.5 * fibres - 0.6


def _paper(rng: np.random.Generator, size: int) -> np.ndarray:
    """Paper or print, (size, size) about [-1, 1]: fine fibres and soft blotches."""
    fine = cv2.GaussianBlur(rng.uniform(-1, 1, (size, size)).astype(np.float32), (0, 0), 0.8)
    return 0.8 * _smooth(rng, (size, size), (7, 7)) + 1.5 * fine


def _square_shades(style: Style, rng: np.random.Generator) -> np.ndarray:
    """Each square's colour (8, 8, 3): dark squares lightened by up to ``dark_spread`` (most
    only a little, a few nearly to the light squares' shade)."""
    light = np.array(style.light, dtype=np.float32)
    dark = np.array(style.dark, dtype=np.float32)
    lift = rng.uniform(0, 1, (8, 8, 1)).astype(np.float32) ** 1.5 * style.dark_spread * 0.85
    return np.where(_DARK_SQUARES[..., None], dark + (light - dark) * lift, light)


def _textured(scene: np.ndarray, style: Style) -> np.ndarray:
    """The flat scene with the board's shades, texture and engraving (the table beyond the
    board's frame keeps its plain colour)."""
    rng = np.random.default_rng([style.seed, 1])
    edge = _Q // 3  # the frame's width
    size = 8 * _Q + 2 * edge
    board = slice(_PAD - edge, _PAD + 8 * _Q + edge)
    inside = slice(edge, edge + 8 * _Q)
    colours = scene[board, board].astype(np.float32)
    shades = _square_shades(style, rng)
    colours[inside, inside] = cv2.resize(shades, (8 * _Q, 8 * _Q), interpolation=cv2.INTER_NEAREST)
    wood = np.zeros((size, size), dtype=np.float32)
    if style.texture == "wood" or style.engraved:
        wood = _wood(rng, size)
        if rng.random() < 0.5:  # squares inlaid crosswise
            wood[inside, inside][_DARK] = wood.T[inside, inside][_DARK]
    if style.texture == "paper":
        field = _paper(rng, size)
    elif style.texture == "wood":
        field = wood
    else:
        field = np.zeros_like(wood)
    colours *= (1 - 0.22 * style.grain * field)[..., None]
    if style.engraved:  # burnt deeper where the grain is hard
        squares = colours[inside, inside]
        cut = np.clip(wood[inside, inside], -1, 1)[_DARK] * 0.5 + 0.5
        squares[_DARK] *= (1 - 0.55 * style.engraved * cut)[:, None]
    textured = scene.copy()
    textured[board, board] = np.clip(colours, 0, 255).astype(np.uint8)
    return textured


def _draw_labels(scene: np.ndarray, style: Style) -> None:
    """a-h and 1-8 printed on the frame, seen from White's side."""
    ink = (20, 20, 20) if np.mean(style.frame) > 110 else (225, 225, 225)
    border = _Q // 3
    for index in range(8):
        middle = _PAD + index * _Q + _Q // 2
        for text, (x, y) in (
            ("abcdefgh"[index], (middle - 4, _PAD + 8 * _Q + border - 4)),
            ("abcdefgh"[index], (middle - 4, _PAD - 4)),
            (str(8 - index), (_PAD - border + 3, middle + 5)),
            (str(8 - index), (_PAD + 8 * _Q + 3, middle + 5)),
        ):
            cv2.putText(scene, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.4, ink, 1, cv2.LINE_AA)


def _draw_tag(scene: np.ndarray, tag: Tag) -> None:
    """A tag or sticker laid on the top-down scene, turned by its angle."""
    side = max(4, round(tag.size * _Q))
    if tag.kind == "fiducial":
        patch = cv2.cvtColor(marker_image(tag.code, side), cv2.COLOR_GRAY2BGR)
    elif tag.kind == "apriltag":  # on a white margin a sixth of its side
        inner = max(8, round(side * 0.75))
        code = cv2.aruco.generateImageMarker(_APRILTAGS, tag.code, inner)
        patch = np.full((side, side, 3), 255, dtype=np.uint8)
        offset = (side - inner) // 2
        patch[offset : offset + inner, offset : offset + inner] = code[..., None]
    else:
        patch = np.empty((side, side, 3), dtype=np.uint8)
        patch[:] = tag.colour
        ink = tuple(int(v * 0.35) for v in tag.colour)
        for line in range(3):  # a few printed lines
            y = round(side * (0.3 + 0.2 * line))
            cv2.line(patch, (side // 5, y), (side - side // 5 - line * side // 8, y), ink, 1)
    reach = int(np.ceil(side * 0.75)) + 1  # half the turned patch's diagonal, and a pixel
    centre = np.array([_PAD + tag.x * _Q, _PAD + tag.y * _Q])
    left, top = (np.clip(np.round(centre) - reach, 0, _SIZE)).astype(int)
    right, bottom = (np.clip(np.round(centre) + reach, 0, _SIZE)).astype(int)
    if right <= left or bottom <= top:
        return
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), tag.angle, 1.0)
    turn[:, 2] += centre - side / 2 - [left, top]
    box = (int(right - left), int(bottom - top))
    placed = cv2.warpAffine(patch, turn, box, flags=cv2.INTER_LINEAR).astype(np.float32)
    cover = cv2.warpAffine(np.ones((side, side), np.float32), turn, box)[..., None]
    under = scene[top:bottom, left:right]
    scene[top:bottom, left:right] = (under * (1 - cover) + placed * cover).astype(np.uint8)


def _draw_clutter(scene: np.ndarray, style: Style) -> None:
    """Things lying on the table seen from above: papers, cups and pens of any colour, clear
    of the scene's edge (which the camera's view of the table beyond repeats)."""
    rng = np.random.default_rng([style.seed, 4])
    for _ in range(style.clutter):
        centre = rng.uniform(1.5 * _Q, _SIZE - 1.5 * _Q, 2)
        colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
        kind = rng.integers(3)
        middle = (int(centre[0]), int(centre[1]))
        if kind == 0:  # a sheet, a book, a phone
            size = rng.uniform(0.5, 2.0, 2) * _Q
            box = cv2.boxPoints((middle, (float(size[0]), float(size[1])), rng.uniform(0, 180)))
            cv2.fillPoly(scene, _poly(box), colour, cv2.LINE_AA, 4)
        elif kind == 1:  # a cup or a jar from above: a rim round a darker inside
            radius = rng.uniform(0.3, 0.9) * _Q
            cv2.circle(scene, middle, int(radius), colour, -1, cv2.LINE_AA)
            cv2.circle(scene, middle, int(radius * 0.8), [v * 0.5 for v in colour], -1, cv2.LINE_AA)
        else:  # a pen or a cable
            turn = rng.uniform(0, np.pi)
            half = rng.uniform(0.5, 1.4) * _Q * np.array([np.cos(turn), np.sin(turn)])
            ends = [tuple(int(v) for v in centre + sign * half) for sign in (-1, 1)]
            cv2.line(scene, ends[0], ends[1], colour, int(rng.integers(2, 7)), cv2.LINE_AA)


@lru_cache(maxsize=16)
def _top_down(style: Style, markers: bool, markers_off: float) -> np.ndarray:
    """The board seen straight down (read-only: shared by every frame of one board)."""
    scene = np.full((_SIZE, _SIZE, 3), style.table, dtype=np.uint8)
    border = _Q // 3
    if style.clutter:
        _draw_clutter(scene, style)
    if style.sheet:
        reach = border + round(style.sheet * _Q)
        low, high = _PAD - reach, _PAD + 8 * _Q + reach
        cv2.rectangle(scene, (low, low), (high, high), style.sheet_colour, -1)
    cv2.rectangle(
        scene, (_PAD - border, _PAD - border), (_PAD + 8 * _Q + border, _PAD + 8 * _Q + border),
        style.frame, -1,
    )  # fmt: skip
    dark = _DARK_SQUARES[..., None]
    squares = np.where(dark, np.array(style.dark), np.array(style.light)).astype(np.uint8)
    inside = slice(_PAD, _PAD + 8 * _Q)
    scene[inside, inside] = cv2.resize(squares, (8 * _Q, 8 * _Q), interpolation=cv2.INTER_NEAREST)
    if style.texture != "flat" or style.dark_spread or style.engraved:
        scene = _textured(scene, style)
    if style.labels:
        _draw_labels(scene, style)
    if markers:
        side = round(1.1 * _Q)
        off = round(markers_off * _Q)
        low, high = _PAD - side - off, _PAD + 8 * _Q + off
        places = {"a1": (high, low), "h1": (high, high), "h8": (low, high), "a8": (low, low)}
        for marker_id, name in zip(MARKER_IDS, CORNER_NAMES, strict=True):
            top, left = places[name]
            sticker = marker_image(marker_id, side)
            scene[top : top + side, left : left + side] = sticker[..., None]
    for tag in style.tags:
        _draw_tag(scene, tag)
    scene.flags.writeable = False
    return scene


@lru_cache(maxsize=8)
def _lens_map(k1: float, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Where each output pixel of a lens of radial distortion ``k1`` looks in the pinhole
    picture: the fixed-point search of ``vision.camera.undistort`` run on a fine table of
    radii (the map is radial), then interpolated linearly."""
    width, height = size
    xs = np.arange(width, dtype=np.float32) - np.float32(width / 2)
    ys = np.arange(height, dtype=np.float32)[:, None] - np.float32(height / 2)
    radius = np.sqrt(xs**2 + ys**2)
    steps = 1024
    table = np.linspace(0, float(radius.max()) * 1.001, steps)
    points = np.stack([table, np.zeros_like(table)], axis=1) + [width / 2, height / 2]
    shrink = (undistort(points, k1, size)[:, 0] - width / 2) / np.maximum(table, 1e-9)
    shrink[0] = 1.0  # the centre stays put
    place = radius * np.float32((steps - 1) / table[-1])
    row = shrink.astype(np.float32)[None, :]  # looked up by remap: linear, and fast
    factor = cv2.remap(row, place, np.zeros_like(place), cv2.INTER_LINEAR)
    return xs * factor + np.float32(width / 2), ys * factor + np.float32(height / 2)


def _distort(image: np.ndarray, k1: float) -> np.ndarray:
    """The picture through a lens of radial distortion ``k1`` (``vision.camera.distort``)."""
    height, width = image.shape[:2]
    map_x, map_y = _lens_map(k1, (width, height))
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _emblem(centre: np.ndarray, radius: float, shape: str) -> np.ndarray:
    """The outline of a crown's mark: a five-pointed star, a square standing on its side, a
    crown, or a disc (a "ring" or "dot")."""
    if shape == "square":
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * radius / np.sqrt(2)
        return centre + corners
    if shape == "crown":
        outline = [[-1, 0.6], [-1, -0.5], [-0.5, 0.0], [0, -0.8], [0.5, 0.0], [1, -0.5], [1, 0.6]]
        return centre + np.array(outline) * radius * 0.9
    if shape in ("ring", "dot"):
        return centre + _CIRCLE * radius
    return _star(centre, radius)


def _star(centre: np.ndarray, radius: float) -> np.ndarray:
    angles = np.arange(10) * np.pi / 5 - np.pi / 2
    radii = np.where(np.arange(10) % 2, radius * 0.45, radius)
    return centre + np.stack([np.cos(angles), np.sin(angles)], axis=1) * radii[:, None]


#: A circle of radius 1 round the origin (``_SEGMENTS`` points, the last the first).
_CIRCLE = np.stack(
    [np.cos(np.linspace(0, 2 * np.pi, _SEGMENTS)), np.sin(np.linspace(0, 2 * np.pi, _SEGMENTS))],
    axis=1,
)
_CIRCLE.flags.writeable = False


def _outline(style: Style, king: bool, rng: np.random.Generator) -> np.ndarray:
    """A piece's outline round its centre (points, 2), in radii: a circle (the last point
    repeats the first), a "shape" king's polygon, made uneven by ``wobble``."""
    if king and style.kings == "shape" and style.king_shape != "circle":
        corners = {"octagon": 8, "hexagon": 6, "square": 4}[style.king_shape]
        angles = np.linspace(0, 2 * np.pi, _SEGMENTS) + np.pi / corners
        step = 2 * np.pi / corners
        reach = np.cos(np.pi / corners) / np.cos((angles - np.pi / corners) % step - step / 2)
        unit = np.stack([np.cos(angles), np.sin(angles)], axis=1) * reach[:, None]
    else:
        unit = _CIRCLE
    if king and style.kings == "shape":
        unit = unit * style.king_scale
    if style.wobble:
        angles = np.linspace(0, 2 * np.pi, _SEGMENTS)
        bumps = np.zeros(_SEGMENTS)
        for k in range(2, 6):
            bumps += rng.uniform(-1, 1) * np.cos(k * angles + rng.uniform(0, 2 * np.pi)) / k
        unit = unit * (1 + style.wobble * bumps)[:, None]
    return unit


def _layers(style: Style, king: bool) -> list[tuple[float, float, float]]:
    """A piece's solids from the board up: (radius scale, bottom, top), heights in squares."""
    height = style.piece_height
    men = 2 if king and style.kings in ("stack", "stack-emblem") else 1
    layers = [(1.0, k * height, (k + 1) * height) for k in range(men)]
    if style.profile == "peg":
        low = men * height
        layers += [(0.38, low, low + 0.3), (0.5, low + 0.3, low + 0.36)]
    return layers


def _lamp(view: View) -> np.ndarray:
    """The unit vector towards the lamp, board coordinates (x, y, up)."""
    turn, rise = np.radians(view.lamp), np.radians(view.lamp_height)
    return np.array([np.cos(rise) * np.cos(turn), np.cos(rise) * np.sin(turn), np.sin(rise)])


def _shade(colour: np.ndarray, factor: float) -> tuple[float, ...]:
    return tuple([min(255.0, v * factor) for v in colour.tolist()])


def _poly(points: np.ndarray) -> list[np.ndarray]:
    return [np.round(points * 16).astype(np.int32)]


class _Projector:
    """Board points at a height to picture points, for the camera the view's corners imply."""

    def __init__(self, view: View) -> None:
        corners = np.array(view.corners, dtype=np.float32)
        self.to_image = cv2.getPerspectiveTransform(BOARD_CORNERS, corners)
        self.pose = camera_pose(corners, view.size)
        self.square_px = float(np.sqrt(cv2.contourArea(corners))) / 8

    def __call__(self, points: np.ndarray, height: float) -> np.ndarray:
        leaned = self.pose.lean(points, height).astype(np.float32)
        return cv2.perspectiveTransform(leaned[None], self.to_image)[0]


def _draw_sides(
    image: np.ndarray,
    ring: np.ndarray,
    ends: tuple[np.ndarray, np.ndarray],
    colour: np.ndarray,
    style: Style,
    lamp: np.ndarray,
    project: _Projector,
) -> None:
    """The side facing the camera (its outline seen at the bottom and top ``ends``), lit by
    the lamp, in bands (fluted on a "ridged" piece)."""
    bottom, top = ends
    middle = (ring[:-1] + ring[1:]) / 2
    edge = ring[1:] - ring[:-1]
    normal = np.stack([edge[:, 1], -edge[:, 0]], axis=1)
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-9)
    if np.sum(normal * (middle - ring[:-1].mean(axis=0))) < 0:
        normal = -normal  # outward
    facing = np.sum((np.array(project.pose.foot) - middle) * normal, axis=1) > 0
    lit = 0.45 + 0.75 * np.maximum(0, normal @ lamp[:2])
    factor = (1 - style.shading) * 0.7 + style.shading * lit
    if style.profile == "ridged":
        factor = factor * np.where(np.arange(len(factor)) % 2, 0.82, 1.0)
    levels = np.round(factor * 20).astype(int)
    quads = np.round(np.stack([bottom[:-1], bottom[1:], top[1:], top[:-1]], axis=1) * 16)
    quads = quads.astype(np.int32)
    for level in set(levels[facing].tolist()):
        chosen = list(quads[facing & (levels == level)])
        cv2.fillPoly(image, chosen, _shade(colour, level / 20), cv2.LINE_AA, 4)


def _draw_top(
    image: np.ndarray,
    face: np.ndarray,
    base: np.ndarray,
    unit: np.ndarray,
    radius: float,
    height: float,
    colour: np.ndarray,
    style: Style,
    lamp: np.ndarray,
    project: _Projector,
) -> float:
    """A solid's top face (``face``: its outline in the picture): a rim and the face within,
    shaded, grooved or domed as the set's profile says. The face's light factor is returned
    (marks on it take the same light)."""
    lit = (1 - style.shading) + style.shading * (0.45 + 0.75 * lamp[2]) / 1.05
    cv2.fillPoly(image, _poly(face), _shade(colour, 0.8 * lit), cv2.LINE_AA, 4)
    inner = project(base + 0.88 * radius * unit, height)
    cv2.fillPoly(image, _poly(inner), _shade(colour, lit), cv2.LINE_AA, 4)
    if style.shading:  # the rim's edge catches the lamp on its side
        towards = unit[:-1] @ lamp[:2] / max(float(np.linalg.norm(lamp[:2])), 1e-9)
        darkest = int(np.argmin(towards))  # start there, so that the lit arc is in one piece
        lit_side = np.roll(towards, -darkest) > 0.35
        arc = np.roll(face[:-1], -darkest, axis=0)[lit_side]
        bright = _shade(colour, 1 + 0.45 * style.shading)
        if len(arc) > 1:
            cv2.polylines(image, _poly(arc), False, bright, 1, cv2.LINE_AA, 4)
    if style.profile == "ridged":
        for reach in (0.7, 0.5, 0.3):
            groove = project(base + reach * radius * unit, height)
            cv2.polylines(image, _poly(groove), True, _shade(colour, 0.62 * lit), 1, cv2.LINE_AA, 4)
    elif style.profile == "domed":
        toward = lamp[:2] * radius * 0.12
        for step in range(1, 5):
            reach = 0.88 * (1 - 0.2 * step)
            rise = height + 0.04 * step * radius
            cap = project(base + step * toward + reach * radius * unit, rise)
            factor = lit * (1 + 0.07 * step * max(style.shading, 0.3))
            cv2.fillPoly(image, _poly(cap), _shade(colour, factor), cv2.LINE_AA, 4)
        spot = project(base + 5 * toward + 0.12 * radius * unit, height + 0.2 * radius)
        cv2.fillPoly(image, _poly(spot), _shade(colour * 0.5 + 127, 1.0), cv2.LINE_AA, 4)
    return lit


def _draw_crown(
    image: np.ndarray,
    base: np.ndarray,
    radius: float,
    height: float,
    colour: np.ndarray,
    lit: float,
    style: Style,
    lamp: np.ndarray,
    project: _Projector,
) -> None:
    """A king's mark or insert on its top face."""
    if style.kings == "insert":
        inset = project(base + style.emblem_size * radius * _CIRCLE, height)
        insert = np.array(style.insert, dtype=np.float64)
        cv2.fillPoly(image, _poly(inset), _shade(insert, lit), cv2.LINE_AA, 4)
        cv2.polylines(image, _poly(inset), True, _shade(insert, 0.5 * lit), 1, cv2.LINE_AA, 4)
        return
    outline = _emblem(base, style.emblem_size * radius, style.emblem)
    mark_outline = project(outline, height)
    if style.emblem_ink == "engraved":
        step = lamp[:2] * radius * 0.06
        edge = project(outline + step, height)
        cv2.fillPoly(image, _poly(edge), _shade(colour, 1.2 * lit), cv2.LINE_AA, 4)
        mark: tuple[float, ...] = _shade(colour, 0.6 * lit)
    elif style.emblem_ink == "gold":
        mark = _shade(np.array([60, 200, 235.0]), lit)
    else:
        dark_ink = colour.mean() > 90 or (style.emblem_ink == "dark" and colour.max() > 120)
        mark = (40, 40, 40) if dark_ink else (60, 200, 235)
        if style.shading:
            mark = _shade(np.array(mark, dtype=np.float64), lit)
    points = np.round(mark_outline * 16).astype(np.int32)
    cv2.fillPoly(image, [points], mark, cv2.LINE_AA, 4)
    if style.emblem == "ring":
        hole = project(base + 0.6 * style.emblem_size * radius * _CIRCLE, height)
        cv2.fillPoly(image, _poly(hole), _shade(colour, lit), cv2.LINE_AA, 4)


def _cast_shadows(
    image: np.ndarray,
    pieces: list[tuple[np.ndarray, str, np.ndarray, list[tuple[float, float, float]]]],
    style: Style,
    lamp: np.ndarray,
    project: _Projector,
) -> None:
    """Darken the board under each piece's soft shadow, cast away from the lamp."""
    mask = np.zeros(image.shape[:2], dtype=np.uint8)
    away = -lamp[:2] / max(lamp[2], 0.3)
    for base, _, unit, layers in pieces:
        for scale, _, high in layers:  # each solid's shadow, from its foot to its top's
            ring = base + style.piece_radius * scale * unit
            shadow = np.vstack([ring, ring + away * high * 1.2]).astype(np.float32)
            hull = cv2.convexHull(cv2.perspectiveTransform(shadow[None], project.to_image)[0])
            cv2.fillPoly(mask, _poly(hull.reshape(-1, 2)), 255, cv2.LINE_AA, 4)
    soft = _soft(mask, max(0.8, 0.12 * project.square_px))
    keep = cv2.cvtColor(255 - (soft * style.shadow).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    image[:] = cv2.multiply(image, keep, scale=1 / 255)


def _draw_pieces(
    image: np.ndarray,
    position: Mapping[int, str],
    style: Style,
    view: View,
    rng: np.random.Generator,
) -> None:
    """Draw each piece as a solid seen from the camera the corners imply, far ones first."""
    project = _Projector(view)
    lamp = _lamp(view)
    shapes = np.random.default_rng([style.seed, view.seed, 2])  # uneven outlines
    placed = []
    for square, kind in sorted(position.items()):
        if kind == "empty":
            continue
        row, col = row_col(square)
        base = np.array([col + 0.5, row + 0.5]) + rng.uniform(-view.jitter, view.jitter, 2)
        placed.append((base, kind))
    placed += [(np.array([x, y]), kind) for x, y, kind in view.spares]
    pieces = [
        (base, kind, _outline(style, kind in "BW", shapes), _layers(style, kind in "BW"))
        for base, kind in placed
    ]
    pieces.sort(key=lambda p: -float(np.linalg.norm(p[0] - np.array(project.pose.foot))))
    if style.shadow:
        _cast_shadows(image, pieces, style, lamp, project)
    for base, kind, unit, layers in pieces:
        colour = np.array(style.black if kind in "bB" else style.white, dtype=np.float64)
        radius = style.piece_radius
        lit = 1.0
        for index, (scale, low, high) in enumerate(layers):
            ring = base + radius * scale * unit
            bottom, top = project(ring, low), project(ring, high)
            hull = cv2.convexHull(np.vstack([bottom, top]).astype(np.float32))
            cv2.fillPoly(image, _poly(hull), _shade(colour, 0.7), cv2.LINE_AA, 4)
            if style.shading or style.profile == "ridged":
                _draw_sides(image, ring, (bottom, top), colour, style, lamp, project)
            if index and layers[index - 1][0] == scale:  # the seam between two men of a stack
                seam = np.round(bottom * 16).astype(np.int32)
                cv2.polylines(image, [seam], True, tuple(colour * 0.45), 1, cv2.LINE_AA, 4)
            last = index + 1 == len(layers)
            if last or layers[index + 1][0] < scale:
                lit = _draw_top(
                    image, top, base, unit, radius * scale, high, colour, style, lamp, project
                )
        if kind in "BW" and style.kings in ("emblem", "stack-emblem", "insert"):
            scale, _, high = layers[-1]
            _draw_crown(image, base, radius * scale, high, colour, lit, style, lamp, project)


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


#: A box of a picture: its rows and columns.
Box = tuple[slice, slice]


def _hand(view: View, rng: np.random.Generator) -> tuple[Box, np.ndarray, np.ndarray, np.ndarray]:
    """A forearm (maybe sleeved) ending in a hand with fingers, reaching ``arm`` of the way
    from ``arm_from`` to the board's middle: the box of the picture it and its shadow lie in,
    and there its cover (0-1), its shaded colour (BGR float) and its shadow (0-1)."""
    width, height = view.size
    corners = np.array(view.corners, dtype=np.float64)
    middle = corners.mean(axis=0) + rng.uniform(-0.15, 0.15, 2) * np.ptp(corners, axis=0)
    edge = {
        "bottom": (rng.uniform(0.2, 0.8) * width, height * 1.1),
        "top": (rng.uniform(0.2, 0.8) * width, -0.1 * height),
        "left": (-0.1 * width, rng.uniform(0.2, 0.8) * height),
        "right": (width * 1.1, rng.uniform(0.2, 0.8) * height),
    }
    start = np.array(edge[view.arm_from])
    wrist = start + (middle - start) * view.arm
    along = (wrist - start) / max(float(np.linalg.norm(wrist - start)), 1e-9)
    across = np.array([-along[1], along[0]])
    thick = rng.uniform(0.09, 0.13) * width
    skin = np.array([rng.uniform(70, 160), rng.uniform(110, 180), rng.uniform(150, 235)])
    sleeve = rng.uniform(20, 230, 3) if rng.random() < 0.6 else skin
    cover = np.zeros((height, width), dtype=np.uint8)
    cloth = np.zeros((height, width), dtype=np.uint8)

    def band(near: np.ndarray, far: np.ndarray, near_half: float, far_half: float) -> np.ndarray:
        return np.array([near + across * near_half, far + across * far_half,
                         far - across * far_half, near - across * near_half]) * thick  # fmt: skip

    cv2.fillPoly(cover, _poly(band(start / thick, wrist / thick, 0.62, 0.42)), 255, cv2.LINE_AA, 4)
    cuff = wrist - along * rng.uniform(0.4, 3.0) * thick
    cv2.fillPoly(cloth, _poly(band(start / thick, cuff / thick, 0.7, 0.55)), 255, cv2.LINE_AA, 4)
    palm = wrist + along * thick * 0.55
    axes = (int(thick * 0.6), int(thick * 0.5))
    angle = float(np.degrees(np.arctan2(along[1], along[0])))
    cv2.ellipse(cover, (int(palm[0]), int(palm[1])), axes, angle, 0, 360, 255, -1, cv2.LINE_AA)
    curl = rng.uniform(0.5, 1.0)
    for finger in range(4):
        root = palm + along * thick * 0.35 + across * thick * (finger - 1.5) * 0.24
        bend = along * np.cos(rng.uniform(-0.3, 0.3)) + across * rng.uniform(-0.2, 0.2)
        tip = root + bend * thick * curl * (0.75 if finger in (0, 3) else 0.9)
        cv2.line(cover, (int(root[0]), int(root[1])), (int(tip[0]), int(tip[1])), 255,
                 max(2, int(thick * 0.17)), cv2.LINE_AA)  # fmt: skip
    side = 1 if rng.random() < 0.5 else -1
    thumb = palm + across * side * thick * 0.5
    tip = thumb + (along * 0.6 + across * side * 0.5) * thick * 0.6
    cv2.line(cover, (int(thumb[0]), int(thumb[1])), (int(tip[0]), int(tip[1])), 255,
             max(2, int(thick * 0.2)), cv2.LINE_AA)  # fmt: skip
    lamp = _lamp(view)
    offset = -lamp[:2] / max(lamp[2], 0.3) * thick * 0.5
    left, top, wide, high = cv2.boundingRect(cover)
    margin = int(np.abs(offset).max() + thick) + 4  # room for the shadow and the blurs
    box = (
        slice(max(0, top - margin), min(height, top + high + margin)),
        slice(max(0, left - margin), min(width, left + wide + margin)),
    )
    alpha = cv2.GaussianBlur(cover[box], (0, 0), 1.2).astype(np.float32) / 255
    lit = 0.55 + 0.6 * np.clip(_soft(alpha, thick * 0.18), 0, 1)  # rounder in the middle
    sleeved = cv2.GaussianBlur(cloth[box], (0, 0), 1.0).astype(np.float32) / 255
    colour = _channels(_three(lit * (1 - sleeved)), skin)
    colour += _channels(_three(lit * sleeved), sleeve)
    shift = np.array([[1, 0, offset[0]], [0, 1, offset[1]]])
    moved = cv2.warpAffine(alpha, shift, (alpha.shape[1], alpha.shape[0]))
    return box, alpha, colour, _soft(moved, thick * 0.3) * 0.55


def _streaks(view: View, light: np.ndarray) -> np.ndarray:
    """Long soft reflections of a window or tube lamp on a glossy board (pixels to add)."""
    height, width = light.shape
    glow = np.zeros((height, width), dtype=np.float32)
    widest = 1.0
    for x0, y0, x1, y1, size, strength in view.streaks:
        cv2.line(glow, (int(x0), int(y0)), (int(x1), int(y1)), float(strength), max(1, int(size)),
                 cv2.LINE_AA)  # fmt: skip
        widest = max(widest, size)
    return _soft(glow, widest * 0.4) * light


@lru_cache(maxsize=1)
def _grain_bank() -> np.ndarray:
    """Standard normal grain drawn once: each frame's grain is a window of it at a random place
    and way round (drawing 300 000 normals a frame would cost more than the rest of the noise)."""
    return np.random.default_rng(0).standard_normal((1536, 1536), dtype=np.float32)


def _noise(view: View, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """A camera's noise: grain per pixel, plus colour blotches a few pixels across."""
    height, width = shape[:2]
    bank = _grain_bank()
    if height <= bank.shape[0] and width <= bank.shape[1]:
        top = int(rng.integers(bank.shape[0] - height + 1))
        left = int(rng.integers(bank.shape[1] - width + 1))
        flip = 1 if rng.random() < 0.5 else -1
        window = bank[top : top + height, left : left + width][::flip, ::-flip]
    else:
        window = rng.standard_normal((height, width), dtype=np.float32)
    coarse = rng.standard_normal((height // 4 + 1, width // 4 + 1, 3), dtype=np.float32)
    blotches = np.asarray(
        cv2.resize(coarse * np.float32(0.6 * view.noise), (width, height)), np.float32
    )
    blotches += _three(window * np.float32(view.noise))
    return blotches


def _motion(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    size = int(np.ceil(length)) | 1
    kernel = np.zeros((size, size), dtype=np.float32)
    cv2.line(kernel, (0, size // 2), (size - 1, size // 2), 1.0, 1)
    turn = cv2.getRotationMatrix2D((size / 2 - 0.5, size / 2 - 0.5), angle, 1.0)
    turned = np.asarray(cv2.warpAffine(kernel, turn, (size, size)), dtype=np.float32)
    turned /= max(float(turned.sum()), 1e-6)
    return cv2.filter2D(image, -1, turned)


def render(
    position: Mapping[int, str] = START,
    style: Style = Style(),
    view: View = View(),
    *,
    markers: bool = True,
    markers_off: float = 0.0,
) -> Frame:
    """A camera frame of ``position`` (square -> "empty" | "b" | "w" | "B" | "W"; missing squares
    are empty).

    ``markers_off`` moves the markers that far (squares, up to 0.8) diagonally out from where
    ``poolboard vision markers`` says they go: another project's, at a sheet's corners.
    """
    if not 0 <= markers_off <= 0.8:
        raise ValueError(f"markers_off {markers_off} is not 0-0.8 squares")
    rng = np.random.default_rng(view.seed)
    extra = np.random.default_rng([view.seed, 3])  # the newer options' draws, apart from rng's
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
    lit = _lit(image.astype(np.float32), view, rng, extra)
    image = _spoiled(lit, view, rng, extra)
    if view.distortion:
        image = _distort(image, view.distortion)
        corners = distort(corners, view.distortion, view.size).astype(np.float32)
    if view.jpeg:
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(view.jpeg)])
        image = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR))
    return Frame(image=image, corners=corners)


def _lit(
    image: np.ndarray, view: View, rng: np.random.Generator, extra: np.random.Generator
) -> np.ndarray:
    """The scene (float) under the view's light: gradient, dark patches, vignette, white
    balance, an arm over it, then the glare on top."""
    height, width = image.shape[:2]
    xs = np.arange(width, dtype=np.float32)[None, :]
    ys = np.arange(height, dtype=np.float32)[:, None]
    light = view.brightness * (
        1 + view.gradient[0] * (xs / width - 0.5) + view.gradient[1] * (ys / height - 0.5)
    )
    for x, y, radius, depth in view.shadows:
        spot = np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * radius**2))
        light = light * (1 - depth * spot)
    if view.vignette:
        corner = (width / 2) ** 2 + (height / 2) ** 2
        light = light * (
            1 - view.vignette * ((xs - width / 2) ** 2 + (ys - height / 2) ** 2) / corner
        )
    tint = np.array(view.tint, dtype=np.float32)
    hand = _hand(view, extra) if view.arm > 0 and view.hand else None
    if hand is not None:
        box, cover, colour, shadow = hand
        light[box] *= 1 - shadow  # light is a picture-sized field of its own
    image *= _three(light)
    image = _channels(image, tint)
    if hand is not None:  # the hand is in the same white balance as the board
        alpha = _three(cover)
        shade = _channels(_three(light[box]) * colour, tint)
        image[box] = image[box] * (1 - alpha) + shade * alpha
    elif view.arm > 0:
        mask, skin = _arm(view, rng)
        alpha = _three(mask.astype(np.float32) / 255)
        shade = _channels(_three(light), np.array(skin, dtype=np.float32))
        image = image * (1 - alpha) + shade * alpha
    if view.glare is not None:
        x, y, strength = view.glare
        spot = np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * view.glare_size**2))
        spot = strength * spot * light
        image += _three(spot)  # a reflection of the lamp: as bright as the lamp is
    if view.streaks:
        image += _three(_streaks(view, light))
    return image


def _three(field: np.ndarray) -> np.ndarray:
    """A one-channel float32 field repeated in three channels (numpy's broadcasting over a
    last axis of three is several times slower than this)."""
    return np.asarray(cv2.cvtColor(np.ascontiguousarray(field, np.float32), cv2.COLOR_GRAY2BGR))


def _channels(image: np.ndarray, values: np.ndarray) -> np.ndarray:
    """A three-channel image times one value per channel, quickly."""
    height, width = image.shape[:2]
    rows = image.reshape(height, width * 3) * np.tile(values.astype(np.float32), width)
    return rows.reshape(height, width, 3)


def _spoiled(
    image: np.ndarray, view: View, rng: np.random.Generator, extra: np.random.Generator
) -> np.ndarray:
    """The lit scene as the camera records it: blooming, blurred, noisy, clipped, through its
    tone curve and colour."""
    if view.bloom:
        past_white = np.maximum(image - 220, 0)
        image += _soft(past_white, 0.02 * max(image.shape[:2])) * np.float32(view.bloom)
    image = cv2.GaussianBlur(image, (0, 0), float(np.hypot(0.7, view.blur)) if view.blur else 0.7)
    if view.motion:
        image = _motion(image, view.motion, view.motion_angle)
    if view.noise_kind == "camera":
        image += _noise(view, image.shape, extra)
    else:
        image += rng.normal(0, view.noise, image.shape).astype(np.float32)
    if view.saturation != 1:
        grey = _three(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
        image = grey + (image - grey) * np.float32(view.saturation)
    image = np.clip(image, 0, 255).astype(np.uint8)
    if view.gamma != 1:
        curve = 255 * (np.arange(256) / 255) ** (1 / view.gamma)
        image = cv2.LUT(image, np.round(curve).astype(np.uint8))
    return image


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


def _colour(rng: np.random.Generator, hue: float, saturation: float, value: float) -> BGR:
    """A BGR colour from OpenCV's HSV (hue 0-180, saturation and value 0-255)."""
    hsv = np.array([[[hue % 180, np.clip(saturation, 0, 255), np.clip(value, 0, 255)]]])
    bgr = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return (int(bgr[0]), int(bgr[1]), int(bgr[2]))


def _board_colours(rng: np.random.Generator) -> tuple[BGR, BGR, str, float]:
    """Light and dark squares of one kind of board, its texture and the texture's strength."""
    kind = rng.choice(
        ["wood", "print", "tournament", "vinyl", "bright"], p=[0.3, 0.27, 0.18, 0.13, 0.12]
    )
    if kind == "wood":
        light = _colour(rng, rng.uniform(10, 25), rng.uniform(40, 130), rng.uniform(170, 240))
        dark = _colour(rng, rng.uniform(5, 20), rng.uniform(100, 220), rng.uniform(35, 140))
        return light, dark, "wood", float(rng.uniform(0.4, 1.0))
    if kind == "print":  # printed boards: white, cream or coloured squares, any dark ink
        light = _colour(rng, rng.uniform(0, 180), rng.uniform(0, 60), rng.uniform(190, 255))
        if rng.random() < 0.4:
            light = _colour(rng, rng.uniform(0, 180), rng.uniform(120, 255), rng.uniform(150, 255))
        dark = _colour(rng, rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(15, 160))
        return light, dark, "paper", float(rng.uniform(0.0, 0.7))
    if kind == "tournament":  # green and buff (or red and black) roll-up boards
        light = _colour(rng, rng.uniform(15, 30), rng.uniform(30, 90), rng.uniform(190, 240))
        dark = _colour(rng, rng.choice([60.0, 0.0, 110.0]) + rng.uniform(-8, 8),
                       rng.uniform(80, 220), rng.uniform(40, 150))  # fmt: skip
        return light, dark, "paper", float(rng.uniform(0.0, 0.4))
    if kind == "bright":  # printed in two saturated inks: a "dark" square may be as bright
        hue = rng.uniform(0, 180)  # as the light one (red squares beside green ones)
        light = _colour(
            rng, hue + rng.uniform(45, 135), rng.uniform(60, 255), rng.uniform(150, 250)
        )
        if rng.random() < 0.3:
            light = _colour(rng, hue, rng.uniform(0, 40), rng.uniform(200, 255))
        dark = _colour(rng, hue, rng.uniform(150, 255), rng.uniform(120, 250))
        return light, dark, "paper", float(rng.uniform(0.0, 0.3))
    light = _colour(rng, rng.uniform(0, 180), rng.uniform(0, 40), rng.uniform(150, 235))
    dark = _colour(rng, rng.uniform(0, 180), rng.uniform(0, 80), rng.uniform(10, 90))
    return light, dark, "flat", 0.0


def _set_colours(rng: np.random.Generator, light: BGR, dark: BGR) -> tuple[BGR, BGR]:
    """Black's and White's pieces: a classic pair, two random hues, or one side close to the
    squares it stands on (black men on black squares, pale men on pale squares)."""
    pairs = [
        ((35, 35, 175), (225, 232, 236)), ((30, 30, 32), (40, 40, 200)),
        ((28, 28, 30), (215, 225, 230)), ((40, 75, 120), (150, 200, 230)),
        ((180, 80, 30), (60, 200, 230)), ((45, 45, 200), (70, 175, 60)),
        ((40, 40, 190), (180, 90, 40)),
    ]  # fmt: skip
    black, white = pairs[rng.integers(len(pairs))]
    if rng.random() < 0.3:
        black = _colour(rng, rng.uniform(0, 180), rng.uniform(80, 255), rng.uniform(30, 200))
        white = _colour(rng, rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(120, 250))
    if rng.random() < 0.25:  # a side close to the dark squares it stands on
        near = np.clip(np.array(dark) * rng.uniform(0.6, 1.1) + rng.uniform(-12, 12, 3), 0, 255)
        black = (int(near[0]), int(near[1]), int(near[2]))
    if rng.random() < 0.1:
        near = np.clip(np.array(light) * rng.uniform(0.85, 1.05) + rng.uniform(-12, 12, 3), 0, 255)
        white = (int(near[0]), int(near[1]), int(near[2]))
    if rng.random() < 0.5:
        black, white = white, black
    return black, white


def _tags(rng: np.random.Generator) -> tuple[Tag, ...]:
    """None, or one or two tags lying half over a square, mostly near the corners."""
    if rng.random() < 0.75:
        return ()
    tags = []
    for _ in range(int(rng.integers(1, 3))):
        corner = np.array([[0, 0], [8, 0], [8, 8], [0, 8]])[rng.integers(4)]
        place = corner + rng.uniform(-0.4, 1.2, 2) * np.sign(4 - corner)
        if rng.random() < 0.3:
            place = rng.uniform(0, 8, 2)
        kind = str(rng.choice(["fiducial", "apriltag", "sticker"], p=[0.35, 0.3, 0.35]))
        tags.append(Tag(
            x=float(place[0]), y=float(place[1]), size=float(rng.uniform(0.35, 1.1)),
            angle=float(rng.uniform(0, 360)), kind=kind, code=int(rng.integers(4, 50)),
            colour=_colour(rng, rng.uniform(0, 180), rng.uniform(0, 200), rng.uniform(150, 255)),
        ))  # fmt: skip
    return tuple(tags)


def varied_style(rng: np.random.Generator) -> Style:
    """A random board and set from the whole space the renderer draws: any board (wood with
    grain, printed, tournament, plain), dark squares that may vary across it, tags, any set
    (flat, ridged, domed, pegs; stickers to tall pieces; colours close to the squares'), any
    kind of king, lit and shadowed or not."""
    light, dark, texture, grain = _board_colours(rng)
    spread = float(rng.uniform(0.2, 1.0)) if rng.random() < 0.3 else 0.0
    engraved = float(rng.uniform(0.3, 1.0)) if texture == "wood" and rng.random() < 0.3 else 0.0
    if engraved and rng.random() < 0.6:  # engraved boards: dark squares burnt into light wood
        dark = tuple(int(v * rng.uniform(0.25, 0.6)) for v in light)  # type: ignore[assignment]
    black, white = _set_colours(rng, light, dark)
    profile = str(rng.choice(["flat", "ridged", "domed", "peg"], p=[0.45, 0.2, 0.2, 0.15]))
    height = {
        "flat": rng.choice([rng.uniform(0.01, 0.04), rng.uniform(0.05, 0.3)]),
        "ridged": rng.uniform(0.1, 0.3), "domed": rng.uniform(0.08, 0.25),
        "peg": rng.uniform(0.05, 0.12),
    }[profile]  # fmt: skip
    kings = str(rng.choice(["stack", "emblem", "stack-emblem", "shape", "insert"],
                           p=[0.3, 0.3, 0.1, 0.15, 0.15]))  # fmt: skip
    frame = _colour(rng, rng.uniform(0, 180), rng.uniform(0, 200), rng.uniform(20, 240))
    table = _colour(rng, rng.uniform(0, 180), rng.uniform(0, 120), rng.uniform(30, 230))
    return Style(
        light=light, dark=dark, black=black, white=white, frame=frame, table=table,
        piece_radius=float(rng.uniform(0.3, 0.47)), piece_height=float(height),
        kings=kings,
        emblem=str(rng.choice(["star", "square", "crown", "ring", "dot"])),
        emblem_size=float(rng.uniform(0.35, 0.75)),
        emblem_ink=str(rng.choice(["contrast", "dark", "gold", "engraved"])),
        king_shape=str(rng.choice(["octagon", "hexagon", "square", "circle"])),
        king_scale=float(rng.choice([rng.uniform(0.75, 0.92), rng.uniform(1.08, 1.25)])),
        insert=_colour(rng, rng.uniform(0, 180), rng.uniform(120, 255), rng.uniform(120, 255)),
        texture=texture, grain=grain, dark_spread=spread, engraved=engraved,
        labels=bool(rng.random() < 0.3), tags=_tags(rng), profile=profile,
        shading=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.85 else 0.0,
        shadow=float(rng.uniform(0.15, 0.6)) if rng.random() < 0.8 else 0.0,
        wobble=float(rng.uniform(0.02, 0.07)) if rng.random() < 0.1 else 0.0,
        sheet=float(rng.uniform(0.2, 1.6)) if rng.random() < 0.3 else 0.0,
        sheet_colour=_colour(rng, rng.uniform(0, 180), rng.uniform(0, 30), rng.uniform(200, 250)),
        clutter=int(rng.integers(1, 9)) if rng.random() < 0.4 else 0,
        seed=int(rng.integers(1 << 30)),
    )  # fmt: skip


def _fitted(corners: tuple[tuple[float, float], ...], size: tuple[int, int],
            rng: np.random.Generator) -> tuple[tuple[float, float], ...]:  # fmt: skip
    """The corners shrunk to lie within the frame if they stick out, then moved anywhere the
    board stays whole."""
    points = np.array(corners)
    low, high = points.min(axis=0), points.max(axis=0)
    room = np.array(size) * 0.96
    shrink = min(1.0, float(np.min(room / (high - low))))
    centre = np.array(size) / 2
    points = (points - (low + high) / 2) * shrink + centre
    slack = np.maximum(room - (high - low) * shrink, 0) / 2
    return tuple((float(x), float(y)) for x, y in points + rng.uniform(-slack, slack))


def _spares(rng: np.random.Generator) -> tuple[tuple[float, float, str], ...]:
    """One to eight captured pieces lying in a row or a heap beside the board."""
    side = rng.integers(4)
    spares = []
    for _ in range(int(rng.integers(1, 9))):
        along, out = float(rng.uniform(0, 8)), float(rng.uniform(0.6, 1.6))
        x, y = [(-out, along), (8 + out, along), (along, -out), (along, 8 + out)][side]
        spares.append((x, y, str(rng.choice(["b", "w", "B", "W"], p=[0.4, 0.4, 0.1, 0.1]))))
    return tuple(spares)


def varied_view(rng: np.random.Generator, size: tuple[int, int] = (640, 480)) -> View:
    """A random view of a ``size`` picture: from straight overhead to 50 degrees off the
    vertical, from any of the four sides, the board filling half the picture or most of it;
    any lens, lamp, exposure, white balance, colour, blur, noise and JPEG; sometimes glare,
    streaks, bloom, an arm and hand, pieces lying beside the board."""
    tilt = float(rng.uniform(0, 12) if rng.random() < 0.4 else rng.uniform(12, 50))
    azimuth = float(rng.integers(4) * 90 + rng.uniform(-25, 25))
    corners = camera_corners(tilt, azimuth, float(rng.uniform(-12, 12)), size,
                             fill=float(rng.uniform(0.5, 0.85)))  # fmt: skip
    corners = _fitted(corners, size, rng)
    xs, ys = zip(*corners, strict=True)
    on_board = np.array([rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys))])
    streaks: tuple[Streak, ...] = ()
    if rng.random() < 0.2:  # a window's or a tube's reflection, maybe doubled
        angle = rng.uniform(0, np.pi)
        reach = rng.uniform(40, 250) * np.array([np.cos(angle), np.sin(angle)])
        ends = [float(v) for v in (*(on_board - reach), *(on_board + reach))]
        streaks = tuple(
            (ends[0] + 15 * k, ends[1], ends[2] + 15 * k, ends[3], float(rng.uniform(3, 18)),
             float(rng.uniform(40, 160)))
            for k in range(int(rng.integers(1, 3)))
        )  # fmt: skip
    glare = (float(on_board[0]), float(on_board[1]), float(rng.uniform(40, 230)))
    return View(
        corners=corners, size=size,
        distortion=float(rng.uniform(-0.05, 0.02) if rng.random() < 0.6 else rng.uniform(-0.3, 0)),
        gradient=(float(rng.uniform(-0.6, 0.6)), float(rng.uniform(-0.6, 0.6))),
        tint=(float(rng.uniform(0.78, 1.22)), float(rng.uniform(0.93, 1.07)),
              float(rng.uniform(0.78, 1.22))),
        brightness=float(np.exp(rng.uniform(np.log(0.45), np.log(1.7)))),
        glare=glare if rng.random() < 0.5 else None,
        glare_size=float(rng.uniform(4, 40)),
        shadows=tuple(
            (float(rng.uniform(0, size[0])), float(rng.uniform(0, size[1])),
             float(rng.uniform(40, 200)), float(rng.uniform(0.1, 0.5)))
            for _ in range(int(rng.integers(0, 3)))
        ),
        noise=float(rng.uniform(0.5, 7.0)),
        noise_kind="camera",
        arm=float(rng.uniform(0.3, 1.1)) if rng.random() < 0.2 else 0.0,
        arm_from=str(rng.choice(["bottom", "top", "left", "right"])),
        hand=True,
        jitter=float(rng.uniform(0, 0.25)),
        lamp=float(rng.uniform(0, 360)),
        lamp_height=float(rng.uniform(30, 85)),
        streaks=streaks,
        gamma=float(rng.uniform(0.75, 1.3)),
        vignette=float(rng.uniform(0, 0.6)) if rng.random() < 0.4 else 0.0,
        blur=float(rng.uniform(0.3, 2.0)) if rng.random() < 0.4 else 0.0,
        motion=float(rng.uniform(2, 9)) if rng.random() < 0.15 else 0.0,
        motion_angle=float(rng.uniform(0, 180)),
        jpeg=int(rng.integers(25, 96)) if rng.random() < 0.7 else 0,
        bloom=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.25 else 0.0,
        spares=_spares(rng) if rng.random() < 0.3 else (),
        saturation=float(rng.uniform(0.55, 1.3)),
        seed=int(rng.integers(1 << 30)),
    )  # fmt: skip


def _played(rng: np.random.Generator, plies: int) -> dict[int, str]:
    """The position after up to ``plies`` random legal moves from the start."""
    board = Board()
    for _ in range(plies):
        moves = board.generate_legal_moves()
        if not moves:
            break
        board.push(moves[rng.integers(len(moves))])
    position = {}
    for square in range(1, 33):
        piece = board.piece_at(square)
        position[square] = "empty" if piece is None else piece.symbol
    return position


def _endgame(rng: np.random.Generator) -> dict[int, str]:
    """A few men and kings of each side on random squares; men never on their crowning row."""
    position = dict.fromkeys(range(1, 33), "empty")
    free = [int(s) for s in rng.permutation(np.arange(1, 33))]
    for side in (Color.BLACK, Color.WHITE):
        letter = "b" if side is Color.BLACK else "w"
        crowning = range(29, 33) if side is Color.BLACK else range(1, 5)
        kings = int(rng.integers(1, 5))
        for index in range(kings + int(rng.integers(0, 5))):
            king = index < kings
            square = next(s for s in free if king or s not in crowning)
            free.remove(square)
            position[square] = letter.upper() if king else letter
    return position


def varied_position(rng: np.random.Generator) -> dict[int, str]:
    """A position as games have them (every square 1-32 named): the start, a mid-game reached
    by random legal moves (kings appear in long ones), or an endgame with kings of both sides."""
    draw = rng.random()
    if draw < 0.15:
        return {square: START.get(square, "empty") for square in range(1, 33)}
    if draw < 0.6:
        return _played(rng, int(rng.integers(2, 90)))
    return _endgame(rng)


@dataclass(frozen=True)
class VariedBoard:
    """One board of :func:`varied_boards`: how it looks, the view it is calibrated from (its
    start position), and the positions then shown with the view each is seen in."""

    style: Style
    view: View
    shown: tuple[tuple[dict[int, str], View], ...]


def varied_boards(seed: int, boards: int, positions: int) -> Iterator[VariedBoard]:
    """``boards`` boards of every kind (:func:`varied_style`, :func:`varied_view` with no arm
    and no spares), each showing ``positions`` game-like positions from its view, exposure up
    to a fifth either way and noise drawn anew: a camera in play. One ``seed``, one sequence
    (``bench/vision_varied.py`` reads it)."""
    rng = np.random.default_rng(seed)
    for _ in range(boards):
        style = varied_style(rng)
        view = replace(varied_view(rng), arm=0.0, spares=())
        shown = []
        for _ in range(positions):
            position = varied_position(rng)
            light = float(np.exp(rng.uniform(-0.2, 0.2)))
            seen = replace(
                view, brightness=view.brightness * light, seed=int(rng.integers(1 << 30))
            )
            shown.append((position, seen))
        yield VariedBoard(style, view, tuple(shown))
