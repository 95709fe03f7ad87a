"""The calibration file (``cal.json``) as one typed model: every field's type, range and shape
checked in one place when the file is read.

:class:`CalibrationFile` validates what :meth:`vision.calibration.Calibration.to_json` writes
(and versions 2 and 3 of it); each field's ``description`` says what it must hold, for the
error that names a malformed one. Fields derived on loading (``homography``, ``camera``) are
written for people who read the file, and ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

import numpy as np
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, model_validator

from vision.camera import FOCAL_RANGE, FOCAL_VARIANCE, FocalEstimate
from vision.colour import CLASSES, KING_SIZE_APART, PixelModel, SquareModel
from vision.corners import K1_RANGE
from vision.layout import CORNER_NAMES
from vision.looks import CalibratedView
from vision.markers import MARKER_IDS
from vision.squares import BoardLook

VERSION = 3
#: Version 2 measured the lens and focal length in picture widths: the same as now for a
#: landscape picture (width the long side), so such files still load.
LANDSCAPE_ONLY = 2
METHODS = ("markers", "auto", "manual")

Point = tuple[float, float]
Colour = tuple[float, float, float]
_Positive = Annotated[float, Field(gt=0)]
_NotNegative = Annotated[float, Field(ge=0)]
Square = Annotated[int, Field(ge=1, le=32)]


def _within(low: float, high: float) -> AfterValidator:
    """A number from ``low`` to ``high``."""

    def check(value: float) -> float:
        if not low <= value <= high:
            raise ValueError(f"not within {low}-{high}")
        return value

    return AfterValidator(check)


def _one_of(choices: tuple[str, ...]) -> Callable[[str], str]:
    """A check that a string is one of ``choices``."""

    def check(value: str) -> str:
        if value not in choices:
            raise ValueError(f"not one of {', '.join(choices)}")
        return value

    return check


class _Part(BaseModel):
    """A part of the file: finite numbers only; keys it does not know are ignored, as before."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False, frozen=True)


class PixelModelFile(_Part):
    """:class:`vision.colour.PixelModel`: colour centres, each with its class, and the reach."""

    centres: list[Colour]
    classes: list[Annotated[str, AfterValidator(_one_of(CLASSES))]]
    reach: float
    #: Each dark square's colour when empty, null where unknown (older files: none).
    shades: list[Colour | None] | None = None

    @model_validator(mode="after")
    def _one_class_each(self) -> PixelModelFile:
        if len(self.classes) != len(self.centres):
            raise ValueError("one class for each centre")
        if self.shades is not None and len(self.shades) != 32:
            raise ValueError("shades: one for each of the 32 dark squares")
        return self


class SquareModelFile(_Part):
    """:class:`vision.colour.SquareModel`: the colours, the men's heights, the emblems' share."""

    pixels: PixelModelFile
    man_height: tuple[float, float]
    emblem: float
    men_area: tuple[_NotNegative, _NotNegative] = (0.0, 0.0)  # absent from older files
    king_size: _NotNegative = 0.0

    @model_validator(mode="after")
    def _a_size_learnt(self) -> SquareModelFile:
        if self.king_size and (abs(self.king_size - 1) < KING_SIZE_APART or 0 in self.men_area):
            raise ValueError(
                f"king_size should be 0, or at least {KING_SIZE_APART} from 1 with both men's "
                "areas above 0"
            )
        return self

    def square_model(self) -> SquareModel:
        """The model these numbers describe."""
        pixels = PixelModel(
            np.array(self.pixels.centres, dtype=np.float64),
            np.array([CLASSES.index(c) for c in self.pixels.classes], dtype=int),
            self.pixels.reach,
            None
            if self.pixels.shades is None
            else np.array([s or (np.nan,) * 3 for s in self.pixels.shades], dtype=np.float64),
        )
        return SquareModel(pixels, self.man_height, self.emblem, self.men_area, self.king_size)


class LookFile(_Part):
    """:class:`vision.squares.BoardLook`: the learnt reader's look of one board."""

    centres: tuple[list[float], list[float], list[float]]
    spread: Annotated[float, Field(gt=0)]
    side_colours: tuple[Colour, Colour]
    side_spread: Colour
    present: tuple[StrictBool, StrictBool, StrictBool]
    king_odds: tuple[float, float]
    network: str | None = None  # the network it was learnt with (older files: not named)
    #: The calibration picture's light colour cast, each channel over the mean (older files:
    #: none, and frames are read without bringing them to it).
    light_balance: tuple[_Positive, _Positive, _Positive] | None = None

    @model_validator(mode="after")
    def _one_embedding_length(self) -> LookFile:
        if len({len(centre) for centre in self.centres}) != 1:
            raise ValueError("three centres of one length")
        return self

    def board_look(self) -> BoardLook:
        """The look these numbers describe."""
        return BoardLook(
            np.array(self.centres, dtype=float), self.spread,
            np.array(self.side_colours, dtype=float), np.array(self.side_spread, dtype=float),
            np.array(self.present), np.array(self.king_odds, dtype=float), self.network,
            None if self.light_balance is None else np.array(self.light_balance, dtype=float),
        )  # fmt: skip


class ViewFile(_Part):
    """:class:`vision.looks.CalibratedView`: the position calibrated on and its squares' looks."""

    position: dict[Square, Literal["b", "w", "B", "W"]]
    looks: str

    def calibrated_view(self) -> CalibratedView:
        """The view these fields describe; ``ValueError`` names what is wrong with the looks."""
        return CalibratedView(dict(self.position), CalibratedView.looks_from_text(self.looks))

    @model_validator(mode="after")
    def _looks_readable(self) -> ViewFile:
        self.calibrated_view()
        return self


class CornersFile(_Part):
    """The playing area's corners in the calibration picture, in pixels."""

    a1: Point
    h1: Point
    h8: Point
    a8: Point

    def array(self) -> np.ndarray:
        """The corners (4, 2) in the order a1, h1, h8, a8."""
        return np.array([getattr(self, name) for name in CORNER_NAMES], dtype=np.float32)


def _all_or_no_markers(markers: dict[int, tuple[Point, ...]]) -> dict[int, tuple[Point, ...]]:
    if markers and sorted(markers) != list(MARKER_IDS):
        raise ValueError("not all four markers")
    return markers


def _focal_in_range(focal: tuple[float, float] | None) -> tuple[float, float] | None:
    if focal is not None:
        low, high = (float(np.log(v)) for v in FOCAL_RANGE)
        if not (low <= focal[0] <= high and FOCAL_VARIANCE[0] <= focal[1] <= FOCAL_VARIANCE[1]):
            raise ValueError("out of range")
    return focal


class CalibrationFile(_Part):
    """The whole calibration file. Optional fields are those older files lack."""

    version: Literal[3, 2] = Field(
        description=f"{VERSION} (or {LANDSCAPE_ONLY}, of a landscape picture)"
    )
    image_size: tuple[Annotated[int, Field(gt=0)], Annotated[int, Field(gt=0)]] = Field(
        description="[width, height]: the picture's size in pixels"
    )
    corners: CornersFile = Field(
        description="a table of the corners a1, h1, h8, a8, each [x, y] in pixels"
    )
    method: Annotated[str, AfterValidator(_one_of(METHODS))] = Field(
        description=f"one of {', '.join(METHODS)}"
    )
    model: SquareModelFile = Field(description="the colours and heights calibrate learnt")
    light: Annotated[list[Colour], Field(min_length=32, max_length=32)] = Field(
        description="32 rows of three numbers (the light squares' colours)"
    )
    markers: Annotated[
        dict[int, tuple[Point, Point, Point, Point]], AfterValidator(_all_or_no_markers)
    ] = Field(
        default_factory=dict,
        description="a table of all four markers 0-3 (or of none), each four [x, y] corners",
    )
    odd: dict[Square, tuple[str, str]] = Field(
        default_factory=dict,
        description='a table of squares, each [as read, as the position says], e.g. ["b", "empty"]',
    )
    k1: Annotated[float, _within(*K1_RANGE)] = Field(
        default=0.0, description=f"a lens distortion from {K1_RANGE[0]} to {K1_RANGE[1]}"
    )
    focal: Annotated[tuple[float, float] | None, AfterValidator(_focal_in_range)] = Field(
        default=None,
        description=(
            f"[log long sides from {np.log(FOCAL_RANGE[0]):.2f} to "
            f"{np.log(FOCAL_RANGE[1]):.2f}, a variance from {FOCAL_VARIANCE[0]:g} to "
            f"{FOCAL_VARIANCE[1]:g}], or null"
        ),
    )
    coloured: StrictBool = Field(default=False, description="true or false")
    look: LookFile | None = Field(
        default=None,
        description="the learnt reader's look of the board (centres, spreads, colours, king odds)",
    )
    opinion: LookFile | None = Field(
        default=None,
        description=(
            "the learnt reader's look of the board, asked for a second opinion where the "
            "colours read (as look)"
        ),
    )
    view: ViewFile | None = Field(
        default=None,
        description=(
            "the position calibrated on (a table of squares, each b, w, B or W) and its "
            "squares' looks (base64)"
        ),
    )

    def focal_estimate(self) -> FocalEstimate | None:
        """The saved focal length, or None where the file has none."""
        return None if self.focal is None else FocalEstimate(*self.focal)
