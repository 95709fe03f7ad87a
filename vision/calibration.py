"""Calibration: where the board is in the picture and what its squares and pieces look like.

``calibrate`` takes one picture of a known position (the start position by default): it finds the
corners (ArUco markers first, then the checker grid, or corners given by hand), maps the picture
onto the canonical board and learns this board's colours (empty squares, light squares, both
sides' pieces) and how tall its men stand. A square that reads against the given position is a
warning naming it; only a picture where many do is refused. The result is saved as JSON.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from engine.board import Board, FenError
from engine.phrase import Phrase
from vision import READERS
from vision.calibration_file import LANDSCAPE_ONLY, VERSION, CalibrationFile
from vision.camera import (
    CameraPose,
    FocalEstimate,
    camera_pose,
    distort,
    focal_estimate,
    undistort,
)
from vision.colour import (
    BARE,
    BLACK,
    BLANK,
    BOX_RADII,
    EMBLEM,
    EMPTY,
    LIGHT,
    MARK,
    NO_COLOUR,
    OUTSIDE,
    STACKS_SEEN,
    START_POSITION,
    SURROUND,
    WHITE,
    PixelModel,
    Pixels,
    Sampler,
    SquareModel,
    Squares,
    blank,
    colourless,
    first_reading,
    measure_squares,
    reach_of,
    sample,
    training_pixels,
)
from vision.corners import (
    BOARD_LIKE,
    CornerError,
    board_likeness,
    canvas_maps,
    check_quad,
    find_board_corners,
    homography,
    in_picture,
    lens_distortion,
    remap,
    warp,
)
from vision.grid_snap import snap_corners
from vision.layout import CLEAR_CORNERS, CORNER_NAMES, MARGIN_PX, SQUARE_CENTRES, SQUARE_PX
from vision.looks import CalibratedView, square_looks
from vision.markers import (
    MARKER_IDS,
    board_corners_from_markers,
    detect_markers,
    follow_markers,
)
from vision.outline import UNSEEN_SIDE, round_outlines
from vision.patches import Windows
from vision.sources import SourceError, read_picture
from vision.squares import KING_SURE, BoardLook, embedding_size, network_id

SYMBOLS = ("empty", "b", "w", "B", "W", "unknown")
_UNLIKE = 0.25  # colour distance from its kind's median beyond which a square is not learnt from
_RECENTRE = 0.5  # how far a frame's own pixels move its copy of the colour centres
_PLAIN_RING = 0.3  # squares from its centre past which a king's top is plain (marks are central)
_PLAIN_SHARE = 60  # percent of that ring most alike in colour that is taken for the piece
_MARK_SHARE = 0.03  # share of its kings' tops unlike its plain tops past which crowns are marked
_FEWEST_PIXELS = 20  # sampled pixels a class (crowns' marks too) needs to be learnt
_CLEARLY = 0.25  # a difference of colour, in dark-to-light spans of the board, that is seen
#: Least margin, in men's areas, between the calibration's kings and men past which a set's
#: kings are told by their size: a man's outline measures within a few percent of the others
#: in one picture of a clean set; a tenth of a man either way is no shape of its own.
_SIZE_MARGIN = 0.15
#: Share of a square's box that must look like a piece, and as much like the board, before
#: the learnt reader's sure reading may overrule the colours there (:meth:`Calibration.read`).
DIVIDED = 0.05
#: Change of a square's rise (squares of parallax per square of height) past which a size
#: learnt from the pieces' outlines no longer holds: a man a third of a square tall then
#: shows a tenth of a square more (or less) of its side.
_RISEN = 0.3
_TOWARD_MEN = 0.25  # where in the margin the line lies, from the kings (a man is kept a man)
_FEWEST_MEN = 4  # men a calibration must show to learn the kings' size against theirs
_MAX_ODD = 0.15  # share of the known squares that may read wrong at calibration (then warned)
#: Share of the position's pieces that may read wrong: in an endgame of five pieces, the
#: squares' share alone would let four pass (a mirrored picture, the wrong position given).
_MAX_ODD_PIECES = 0.25
_BOARD_SPREAD = 25  # times the board's median squared spread within which a pixel is board
_BOARD_FLOOR = 0.02  # ... plus this (squared log colour), for a picture with little noise


#: A stand-in model while the sample regions are worked out, before anything is learnt.
_UNLEARNT = SquareModel(PixelModel(np.zeros((1, 3)), np.zeros(1, dtype=int), 0.0), (0.0, 0.0))


#: How far (in log width/height) a picture's shape may differ from its calibration's and
#: still be the same view scaled (rounding to even pixel counts); beyond, it is cropped.
_SAME_SHAPE = 0.02


class CalibrationError(ValueError):
    """A picture that cannot be calibrated from, or a calibration file that cannot be used."""


class NoSquareInTheClearError(CalibrationError):
    """A position whose empty or light squares are all covered: the colours cannot be learnt
    from it, where the learnt reader can."""


class CornersOffError(CalibrationError):
    """Corners between which the picture shows no checker pattern; ``draft`` places the grid
    where they put it (nothing learnt), to show the user where that is."""

    def __init__(self, message: str, draft: Calibration) -> None:
        super().__init__(message)
        self.draft = draft


@dataclass
class Calibration:
    """Board corners in the camera picture, the board's learnt colours and men's height.

    ``light`` holds each light square's log colour at calibration: light squares never hold a
    piece, so a change there means a hand, a shadow or a moved camera. ``odd`` holds the
    squares that read otherwise than the position when calibrating, ``warnings`` says so.
    """

    corners: np.ndarray  # (4, 2): a1, h1, h8, a8 in picture pixels
    method: str  # how the corners were found: one of calibration_file.METHODS
    image_size: tuple[int, int]  # (width, height) of the calibration picture
    model: SquareModel
    light: np.ndarray  # (32, 3)
    markers: dict[int, np.ndarray] = field(default_factory=dict)  # id -> (4, 2) at calibration
    #: Square -> (what it read as, what the position says) where the two differed.
    odd: dict[int, tuple[str, str]] = field(default_factory=dict)
    k1: float = 0.0  # the lens's radial distortion (``vision.camera.distort``)
    focal: FocalEstimate | None = None  # the calibration picture's focal length (None: unsaved)
    #: Whether the corners come from another picture than the calibration's: the focal length
    #: they imply is then pooled with ``focal`` (one camera), once, however often they move.
    pooled: bool = False
    #: Whether the calibration picture had colour: a frame with none then comes from a camera
    #: that has gone black-and-white (a webcam's night mode) and is refused, not read.
    coloured: bool = False
    #: The learnt reader's look of this board (:mod:`vision.squares`); when there is one, it,
    #: not the colours, says what each square holds (``calibrate --reader learnt``).
    look: BoardLook | None = None
    #: The learnt reader's look of this board where the colours read it: asked for a second
    #: opinion on squares whose occupancy the colours may have misread (:meth:`read`).
    opinion: BoardLook | None = None
    #: The calibration picture's position and squares' looks; none once the corners or the
    #: picture's size changed (the looks no longer compare) or in a file that has none.
    view: CalibratedView | None = None

    @property
    def warnings(self) -> list[str]:
        """One line for each odd square, for the user who calibrated."""
        return [
            f"square {s} looks odd (read {read!r}, should be {labelled!r}): "
            "glare or something on it? the other squares suffice"
            for s, (read, labelled) in self.odd.items()
        ]

    @property
    def homography(self) -> np.ndarray:
        """Picture (corrected for the lens) -> canonical board image."""
        return homography(undistort(self.corners, self.k1, self.image_size))

    @cached_property
    def maps(self) -> np.ndarray | None:
        """Where each canonical pixel lies in the picture, when the lens bends it."""
        return canvas_maps(self.corners, self.k1, self.image_size) if self.k1 else None

    def canvas(self, image: np.ndarray) -> np.ndarray:
        """The canonical top-down board image of a picture."""
        return warp(image, self.homography) if self.maps is None else remap(image, self.maps)

    @cached_property
    def pose(self) -> CameraPose:
        """Where the camera stands over the board (for parallax)."""
        focal = self.focal or focal_estimate(self.ideal_corners, self.image_size)
        if self.pooled:
            focal = focal.pooled(focal_estimate(self.ideal_corners, self.image_size))
        return camera_pose(self.ideal_corners, self.image_size, focal.sides)

    @property
    def ideal_corners(self) -> np.ndarray:
        """The corners as a pinhole camera would see them (the lens's bending undone)."""
        return undistort(self.corners, self.k1, self.image_size)

    @cached_property
    def sampler(self) -> Sampler:
        """Where each square is sampled under this camera pose."""
        return Sampler.build(self.pose)

    def _with(
        self, corners: np.ndarray, size: tuple[int, int], markers: dict, seen: bool
    ) -> Calibration:
        """This calibration with other corners; ``seen``: found in another picture, whose own
        estimate of the camera's focal length is pooled with the calibration picture's."""
        focal = self.focal or focal_estimate(self.ideal_corners, self.image_size)
        moved = Calibration(
            corners.astype(np.float32), self.method, size, self.model, self.light, markers,
            self.odd, self.k1, focal, seen or self.pooled, self.coloured, self.look,
            opinion=self.opinion,
        )  # fmt: skip
        if self.model.king_size and np.abs(moved.sampler.rise - self.sampler.rise).max() > _RISEN:
            # The pieces' sides now show otherwise than where the kings' size was learnt: a
            # man may look a king's size. The game's next kings teach it again.
            moved.model = replace(self.model, king_size=0.0)
        shades = self.model.pixels.shades
        if shades is not None:
            leaned = (moved.sampler.rise >= STACKS_SEEN) & ~np.isnan(shades).any(axis=1)
            if leaned.any():  # the pieces' sides now show there, over the squares' corners
                unknown = np.where(leaned[:, None], np.nan, shades)
                moved.model = replace(
                    moved.model, pixels=replace(moved.model.pixels, shades=unknown)
                )
        return moved

    def scaled_to(self, size: tuple[int, int]) -> Calibration:
        """The same calibration for pictures of another resolution of the same view."""
        if size == self.image_size:
            return self
        factor = np.array(size, dtype=np.float32) / np.array(self.image_size, dtype=np.float32)
        markers = {i: m * factor for i, m in self.markers.items()}
        return self._with(self.corners * factor, size, markers, seen=False)

    def moved_to(self, corners: np.ndarray, markers: dict[int, np.ndarray]) -> Calibration:
        """The same colours with new corners, after the camera has moved."""
        return self._with(corners, self.image_size, markers, seen=True)

    def follow(self, markers: dict[int, np.ndarray]) -> Calibration:
        """The same colours after the camera moved, from where all four markers seen at
        calibration now are (:func:`vision.markers.follow_markers`, the lens's bend undone
        first); ``CalibrationError`` if they fit no view of a plane."""
        if list(MARKER_IDS) != sorted(self.markers) or list(MARKER_IDS) != sorted(markers):
            raise CalibrationError("following the camera needs all four markers, then and now")
        size = self.image_size
        before = {i: undistort(m, self.k1, size) for i, m in self.markers.items()}
        after = {i: undistort(m, self.k1, size) for i, m in markers.items()}
        moved = follow_markers(self.ideal_corners, before, after)
        if moved is None:
            raise CalibrationError("the markers seen fit no view of the board: recalibrate")
        return self.moved_to(distort(moved, self.k1, size).astype(np.float32), markers)

    def placed_in(self, image: np.ndarray) -> Calibration:
        """The calibration where this picture shows the board: scaled to its resolution and,
        where the calibration saw markers and the picture shows them all, where they now put
        the board (the camera may have moved since)."""
        height, width = image.shape[:2]
        scaled = self.scaled_to((width, height))
        markers = detect_markers(image) if scaled.markers else {}
        if len(markers) == len(MARKER_IDS):
            return scaled.follow(markers)
        (was_width, was_height) = self.image_size
        if abs(np.log(width * was_height / (height * was_width))) > _SAME_SHAPE:
            raise CalibrationError(
                f"the picture is {width}x{height}, another shape than the calibration's "
                f"{was_width}x{was_height} (another camera mode, or a cropped copy), and no "
                "markers show where the board went: calibrate from a picture of this shape"
            )
        return scaled

    def to_picture(self, points: np.ndarray) -> np.ndarray:
        """Where points of the board's plane (n, 2), in squares from the a8 corner, lie in the
        calibration's picture (of ``image_size``: :meth:`scaled_to` or :meth:`placed_in` for
        another)."""
        canonical = np.asarray(points, dtype=np.float32) * SQUARE_PX + MARGIN_PX
        return in_picture(canonical, self.corners, self.k1, self.image_size)

    def seen_at(self, corners: np.ndarray, image: np.ndarray) -> Calibration:
        """The same colours and camera for another picture of the board whose corners are
        known (the focal lengths both pictures' corners imply pooled: a steadier pose)."""
        height, width = image.shape[:2]
        return self._with(corners, (width, height), {}, seen=True)

    def measure(self, canvas: np.ndarray) -> tuple[Pixels, Squares]:
        """A canonical image's sampled pixels and the squares' measurements."""
        pixels = sample(canvas, self.sampler)
        labels, strange = self.model.pixels.label(pixels)
        strays = self.model.pixels.dark_strays(pixels, labels, strange)
        # This frame's own classes, from a quick first reading, pull a copy of the colour
        # centres half-way to them: a different exposure or lamp of this very frame cancels.
        local = copy.deepcopy(self.model.pixels)
        position = first_reading(labels, self.sampler)
        own = np.where(strays, OUTSIDE, labels)  # a mark never seen moves no colour
        local.follow(training_pixels(pixels, self.sampler, position, own), _RECENTRE)
        labels, distance = local.nearest(pixels)
        strange = distance > local.reach
        strays = local.dark_strays(pixels, labels, strange)
        outlines = self._outlines(pixels, local, labels)
        squares = measure_squares(
            labels, strange, strays, pixels.saturated, self.sampler, outlines,
            sizes=bool(self.model.king_size), bare=local.bare(pixels, distance, self.sampler.box),
        )  # fmt: skip
        return pixels, squares

    def _outlines(self, pixels: Pixels, local: PixelModel, labels: np.ndarray) -> np.ndarray:
        """The pixels' classes that stacks are measured on: ``local`` (the half-way colours,
        moved here) fitted all the way to this frame's own pieces, so that a piece's outline
        neither stops short nor runs on into the board where the half-way colours mislabel part
        of it or the board beside it. Kept only if that fit reads every square as ``labels``
        do (else it drifted onto a mistake of its own), and only where the camera can see
        stacks at all. Emblems and occupancy stay on ``labels``: a fit that close can take a
        crown's mark into its piece's colour."""
        if not (self.sampler.rise >= STACKS_SEEN).any():
            return labels
        position = first_reading(labels, self.sampler)
        local.follow(training_pixels(pixels, self.sampler, position, labels), 1.0)
        fitted, _ = local.label(pixels)
        return fitted if first_reading(fitted, self.sampler) == position else labels

    def read(
        self,
        canvas: np.ndarray,
        outlines: bool = True,
        image: np.ndarray | None = None,
        known: Sequence[str] | None = None,
        moved: Collection[int] = (),
        kings: Collection[int] | None = None,
    ) -> tuple[list[str], np.ndarray, Pixels]:
        """A canonical image's kinds per square, the squares fitting no class, the pixels.
        ``outlines``: squares read as empty are looked at for a piece of neither side's colour
        (:mod:`vision.outline`; a camera's moving frames, which give no reading, skip it).
        ``image``: the picture ``canvas`` was made from, for the learnt reader's second
        opinion (:meth:`_second_opinion`): on every square, or given the position last known
        to stand (``known``, squares 1-32 in order), on those read otherwise and those whose
        look has ``moved`` since (squares 0-31: a piece set down where the colours miss it).
        ``kings``: None for a picture read once (``vision read``, ``evaluate``), where every
        man asked about is also asked whether it is a king; a camera's frames give the squares
        (0-31) where the game holds a king, and a man is asked there and, given ``known``, on
        the squares asked because they changed since (a move, a crown set on a man)."""
        pixels, squares = self.measure(canvas)
        kinds, unknown = self.model.decide(squares, self.sampler)
        if outlines:
            empty = [i for i, kind in enumerate(kinds) if kind == "empty"]
            for index in round_outlines(canvas, self.sampler, empty):
                kinds[index] = UNSEEN_SIDE
        if image is not None and self.opinion is not None:
            asked = [
                index
                for index, kind in enumerate(kinds)
                if known is None or (kind == "empty") != (known[index] == "empty") or index in moved
            ]
            crown = asked
            if kings is not None:
                crown = sorted(set(kings) | (set(asked) if known is not None else set()))
            kinds = self._second_opinion(self.opinion, image, kinds, squares, asked, crown)
        return kinds, unknown, pixels

    def _second_opinion(
        self,
        opinion: BoardLook,
        image: np.ndarray,
        kinds: list[str],
        squares: Squares,
        asked: list[int],
        crown: list[int],
    ) -> list[str]:
        """``kinds`` with the learnt reader's second opinion (by ``opinion``, this board's look;
        :meth:`BoardLook.opinions`) where it is sure: on the ``asked`` squares (0-31) whether
        they hold a piece, on the ``crown`` squares whether a man is a king.

        Whether a square holds a piece: where the colours were divided over it (a piece's
        colour on at least :data:`DIVIDED` of the square's box and board on as much) and the
        network is sure. So a dim king under a large mark, which the colours see only at its
        rim, is a piece, and glare or a black square that the colours take for part of a piece
        is none; where the colours see one thing alone (a lamp's reflection the network takes
        for a king, a piece wholly of its side's colour) they stand.

        Whether a man is a king: where the colours read a man, and the network's king odds
        pass this board's line by :data:`KING_SURE` (a crown's mark the colours did not find
        closed, or found too small). Only where the camera looks down from near above on every
        square: no stack's height shows anywhere, and every square tells kings alike (the
        tracker takes a king shown on one square and not on another for one not crowned).
        Where the camera sees pieces' sides, the colours alone tell kings, by height, mark or
        size; so they do in a set whose kings they learnt to tell by their size.
        """
        piece = 1 - squares.fractions[:, EMPTY]
        divided = {index for index in asked if DIVIDED <= piece[index] <= 1 - DIVIDED}
        overhead = bool((self.sampler.rise < STACKS_SEEN).all())
        crowning = overhead and not self.model.king_size
        men = {index for index in crown if kinds[index] in ("b", "w") and crowning}
        looked = sorted(divided | men)
        if not looked:
            return kinds
        patches, cast = self.windows.lit_patches(image)
        sure, crowned = opinion.opinions(patches[looked], cast)
        readings = list(kinds)
        for row, index in enumerate(looked):
            kind = kinds[index]
            reading = sure[row] or kind  # where the network is unsure, the colours' reading
            if index in divided and (reading == "empty") != (kind == "empty"):
                readings[index] = reading
            elif index in men and crowned[row, "bw".index(kind)] > KING_SURE:
                readings[index] = kind.upper()
        return readings

    @cached_property
    def windows(self) -> Windows:
        """Where the learnt reader's window of each square lies in this calibration's pictures."""
        return Windows.build(self.corners, self.k1, self.image_size, self.pose)

    def learnt_kinds(self, image: np.ndarray) -> list[str] | None:
        """What the learnt reader sees on each square 1-32 of a picture of this calibration's
        size, or None for a calibration without its look (read by the colours)."""
        if self.look is None:
            return None
        return self.look.read(*self.windows.lit_patches(image))

    def squares_in(self, image: np.ndarray, canvas: np.ndarray | None = None) -> dict[int, str]:
        """What each square of ``image`` holds (``canvas``: its canonical image, if made): by
        the learnt reader if the calibration has its look, else by the colours with the
        learnt reader's second opinion."""
        kinds = self.learnt_kinds(image)
        if kinds is None:
            kinds, _, _ = self.read(self.canvas(image) if canvas is None else canvas, image=image)
        return dict(zip(range(1, 33), kinds, strict=True))

    def learn_from(
        self, pixels: Pixels, position: Mapping[int, str], rate: float, recorded: bool = False
    ) -> None:
        """Follow the light: move the colours a step towards a picture of a known position.

        The first picture of a ``recorded`` position (one the game confirmed, not the reader's
        own reading) whose kings show marks that the colours would take for a piece (a board
        calibrated on the start position, whose kings appear only in play) teaches the marks
        as a class of their own; from then on they stay out of their side's colour. Likewise
        the first whose kings are all larger or smaller than its men (:func:`_king_size`)
        teaches that size. A calibration read by the learnt reader keeps the look it learnt.
        """
        if self.look is not None:
            return
        pieces = self.model.pixels
        if recorded and MARK not in pieces.classes:
            marks, _ = _crown_marks(pixels, self.sampler, position)
            taken = _taken_for_pieces(pieces, marks)
            if len(taken):
                self.model.pixels = pieces = _with_marks(pieces, taken)
        if recorded and not self.model.king_size and {"B", "W"} & set(position.values()):
            classes, strange = pieces.label(pixels)
            strays = pieces.dark_strays(pixels, classes, strange)
            squares = measure_squares(classes, strange, strays, pixels.saturated, self.sampler)
            men_area, king_size = _king_size(squares, position)
            if king_size:
                self.model.men_area, self.model.king_size = men_area, king_size
        labels = pieces.label(pixels)[0] if MARK in pieces.classes else None
        pieces.follow(training_pixels(pixels, self.sampler, position, labels), rate)

    def to_json(self) -> dict[str, object]:
        """The calibration as the JSON object ``save`` writes."""
        return (
            {
                "version": VERSION,
                "method": self.method,
                "image_size": list(self.image_size),
                "corners": {
                    n: c.round(2).tolist() for n, c in zip(CORNER_NAMES, self.corners, strict=True)
                },
                "homography": self.homography.round(8).tolist(),
                "k1": round(self.k1, 4),
                "focal": None
                if self.focal is None
                else [round(self.focal.log, 5), self.focal.variance],
                "camera": self.pose.to_json(),
                "model": self.model.to_json(),
                "light": self.light.round(5).tolist(),
                "markers": {str(i): m.round(2).tolist() for i, m in self.markers.items()},
                "odd": {str(s): list(pair) for s, pair in self.odd.items()},
                "coloured": self.coloured,
            }
            | ({} if self.look is None else {"look": self.look.to_json()})
            | ({} if self.opinion is None else {"opinion": self.opinion.to_json()})
            | (
                {}
                if self.view is None
                else {
                    "view": {
                        "position": {str(s): k for s, k in self.view.position.items()},
                        "looks": self.view.looks_text(),
                    }
                }
            )
        )

    @classmethod
    def from_json(cls, data: object, source: str = "") -> Calibration:
        """Inverse of :meth:`to_json`, checked by :class:`CalibrationFile`; a
        ``CalibrationError`` names the field that is wrong, and ``source`` (the file) if given."""
        where = f"{source}: " if source else ""
        try:
            file = CalibrationFile.model_validate(data)
        except ValidationError as error:
            raise CalibrationError(where + _explain(error.errors()[0], data)) from None
        if file.look is not None and file.look.network not in (None, network_id()):
            raise CalibrationError(
                f"{where}the learnt reader's look was made by another network "
                f"({file.look.network}; this one is {network_id()}): recalibrate"
            )
        opinion = file.opinion
        if opinion is not None and opinion.network not in (None, network_id()):
            opinion = None  # another network's: it means nothing to this one, the colours read
        for name, part in (("look", file.look), ("opinion", opinion)):
            if part is not None and len(part.centres[0]) != embedding_size():
                raise CalibrationError(
                    f"{where}malformed calibration: {name!r} should be the learnt reader's "
                    f"look, each centre of {embedding_size()} numbers: recalibrate"
                )
        width, height = file.image_size
        if file.version == LANDSCAPE_ONLY and height > width:
            raise CalibrationError(
                f"{where}calibration version {file.version} of a portrait picture measured the "
                f"lens in its width, version {VERSION} in its long side: recalibrate"
            )
        return cls(
            corners=file.corners.array(),
            method=file.method,
            image_size=file.image_size,
            model=file.model.square_model(),
            light=np.array(file.light, dtype=np.float64),
            markers={i: np.array(m, dtype=np.float32) for i, m in file.markers.items()},
            odd=dict(file.odd),
            k1=file.k1,
            focal=file.focal_estimate(),
            coloured=file.coloured,  # older files: not checked
            look=None if file.look is None else file.look.board_look(),
            opinion=None if opinion is None else opinion.board_look(),
            view=None if file.view is None else file.view.calibrated_view(),
        )

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
        return cls.from_json(data, str(path))


def _explain(error: ErrorDetails, data: object) -> str:
    """The first thing wrong with a calibration file, naming its field and what it should hold
    (the field's description in :class:`CalibrationFile`)."""
    if not error["loc"]:
        return "not a calibration (a JSON object): recalibrate"
    name = str(error["loc"][0])
    if name == "version":
        found = data.get("version") if isinstance(data, dict) else None
        return f"calibration version {found!r} is not {VERSION}: recalibrate"
    if error["type"] == "missing" and len(error["loc"]) == 1:
        return f"malformed calibration: {name!r} is missing: recalibrate"
    what = CalibrationFile.model_fields[name].description
    return f"malformed calibration: {name!r} should be {what}: recalibrate"


def locate_board(
    image: np.ndarray,
    corners: np.ndarray | None = None,
    position: Mapping[int, str] | None = None,
) -> tuple[np.ndarray, str, dict[int, np.ndarray]]:
    """Corners (a1, h1, h8, a8), the method that found them and the markers seen.

    Order: given corners, else all four markers, else the checker grid (whose a1 is the
    corner that puts ``position``'s Black pieces, the darker, where it names them). Markers
    that frame no checker pattern (another project's, at a sheet's corners) give no corners,
    but still follow the camera when it moves (:func:`vision.markers.follow_markers`).
    """
    seen = detect_markers(image)
    markers = seen if len(seen) == len(MARKER_IDS) else {}
    if corners is not None:
        check_quad(corners)
        return corners.astype(np.float32), "manual", markers
    misplaced = ""
    if markers:
        framed = board_corners_from_markers(markers)
        if board_likeness(warp(image, homography(framed))) >= BOARD_LIKE:
            return framed, "markers", markers
        misplaced = (
            "corner markers 0-3 were found, but no checker board lies between them (each "
            "must sit diagonally outside a corner of the playing area, as `poolboard vision "
            "markers` prints them)"
        )
    try:
        return find_board_corners(image, position=position), "auto", markers
    except CornerError as error:
        ids = ", ".join(str(i) for i in sorted(seen)) or "none"
        found = misplaced or f"corner markers not found (ids seen: {ids} of 0-3)"
        raise CalibrationError(
            f"{found} and {error}; "
            "give the corners by hand with --corners x,y,x,y,x,y,x,y (a1, h1, h8, a8)"
        ) from None


def _unlike_their_kind(pixels: Pixels, sampler: Sampler, position: Mapping[int, str]) -> set[int]:
    """Squares whose median colour is far from the rest of their kind's: not learnt from
    (a misplaced piece, glare), so that one wrong square cannot teach a wrong colour. Kings
    seen from near above (where stacks cannot show) are their own kind: a crown's mark makes
    them unlike the men, and is learnt from them (:func:`_colours`)."""
    seen = sampler.rise >= STACKS_SEEN
    kinds: dict[str, list[int]] = {}
    for s, v in position.items():
        if v in ("B", "W") and seen[s - 1]:
            v = v.lower()  # a stack: its walls are its side's colour, as a man's are
        kinds.setdefault(v, []).append(s)
    odd = set()
    for kind, squares in kinds.items():
        if kind == "unknown" or len(squares) < 3:
            continue
        region = sampler.box if kind == "empty" else sampler.base
        medians = np.array([np.median(pixels.colours[region[s - 1]], axis=0) for s in squares])
        centre = np.median(medians, axis=0)
        distance = np.linalg.norm(medians - centre, axis=1)
        limit = max(4 * 1.4826 * float(np.median(distance)), _UNLIKE)
        odd |= {s for s, d in zip(squares, distance, strict=True) if d > limit}
    return odd


def _training(
    pixels: Pixels, sampler: Sampler, position: Mapping[int, str], one_side: bool = False
) -> dict[int, np.ndarray]:
    """Each class's training pixels; a class the position does not show is refused, or, for a
    side with ``one_side``, left unlearnt."""
    names = {
        EMPTY: "empty square",
        LIGHT: "light square",
        BLACK: "Black piece",
        WHITE: "White piece",
    }
    samples: dict[int, np.ndarray] = {}
    for index, chosen in training_pixels(pixels, sampler, position).items():
        if len(chosen) >= _FEWEST_PIXELS:
            samples[index] = chosen
        elif index not in (BLACK, WHITE):
            raise NoSquareInTheClearError(
                f"cannot learn this board: the position shows no {names[index]} in the clear "
                "(calibrate on a position with empty squares and pieces of both sides)"
            )
        elif not one_side:
            raise CalibrationError(
                f"cannot learn this board: the position shows no {names[index]} in the clear "
                "(calibrate on a position with empty squares and pieces of both sides)"
            )
    return samples


def _crown_marks(
    pixels: Pixels, sampler: Sampler, position: Mapping[int, str]
) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """The crowns' marks in a picture of a known position: the pixels on the tops of kings
    seen from near above (where stacks cannot show) that are unlike every one of their side's
    plain tops, and for each side with such marks the regions (indices into the pixels) of its
    pieces less the marks. Plain tops are its men's, or where it has none (a late position, all
    kings) its kings' tops round the edge, where no crown's mark is printed."""
    seen = sampler.rise >= STACKS_SEEN
    marks, kept = [], {}
    for index, man, king in ((BLACK, "b", "B"), (WHITE, "w", "W")):
        men = [s - 1 for s, v in position.items() if v == man]
        kings = [s - 1 for s, v in position.items() if v == king and not seen[s - 1]]
        if not kings:
            continue
        if men:
            plain = pixels.colours[sampler.base[men].ravel()]
        else:
            plain = pixels.colours[sampler.box[kings][:, BOX_RADII >= _PLAIN_RING]]
            plain = plain.reshape(-1, 3)
            # A king set off-centre shows board there: keep the colours most like the rest.
            apart = ((plain - np.median(plain, axis=0)) ** 2).sum(axis=1)
            plain = plain[apart <= np.percentile(apart, _PLAIN_SHARE)]
        tops = PixelModel.learn({index: plain})
        spread = tops.distances(plain).min(axis=1)
        regions = np.hstack([sampler.base[kings], sampler.side[kings]]).ravel()
        unlike = tops.distances(pixels.colours[regions]).min(axis=1) > reach_of(spread)
        if unlike.mean() < _MARK_SHARE:
            continue  # its kings look like its men: no marks to learn
        marks.append(pixels.colours[regions[unlike]])
        men_regions = np.hstack([sampler.base[men], sampler.side[men]]).ravel()
        others = [s - 1 for s, v in position.items() if v == king and seen[s - 1]]
        whole = np.hstack([sampler.base[others], sampler.side[others]]).ravel()
        kept[index] = np.concatenate([men_regions, whole, regions[~unlike]])
    return (np.concatenate(marks) if marks else np.zeros((0, 3))), kept


def _taken_for_pieces(model: PixelModel, marks: np.ndarray) -> np.ndarray:
    """The marks' pixels (n, 3) that colours learnt without them would take for a piece
    (none if too few to learn from): those, and only those, need a class of their own. The
    rest already read as board, which a piece's emblem may be."""
    if len(marks) < _FEWEST_PIXELS:
        return marks[:0]
    distances = model.distances(marks)
    distances[:, model.classes == SURROUND] = np.inf  # not inside the playing area
    taken = marks[np.isin(model.classes[distances.argmin(axis=1)], (BLACK, WHITE))]
    return taken if len(taken) >= _FEWEST_PIXELS else marks[:0]


def _colours(
    pixels: Pixels, sampler: Sampler, position: Mapping[int, str], one_side: bool = False
) -> PixelModel:
    """The colour classes of a known position, with the crowns' marks (:func:`_crown_marks`)
    left out of their side's colour, so a dark star on a green sticker does not become green,
    and a class of their own if the colours learnt without them put them nearest a piece."""
    samples = _training(pixels, sampler, position, one_side)
    marks, kept = _crown_marks(pixels, sampler, position)
    for index, regions in kept.items():
        samples[index] = pixels.colours[regions]
    model = PixelModel.learn(samples)
    taken = _taken_for_pieces(model, marks)
    if len(taken):
        model = PixelModel.learn({**samples, MARK: taken})
    model.shades = _shades(pixels, sampler, position, model)
    return model


def _shades(
    pixels: Pixels, sampler: Sampler, position: Mapping[int, str], model: PixelModel
) -> np.ndarray:
    """Each dark square's own colour when empty: the median of its four corners' (clear of
    the blur along its edges, and bare of a piece on its centre; one a piece set off-centre
    covers is outvoted). Unknown (NaN) where the camera sees the pieces' sides, which lean
    over the corners; on a square the position does not name (off the picture, a label's
    doubt); and on a piece's square whose whole box looks like it (a hand or a sleeve over
    the square and its corners): no empty square looks so."""
    shades = np.median(pixels.colours[sampler.corners[:, CLEAR_CORNERS]], axis=1)
    shades[sampler.rise >= STACKS_SEEN] = np.nan
    shades[[s - 1 for s, v in position.items() if v == "unknown"]] = np.nan
    shaded = replace(model, shades=shades)
    bare = shaded.bare(pixels, shaded.nearest(pixels)[1], sampler.box)
    pieces = [s - 1 for s, v in position.items() if v in ("b", "w", "B", "W")]
    shades[[i for i in pieces if bare[i] > BARE]] = np.nan
    return shades


def _with_marks(model: PixelModel, marks: np.ndarray) -> PixelModel:
    """``model`` with the crowns' ``marks`` (n, 3) as a class of its own."""
    found = PixelModel.learn({MARK: marks})
    return PixelModel(
        np.vstack([model.centres, found.centres]),
        np.concatenate([model.classes, found.classes]),
        model.reach,
        model.shades,
    )


def _man_heights(
    squares: Squares, position: Mapping[int, str], sampler: Sampler
) -> tuple[float, float]:
    """Each side's men's height in squares (a king counts half), 0 where parallax hides it."""
    seen = sampler.rise >= STACKS_SEEN
    heights = []
    for side, (man, king) in enumerate((("b", "B"), ("w", "W"))):
        found = [
            squares.heights[s - 1, side] for s, v in position.items() if v == man and seen[s - 1]
        ]
        found += [
            squares.heights[s - 1, side] / 2
            for s, v in position.items()
            if v == king and seen[s - 1]
        ]
        heights.append(float(np.median(found)) if found else 0.0)
    if min(heights) <= 0:  # one side's men unseen: the sets' pieces are made alike
        heights = [max(heights)] * 2
    return heights[0], heights[1]


def _mens_marks(squares: Squares, position: Mapping[int, str]) -> float:
    """Twice the emblem share nine men in ten show (a knob, a mark, a scratch): no ordinary
    man of this set reads as a king, while one man's reflection does not hide every king."""
    marks = [squares.emblems[s - 1, "bw".index(v)] for s, v in position.items() if v in "bw"]
    return 2 * float(np.percentile(marks, 90)) if marks else 0.0


def _king_size(squares: Squares, position: Mapping[int, str]) -> tuple[tuple[float, float], float]:
    """Each side's men's outline area (:attr:`Squares.areas`), and the size against its side's
    men past which a piece is a king (:attr:`SquareModel.king_size`), where the position's
    kings are all larger, or all smaller, than every man by a clear margin (a set whose kings
    are another shape or size); else 0: its kings are told by their height or marks alone.
    The line lies a quarter of the margin short of the kings, so a man stays a man. A side
    with no man takes the other's men's area: the sets' pieces are made alike."""
    areas = {s: float(squares.areas[s - 1, "bw".index(v.lower())]) for s, v in position.items()
             if v in ("b", "w", "B", "W")}  # fmt: skip
    men_area = []
    for man in "bw":
        men_areas = [a for s, a in areas.items() if position[s] == man and a > 0]
        men_area.append(float(np.median(men_areas)) if men_areas else 0.0)
    if min(men_area) <= 0:
        men_area = [max(men_area)] * 2
    learnt = (men_area[0], men_area[1])
    sizes: dict[bool, list[float]] = {False: [], True: []}  # a king's?
    for square, area in areas.items():
        if area > 0 and learnt[0] > 0:
            usual = learnt["bw".index(position[square].lower())]
            sizes[position[square].isupper()].append(area / usual)
    men, kings = sizes[False], sizes[True]
    if not kings or len(men) < _FEWEST_MEN:
        return learnt, 0.0
    larger, smaller = min(kings) - max(men), min(men) - max(kings)
    if max(larger, smaller) < _SIZE_MARGIN:
        return learnt, 0.0
    if larger > smaller:
        return learnt, min(kings) - larger * _TOWARD_MEN
    return learnt, max(kings) + smaller * _TOWARD_MEN


def _emblem(squares: Squares, position: Mapping[int, str], sampler: Sampler) -> float:
    """The emblem share that marks a king on this set, above the men's marks
    (:func:`_mens_marks`). Where kings seen from near above show marks of at least half the
    usual floor, the floor is half their median (a mark blurred to half its share in another
    frame still counts), so never below a quarter of the usual."""
    overhead = sampler.rise < STACKS_SEEN
    floor = EMBLEM
    for side, king in enumerate("BW"):
        crowns = [
            squares.emblems[s - 1, side]
            for s, v in position.items()
            if v == king and overhead[s - 1]
        ]
        seen = float(np.median(crowns)) if crowns else 0.0
        if seen >= EMBLEM / 2:  # this side's kings carry marks
            floor = min(floor, seen / 2)
    small = max(floor, _mens_marks(squares, position))
    return small if small < EMBLEM else max(EMBLEM, _mens_marks(squares, position))


def learn(
    pixels: Pixels, sampler: Sampler, position: Mapping[int, str], labelled: bool = False
) -> tuple[SquareModel, dict[int, tuple[str, str]]]:
    """A board's square model from one picture of a known position, and the odd squares
    (square -> what it read as, what the position says).

    ``labelled`` is :func:`calibrate`'s: a side the position does not show is left unlearnt,
    and a picture that reads against its position on more squares than a calibration for play
    allows is not refused: it is learnt again without the squares that do not show their
    label (:func:`_showing_their_label`) and those read as the other side's piece (a slip). A
    label is the truth; what reads against it (pieces heaped or set down between squares,
    which no square's label describes) is named. Still refused: a side the position places
    that no square could teach (:func:`_check_sides_learnt`)."""
    model, kinds = _fitted(pixels, sampler, position, labelled)
    known = {s: v for s, v in position.items() if v != "unknown"}
    odd = [s for s, v in known.items() if kinds[s - 1].lower() != v.lower()]
    pieces = [s for s, v in known.items() if v != "empty"]
    odd_pieces = [s for s in odd if s in pieces]
    too_odd = len(odd) > _MAX_ODD * len(known) or len(odd_pieces) > _MAX_ODD_PIECES * len(pieces)
    if too_odd:
        if not labelled:
            raise CalibrationError(
                f"the picture does not read as the position given (squares {odd} differ, "
                f"{len(odd_pieces)} of its {len(pieces)} pieces among them): check the "
                "position, the corners (a1 first; a camera that mirrors its picture turns the "
                "board over) and the light"
            )
        agreed = {s: "unknown" if s in odd else v for s, v in position.items()}
        # A square read against its label in what it holds, not whose it is, may still show
        # its label (a side's colour learnt from board in the first fit reads its real pieces
        # empty): the board decides. One read as the other side's piece is a slip: left out.
        slips = {s for s in odd if "empty" not in (kinds[s - 1], known[s])}
        tested = {s: "unknown" if s in slips else v for s, v in position.items()}
        shown = _showing_their_label(pixels, sampler, tested, agreed)
        model, _ = _fitted(pixels, sampler, shown, labelled)
    _check_sides_learnt(model, known)
    return model, {s: (kinds[s - 1], known[s]) for s in odd}


def _check_sides_learnt(model: SquareModel, position: Mapping[int, str]) -> None:
    """``CalibrationError`` if a side that ``position`` puts on the board was not learnt (its
    pieces lie off their squares, heaped at the edge): every piece of it would read wrong."""
    for index, side, symbols in ((BLACK, "Black", "bB"), (WHITE, "White", "wW")):
        placed = [s for s, v in position.items() if v in symbols]
        if placed and index not in model.pixels.classes:
            raise CalibrationError(
                f"{side}'s pieces do not show on the squares the position puts them "
                f"({', '.join(map(str, placed))}), so their colour cannot be learnt: "
                "calibrate on a picture with the pieces set on their squares"
            )


def _showing_their_label(
    pixels: Pixels, sampler: Sampler, position: Mapping[int, str], agreed: Mapping[int, str]
) -> dict[int, str]:
    """``position`` with its squares that do not show what it says made unknown: a piece
    whose base is mostly board, an empty square mostly not. Board is judged on the median
    colours of the empty and light squares of ``agreed`` (the squares a first fit read as
    labelled) and a tight spread round them, not on colours learnt: where most pieces lie off
    their squares (scattered, heaped) the pieces' colours learnt from their squares are the
    board's, and every check against those passes. ``agreed`` itself where too little board
    shows to judge."""
    samples = training_pixels(pixels, sampler, agreed)
    board = np.zeros(len(pixels.colours), dtype=bool)
    for index in (EMPTY, LIGHT):
        if len(samples[index]) < _FEWEST_PIXELS:
            return dict(agreed)  # too little board in the clear to judge: the first fit's
        centre = np.median(samples[index], axis=0)
        spread = ((samples[index] - centre) ** 2).sum(axis=1)
        within = _BOARD_SPREAD * float(np.median(spread)) + _BOARD_FLOOR
        board |= ((pixels.colours - centre) ** 2).sum(axis=1) <= within

    def shows(square: int, value: str) -> bool:
        if value == "empty":
            return bool(board[sampler.box[square - 1]].mean() >= 0.5)
        return value == "unknown" or bool(board[sampler.base[square - 1]].mean() <= 0.5)

    return {s: v if shows(s, v) else "unknown" for s, v in position.items()}


def _fitted(
    pixels: Pixels, sampler: Sampler, position: Mapping[int, str], one_side: bool
) -> tuple[SquareModel, list[str]]:
    """The square model learnt from ``position`` (its colours, the men's heights, the crowns'
    marks) and what it reads each square of this very picture as."""
    unlike = _unlike_their_kind(pixels, sampler, position)
    trusted = {s: "unknown" if s in unlike else v for s, v in position.items()}
    pixel_model = _colours(pixels, sampler, trusted, one_side)
    labels, distance = pixel_model.nearest(pixels)
    strange = distance > pixel_model.reach
    strays = pixel_model.dark_strays(pixels, labels, strange)
    squares = measure_squares(
        labels, strange, strays, pixels.saturated, sampler,
        bare=pixel_model.bare(pixels, distance, sampler.box),
    )  # fmt: skip
    emblem = _emblem(squares, position, sampler)
    men_area, king_size = _king_size(squares, trusted)
    heights = _man_heights(squares, position, sampler)
    model = SquareModel(pixel_model, heights, emblem, men_area, king_size)
    kinds, _ = model.decide(squares, sampler)
    return model, kinds


def parse_position(text: str) -> dict[int, str]:
    """A position from a PDN FEN (``W:W21,K22:B1,2``); ``CalibrationError`` if malformed."""
    try:
        board = Board.from_fen(text)
    except FenError as error:
        raise CalibrationError(f"--fen: {error}") from None  # the FenError quotes the FEN
    position = {}
    for square in range(1, 33):
        piece = board.piece_at(square)
        position[square] = "empty" if piece is None else piece.symbol
    return position


def black_looks_white(calibration: Calibration) -> bool:
    """Whether the pieces learnt as Black's are clearly lighter than White's and not redder:
    Black is the darker or red side (R-BRD-3), so the board was most likely given turned
    round (corners from the wrong corner, markers placed the wrong way). Brightness and
    redness are on the board's own scale (dark squares 0, light squares 1 in each channel)."""
    pixels = calibration.model.pixels
    black = pixels.centres[pixels.classes == BLACK]
    white = pixels.centres[pixels.classes == WHITE]
    if not len(black) or not len(white):
        return False
    black_colour, white_colour = black.mean(axis=0), white.mean(axis=0)
    lighter = black_colour.mean() - white_colour.mean()
    redder = (black_colour[2] - black_colour[0]) - (white_colour[2] - white_colour[0])  # BGR
    return bool(lighter > _CLEARLY and redder < _CLEARLY)


def given_position(position: Mapping[int, str] | None) -> dict[int, str]:
    """The position a calibration learns: ``position``, or the start position, with every
    square it does not name empty."""
    return dict.fromkeys(range(1, 33), "empty") | dict(position or START_POSITION)


def calibrate(
    image: np.ndarray,
    corners: np.ndarray | None = None,
    position: Mapping[int, str] | None = None,
    labelled: bool = False,
    reader: str = "colour",
) -> Calibration:
    """Calibrate from one picture of a known position (by default the start position).

    ``position`` maps squares 1-32 to "b", "w", "B", "W", "empty" or "unknown" (squares it
    does not name are empty). A position without pieces of both sides is refused, since play
    needs both, and so are corners between which the picture shows no checker pattern, since
    every reading would be. ``labelled``: the picture's corners and position are a label's,
    trusted (``evaluate``): what it shows is learnt (one side only, half a photo's squares),
    and the corners are taken as they are, even outside the picture (a board cut by the
    frame: the squares it does not wholly show are not learnt from). ``reader`` "learnt"
    also learns the board's look for the learnt reader (:mod:`vision.squares`), which then
    reads the squares. Where the colours cannot be learnt (no empty square in the clear) but
    the position shows both sides, the learnt reader reads whichever was asked for, with the
    light squares still watched for hands and a moved camera.
    """
    if reader not in READERS:
        raise CalibrationError(f"reader {reader!r}: one of {', '.join(READERS)}")
    if image.ndim != 3 or image.shape[2] != 3:
        raise CalibrationError("calibration needs a colour picture")
    if blank(image):
        raise CalibrationError(f"the picture is {BLANK}")
    known = given_position(position)
    bad = [f"{s}={v!r}" for s, v in known.items() if v not in SYMBOLS or not 1 <= s <= 32]
    if bad:
        raise CalibrationError(f"position: {', '.join(bad)}: squares 1-32, each one of {SYMBOLS}")
    found, method, markers = locate_board(image, corners, known)
    height, width = image.shape[:2]
    slack = 0.05 * max(width, height)  # a corner hidden just off the edge may be estimated
    outside = [
        f"{name} ({x:.0f},{y:.0f})"
        for name, (x, y) in zip(CORNER_NAMES, found, strict=True)
        if not (-slack <= x <= width + slack and -slack <= y <= height + slack)
    ]
    if outside and not labelled:
        raise CalibrationError(
            f"corner{'s' if len(outside) > 1 else ''} {', '.join(outside)} "
            f"lie{'' if len(outside) > 1 else 's'} outside the {width}x{height} picture: give "
            "the playing area's corners in this picture's pixels"
        )
    if labelled:  # a label's corners are the truth it is scored on: kept as given
        k1 = lens_distortion(image, found)
    else:
        found, k1 = snap_corners(image, found)
    # The grid found says nothing of its turn; the pieces guessed it (vision.corners.orient).
    # Where the board then reads otherwise than the position given, its half turn (which
    # keeps the dark squares dark) is tried too, and whichever reads the position better kept.
    turns = [found, np.roll(found, 2, axis=0)] if method == "auto" else [found]
    best: Calibration | None = None
    refusals: list[CalibrationError] = []
    for turn in turns:
        try:
            calibration = _learnt_at(image, turn, method, markers, k1, known, labelled, reader)
        except CalibrationError as error:
            refusals.append(error)
            continue
        if best is None or len(calibration.odd) < len(best.odd):
            best = calibration
        if not best.odd:
            break
    if best is None:
        raise refusals[0]  # the turn found's: why the board as found cannot be learnt
    return best


def _learnt_at(
    image: np.ndarray,
    found: np.ndarray,
    method: str,
    markers: dict[int, np.ndarray],
    k1: float,
    known: dict[int, str],
    labelled: bool,
    reader: str,
) -> Calibration:
    """:func:`calibrate`'s calibration at corners ``found`` through a lens ``k1``."""
    height, width = image.shape[:2]
    draft = Calibration(found, method, (width, height), _UNLEARNT, np.zeros((32, 3)), k1=k1)
    canvas = draft.canvas(image)
    if not labelled and board_likeness(canvas) < BOARD_LIKE:  # every reading would be refused
        raise CornersOffError(
            "the squares do not line up with the corners "
            + ("given: click the playing area's own corners, a1 first" if method == "manual"
               else "found: give the corners by hand with --corners"),
            draft,
        )  # fmt: skip
    if labelled:  # a label's board may run off the picture: learn from what it shows
        known = known | dict.fromkeys(_out_of_picture(draft), "unknown")
    pixels = sample(canvas, draft.sampler)
    coloured = not colourless(image)
    look = None
    if reader == "learnt":
        check_both_sides(known)
        patches, cast = draft.windows.lit_patches(image)
        look = BoardLook.learn(patches, known, cast)
    try:
        model, odd = learn(pixels, draft.sampler, known, labelled)
    except CalibrationError as error:
        if not coloured:
            raise CalibrationError(
                f"{error}; the picture is black and white, and {NO_COLOUR}"
            ) from None
        if look is None:  # the learnt reader needs no empty square: it reads instead
            if not isinstance(error, NoSquareInTheClearError) or not _both_sides(known):
                raise
            patches, cast = draft.windows.lit_patches(image)
        look = BoardLook.learn(patches, known, cast)
        model, odd = _UNLEARNT, {}
    opinion = None
    if look is None and coloured:  # the colours read; the learnt reader's look seconds them
        patches, cast = draft.windows.lit_patches(image)
        opinion = BoardLook.learn(patches, known, cast)
    pieces = {s: k for s, k in known.items() if k in ("b", "w", "B", "W")}
    view = None if labelled else CalibratedView(pieces, square_looks(canvas))
    return Calibration(
        found, method, (width, height), model, pixels.light, markers, odd, k1,
        focal_estimate(draft.ideal_corners, (width, height)), coloured=coloured, look=look,
        opinion=opinion, view=view,
    )  # fmt: skip


def _both_sides(position: Mapping[int, str]) -> bool:
    """Whether ``position`` shows a piece of each side."""
    values = set(position.values())
    return bool(values & {"b", "B"}) and bool(values & {"w", "W"})


def check_both_sides(position: Mapping[int, str]) -> None:
    """``CalibrationError`` for a position without a piece of each side: the learnt reader
    tells the sides apart by the two sets it was shown."""
    for side, symbols in (("Black", "bB"), ("White", "wW")):
        if not any(v in symbols for v in position.values()):
            raise CalibrationError(
                f"the position shows no {side} piece: a board is calibrated on a position "
                "with pieces of both sides"
            )


def _out_of_picture(calibration: Calibration) -> list[int]:
    """The dark squares of which some part lies outside the picture the calibration is for."""
    width, height = calibration.image_size
    offsets = np.array([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)])
    corners = SQUARE_CENTRES[:, None] + offsets
    seen = calibration.to_picture(corners.reshape(-1, 2)).reshape(32, 4, 2)
    inside = (seen >= 0).all(axis=-1) & (seen[..., 0] <= width - 1) & (seen[..., 1] <= height - 1)
    return [square for square in range(1, 33) if not inside[square - 1].all()]


def read_squares(calibration: Calibration, image: np.ndarray) -> dict[int, str]:
    """One picture's reading, square -> "b" | "w" | "B" | "W" | "empty", with no stillness or
    hand checks, the board placed as :meth:`Calibration.placed_in` finds it."""
    return read_placed(calibration.placed_in(image), image)


def why_unreadable(calibration: Calibration, image: np.ndarray) -> Phrase | None:
    """Why no picture like ``image`` can be read with ``calibration`` (said as "the picture
    is ..."), or None: nothing in it, or black and white where the calibration's had colour."""
    if blank(image):
        return BLANK
    if calibration.coloured and colourless(image):
        return Phrase("black and white where the calibration's had colour, and {advice}",
                      advice=NO_COLOUR)  # fmt: skip
    return None


def read_placed(placed: Calibration, image: np.ndarray) -> dict[int, str]:
    """:func:`read_squares` with the board already placed in this picture (``placed``)."""
    if why := why_unreadable(placed, image):
        raise CalibrationError(f"the picture is {why}")
    canvas = placed.canvas(image)
    if board_likeness(canvas) < BOARD_LIKE:
        raise CalibrationError(
            "the picture shows no checker board where the calibration puts it: is it the same "
            "camera, looking at the board? recalibrate if it moved"
        )
    return placed.squares_in(image, canvas)


def load_image(path: str | Path) -> np.ndarray:
    """A colour picture from a file; ``CalibrationError`` if missing or unreadable."""
    try:
        return read_picture(path)
    except SourceError as error:
        raise CalibrationError(str(error)) from None
