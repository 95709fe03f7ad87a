"""What each dark square holds: a per-board pixel classifier, then a decision per square.

Every sampled pixel is put in one of four classes (empty dark square, light square, Black piece,
White piece) by the nearest of a few colour centres learnt per board at calibration, in log
colour relative to the light squares (a brighter, dimmer or warmer light cancels). A square is
then judged on fractions over its whole area less a margin, so an off-centre piece, a dark emblem
on a king's sticker or a lamp's reflection on part of a piece still reads. Kings are seen as
stacks (a piece about twice as tall as the men, measured along the camera's line of sight) or
as emblems (a patch unlike the piece in the middle of its top).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.geometry import SQUARES, row_col
from engine.phrase import Phrase
from vision.camera import CameraPose
from vision.layout import (
    CANVAS_PX,
    LAYOUT,
    LIGHT_CENTRES,
    LIGHT_SQUARES,
    MARGIN_PX,
    SQUARE_CENTRES,
    SQUARE_PX,
    VOID,
    flat,
    offsets_disc,
)

CLASSES = ("empty", "light", "b", "w", "surround", "mark")
#: ``MARK``: the crowns' emblems of a set whose marks look more like a piece than anything else
#: learnt (a dark star on a green sticker on a grey board), learnt from the kings at calibration.
EMPTY, LIGHT, BLACK, WHITE, SURROUND, MARK = range(6)
OUTSIDE = -1
#: The start position (R-BRD-3): Black on 1-12, White on 21-32.
START_POSITION = {**dict.fromkeys(range(1, 13), "b"), **dict.fromkeys(range(13, 21), "empty")}
START_POSITION |= dict.fromkeys(range(21, 33), "w")

_CENTRES = 3  # colour centres per class: a piece's lit top and shaded side, a worn square
_BOX = 0.38  # radius of the region judged for occupancy
_BASE = 0.28  # radius of the disc judged for colour
#: How far (squares) each of a square's ``Sampler.box`` points lies from the square's centre.
BOX_RADII = np.linalg.norm(offsets_disc(_BOX), axis=1)
_FRAME_LIKE = 0.1  # share of the board's surround in a piece's colour past which it is not used
_ALONG = np.arange(-0.7, 1.5, 1 / 10)  # window of a stack along the line of sight (squares)
_ACROSS = np.arange(-0.6, 0.6001, 1 / 10)  # and across it
_ALONG_BAND = np.abs(_ALONG) <= 0.3 + 1e-9  # where a piece's base stands, set off-centre or not
_ACROSS_BAND = np.abs(_ACROSS) <= 0.3 + 1e-9
_BASE_BAND = _ACROSS_BAND[:, None] & _ALONG_BAND[None, :]  # (across, along) round the base
#: The same window, finer along the line of sight, where a stack's length is measured: a man's
#: top moves by only 2-3 tenths of a square, so tenths would blur men into kings.
_STACK_ALONG = np.arange(-0.7, 1.5, 1 / 20)
_STACK_ALONG_BAND = np.abs(_STACK_ALONG) <= 0.3 + 1e-9
_STACK_BASE_BAND = _ACROSS_BAND[:, None] & _STACK_ALONG_BAND[None, :]
_OVERHANG = 0.1  # squares a piece set off-centre on an edge square may reach past the board
_CELL_EDGE = 0.05  # squares round a square's edge that the picture's blur mixes with the next
_SURROUND_SEEN = 50  # sampled pixels of the board's surround needed to learn its colour
_SATURATED = 235  # a pixel this bright in every channel is a reflection, whatever it lies on
_OFFSET = 8.0  # added to 0-255 values before the log: a dark pixel's noise does not explode
#: Squares of parallax per square of height below which stack heights are noise.
STACKS_SEEN = 0.5
_MIN_PARALLAX = 0.15  # squares a man's height (and a king's more) must shift a top by
_KING_HEIGHT = 1.5  # a stack at least this many men tall is a king
#: Least share of a piece's outline that a king's emblem fills.
EMBLEM = 0.05
#: Largest share of a piece's outline an emblem fills (a square reaching 0.7 of the radius
#: fills 0.31): a larger hole is an empty square inside a ring of a piece's colour.
_EMBLEM_LARGEST = 0.5
#: Largest area (squares) of an emblem: it lies inside a piece that fits on its square, with a
#: rim of the piece round it (a disc 0.7 square across); an empty square ringed by a pale blur
#: at the board's edge, 0.8-0.9 square across, is no mark.
_EMBLEM_AREA = 0.4
_OCCUPIED = 0.22  # share of a square's area that must look like a piece
BARE = 1 - _OCCUPIED  # share of it looking as the square does empty past which it reads empty
#: How far from the men's size (1) a learnt king size lies at least: a king within a tenth of
#: a man's area is no size of its own (:attr:`SquareModel.king_size`).
KING_SIZE_APART = 0.1


def _direction(points: np.ndarray, pose: CameraPose) -> np.ndarray:
    away = points - np.array(pose.foot)
    norm = np.linalg.norm(away, axis=-1, keepdims=True)
    return np.where(norm > 1e-6, away / np.maximum(norm, 1e-6), [0.0, -1.0])


@dataclass(frozen=True)
class Sampler:
    """Where each square is sampled in the canonical image under one camera pose.

    ``pixels`` are the distinct canvas indices read per frame; every other array indexes them.
    """

    pixels: np.ndarray  # (n,) flat canvas indices (VOID for outside)
    box: np.ndarray  # (32, a): the square less a margin
    base: np.ndarray  # (32, b): a disc where a piece's base stands
    side: np.ndarray  # (32, e): where a piece's side shows, nearer the camera than its top
    window: np.ndarray  # (32, w): a strip from the square along the line of sight
    strip: np.ndarray  # (32, s): the same strip sampled finer along the line of sight
    off_board: np.ndarray  # (32, s) bool: which of ``strip`` lies past the playing area
    #: (32, s) bool: which of ``strip`` lies past the playing area by more than a piece set
    #: off-centre on an edge square overhangs it (where spares lie)
    far_off: np.ndarray
    light: np.ndarray  # (32, c): each light square's part that pieces do not lean into
    corners: np.ndarray  # (32, d): each dark square's corners, which a round piece leaves bare
    ring: np.ndarray  # (r,): a band just outside the playing area (the board's frame)
    cell: np.ndarray  # (n,): the square (row * 8 + column, clamped to the board) of each pixel
    rise: np.ndarray  # (32,): squares the top moves along the line of sight per square of height
    along: np.ndarray  # (32, 2): the line of sight's direction on the board at each square
    box_leaned: np.ndarray  # (32, 32, a) bool: which of ``box`` a man on each square may cover
    light_leaned: np.ndarray  # (32, 32, c) bool: the same for ``light``
    ring_leaned: np.ndarray  # (32, r) bool: the same for ``ring``
    beyond: np.ndarray  # (n,) bool: which pixels lie outside the playing area
    #: (n,) bool: which pixels lie on a dark square, clear of its edges (where the picture's
    #: blur mixes it with the light squares beside it)
    inside_dark: np.ndarray

    @classmethod
    def build(cls, pose: CameraPose) -> Sampler:
        """The sample regions of every square for a camera at ``pose``."""
        centres = SQUARE_CENTRES
        along = _direction(centres, pose)  # (32, 2)
        across = np.stack([-along[:, 1], along[:, 0]], axis=1)
        box = centres[:, None] + offsets_disc(_BOX)[None]
        base = centres[:, None] + offsets_disc(_BASE)[None]
        window, strip = (
            centres[:, None] + steps[None, :, None] * along[:, None]
            + sideways[None, :, None] * across[:, None]
            for steps, sideways in (
                (g.ravel() for g in np.meshgrid(lengths, _ACROSS))
                for lengths in (_ALONG, _STACK_ALONG)
            )
        )  # fmt: skip
        light_far = LIGHT_CENTRES + 0.2 * _direction(LIGHT_CENTRES, pose)
        light = light_far[:, None] + offsets_disc(0.2)[None]
        side = (centres - 0.12 * along)[:, None] + offsets_disc(0.22)[None]
        ring = np.stack(np.meshgrid(*[np.arange(-0.4, 8.4, 1 / 8)] * 2), axis=-1).reshape(-1, 2)
        ring = ring[(np.abs(ring - 4.0) > 4.0).any(axis=1)]  # just outside the playing area
        regions = [flat(r) for r in (box, base, side, window, strip, light)] + [LAYOUT.corners]
        regions.append(flat(ring))
        pixels, inverse = np.unique(
            np.concatenate([r.ravel() for r in regions]), return_inverse=True
        )
        parts, start = [], 0
        for region in regions:
            parts.append(inverse[start : start + region.size].reshape(region.shape))
            start += region.size
        box_at, base_at, side_at, window_at, strip_at, light_at, corners_at, ring_at = parts
        distance = np.linalg.norm(centres - np.array(pose.foot), axis=1)
        rise = distance / max(pose.height, 1e-3)
        leaned = [_leaned_on(points, rise, along) for points in (box, light, ring)]
        ys, xs = np.divmod(np.minimum(pixels, VOID - 1), CANVAS_PX)
        cells, within = np.divmod(np.stack([ys, xs]) - MARGIN_PX, SQUARE_PX)
        edge = _CELL_EDGE * SQUARE_PX
        inner = ((within >= edge) & (within < SQUARE_PX - edge)).all(axis=0)
        beyond = ((cells < 0) | (cells > 7)).any(axis=0) | (pixels == VOID)
        cells = np.clip(cells, 0, 7)
        cell = cells[0] * 8 + cells[1]
        return cls(
            pixels=pixels, box=box_at, base=base_at, side=side_at, window=window_at,
            strip=strip_at, off_board=(np.abs(strip - 4.0) > 4.0).any(axis=-1),
            far_off=(np.abs(strip - 4.0) > 4.0 + _OVERHANG).any(axis=-1), light=light_at,
            corners=corners_at, ring=ring_at, cell=cell, rise=rise, along=along,
            box_leaned=leaned[0], light_leaned=leaned[1], ring_leaned=leaned[2], beyond=beyond,
            inside_dark=np.isin(cell, _DARK_CELLS) & inner & ~beyond,
        )  # fmt: skip


def _leaned_on(points: np.ndarray, rise: np.ndarray, along: np.ndarray) -> np.ndarray:
    """Which board points (32, n, 2) a piece one square tall on each square may cover: its
    footprint swept along the line of sight. Shape (32 pieces, 32, n)."""
    covered = np.zeros((32, *points.shape[:-1]), dtype=bool)
    for index, base in enumerate(SQUARE_CENTRES):
        offset = points - base
        t = np.clip(offset @ along[index], 0.0, rise[index] + 0.5)
        nearest = base + t[..., None] * along[index]
        covered[index] = np.linalg.norm(points - nearest, axis=-1) < 0.55
    return covered


@dataclass(frozen=True)
class Pixels:
    """One frame's sampled pixels, on a scale where the board's dark squares are 0 and its light
    squares 1 in each channel (exposure, tint and haze cancel), and the light squares' colours."""

    colours: np.ndarray  # (n, 3)
    outside: np.ndarray  # (n,) bool: off the canvas
    saturated: np.ndarray  # (n,) bool: as bright as the camera can see (a lamp's reflection)
    light: np.ndarray  # (32, 3): each light square's median log colour (absolute)
    beyond: np.ndarray  # (n,) bool: outside the playing area, where the surround may show


#: What to do about a black-and-white picture, said wherever one is refused.
NO_COLOUR = Phrase(
    "the sides are told apart by colour: light the board better, or turn the camera's "
    "night (black-and-white) mode off"
)
_GREY_LEVELS = 4  # channel spread (0-255) within which a pixel has no colour
_GREY_SHARE = 0.995  # share of such pixels in a picture without any colour


#: Said of a picture that shows nothing at all ("the picture is ...").
BLANK = Phrase("all one shade: is the lens covered, or the lamp off?")
_BLANK_SPREAD = 3.0  # grey levels (0-255); a dim board's picture still spreads dozens


def blank(image: np.ndarray) -> bool:
    """Whether a picture shows nothing (a capped lens, a camera still starting, a dark room):
    its pixels, every 8th each way, all within a few grey levels of one another."""
    return float(image[::8, ::8].std()) < _BLANK_SPREAD


def colourless(image: np.ndarray) -> bool:
    """Whether a BGR picture has no colour at all (a camera in night or black-and-white mode
    gives three equal channels; a colour camera's noise and the scene's hues never do).
    Every 8th pixel each way is looked at: 0.03 ms a 640x480 frame."""
    blue, green, red = cv2.split(np.ascontiguousarray(image[::8, ::8]))
    spread = cv2.max(cv2.max(cv2.absdiff(blue, green), cv2.absdiff(green, red)),
                     cv2.absdiff(blue, red))  # fmt: skip
    return bool((spread <= _GREY_LEVELS).mean() >= _GREY_SHARE)


def sample(canvas: np.ndarray, sampler: Sampler) -> Pixels:
    """Read the sampled pixels of a canonical image (smoothed: JPEG blocks and sensor noise
    would otherwise speckle the classes)."""
    flat_canvas = cv2.GaussianBlur(canvas, (5, 5), 1.2).reshape(-1, 3)
    outside = sampler.pixels == VOID
    values = flat_canvas[np.minimum(sampler.pixels, CANVAS_PX * CANVAS_PX - 1)].astype(np.float32)
    light_values = np.median(values[sampler.light], axis=1)
    # The light as it falls on the board: a plane through the light squares' log colours,
    # fitted twice to ignore squares a piece leans over or a reflection lies on.
    logs = np.log(light_values + _OFFSET)
    weights = np.ones(32)
    for _ in range(2):
        solution = np.linalg.lstsq(_PLANE * weights[:, None], logs * weights[:, None], rcond=None)
        residual = np.abs(logs - _PLANE @ solution[0]).max(axis=1)
        weights = (residual <= max(3 * float(np.median(residual)), 0.05)).astype(float)
    # A light square that only got brighter or darker than the plane (a shadow, a lamp) keeps
    # its own light; one whose hue changed is covered (a leaning piece): the plane stands in.
    plane = _PLANE @ solution[0]
    change = logs - plane
    light = np.where((_hue_change(change, plane, light_values) < _SAME_HUE)[:, None], logs, plane)
    field = np.empty((64, 3))
    field[_LIGHT_CELLS] = light
    field[_DARK_CELLS] = np.median(light[_BESIDE], axis=1)
    corrected = values / np.maximum(np.exp(field[sampler.cell]) - _OFFSET, 1.0)
    dark = np.median(corrected[sampler.corners].reshape(-1, 3), axis=0)
    contrast = np.abs(1 - dark)
    scale = np.maximum(contrast, 0.3 * contrast.max() + 0.02)
    saturated = values.min(axis=1) >= _SATURATED
    colours = (corrected - dark) / scale
    return Pixels(colours, outside, saturated, np.log(light_values + _OFFSET), sampler.beyond)


def _hue_change(change: np.ndarray, plane: np.ndarray, values: np.ndarray) -> np.ndarray:
    """How far each light square's log-colour change from the plane of light (32, 3) is from
    a change of brightness alone. Where the plane is as bright as the camera can see (an
    overexposed picture) the light's true colour is brighter still, so a shadow there
    darkens that channel by at least as much as the others: only a smaller change counts."""
    seen = values < _SATURATED  # the square's own reading did not clip
    hidden = seen & (np.exp(plane) - _OFFSET >= _SATURATED)  # but the plane's did
    exact = seen & ~hidden
    known = exact.any(axis=1, keepdims=True)  # else every channel counts, as without clipping
    counted = np.where(known, exact, True)
    mean = (change * counted).sum(axis=1, keepdims=True) / counted.sum(axis=1, keepdims=True)
    spread = np.where(counted, np.abs(change - mean), 0.0)
    short = np.where(hidden & known, mean - change, 0.0)  # darkened less than the others
    return np.maximum(spread, short).max(axis=1)


#: Rows (1, x, y) of the light squares' centres, for the plane of light.
_PLANE = np.hstack([np.ones((32, 1)), LIGHT_CENTRES / 8 - 0.5])
_SAME_HUE = 0.08  # log-colour change between channels past which a light square is covered


def _cells() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cell indices (row * 8 + column) of the light and dark squares, and for each dark square
    the light squares beside it (indices into LIGHT_SQUARES, repeated to four)."""
    light = [r * 8 + c for r, c in LIGHT_SQUARES]
    dark = [r * 8 + c for r, c in map(row_col, SQUARES)]
    index = {rc: i for i, rc in enumerate(LIGHT_SQUARES)}
    beside = []
    for r, c in map(row_col, SQUARES):
        near = [index[(r + dr, c + dc)] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if (r + dr, c + dc) in index]  # fmt: skip
        beside.append((near * 4)[:4])
    return np.array(light), np.array(dark), np.array(beside)


_LIGHT_CELLS, _DARK_CELLS, _BESIDE = _cells()


def _squared_lengths(colours: np.ndarray) -> np.ndarray:
    """Each row's squared length (n,) of ``colours`` (n, 3)."""
    return np.einsum("ij,ij->i", colours, colours)


def reach_of(spreads: np.ndarray) -> float:
    """The squared colour distance past which a pixel is unlike pixels whose squared distances
    to their nearest centre are ``spreads``: far past nearly all of them."""
    return float(np.percentile(spreads, 99)) * 9 + 0.1


@dataclass
class PixelModel:
    """Colour centres per class, learnt per board; a pixel far from all of them is an outlier."""

    centres: np.ndarray  # (k, 3)
    classes: np.ndarray  # (k,) index into CLASSES
    reach: float  # squared distance past which a pixel belongs to no class
    #: (32, 3): each dark square's own colour when empty, from its bare corners (None: not
    #: known; NaN on a square whose corners the calibration could not trust): a board's dark
    #: squares may differ in shade from one another more than its pieces differ from them.
    shades: np.ndarray | None = None

    @classmethod
    def learn(cls, samples: dict[int, np.ndarray]) -> PixelModel:
        """Cluster each class's training pixels (class index -> (n, 3)) into a few centres.

        A piece's pixel nearer the empty squares' median colour than its own is left out first
        (the board showing beside an off-centre piece), and so is a board pixel nearer a
        piece's median than its own (a piece leaning over it).
        """
        cv2.setRNGSeed(7)
        centres, classes, spreads = [], [], []
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 1e-3)
        medians = {index: np.median(pixels, axis=0) for index, pixels in samples.items()}
        for index, pixels in samples.items():
            # The surround may look like the pieces: it is told apart by where it lies.
            foreign: tuple[int, ...] = {
                BLACK: (EMPTY,),
                WHITE: (EMPTY,),
                SURROUND: (),
                MARK: (),
            }.get(index, (BLACK, WHITE))
            own = ((pixels - medians[index]) ** 2).sum(axis=1)
            keep = np.ones(len(pixels), dtype=bool)
            for other in foreign:
                if other in medians:
                    keep &= own <= ((pixels - medians[other]) ** 2).sum(axis=1)
            if keep.sum() >= max(_CENTRES, len(pixels) // 4):
                pixels = pixels[keep]
            count = min(_CENTRES, len(pixels))
            _, labels, found = cv2.kmeans(
                pixels.astype(np.float32),
                count,
                None,
                criteria,
                3,
                cv2.KMEANS_PP_CENTERS,  # type: ignore[call-overload]
            )
            centres.append(found)
            classes += [index] * count
            spreads.append(((pixels - found[labels.ravel()]) ** 2).sum(axis=1))
        reach = reach_of(np.concatenate(spreads))
        return cls(np.vstack(centres).astype(np.float64), np.array(classes), reach)

    def _ranks(self, colours: np.ndarray) -> np.ndarray:
        """Squared distance of every pixel (n, 3) to every centre less the pixel's own squared
        length, shape (n, k): it orders the centres for each pixel as the distance does, and
        leaves adding the term they share to the one centre that is wanted."""
        centres = self.centres.astype(colours.dtype)
        return (centres**2).sum(axis=1) - 2 * (colours @ centres.T)

    def distances(self, colours: np.ndarray) -> np.ndarray:
        """Squared distance of every pixel (n, 3) to every centre, shape (n, k)."""
        return self._ranks(colours) + _squared_lengths(colours)[:, None]

    def nearest(self, pixels: Pixels) -> tuple[np.ndarray, np.ndarray]:
        """Each pixel's nearest class index (``OUTSIDE`` off the canvas) and its squared
        distance to that class."""
        ranks = self._ranks(pixels.colours)
        surround = np.flatnonzero(self.classes == SURROUND)
        if len(surround):  # the board's surround shows only outside the playing area
            ranks[:, surround] += np.where(pixels.beyond, 0.0, np.inf)[:, None]
        nearest = ranks.argmin(axis=1)
        labels = np.where(pixels.outside, OUTSIDE, self.classes[nearest])
        distance = ranks[np.arange(len(nearest)), nearest] + _squared_lengths(pixels.colours)
        return labels, distance

    def label(self, pixels: Pixels) -> tuple[np.ndarray, np.ndarray]:
        """Each pixel's nearest class index (``OUTSIDE`` off the canvas), and whether it is
        too far from every class to belong to any (a hand, a fallen object, a lamp)."""
        labels, distance = self.nearest(pixels)
        return labels, distance > self.reach

    def bare(self, pixels: Pixels, distance: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """The share of each dark square's ``boxes`` (32, a) that looks like the square's own
        shade more than like its nearest class (``distance``, :meth:`nearest`'s): bare board,
        whatever class is nearest (0 where the shades are unknown)."""
        if self.shades is None:
            return np.zeros(len(boxes))
        own = ((pixels.colours[boxes] - self.shades[:, None]) ** 2).sum(axis=2)
        bare = (own < distance[boxes]) & ~pixels.outside[boxes]  # not where a shade is NaN
        return bare.mean(axis=1)

    def dark_strays(self, pixels: Pixels, labels: np.ndarray, strange: np.ndarray) -> np.ndarray:
        """The pixels unlike every class (``strange``) and darker than anything their own class
        was learnt from: a dark mark this board never showed, as a crown's star does on a board
        calibrated before any piece was crowned."""
        brightness = self.centres.mean(axis=1)
        darkest = np.full(len(CLASSES), np.inf)
        np.minimum.at(darkest, self.classes, brightness)
        strays = np.zeros_like(strange)
        where = np.flatnonzero(strange & (labels != OUTSIDE))  # few: look at those only
        strays[where] = pixels.colours[where].mean(axis=1) < darkest[labels[where]]
        return strays

    def follow(self, samples: dict[int, np.ndarray], rate: float) -> None:
        """Move each centre a step ``rate`` towards the mean of its class's pixels (class index
        -> (n, 3)) nearest to it: the light drifts, the board stays learnt."""
        empty = self.classes == EMPTY
        before = (
            self.centres[empty].mean(axis=0) if self.shades is not None and empty.any() else None
        )
        for index, pixels in samples.items():
            own = np.flatnonzero(self.classes == index)
            if not len(own) or len(pixels) < 10:
                continue
            nearest = own[self.distances(pixels.astype(np.float64))[:, own].argmin(axis=1)]
            for centre in own:
                mine = pixels[nearest == centre]
                if len(mine) >= 10:
                    self.centres[centre] += rate * (mine.mean(axis=0) - self.centres[centre])
        if self.shades is not None and before is not None:  # as the empty squares' colours do
            self.shades = self.shades + self.centres[empty].mean(axis=0) - before

    def to_json(self) -> dict[str, object]:
        """The centres as plain lists (and the squares' shades, null where unknown)."""
        numbers: dict[str, object] = {
            "centres": self.centres.round(4).tolist(),
            "classes": [CLASSES[i] for i in self.classes],
            "reach": round(self.reach, 4),
        }
        if self.shades is not None:
            numbers["shades"] = [
                None if np.isnan(shade).any() else shade.round(4).tolist() for shade in self.shades
            ]
        return numbers


def training_pixels(
    pixels: Pixels,
    sampler: Sampler,
    position: Mapping[int, str],
    labels: np.ndarray | None = None,
) -> dict[int, np.ndarray]:
    """Pixels of each class in a picture of a known position (square -> "empty", "b", "w",
    "B", "W" or "unknown"), leaving out what pieces may lean over in an oblique view. Given
    the pixels' ``labels``, a piece's pixels of another class (an emblem) are left out too."""
    occupied = [s - 1 for s, v in position.items() if v in ("b", "w", "B", "W")]
    empty = [s - 1 for s, v in position.items() if v == "empty"]
    box_clear: np.ndarray = ~np.any(sampler.box_leaned[occupied], axis=0)
    light_clear: np.ndarray = ~np.any(sampler.light_leaned[occupied], axis=0)
    ring_clear: np.ndarray = ~np.any(sampler.ring_leaned[occupied], axis=0)
    ring = sampler.ring[ring_clear]
    samples = {
        EMPTY: pixels.colours[sampler.box[empty][box_clear[empty]]],
        LIGHT: pixels.colours[sampler.light[light_clear]],
    }
    ring = ring[~pixels.outside[ring]]
    if len(ring) >= _SURROUND_SEEN:  # the board's frame or the table beside the playing area
        samples[SURROUND] = pixels.colours[ring]
    for index, side in ((BLACK, "bB"), (WHITE, "wW")):
        squares = [s - 1 for s, v in position.items() if v in side]
        regions = np.hstack([sampler.base[squares], sampler.side[squares]]).ravel()
        if labels is not None:
            regions = regions[labels[regions] == index]
        samples[index] = pixels.colours[regions]
    return samples


@dataclass(frozen=True)
class Squares:
    """Per-square measurements of one frame."""

    fractions: np.ndarray  # (32, 4): share of the box in each class
    odd: np.ndarray  # (32,): share of the box fitting no class
    base: np.ndarray  # (32, 4): share of the base disc in each class
    heights: np.ndarray  # (32, 2): stack height (squares) if the piece is Black / White
    emblems: np.ndarray  # (32, 2): share of the piece's outline filled by something else
    light: np.ndarray  # (32,): share of each light square's sample that looks light
    #: (32, 2): the area (square units) of the piece's outline if it is Black's / White's (0
    #: where none): what tells a king of another size or shape from this set's men
    areas: np.ndarray = field(default_factory=lambda: np.zeros((32, 2)))
    #: (32,): share of the box that looks like the square's own shade when empty
    #: (:meth:`PixelModel.bare`; 0 where its shade is unknown)
    bare: np.ndarray = field(default_factory=lambda: np.zeros(32))


def _fractions(labels: np.ndarray) -> np.ndarray:
    return np.stack([(labels == c).mean(axis=-1) for c in range(len(CLASSES))], axis=-1)


def _runs_through(mask: np.ndarray, band: np.ndarray) -> np.ndarray:
    """The longest run of True along the last axis that reaches into ``band`` (bool, last
    axis): the piece on this square, not a neighbour's leaning in at the strip's ends."""
    ahead = np.cumsum(mask, axis=-1)
    ahead = ahead - np.maximum.accumulate(np.where(mask, 0, ahead), axis=-1)
    flipped = mask[..., ::-1]
    behind = np.cumsum(flipped, axis=-1)
    behind = (behind - np.maximum.accumulate(np.where(flipped, 0, behind), axis=-1))[..., ::-1]
    runs = np.where(mask, ahead + behind - 1, 0)
    return np.where(band, runs, 0).max(axis=-1)


def _stack_heights(labels: np.ndarray, sampler: Sampler) -> np.ndarray:
    """Each square's stack height (squares) if its piece is Black's, and if White's.

    Seen along the line of sight, a cylinder of radius R and height h covers a disc swept by
    L = h * rise: 2 R + L long and 2 R wide. Length and width are high percentiles of the
    runs of piece pixels through the piece's base (0.3 square round the centre) over the
    strip's columns and rows, so speckle, a neighbour leaning in and a piece set off-centre
    barely move them. A tall piece on the far row leans past the playing area: its strip goes
    on past the edge (the surround is a class of its own) unless the surround looks like that
    side's pieces.
    """
    heights = np.zeros((32, 2))
    for side, colour in enumerate((BLACK, WHITE)):
        window = labels[sampler.strip]
        # A piece's outline is any piece's colour: a pale piece's shaded wall may look like the
        # dark pieces; the square's side is decided apart.
        mine = (window == BLACK) | (window == WHITE)
        if (labels[sampler.ring] == colour).mean() > _FRAME_LIKE:
            mine &= ~sampler.off_board  # the frame looks like this side's pieces: stop at it
        mine = mine.reshape(32, len(_ACROSS), len(_STACK_ALONG))
        across = _runs_through(mine.transpose(0, 2, 1), _ACROSS_BAND)
        width = np.percentile(across, 85, axis=1) * (_ACROSS[1] - _ACROSS[0])
        along = _runs_through(mine, _STACK_ALONG_BAND)
        length = np.percentile(along, 85, axis=1) * (_STACK_ALONG[1] - _STACK_ALONG[0])
        swept = np.maximum(length - width, 0)
        heights[:, side] = np.where(width > 0.2, swept / np.maximum(sampler.rise, 1e-3), 0)
    return heights


def _central_hole(
    piece: np.ndarray, holes: np.ndarray, cell: float = 0.01, marked: np.ndarray | None = None
) -> float:
    """The largest hole's share of the piece's outline (on a grid whose cells are ``cell``
    square each), if it lies in the middle of the piece (an emblem does; a pocket of board between
    leaning pieces does not) and is no larger than an emblem can be. A hole mostly of the
    crowns' own colours (``marked``: learnt from kings, :data:`MARK`) may fill most of the
    piece, as a coloured insert does: it is no empty square ringed by a piece."""
    if holes.sum() < 3:
        return 0.0
    _, parts, stats, centres = cv2.connectedComponentsWithStats(holes.astype(np.uint8))
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    outline = piece | holes
    ys, xs = np.nonzero(outline)
    middle = np.array([xs.mean(), ys.mean()])
    reach = 0.6 * np.sqrt(outline.sum() / np.pi)
    if np.linalg.norm(centres[largest] - middle) > reach:
        return 0.0
    area = stats[largest, cv2.CC_STAT_AREA]
    if area * cell > _EMBLEM_AREA:
        return 0.0
    share = float(area / outline.sum())
    crown = marked is not None and 2 * int(marked[parts == largest].sum()) > area
    return share if share <= _EMBLEM_LARGEST or crown else 0.0


def _body(outline: np.ndarray, band: np.ndarray) -> int:
    """Cells of a piece's outline on the stacks' fine grid, less what a disc about a quarter of
    a square across cannot reach (a morphological opening), and of what is left, the parts
    through the piece's base (``band``): the blur along a square's edge that reads as a piece's
    colour and joins it, and a spare lying beyond the board touching it, are no part of it."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 3))  # 5 along, 3 across
    opened = cv2.morphologyEx(outline.astype(np.uint8), cv2.MORPH_OPEN, kernel)
    return int(_through(opened, band).sum())


def _through(mask: np.ndarray, band: np.ndarray) -> np.ndarray:
    """The parts of a mask (4-connected) that reach into ``band``, round a piece's base: the
    piece on this square, not a neighbour's leaning in."""
    count, parts = cv2.connectedComponents(mask.astype(np.uint8), connectivity=4)
    through = np.zeros(count, bool)
    through[parts[band]] = True
    through[0] = False
    return through[parts]


def _emblems(
    labels: np.ndarray,
    dark_strays: np.ndarray,
    saturated: np.ndarray,
    sampler: Sampler,
    fractions: np.ndarray,
    fine: bool = False,
    sizes: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """For each likely piece and side, the share of the piece's outline (in the strip along the
    line of sight) that is a hole of a contrasting colour: a crown's emblem; and if ``sizes``
    the outline's area (square units, holes included; :func:`_body`). On a dark piece
    any other colour contrasts (a gold star looks pale, a black one on a red piece like the
    empty squares); on a pale piece, dark, and the piece is anything pale on the dark square
    (its top may look like the light squares). Either way a mark darker than anything learnt
    (``dark_strays``) contrasts. Glare (saturated pixels) is no emblem.
    ``fine``: on the stacks' strip, twice as fine along the line of sight.
    """
    along, band, window = (
        (_STACK_ALONG, _STACK_BASE_BAND, sampler.strip)
        if fine
        else (_ALONG, _BASE_BAND, sampler.window)
    )
    shape = (len(_ACROSS), len(along))
    cell = (_ACROSS[1] - _ACROSS[0]) * (along[1] - along[0])
    emblems = np.zeros((32, 2))
    areas = np.zeros((32, 2))
    candidates = np.flatnonzero(1 - fractions[:, EMPTY] >= _OCCUPIED / 2)
    if not len(candidates):
        return emblems, areas
    windows = labels[window[candidates]]  # past the edge, the surround is its own class
    glare = saturated[window[candidates]]
    seen = (windows != OUTSIDE) & ~glare
    unlearnt = dark_strays[window[candidates]] & seen
    dark = (windows == BLACK) | (windows == EMPTY) | (windows == MARK) | unlearnt
    # A pale piece's top may look like the light squares (in an overexposed picture both
    # clip): on a dark square, clear of the blur along its edges, that is the White piece.
    pale = (windows == LIGHT) & sampler.inside_dark[window[candidates]]
    sides = (  # own colour, an emblem's
        ((windows == BLACK) & ~unlearnt, seen & ((windows != BLACK) | unlearnt)),
        (((windows == WHITE) | pale) & ~unlearnt, seen & dark),
    )
    for row, index in enumerate(candidates):
        for side, (own, other) in enumerate(sides):
            mask = own[row].reshape(shape).astype(np.uint8)
            if mask.sum() < 8:
                continue
            mask = _through(mask, band).astype(np.uint8)  # the piece on this square only
            if mask.sum() < 8:
                continue
            # What is not the piece, framed by 1s so that a flood from the frame finds holes.
            outside = np.ones((shape[0] + 2, shape[1] + 2), np.uint8)
            outside[1:-1, 1:-1] = 1 - mask
            cv2.floodFill(outside, None, (0, 0), 0)  # what the border reaches is not a hole
            holes = outside[1:-1, 1:-1].astype(bool) & other[row].reshape(shape)
            marked = (windows[row] == MARK).reshape(shape)
            emblems[index, side] = _central_hole(mask.astype(bool), holes, cell, marked)
            if sizes:  # well past the playing area lie spares, not this piece
                near = ~sampler.far_off[index].reshape(shape)
                areas[index, side] = _body((mask.astype(bool) | holes) & near, band) * cell
    return emblems, areas


def measure_squares(
    labels: np.ndarray,
    strange: np.ndarray,
    dark_strays: np.ndarray,
    saturated: np.ndarray,
    sampler: Sampler,
    outlines: np.ndarray | None = None,
    sizes: bool = True,
    bare: np.ndarray | None = None,
) -> Squares:
    """Fractions, stack heights and emblems of every square from labelled pixels (and which
    pixels fit no class well, which of those are darker than their class
    (:meth:`PixelModel.dark_strays`), which are glare); stack heights from ``outlines``
    where given (the pixels labelled by colours fitted closer to this frame's pieces); the
    pieces' areas if ``sizes`` (a quarter of a millisecond a frame, spent where kings are
    told by their size); ``bare``, each square's share that looks as it does empty
    (:meth:`PixelModel.bare`), is kept as given.
    A mark is looked for on two grids and the larger share counts: the finer one sees a small
    mark the coarser one blurs away (a printed star's thin arms), the coarser one a mark whose
    outline the finer one finds open to the rim."""
    fractions = _fractions(labels[sampler.box])
    (coarse, _), (fine, areas) = (
        _emblems(labels, dark_strays, saturated, sampler, fractions, fine, sizes and fine)
        for fine in (False, True)
    )
    return Squares(
        fractions=fractions,
        odd=strange[sampler.box].mean(axis=1),
        base=_fractions(labels[sampler.base]),
        heights=_stack_heights(labels if outlines is None else outlines, sampler),
        emblems=np.maximum(coarse, fine),
        light=(labels[sampler.light] == LIGHT).mean(axis=1),
        areas=areas,
        bare=np.zeros(32) if bare is None else bare,
    )


def sides(fractions: np.ndarray, base: np.ndarray) -> list[str]:
    """Each square's "empty" | "b" | "w" from the shares of its box and base in each class
    (32, 4): kings aside, what the square holds."""
    pieces = 1 - fractions[:, EMPTY]
    # A pale piece may be as pale as the light squares: on a dark square, light is white.
    black = base[:, BLACK] + 0.5 * fractions[:, BLACK]
    white = base[:, WHITE] + 0.5 * fractions[:, WHITE]
    white = white + 0.5 * (base[:, LIGHT] + 0.5 * fractions[:, LIGHT])
    return [
        "empty" if piece < _OCCUPIED else "b" if b >= w else "w"
        for piece, b, w in zip(pieces, black, white, strict=True)
    ]


def first_reading(labels: np.ndarray, sampler: Sampler) -> dict[int, str]:
    """Square -> "empty" | "b" | "w" from labelled pixels, kings aside: a quick reading."""
    return dict(
        enumerate(sides(_fractions(labels[sampler.box]), _fractions(labels[sampler.base])), 1)
    )


@dataclass
class SquareModel:
    """Per-board decision: the pixel classes and the men's height of each side (squares)."""

    pixels: PixelModel
    man_height: tuple[float, float]  # Black, White; 0 where stacks cannot be seen
    emblem: float = EMBLEM  # share of a piece's outline an emblem fills (men's marks less)
    #: The area of each side's men's outline at calibration (:attr:`Squares.areas`; 0 unknown).
    men_area: tuple[float, float] = (0.0, 0.0)
    #: A piece this many times its side's men's area or more (above 1), or this many times or
    #: less (below 1), is a king: a set whose kings are larger or smaller than its men, as the
    #: calibration's kings showed (0: this set's kings are not told by their size).
    king_size: float = 0.0

    def sized_king(self, area: float, side: int) -> bool:
        """Whether a piece of ``side`` whose outline has ``area`` is a king by its size."""
        men = self.men_area[side]
        if not self.king_size or men <= 0 or area <= 0:
            return False
        ratio = area / men
        return ratio >= self.king_size if self.king_size > 1 else ratio <= self.king_size

    def decide(self, squares: Squares, sampler: Sampler) -> tuple[list[str], np.ndarray]:
        """Each square's "empty" | "b" | "w" | "B" | "W", and which squares fit no class."""
        kinds = []
        for index, men in enumerate(sides(squares.fractions, squares.base)):
            if squares.bare[index] > BARE:  # the square looks as it does empty
                kinds.append("empty")
                continue
            crowned = squares.emblems[index] >= self.emblem
            if crowned.sum() == 1 and (men == "empty" or not crowned["bw".index(men)]):
                # A piece whose middle is another colour: its rim, the larger part, says whose
                # it is (a gold star on a dark king is no White piece, a dark one on a pale
                # king no Black one, nor empty board).
                side = int(np.argmax(crowned))
                rim = squares.fractions[index, (BLACK, WHITE)[side]]
                middle = squares.fractions[index, (WHITE, BLACK)[side]]
                if rim >= max(_OCCUPIED / 2, middle if men != "empty" else 0.0):
                    kinds.append("BW"[side])
                    continue
            if men == "empty":
                kinds.append("empty")
                continue
            side = "bw".index(men)
            if crowned.all():
                # A mark on each side's colour: the mark of one lies in the middle, where the
                # side is read, so the rim, the larger part of the square, says whose it is.
                side = int(squares.fractions[index, WHITE] > squares.fractions[index, BLACK])
            man = self.man_height[side]
            rise = sampler.rise[index]
            seen = rise >= STACKS_SEEN and man * rise >= _MIN_PARALLAX
            height = squares.heights[index, side]
            stack = seen and height >= _KING_HEIGHT * man and (height - man) * rise >= _MIN_PARALLAX
            king = (
                stack
                or squares.emblems[index, side] >= self.emblem
                or self.sized_king(float(squares.areas[index, side]), side)
            )
            symbol = "bw"[side]
            kinds.append(symbol.upper() if king else symbol)
        unknown = squares.odd > 0.5
        return kinds, unknown

    def to_json(self) -> dict[str, object]:
        """The model as plain numbers (the kings' size only where it was learnt)."""
        numbers: dict[str, object] = {
            "pixels": self.pixels.to_json(),
            "man_height": [round(v, 4) for v in self.man_height],
            "emblem": round(self.emblem, 4),
        }
        if self.king_size:
            numbers["men_area"] = [round(v, 4) for v in self.men_area]
            numbers["king_size"] = round(self.king_size, 4)
        return numbers
