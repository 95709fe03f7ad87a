"""Measure the reader on labelled real photos, board by board, as boards it has never seen.

Labels follow ``/work/shared/photos/labels.json``: per photo the playing area's corners
(``corners_a1_h1_h8_a8``) and each square ``empty|b|B|w|W|unknown``. Protocol: the photos are
grouped by board and set; each board is calibrated as a user would, on one of its photos with
the position it shows, and its other photos are read, every photo serving as the calibration in
turn; a photo alone of its board is read in two halves, each with a calibration learnt from the
other half of its squares only. Nothing is learnt from the square being read. The learnt reader
(:mod:`vision.squares`) brings nothing learnt from any photo; the colour reader's rules were
tuned on the development photos, so its figures on them overstate what it does on a board it has
never seen. A calibration picture that cannot be learnt from makes
no reads; the report says how many, and the total were they counted wrong. Figures come per
photo, per board and in total.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.calibration import (
    Calibration,
    CalibrationError,
    calibrate,
    check_both_sides,
    load_image,
)
from vision.corners import BOARD_LIKE, CornerError, board_likeness, check_quad, homography, warp
from vision.layout import LAYOUT
from vision.outline import UNSEEN_SIDE
from vision.sources import SourceError, read_picture

VALUES = ("empty", "b", "B", "w", "W")
_SAME_BOARD = 0.85  # cosine of board colours above which two photos show one board and set


class LabelError(ValueError):
    """A labels file that cannot be used; the message names the photo and the field."""


@dataclass
class Photo:
    """One labelled photo: its picture, the playing area's corners and the true squares."""

    name: str
    image: np.ndarray = field(repr=False)
    corners: np.ndarray = field(repr=False)
    truth: dict[int, str]
    source: str

    @property
    def repository(self) -> str:
        """The repository the photo comes from (photos of one repository may share a board)."""
        return self.source.split("@")[0]


@dataclass
class Trial:
    """One photo read with one calibration: ``learnt_from`` names the calibration picture.
    ``refused`` is why that picture could not be learnt from (then nothing was read)."""

    photo: str
    learnt_from: str
    truth: dict[int, str]
    reading: dict[int, str]
    refused: str = ""
    board: str = ""  # the board the photo shows (its first photo's name, and how many more)

    def compared(self) -> list[tuple[int, str, str]]:
        """(square, truth, reading) for every labelled square; none if the calibration was
        refused (:func:`report` says how many reads that left out)."""
        if self.refused:
            return []
        return [(s, t, self.reading[s]) for s, t in self.truth.items() if t != "unknown"]

    @property
    def labelled(self) -> int:
        """How many squares the photo's labels name (what a read would have compared)."""
        return sum(t != "unknown" for t in self.truth.values())


def load_labels(
    path: str | Path, images: str | Path | None = None, skipped: list[str] | None = None
) -> list[Photo]:
    """The photos a labels file names, from ``images`` (default: the labels' folder). A photo
    whose label or picture cannot be used raises ``LabelError``, or, given ``skipped``, is left
    out with the reason appended there (one bad photo need not cost a whole set)."""
    try:
        data = json.loads(Path(path).read_text())
        entries = data["photos"].items()
    except FileNotFoundError:
        raise LabelError(f"labels file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise LabelError(f"cannot read labels {str(path)!r}: {error}") from None
    except (KeyError, TypeError, AttributeError):
        raise LabelError(f"labels {str(path)!r} have no 'photos' object") from None
    folder = Path(images) if images is not None else Path(path).parent
    photos = []
    for name, entry in entries:
        try:
            photos.append(_photo(name, entry, folder))
        except LabelError as error:
            if skipped is None:
                raise
            skipped.append(str(error))
    return photos


def _photo(name: str, entry: object, folder: Path) -> Photo:
    """One labelled photo; ``LabelError`` naming it and what is wrong."""
    if not isinstance(entry, dict):
        raise LabelError(f"{name}: malformed label (not an object)")
    try:
        corners = np.array(entry["corners_a1_h1_h8_a8"], dtype=np.float32).reshape(4, 2)
        truth = {int(s): str(v) for s, v in entry["squares"].items()}
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise LabelError(f"{name}: malformed label ({error})") from None
    try:
        check_quad(corners)
    except CornerError as error:
        raise LabelError(f"{name}: {error}") from None
    wrong = [f"{s}={v}" for s, v in truth.items() if v not in (*VALUES, "unknown")]
    if sorted(truth) != list(range(1, 33)) or wrong:
        raise LabelError(f"{name}: squares must be 1-32, each one of {VALUES} or unknown")
    try:
        image = load_image(folder / name)
        image, corners = _as_labelled(name, folder / name, image, corners, entry.get("size"))
    except (CalibrationError, SourceError) as error:
        raise LabelError(str(error)) from None
    return Photo(name, image, corners, truth, str(entry.get("source", name)))


def _as_labelled(
    name: str, path: Path, image: np.ndarray, corners: np.ndarray, size: object
) -> tuple[np.ndarray, np.ndarray]:
    """The picture and its corners in the pixels the label's ``size`` (width, height) names.

    A picture saved at another resolution has its corners scaled. One that its EXIF tag turns
    or mirrors (a phone's) may have been labelled as shown or as stored: where both fit, the
    one whose labelled corners frame the checker pattern better is read. Anything else is
    named.
    """
    if size is None:
        wanted = None
    else:
        try:
            wanted = tuple(int(v) for v in size)  # type: ignore[attr-defined]
        except (TypeError, ValueError):
            wanted = ()
        if len(wanted) != 2 or min(wanted) <= 0:
            raise LabelError(f"{name}: size {size!r} is not [width, height]")
    pictures = [image]
    stored = read_picture(path, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    if stored.shape != image.shape or not np.array_equal(stored, image):
        pictures.append(stored)
    fits = [(p, c) for p in pictures if (c := _in_pixels_of(p, corners, wanted)) is not None]
    if not fits:  # only a size can rule every picture out
        width, height = wanted or (0, 0)
        raise LabelError(
            f"{name}: labelled as {width}x{height} pixels, but the picture is "
            f"{image.shape[1]}x{image.shape[0]}: label this very file"
        )
    return max(fits, key=lambda fit: board_likeness(warp(fit[0], homography(fit[1]))))


def _in_pixels_of(
    picture: np.ndarray, corners: np.ndarray, size: tuple[int, ...] | None
) -> np.ndarray | None:
    """The labelled corners in this picture's pixels (scaled if it is another resolution of
    the labelled size), or ``None`` if its shape is another."""
    found = (picture.shape[1], picture.shape[0])
    if size is None or found == size:
        return corners
    width, height = size
    if abs(found[0] / found[1] - width / height) < 0.01 * width / height:
        scale = np.array([found[0] / width, found[1] / height], dtype=np.float32)
        return (corners * scale).astype(np.float32)
    return None


def board_colours(image: np.ndarray, corners: np.ndarray, truth: dict[int, str]) -> np.ndarray:
    """Empty squares' and both sides' log colours against the light squares' (9 numbers)."""
    logs = np.log1p(warp(image, homography(corners)).reshape(-1, 3).astype(np.float32))
    squares = np.median(logs[LAYOUT.discs], axis=1) - np.median(logs[LAYOUT.light], axis=(0, 1))
    kinds = [[s - 1 for s, v in truth.items() if v.lower() == k] for k in ("empty", "b", "w")]
    return np.concatenate([np.median(squares[k], axis=0) if k else np.zeros(3) for k in kinds])


def _colours_of(photo: Photo) -> np.ndarray:
    return board_colours(photo.image, photo.corners, photo.truth)


def _same_board(one: np.ndarray, two: np.ndarray) -> bool:
    """Whether two photos of one repository, whose :func:`board_colours` these are, show one
    board and set: alike colours (their directions, not their sizes: a washed-out picture of
    a board has the same hues, weaker), compared on the classes both show."""
    shown = ((one.reshape(3, 3) != 0).any(axis=1) & (two.reshape(3, 3) != 0).any(axis=1)).repeat(3)
    one, two = one[shown], two[shown]
    cosine = float(one @ two / max(float(np.linalg.norm(one) * np.linalg.norm(two)), 1e-9))
    return cosine > _SAME_BOARD


def _calibrated(photo: Photo, truth: dict[int, str], reader: str = "colour") -> Calibration:
    """What ``reader`` ("colour": the colours learnt from the picture; "learnt": the network
    adapted to the board, :mod:`vision.squares`) learns from what ``truth`` shows of the photo,
    as ``vision calibrate --reader`` would. The colour reader learns colours, one side only if
    that is all; a line says on how many squares the photo read against its labels (pieces
    between squares, a slip in the labels: with many, it is learnt from the squares that
    agree)."""
    calibration = calibrate(photo.image, photo.corners, truth, labelled=True, reader=reader)
    if calibration.odd:
        squares = ", ".join(map(str, calibration.odd))
        print(f"  {photo.name}: as a calibration, squares {squares} read otherwise than labelled")
    return calibration


#: A change made to a photo before it is read or learnt from (another camera, light, hand).
Change = Callable[[Photo], Photo]


def unchanged(photo: Photo) -> Photo:
    """The photo as it is."""
    return photo


#: Called with each trial whose photo was read, the calibration as placed in the picture read,
#: and that picture (``poolboard vision evaluate --show`` draws the misses).
Shown = Callable[["Trial", Calibration, np.ndarray], None]


def _read(
    photo: Photo,
    learnt_from: str,
    calibration: Calibration,
    truth: dict[int, str],
    shown: Shown | None,
) -> Trial:
    """``photo`` read with ``calibration`` placed at its labelled corners. The label says the
    board lies there, so it is read even where the checker-pattern test that guards `vision
    read` and the camera sensor against a moved camera doubts it; that is said in a line."""
    placed = calibration.seen_at(photo.corners, photo.image)
    canvas = placed.canvas(photo.image)
    if (likeness := board_likeness(canvas)) < BOARD_LIKE:
        print(
            f"  {photo.name}: the checker pattern shows weakly between its labelled corners "
            f"(likeness {likeness:.2f} < {BOARD_LIKE}): `vision read` and the camera sensor "
            "would refuse this picture; read all the same"
        )
    trial = Trial(photo.name, learnt_from, truth, placed.squares_in(photo.image, canvas))
    if shown is not None:
        shown(trial, placed, photo.image)
    return trial


def boards(photos: list[Photo]) -> list[list[Photo]]:
    """The photos grouped by the board and set they show: one source repository and alike
    colours (:func:`board_colours`), in the order the photos come. A photo with no empty
    square shows nothing of its board alone: it joins its repository's first board."""
    colours = [_colours_of(p) for p in photos]
    groups: list[list[int]] = []
    for index, photo in enumerate(photos):
        bare = not colours[index][:3].any()
        for group in groups:
            first = group[0]
            if photos[first].repository == photo.repository and (
                bare or _same_board(colours[first], colours[index])
            ):
                group.append(index)
                break
        else:
            groups.append([index])
    return [[photos[i] for i in group] for group in groups]


def trials(
    photos: list[Photo],
    self_only: bool = False,
    read_as: Change = unchanged,
    learn_as: Change = unchanged,
    shown: Shown | None = None,
    reader: str = "colour",
) -> list[Trial]:
    """Every photo read under the board-by-board protocol (or learnt from itself), by
    ``reader`` (as :func:`_calibrated` takes it).

    Each board (:func:`boards`) is read as a user meets it, having never been seen before:
    calibrated on one of its photos with the position that photo shows, its other photos are
    read; each of its photos serves as the calibration in turn. A board
    with one photo is read in two halves, each calibrated on the other half of its squares, and
    so is a photo whose every partner was refused as a calibration.
    ``read_as`` changes each photo before it is read and ``learn_as`` each calibration picture
    (``bench/vision_real.py`` sweeps them). A calibration picture that cannot be learnt from
    gives a refused trial, as ``calibrate`` would tell its user to take another.
    """
    done: list[Trial] = []
    groups = [[p] for p in photos] if self_only else boards(photos)
    for board in groups:
        start = len(done)
        learnt_from: dict[int, Calibration | CalibrationError] = {}
        for photo in board:
            read = photo if self_only else read_as(photo)
            if len(board) == 1:
                done += _read_in_halves(photo, read, self_only, learn_as, shown, reader)
                continue
            with_partners: list[Trial] = []
            for partner in board:
                if partner is photo:
                    continue
                if id(partner) not in learnt_from:
                    try:
                        check_both_sides(partner.truth)
                        learnt = learn_as(partner)
                        learnt_from[id(partner)] = _calibrated(learnt, learnt.truth, reader)
                    except CalibrationError as error:
                        print(f"  {partner.name}: refused as a calibration: {error}")
                        learnt_from[id(partner)] = error
                calibration = learnt_from[id(partner)]
                if isinstance(calibration, CalibrationError):
                    refused = _refused(photo.name, partner.name, photo.truth, calibration)
                    with_partners.append(refused)
                    continue
                with_partners.append(_read(read, partner.name, calibration, photo.truth, shown))
            done += with_partners
            if all(trial.refused for trial in with_partners):  # as a photo alone of its board
                done += _read_in_halves(photo, read, self_only, learn_as, shown, reader)
        name = board[0].name + (f" +{len(board) - 1}" if len(board) > 1 else "")
        for trial in done[start:]:
            trial.board = name
    return done


def _read_in_halves(
    photo: Photo,
    read: Photo,
    self_only: bool,
    learn_as: Change,
    shown: Shown | None,
    reader: str,
) -> list[Trial]:
    """A photo alone of its board: calibrated on itself (``self_only``), or read in halves,
    each half calibrated on the other's squares only."""
    if self_only:
        try:
            calibration = _calibrated(photo, photo.truth, reader)
        except CalibrationError as error:
            print(f"  {photo.name}: calibration refused: {error}")
            return [_refused(photo.name, "itself", photo.truth, error)]
        return [_read(photo, "itself", calibration, photo.truth, shown)]
    done = []
    for half in (0, 1):
        learn = {s: v if (s % 2) != half else "unknown" for s, v in photo.truth.items()}
        test = {s: v for s, v in photo.truth.items() if learn[s] == "unknown"}
        try:
            calibration = _calibrated(learn_as(photo), learn, reader)
        except CalibrationError as error:
            print(f"  {photo.name}: calibration on half of its squares refused: {error}")
            done.append(_refused(photo.name, "other half", test, error))
            continue
        done.append(_read(read, "other half", calibration, test, shown))
    return done


def _refused(photo: str, learnt_from: str, truth: dict[int, str], error: Exception) -> Trial:
    """The trial of a photo whose calibration picture could not be learnt from."""
    return Trial(photo, learnt_from, truth, {}, refused=str(error) or "refused")


def _cell(value: str) -> str:
    names = {
        "empty": "empty", "b": "b man", "B": "b king", "w": "w man", "W": "w king",
        UNSEEN_SIDE: "no side",
    }  # fmt: skip
    return names.get(value, value)


def _occupancy_right(truth: str, got: str) -> bool:
    """Whether a square read ``got`` holds a piece exactly when its label says it does."""
    return (truth == "empty") == (got == "empty")


def _right(counts: Counter[tuple[str, str]]) -> tuple[int, int, int]:
    """Squares read right exactly, in occupancy and colour, and in occupancy alone."""
    exact = sum(n for (t, g), n in counts.items() if t == g)
    colour = sum(n for (t, g), n in counts.items() if t.lower() == g.lower())
    occupancy = sum(n for (t, g), n in counts.items() if _occupancy_right(t, g))
    return exact, colour, occupancy


def _figures(counts: Counter[tuple[str, str]]) -> str:
    """Squares right exactly (of all, and in %), in occupancy and colour, in occupancy alone."""
    total = sum(counts.values())
    exact, colour, occupancy = _right(counts)
    exact_share, colour_share, occupancy_share = (
        100 * n / max(total, 1) for n in (exact, colour, occupancy)
    )
    return f"{exact:>4}/{total:<4} {exact_share:6.2f}  {colour_share:16.2f}  {occupancy_share:9.2f}"


def report(done: list[Trial]) -> list[str]:
    """Lines: per photo and total squares right (exactly, in occupancy and colour, in occupancy
    alone), the confusion table, the worst squares."""
    lines = []
    by_photo: dict[str, list[Trial]] = {}
    for trial in done:
        by_photo.setdefault(trial.photo, []).append(trial)
    confusion: Counter[tuple[str, str]] = Counter()
    misses: Counter[tuple[str, int, str, str]] = Counter()
    lines.append(
        f"{'photo':28} {'learnt from':>22} {'right':>9} {'%':>7}  colour+occupancy  occupancy"
    )
    for name, photo_trials in by_photo.items():
        counts: Counter[tuple[str, str]] = Counter()
        for trial in photo_trials:
            for square, truth, got in trial.compared():
                counts[truth, got] += 1
                if truth != got:
                    misses[name, square, truth, got] += 1
        confusion += counts
        made = [t for t in photo_trials if not t.refused]
        learnt = ", ".join(sorted({t.learnt_from for t in made})) or "nothing: refused"
        if len(learnt) > 22:
            learnt = f"{len(made)} other photo{'s' if len(made) > 1 else ''}"
        lines.append(f"{name:28} {learnt:>22} {_figures(counts)}")
    lines.append(f"{'total':28} {'':>22} {_figures(confusion)}")
    lines += _refusals(done, confusion)
    lines += _by_board(done)
    lines.append("")
    lines.append("confusion (rows: label, columns: read)")
    read = {g for _, g in confusion}
    columns = (*VALUES, UNSEEN_SIDE) if UNSEEN_SIDE in read else VALUES
    lines.append(" " * 8 + "".join(f"{_cell(v):>8}" for v in columns))
    for truth in VALUES:
        lines.append(f"{_cell(truth):8}" + "".join(f"{confusion[truth, v]:>8}" for v in columns))
    if misses:
        lines.append("")
        lines.append("worst squares (photo square: label -> read, times)")
        for (name, square, truth, got), count in misses.most_common(12):
            lines.append(f"  {name} {square}: {truth} -> {got} x{count}")
    return lines


def _by_board(done: list[Trial]) -> list[str]:
    """Lines: each board's squares right, and the worst board's share in occupancy and colour
    (the figure a reader is judged on for boards it has never seen)."""
    by_board: dict[str, Counter[tuple[str, str]]] = {}
    for trial in done:
        counts = by_board.setdefault(trial.board, Counter())
        for _, truth, got in trial.compared():
            counts[truth, got] += 1
    if len(by_board) < 2:
        return []
    lines = [
        "",
        f"{'board (first photo +more)':51} {'right':>9} {'%':>7}  colour+occupancy  occupancy",
    ]
    worst = 100.0
    for name, counts in by_board.items():
        lines.append(f"{name:51} {_figures(counts)}")
        _, colour, _ = _right(counts)
        worst = min(worst, 100 * colour / max(sum(counts.values()), 1))
    lines.append(f"worst board: {worst:.2f} % in occupancy and colour")
    return lines


def _refusals(done: list[Trial], confusion: Counter[tuple[str, str]]) -> list[str]:
    """Lines on the reads not made because their calibration picture was refused, with the
    total as it would be were every square of them counted wrong."""
    refused = [t for t in done if t.refused]
    if not refused:
        return []
    pictures = ", ".join(sorted({t.learnt_from for t in refused}))
    squares = sum(t.labelled for t in refused)
    total = sum(confusion.values()) + squares
    exact, colour, _ = _right(confusion)
    return [
        f"reads not made: {len(refused)}, their calibration picture refused ({pictures}; why: "
        "above), as `calibrate` would ask its user for another picture;",
        f"with their {squares} squares counted wrong: {exact}/{total} exact "
        f"({100 * exact / total:.2f} %), {100 * colour / total:.2f} % in occupancy and colour",
    ]
