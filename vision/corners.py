"""Finding the playing area's corners without markers, and putting any four corners in order.

Automatic detection looks for the 7x7 inner corners of the checker pattern (they stay visible with
pieces on the dark squares), tries each colour channel and CIELAB's opponent ones since some
boards only contrast in one, at full and half size, extrapolates the outer corners and moves a
grid found a square off back onto the board. When pieces hide some inner corners (a camera
beside the table) that detector finds nothing, and the lattice of those left is fitted instead
(:mod:`vision.lattice`). The board's turn is then read from the picture: the dark squares
must be dark (unless the pieces show clearly which squares they stand on), and (R-BRD-3) the
darker pieces are Black's, on the squares the position calibrated on names (the start
position: 1-12).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import cv2
import numpy as np

from vision.camera import bent_outline, distort, undistort
from vision.colour import START_POSITION
from vision.lattice import lattice_quads
from vision.layout import CANONICAL_CORNERS, CANVAS_PX, LAYOUT, MARGIN_PX, SQUARE_PX


class CornerError(ValueError):
    """The board's corners could not be found or were given wrongly."""


def parse_corners(text: str) -> np.ndarray:
    """``"x,y,x,y,x,y,x,y"`` (a1, h1, h8, a8) to a (4, 2) array; ``CornerError`` if malformed."""
    try:
        values = [float(v) for v in text.replace(" ", "").split(",")]
    except ValueError:
        raise CornerError(f"corners {text!r}: expected eight numbers x,y,x,y,x,y,x,y") from None
    if len(values) != 8:
        raise CornerError(
            f"corners {text!r}: expected eight numbers (a1, h1, h8, a8), got {len(values)}"
        )
    corners = np.array(values, dtype=np.float32).reshape(4, 2)
    check_quad(corners)
    return corners


def check_quad(corners: np.ndarray) -> None:
    """``CornerError`` unless the corners form a convex board of sensible size, in turn order."""
    area = cv2.contourArea(corners.astype(np.float32), oriented=True)
    if abs(area) < 64 * 16:
        raise CornerError("corners enclose almost no area: the board must be at least 32 px wide")
    if not cv2.isContourConvex(corners.astype(np.float32).reshape(-1, 1, 2)):
        raise CornerError("corners do not form a convex quadrilateral: give them as a1, h1, h8, a8")
    if _sign(corners) != _sign(CANONICAL_CORNERS):
        raise CornerError("corners run the wrong way round: give them as a1, h1, h8, a8")


def homography(corners: np.ndarray) -> np.ndarray:
    """The 3x3 map from the camera image to the canonical board image."""
    return cv2.getPerspectiveTransform(corners.astype(np.float32), CANONICAL_CORNERS)


def warp(image: np.ndarray, to_canonical: np.ndarray) -> np.ndarray:
    """The canonical top-down board image (``CANVAS_PX`` square) of a camera frame."""
    return cv2.warpPerspective(image, to_canonical, (CANVAS_PX, CANVAS_PX), flags=cv2.INTER_LINEAR)


def in_picture(
    canonical: np.ndarray, corners: np.ndarray, k1: float, size: tuple[int, int]
) -> np.ndarray:
    """Where points of the canonical image (n, 2) lie in a picture through a lens of
    distortion ``k1`` whose playing-area corners are ``corners`` (as seen, distorted)."""
    ideal = undistort(corners, k1, size).astype(np.float32)
    to_picture = cv2.getPerspectiveTransform(CANONICAL_CORNERS, ideal)
    points = cv2.perspectiveTransform(canonical.reshape(1, -1, 2).astype(np.float32), to_picture)
    return distort(points[0], k1, size).astype(np.float32)


def canvas_maps(corners: np.ndarray, k1: float, size: tuple[int, int]) -> np.ndarray:
    """For each canonical pixel, where it lies in a picture through a lens of distortion ``k1``
    whose playing-area corners are ``corners`` (as seen, distorted): (CANVAS, CANVAS, 2)."""
    ys, xs = np.mgrid[0:CANVAS_PX, 0:CANVAS_PX].astype(np.float32)
    points = in_picture(np.stack([xs, ys], axis=-1), corners, k1, size)
    return points.reshape(CANVAS_PX, CANVAS_PX, 2)


def remap(image: np.ndarray, maps: np.ndarray) -> np.ndarray:
    """The canonical board image of a camera frame through ``canvas_maps``."""
    return cv2.remap(image, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR)


def lens_distortion(image: np.ndarray, corners: np.ndarray) -> float:
    """The lens's k1 that best straightens the checker pattern between the given corners.

    Each candidate maps the picture onto the canonical board; the right one lines the squares'
    edges up with the canonical grid, so the light/dark pattern near the edges (which pieces
    rarely cover) agrees best with the ideal one. 0 unless clearly better.
    """
    height, width = image.shape[:2]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scores = {}
    for k1 in K1_CANDIDATES:
        canvas = remap(grey, canvas_maps(corners, k1, (width, height))).astype(np.float32)
        values = canvas.ravel()[_EDGE_BAND]
        scores[k1] = _agreement(values, _EDGE_PATTERN)
    best = max(scores, key=lambda k: scores[k])
    return best if scores[best] > scores[0.0] + K1_GAIN else 0.0


#: The least :func:`board_likeness` of a picture that shows the board where it is looked for.
BOARD_LIKE = 0.25


def board_likeness(canvas: np.ndarray, every: int = 1) -> float:
    """How well a canonical image shows a checker pattern where the squares should be: the
    best correlation, over the colour channels, of the pixels along the squares' edges with
    the ideal light/dark pattern (a board: 0.5-0.95; not a board, or a moved one: near 0).
    ``every``: look at every so many of those pixels only (a quick check on each frame)."""
    return float(np.abs(pattern_agreement(canvas, every)).max())


def pattern_agreement(canvas: np.ndarray, every: int = 1) -> np.ndarray:
    """For each colour channel of a canonical image (3,), the correlation of the pixels along
    the squares' edges with the ideal pattern: positive where the light squares are the
    lighter in that channel, negative where they are the darker, near 0 where no board is."""
    band, pattern = _EDGE_BAND[::every], _EDGE_PATTERN[::every]
    values = canvas.reshape(-1, 3)[band].astype(np.float32)
    return np.array([_agreement(values[:, c], pattern) for c in range(3)])


def _agreement(values: np.ndarray, pattern: np.ndarray) -> float:
    """The correlation of pixel values with a light/dark pattern; 0 where the pixels are all
    one value (a covered lens, a black frame), which says nothing either way."""
    if values.std() == 0:
        return 0.0
    return float(np.corrcoef(values, pattern)[0, 1])


def _edge_band() -> tuple[np.ndarray, np.ndarray]:
    """Canvas pixels within a fifth of a square of a square's edge, and +1 (light) / -1 (dark)."""
    ys, xs = np.mgrid[0:CANVAS_PX, 0:CANVAS_PX]
    bx, by = (xs - MARGIN_PX) / SQUARE_PX, (ys - MARGIN_PX) / SQUARE_PX
    inside = (bx >= 0.05) & (bx < 7.95) & (by >= 0.05) & (by < 7.95)
    fx, fy = bx % 1, by % 1
    near_x, near_y = np.minimum(fx, 1 - fx) < 0.2, np.minimum(fy, 1 - fy) < 0.2
    band = inside & (near_x ^ near_y)  # along an edge, not at a corner
    light = (np.floor(bx) + np.floor(by)) % 2 == 0
    return np.flatnonzero(band), np.where(light.ravel()[np.flatnonzero(band)], 1.0, -1.0)


#: The playing area's outline in the grid's own units (a square each), corner by corner in
#: the detector's order (its turn is read later, by :func:`orient`).
_GRID_OUTLINE = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], dtype=np.float32)
_HALVED = 800  # pixels across from which the grid is also looked for at half size
#: Most pixels across that the grid is looked for at: a phone's or a Pi camera's full-size
#: still (4000-4600 px) is shrunk first, as the detector takes seconds and gigabytes on it.
_GRID_LARGEST = 1920
K1_CANDIDATES = (0.0, -0.05, -0.1, -0.15, -0.2, -0.25, -0.3, -0.35, 0.05, 0.1)
K1_GAIN = 0.01  # correlation a k1 must add over none to be believed
#: The least and most lens distortion :func:`lens_distortion` fits.
K1_RANGE = (min(K1_CANDIDATES), max(K1_CANDIDATES))
_EDGE_BAND, _EDGE_PATTERN = _edge_band()


def _channels(image: np.ndarray) -> list[np.ndarray]:
    """Grey, each colour channel, and the two colour-opponent ones of CIELAB: a board whose
    squares differ more in hue than in brightness (red and green, stained wood) shows its
    pattern best in one of them."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    return [cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), *cv2.split(image), lab[..., 1], lab[..., 2]]


def _grid_corners(image: np.ndarray) -> np.ndarray | None:
    """The outer corners of the checker pattern in some turn order, or ``None``.

    Tried at full size (at most ``_GRID_LARGEST`` pixels across), then at half for a picture
    800 pixels or more across (the detector wants the squares' edges sharp but not grainy:
    wood grain or JPEG blocks on a large picture can hide the pattern)."""
    flags = cv2.CALIB_CB_EXHAUSTIVE | cv2.CALIB_CB_ACCURACY
    grid = np.array([[x, y] for y in range(1, 8) for x in range(1, 8)], dtype=np.float32)
    largest = min(1.0, _GRID_LARGEST / max(image.shape[:2]))
    across = largest * max(image.shape[:2])
    for scale in (largest, largest / 2) if across >= _HALVED else (largest,):
        small = image if scale == 1 else cv2.resize(image, None, fx=scale, fy=scale,
                                                    interpolation=cv2.INTER_AREA)  # fmt: skip
        for channel in _channels(small):
            found, points = cv2.findChessboardCornersSB(channel, (7, 7), flags=flags)
            if found:
                inner = (points.reshape(-1, 2) + 0.5) / scale - 0.5
                height, width = image.shape[:2]
                return bent_outline(grid, inner, _GRID_OUTLINE, (width, height))
    return None


def _lattice_corners(image: np.ndarray) -> np.ndarray | None:
    """The outer corners of a partly hidden checker pattern (:mod:`vision.lattice`), or ``None``:
    the candidate framing the pattern best at a glance, if it passes for a board up close."""
    quads = lattice_quads(image, _channels)
    if not quads:
        return None
    best = max(quads, key=lambda q: board_likeness(warp(image, homography(q)), every=4))
    flat = _flattened(warp(image, homography(best)))
    return best if board_likeness(flat) >= BOARD_LIKE else None


def _brightness(canonical: np.ndarray) -> np.ndarray:
    return canonical.reshape(-1, 3).astype(np.float32).sum(axis=1)


def _sign(quad: np.ndarray) -> bool:
    return cv2.contourArea(quad.astype(np.float32), oriented=True) > 0


def _turns(quad: np.ndarray) -> list[np.ndarray]:
    """The quad's four turn orders, each a candidate for (a1, h1, h8, a8)."""
    if _sign(quad) != _sign(CANONICAL_CORNERS):  # seen from above the turn never mirrors
        quad = quad[::-1]
    return [np.roll(quad, -k, axis=0) for k in range(4)]


def orient(
    image: np.ndarray,
    quad: np.ndarray,
    near: np.ndarray | None = None,
    position: Mapping[int, str] | None = None,
) -> np.ndarray:
    """Put a board's four corners in a1, h1, h8, a8 order by looking at the squares.

    With ``near`` (earlier corners) the turn closest to them wins among those where the dark
    squares are dark; otherwise, of two half turns, the one whose pieces stand where
    ``position`` (square -> "b", "w", "B", "W", ...; by default the start position) places
    pieces (:func:`_occupancy_fit`), and where both do, the one where the pieces it names
    Black are the darker (R-BRD-3).
    Which squares are the dark ones is read from the pieces when they tell it clearly
    (:func:`_piece_turns`): a red square printed beside a green one is the brighter.
    """
    named = position if position is not None else START_POSITION
    turns = _turns(quad.astype(np.float32))
    canvases = [warp(image, homography(corners)) for corners in turns]
    by_pieces = None if near is not None else _piece_turns(canvases, named)
    candidates = []
    for index, (corners, canvas) in enumerate(zip(turns, canvases, strict=True)):
        bright = _brightness(canvas)
        if by_pieces is not None:
            dark_is_dark = index % 2 == by_pieces
        else:
            dark_is_dark = np.median(bright[LAYOUT.light]) > np.median(bright[LAYOUT.corners])
        if dark_is_dark:
            candidates.append((index, corners, bright, canvas))
    if not candidates:
        raise CornerError("found a grid, but cannot tell its light squares from its dark ones")
    if near is not None:
        return min(candidates, key=lambda c: float(np.abs(c[1] - near).sum()))[1]
    black = [s - 1 for s, v in named.items() if v in ("b", "B")]
    white = [s - 1 for s, v in named.items() if v in ("w", "W")]
    if not black or not white:  # one side alone cannot tell (calibration refuses it anyway)
        return candidates[0][1]
    # Of two half turns, the one whose squares hold pieces where the position has them: the
    # other puts pieces on squares it names empty, unless the position is its own mirror.
    fits = {index: _occupancy_fit(canvas, named) for index, _, _, canvas in candidates}
    kept = [c for c in candidates if fits.get((c[0] + 2) % 4, 0.0) <= fits[c[0]] + _FIT_SLACK]
    # Of two that fit alike (a full board), the one whose pieces' colours part as the position
    # parts its sides: the other names a piece of either colour Black, unless the position
    # is its own mirror in colour too (the start position).
    sides = {c[0]: _side_fit(c[3], black, white) for c in kept}
    kept = [c for c in kept if sides[c[0]] >= max(sides.values()) - _FIT_SLACK]
    darker = [np.median(b[LAYOUT.discs[white]]) - np.median(b[LAYOUT.discs[black]])
              for _, _, b, _ in kept]  # fmt: skip
    return kept[int(np.argmax(darker))][1]


#: Share of the pieces by which a turn may fit the position's occupancy less well than its
#: half turn and still be told from it by the pieces' colours (the start position is its own
#: mirror: both half turns fit it alike).
_FIT_SLACK = 0.1


def _occupancy_fit(canvas: np.ndarray, position: Mapping[int, str]) -> float:
    """The share of the pieces ``position`` places that are among as many of its squares
    whose middle stands out most from their corners, on this turn's canonical image (a piece
    close to its square's colour still stands out more than a bare square)."""
    pixels = canvas.reshape(-1, 3).astype(np.float32)
    middle = np.median(pixels[LAYOUT.discs], axis=1)
    rim = np.median(pixels[LAYOUT.corners], axis=1)
    standing_out = np.linalg.norm(middle - rim, axis=1)
    named = [position.get(s, "empty") for s in range(1, 33)]
    known = np.flatnonzero([v != "unknown" for v in named])
    held = {int(i) for i in known if named[i] in ("b", "w", "B", "W")}
    if not held or len(held) == len(known):
        return 1.0  # every square alike: no turn tells
    most = known[np.argsort(standing_out[known])[::-1][: len(held)]]
    return len(held.intersection(most.tolist())) / len(held)


def _side_fit(canvas: np.ndarray, black: list[int], white: list[int]) -> float:
    """The share of the pieces named on ``black`` and ``white`` (squares 0-31) whose middle's
    colour is nearer their own side's median than the other side's, on this turn's canonical
    image: near 1 where the turn names each colour one side, near a half where it mixes them."""
    lab = cv2.cvtColor(canvas, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    middle = np.median(lab[LAYOUT.discs], axis=1)
    own = [middle[black], middle[white]]
    centres = [np.median(colours, axis=0) for colours in own]
    nearer = 0
    for side, colours in enumerate(own):
        to_own = np.linalg.norm(colours - centres[side], axis=1)
        to_other = np.linalg.norm(colours - centres[1 - side], axis=1)
        nearer += int(np.count_nonzero(to_own < to_other))
    return nearer / (len(black) + len(white))


#: How many times more a turn's pieces must stand out from their squares than the other
#: turns' for the pieces to say which squares are the dark ones.
_PIECES_CLEAR = 2.0


def _piece_turns(canvases: list[np.ndarray], position: Mapping[int, str]) -> int | None:
    """0 if the pieces ``position`` names stand out from their squares' corners clearly more
    in the 1st and 3rd of the four turns' canonical images, 1 if in the 2nd and 4th, else None.

    A quarter turn puts the named squares on light ones, where there are no pieces: the squares
    look alike in the middle and at the corners."""
    occupied = [s - 1 for s, v in position.items() if v in ("b", "w", "B", "W")]
    if not occupied:
        return None
    standing_out = []
    for canvas in canvases:
        pixels = canvas.reshape(-1, 3).astype(np.float32)
        middle = np.median(pixels[LAYOUT.discs[occupied]], axis=1)
        rim = np.median(pixels[LAYOUT.corners[occupied]], axis=1)
        standing_out.append(float(np.median(np.linalg.norm(middle - rim, axis=1))))
    even, odd = max(standing_out[0::2]), max(standing_out[1::2])
    if even > _PIECES_CLEAR * odd:
        return 0
    if odd > _PIECES_CLEAR * even:
        return 1
    return None


def find_board_corners(
    image: np.ndarray,
    near: np.ndarray | None = None,
    position: Mapping[int, str] | None = None,
) -> np.ndarray:
    """The playing area's corners (a1, h1, h8, a8) without markers; ``CornerError`` if unseen.
    ``near`` and ``position`` choose which corner is a1 (:func:`orient`)."""
    grid = _grid_corners(image)
    # Failing that, pieces may hide some inner corners: the lattice places its window itself.
    quad = _best_placed(image, grid) if grid is not None else _lattice_corners(image)
    if quad is None:
        raise CornerError("could not find the board's 8x8 grid of squares in the picture")
    return orient(image, quad, near, position)


def _best_placed(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quad, or the same grid moved a square along either side, whichever frames the
    checker pattern best: a board's frame or printed edge may pass for a row of squares.

    Each placement is judged with the light flattened (:func:`_flattened`): a player's shadow
    over one side otherwise favours a placement that leaves the shaded row out, a square off
    and then turned a quarter by :func:`orient`."""
    to_image = cv2.getPerspectiveTransform(_GRID_OUTLINE, quad.astype(np.float32))
    placed = []
    for dx, dy in itertools.product((-1, 0, 1), repeat=2):
        moved = cv2.perspectiveTransform((_GRID_OUTLINE + [dx, dy])[None], to_image)[0]
        flat = _flattened(warp(image, homography(moved)))
        placed.append((board_likeness(flat), dx == dy == 0, moved))
    return max(placed, key=lambda p: (p[0], p[1]))[2]


def _flattened(canvas: np.ndarray) -> np.ndarray:
    """A canonical image with the light flattened: every pixel over its surroundings' mean, a
    square across (a shadow or a lamp's fall-off changes the light, not the pattern)."""
    canvas = canvas.astype(np.float32)
    return canvas / (cv2.GaussianBlur(canvas, (0, 0), SQUARE_PX) + 1)
