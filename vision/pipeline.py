"""From camera frames to snapshots: read each frame, wait for stillness, refuse covered boards.

``BoardWatcher.feed`` takes one frame and returns a sensor event or ``None``. A Snapshot is issued
only when the board has read the same for ``still_frames`` frames in a row with nothing moving,
no light square hidden (a hand or arm) and every dark square fitting a learnt colour. Colour
models follow slow light changes. A view that stays changed while nothing moves means the camera
moved (or the light changed for good): the corners are found again from the markers (wherever
on the board's sheet they were seen at calibration) or the grid, and the light squares
relearnt; if neither shows, the view is reported lost (the link down) until the board reads
again.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from engine.phrase import Phrase
from engine.sensing import LinkHealth, SensorEvent, SensorFault, Snapshot
from vision.calibration import Calibration, CalibrationError, why_unreadable
from vision.colour import Pixels
from vision.corners import BOARD_LIKE, CornerError, board_likeness, find_board_corners
from vision.grid_snap import snap_corners
from vision.looks import look_change, square_looks
from vision.markers import MARKER_IDS, detect_markers
from vision.outline import UNSEEN_SIDE
from vision.successors import Successor, explain, successors

_THUMB = 40  # side of the thumbnail compared frame to frame for motion
_LIKENESS_EVERY = 4  # every so many edge pixels checked on each frame for the board
#: How unevenly (log colour, between channels) a light square may change for its change to
#: be light's: a lamp or a shadow, 0.07 at most on the stock and hard boards; an arm, 0.19 up.
_LIGHT_HUE = 0.12
#: A square looks as it did in the last position the game confirmed when its look (log colour
#: at 8x8 per square, the frame's overall change removed) moved less than this: renders of
#: unchanged squares move 0.06 at most, a piece put on or taken off 0.41 at least...
_SAME_LOOK = 0.15
#: ... less than this share of how unlike an empty square this board's pieces look (a green
#: sticker on a green square changes its square little)...
_SAME_LOOK_CONTRAST = 0.4
#: ... and less than this many times the frame's median square's move (its noise and drift).
_SAME_LOOK_NOISE = 8.0
#: The most squares whose looks may move for one move (its start, its landing and the men it
#: jumps, rarely more than five): where more moved at once, the light or the camera's noise
#: moved them, and they are no guide to which squares the learnt reader should look at.
_MOVE_SQUARES = 12
_HELD_OVER = 3  # views taken for something held over the board before the light is relearnt
#: Share of the board's side within which the grid's corners agree with corners clicked by hand
#: or found by markers: the grid's own error on the real photos, up to 2.1 % of the side where
#: a wide-angle lens bends the outer row (docs/vision.md, "The corner markers").
_GRID_AGREES = 0.025


@dataclass(frozen=True)
class WatchConfig:
    """Thresholds of the watcher; the defaults suit 15-30 frames a second."""

    still_frames: int = 3  # identical, motionless readings needed for a snapshot
    motion_limit: float = 12.0  # largest thumbnail change (grey levels) that counts as still
    light_limit: float = 0.2  # log-colour change that marks a light square as covered
    covered_limit: int = 2  # this many covered light squares mean a hand over the board
    moved_frames: int = 20  # still-but-changed frames before looking for the board again
    drift_limit: float = 3.0  # corner movement (pixels) that counts as a moved camera
    marker_every: int = 30  # still frames between routine marker checks (0: never)
    adapt_rate: float = 0.02  # how fast colours and light squares follow the light unaided
    confirm_rate: float = 0.2  # how far one confirmed (recorded) position moves the colours


@dataclass(frozen=True)
class Reading:
    """What one frame shows: a kind per square 1-32 and why it may not be trusted."""

    kinds: tuple[str, ...]  # "empty" | "b" | "w" | "B" | "W" | "?" for squares 1-32
    unknown: frozenset[int]  # squares that fit no learnt colour
    covered: int  # light squares that look unlike themselves
    motion: float  # largest change since the previous frame (grey levels)
    pixels: Pixels
    board: float  # how well the board's checker pattern shows where it is looked for
    looks: np.ndarray  # (32, n): each dark square's look, to tell which squares changed
    thumb: np.ndarray  # the board's small grey picture, to tell that nothing has moved

    @property
    def occupied(self) -> frozenset[int]:
        """Squares holding a piece of either side."""
        return frozenset(s for s, k in enumerate(self.kinds, 1) if k != "empty")

    @property
    def pieces(self) -> dict[int, str]:
        """The occupied squares' pieces as seen: "b" | "w" | "B" | "W" | "?" (side not seen)."""
        return {s: k for s, k in enumerate(self.kinds, 1) if k != "empty"}


class Steadiness:
    """A run of frames of a board at rest, and what most of them read on each square.

    A run lasts while the picture stays within the motion limit of the run's first frame (a
    piece slid slowly still ends it) and nothing covers the board. A square's reading may
    waver while nothing moves (an empty square whose colour lies near one side's in glare, a
    crown's mark): each square then holds what at least two thirds of the run read there, of
    pieces and sides; until every square has one, the run has no reading, so a wavering square
    delays a snapshot rather than making a wrong one. A king is a king where most of the run's
    readings of that side's piece were kings: a crown's mark is what a reading is least sure of.

    >>> run = Steadiness(motion_limit=12.0)
    >>> still = np.zeros((2, 2), dtype=np.int16)
    >>> [run.feed(kinds, still) for kinds in (("W", "empty"), ("w", "b"), ("W", "empty"))]
    [1, 2, 3]
    >>> run.kinds
    ('W', 'empty')
    >>> run.feed(("w", "b"), still), run.kinds  # square 2: empty in two readings of four
    (4, None)
    >>> run.feed(("W", "empty"), still), run.feed(("W", "empty"), still), run.kinds
    (5, 6, ('W', 'empty'))
    >>> run.feed(("b", "empty"), still + 20)  # the picture changed: a new run
    1
    """

    #: The share of a run's readings a square's piece (or emptiness) needs to be its reading.
    AGREED = 2 / 3

    def __init__(self, motion_limit: float) -> None:
        self.motion_limit = motion_limit
        self._first: np.ndarray | None = None
        self._votes: dict[str, np.ndarray] = {}
        self._kings = np.zeros(0, dtype=np.int32)
        self.frames = 0

    def reset(self) -> None:
        """Start again: something moved or covered the board."""
        self._first, self._votes, self.frames = None, {}, 0

    def feed(self, kinds: tuple[str, ...], thumb: np.ndarray) -> int:
        """Add one still reading and its picture's thumbnail; the run's length so far."""
        if self._first is None or float(np.abs(thumb - self._first).max()) > self.motion_limit:
            self.reset()
            self._first = thumb
            self._kings = np.zeros(len(kinds), dtype=np.int32)
        for square, kind in enumerate(kinds):
            side = kind.lower() if kind in ("B", "W") else kind
            self._votes.setdefault(side, np.zeros(len(kinds), dtype=np.int32))[square] += 1
            self._kings[square] += kind in ("B", "W")
        self.frames += 1
        return self.frames

    @property
    def kinds(self) -> tuple[str, ...] | None:
        """What the run agrees each square holds, or None while a square wavers."""
        if not self._votes:
            return None
        sides = list(self._votes)
        votes = np.stack([self._votes[side] for side in sides])
        leading = votes.argmax(axis=0)
        if (votes.max(axis=0) < self.AGREED * self.frames).any():
            return None
        kinds = []
        for square, index in enumerate(leading):
            side = sides[index]
            king = side in ("b", "w") and 2 * self._kings[square] > votes[index, square]
            kinds.append(side.upper() if king else side)
        return tuple(kinds)


class BoardReader:
    """Reads frames under one calibration: kinds, covered light squares, motion."""

    def __init__(self, calibration: Calibration, config: WatchConfig | None = None) -> None:
        self.calibration = calibration
        self.config = config or WatchConfig()
        self._thumb: np.ndarray | None = None
        #: The last position the game confirmed, as the board showed it, and its squares' looks.
        self._known: tuple[str, ...] | None = None
        self._known_looks: np.ndarray | None = None
        self._same_look = 0.0  # the largest move of a look that counts as none
        self._successors: tuple[Successor, ...] = ()  # what the board can show a move later
        #: The last position the game confirmed, as the board showed it and as the game has
        #: it, kept when the corners change (the pieces did not move; see :meth:`still_known`).
        self._position: tuple[str, ...] | None = None
        self._confirmed: Mapping[int, str] = {}
        view = calibration.view
        if view is not None:  # until the game confirms one: the position calibrated on
            self.remember(view.kinds, view.looks, view.position)

    def recalibrated(self, calibration: Calibration) -> None:
        """Use new corners (and colours) from now on; the looks learnt before no longer apply."""
        self.calibration = calibration
        self._thumb = None
        self._known = self._known_looks = None
        self._same_look = 0.0
        self._successors = ()

    def remember(
        self, kinds: tuple[str, ...], looks: np.ndarray, position: Mapping[int, str]
    ) -> None:
        """The game confirmed its ``position`` (square -> "b" | "w" | "B" | "W") when the board
        showed ``kinds`` (a new king not yet crowned by hand is a man) and its squares looked
        so."""
        self._known, self._known_looks = kinds, looks
        self._position, self._confirmed = kinds, position
        self._successors = successors(kinds, position)
        occupied = np.array([kind != "empty" for kind in kinds])
        if occupied.all() or not occupied.any():
            self._same_look = 0.0  # no piece or no empty square to tell how unlike they look
            return
        pieces, empties = looks[occupied], looks[~occupied]
        unlike = np.sqrt(((pieces[:, None, :] - empties[None, :, :]) ** 2).mean(axis=2))
        contrast = float(np.quantile(unlike.min(axis=1), 0.1))
        self._same_look = min(_SAME_LOOK, _SAME_LOOK_CONTRAST * contrast)

    def still_known(
        self, kinds: tuple[str, ...], frame: tuple[str, ...], looks: np.ndarray
    ) -> None:
        """The board at rest (``kinds``, its run's) and this frame (``frame``, its looks
        ``looks``) show the last confirmed position: its squares' looks now are that
        position's (a crown set on a man the camera reads as a man, a piece straightened,
        the light moved on), so the next move's squares alone look changed. A run still
        voting for the position while this frame already shows a move teaches nothing.
        After the corners changed (:meth:`recalibrated`), a board at rest showing the last
        confirmed position is that position again, with these looks."""
        if self._known is not None and kinds == frame == self._known:
            self._known_looks = looks
        elif self._known is None and kinds == frame == self._position:
            self.remember(kinds, looks, self._confirmed)

    def unchanged(self, reading: Reading) -> frozenset[int]:
        """The squares that look as they did in the last position the game confirmed (none
        before the first)."""
        return self._unchanged(reading.looks)

    def _unchanged(self, looks: np.ndarray) -> frozenset[int]:
        """:meth:`unchanged` of a frame whose squares look so (32, LOOK_SIZE)."""
        if self._known_looks is None:
            return frozenset()
        moved = look_change(self._known_looks, looks)
        same = moved <= min(self._same_look, _SAME_LOOK_NOISE * float(np.median(moved)))
        return frozenset(int(i) + 1 for i in np.flatnonzero(same))

    def explained(self, reading: Reading, unchanged: frozenset[int]) -> tuple[str, ...]:
        """The reading judged against the last confirmed position: a square that looks as it
        did then (``unchanged``) holds what it held then, whatever it reads as on its own (a
        crown's mark in glare, a man the colours take for the other side's). Only squares
        whose look changed take their reading; a king read on a man's unchanged square is
        kept (a crown set on it changes little). Where the changed squares are those of one
        move a piece could make, the board is the one that move leaves, whatever the squares
        it emptied read as (``vision.successors``)."""
        if self._known is None:
            return reading.kinds
        changed = frozenset(range(1, 33)) - unchanged
        moved = explain(reading.kinds, self._known, changed, self._successors)
        if moved is not None:
            return moved
        kinds = []
        for square, (read, known) in enumerate(zip(reading.kinds, self._known, strict=True), 1):
            crowned = read in ("B", "W") and known == read.lower()
            kinds.append(known if square in unchanged and not crowned else read)
        return tuple(kinds)

    def read(self, frame: np.ndarray) -> Reading:
        """One frame's reading."""
        canonical = self.calibration.canvas(frame)
        grey = cv2.cvtColor(canonical, cv2.COLOR_BGR2GRAY)
        thumb = cv2.resize(grey, (_THUMB, _THUMB), interpolation=cv2.INTER_AREA).astype(np.int16)
        motion = 255.0 if self._thumb is None else float(np.abs(thumb - self._thumb).max())
        self._thumb = thumb
        still = motion <= self.config.motion_limit  # a moving frame gives no snapshot
        learnt = self.calibration.learnt_kinds(frame)
        looks = square_looks(canonical)
        if learnt is None:
            # A still frame's squares that changed since the last confirmed position, in look
            # or in what they read as, are worth the learnt reader's second opinion (a move,
            # or a misreading); a moving frame's are not.
            # Until the looks are learnt again after the corners changed, every square is.
            # Where the game holds a king the colours read as a man, it is asked which.
            moved = set()
            if self._known_looks is not None:
                moved = set(range(1, 33)) - self._unchanged(looks)
            if len(moved) > _MOVE_SQUARES:  # not a move: the light or the camera's noise
                moved = set()
            kinds, unknown, pixels = self.calibration.read(
                canonical, outlines=still, image=frame if still else None,
                known=self._known, moved=[square - 1 for square in moved],
                kings=[s - 1 for s, kind in self._confirmed.items() if kind in ("B", "W")],
            )  # fmt: skip
        else:  # the learnt reader says what each square holds
            pixels, _ = self.calibration.measure(canonical)
            kinds, unknown = learnt, np.zeros(32, dtype=bool)
        return Reading(
            kinds=tuple(kinds),
            unknown=frozenset(int(i) + 1 for i in np.flatnonzero(unknown)),
            covered=int((self.light_change(pixels) > self.config.light_limit).sum()),
            motion=motion,
            pixels=pixels,
            board=board_likeness(canonical, every=_LIKENESS_EVERY),
            looks=looks,
            thumb=thumb,
        )

    def light_shift(self, pixels: Pixels) -> np.ndarray:
        """Each light square's log-colour change from its learnt colour, after the overall
        light change (32, 3)."""
        change = pixels.light - self.calibration.light
        return change - np.median(change, axis=0)

    def light_change(self, pixels: Pixels) -> np.ndarray:
        """How far each light square is from its learnt colour, after the overall light change."""
        return np.abs(self.light_shift(pixels)).max(axis=1)

    def adapt(
        self, pixels: Pixels, position: dict[int, str], rate: float, recorded: bool = False
    ) -> None:
        """Follow the light from a picture of a position taken as true (``recorded``: the
        game's, which may teach the kings' marks)."""
        self.calibration.learn_from(pixels, position, rate, recorded)
        light = self.calibration.light
        light += rate * (pixels.light - light)


class BoardWatcher:
    """Frames in, sensor events out: the camera pipeline without the camera.

    >>> watcher = BoardWatcher(Calibration.load("cal.json"))  # doctest: +SKIP
    >>> event = watcher.feed(frame, t=time.monotonic())  # doctest: +SKIP
    """

    def __init__(self, calibration: Calibration, config: WatchConfig | None = None) -> None:
        self.config = config or WatchConfig()
        # A copy: the watcher adapts colours and may move corners, the caller's file stays put.
        self.reader = BoardReader(copy.deepcopy(calibration), self.config)
        self.kinds: tuple[str, ...] | None = None  # the last snapshot's kinds, with colours
        self._snapshot_pixels: Pixels | None = None  # the last snapshot's picture, to learn from
        self._snapshot_looks: np.ndarray | None = None  # and its squares' looks
        self._run = Steadiness(self.config.motion_limit)
        self._changed_still = 0
        self._still = 0
        self._faulted = False
        self._held_over = 0  # views kept from being taken for new light: something lies over it
        self._not_found = 0  # searches for the board in a row that found nothing
        self._unreadable: Phrase | None = None  # why the camera's frames cannot be read, if so
        self._view_lost = False  # the board was lost from view (the link reported down)

    @property
    def calibration(self) -> Calibration:
        """The calibration in use (corners change when the camera has moved)."""
        return self.reader.calibration

    def feed(self, frame: np.ndarray, t: float) -> SensorEvent | None:
        """Take one frame; a Snapshot when the board has settled on a new reading."""
        height, width = frame.shape[:2]
        if (width, height) != self.calibration.image_size:
            self.reader.recalibrated(self.calibration.scaled_to((width, height)))
        unreadable = why_unreadable(self.calibration, frame)
        if unreadable != self._unreadable:
            # Like a camera unplugged, the view is gone until the picture is back.
            self._unreadable = unreadable
            self._run.reset()
            self._changed_still = 0
            if unreadable:
                return _link(t, False, Phrase("the camera's picture is {why}", why=unreadable))
            return _link(t, True, Phrase("the camera's picture can be read again"))
        if unreadable:
            return None
        reading = self.reader.read(frame)
        still = reading.motion <= self.config.motion_limit
        self._still = self._still + 1 if still else 0
        # No board where it should be (the camera knocked away, the light out) is no reading:
        # its light squares all changed alike, which alone looks like a lamp turned down.
        unchanged = self.reader.unchanged(reading)
        disturbed = (
            bool(reading.unknown - unchanged)
            or reading.covered >= self.config.covered_limit
            or reading.board < BOARD_LIKE
        )
        self._changed_still = self._changed_still + 1 if (still and disturbed) else 0
        # Each search that found nothing doubles the wait before the next (to 16 times): the
        # search takes a second or more on the thread that also keeps the clock.
        if self._changed_still >= self.config.moved_frames << min(self._not_found, 4):
            self._changed_still = 0
            return self._find_board_again(frame, t, reading)
        every = self.config.marker_every
        if every and self.calibration.markers and self._still % every == every - 1:
            event = self._check_markers(frame, t)
            if event is not None:
                return event
        if not still or disturbed:
            self._run.reset()
            return None
        explained = self.reader.explained(reading, unchanged)
        if self._run.feed(explained, reading.thumb) < self.config.still_frames:
            return None
        kinds = self._run.kinds
        if kinds is None:  # a square wavers: wait for the run to agree
            return None
        self.reader.still_known(kinds, explained, reading.looks)
        position = dict(enumerate(kinds, 1))
        self.reader.adapt(reading.pixels, position, self.config.adapt_rate)
        self._faulted = False
        self._not_found = 0
        if self._view_lost:  # the snapshot, if one is due, follows with the next frame
            self._view_lost = False
            return _link(t, True, Phrase("the board is in view and reads again"))
        if kinds == self.kinds:
            return None
        self.kinds = kinds
        self._snapshot_pixels = reading.pixels
        self._snapshot_looks = reading.looks
        return Snapshot.from_pieces(t, {s: k for s, k in enumerate(kinds, 1) if k != "empty"})

    def confirm(self, position: Mapping[int, str]) -> bool:
        """Learn from the last snapshot's picture that it shows ``position`` (square ->
        "b" | "w" | "B" | "W"; squares not named are empty), as the game recorded it.

        Call it after each move the game accepts: the colours then follow the light (a lamp
        moved, the sun setting) from positions known to be right, with no recalibration.
        Returns False (and learns nothing) when the position's occupied squares are not the
        snapshot's, e.g. a move taken from a snapshot that was already superseded.
        """
        if self._snapshot_pixels is None or self._snapshot_looks is None or self.kinds is None:
            return False
        known = {s: position.get(s, "empty") for s in range(1, 33)}
        seen = {s for s, k in enumerate(self.kinds, 1) if k != "empty"}
        if {s for s, k in known.items() if k != "empty"} != seen:
            return False
        # The board as it showed that position: a new king not yet crowned by hand is a man.
        shown = tuple(
            seen if known[s].lower() == seen else known[s] for s, seen in enumerate(self.kinds, 1)
        )
        self.reader.remember(shown, self._snapshot_looks, position)
        # A piece whose side was not seen (a spare of another colour) teaches no side's colour.
        known |= {s: "unknown" for s, k in enumerate(self.kinds, 1) if k == UNSEEN_SIDE}
        self.reader.adapt(self._snapshot_pixels, known, self.config.confirm_rate, recorded=True)
        return True

    def _check_markers(self, frame: np.ndarray, t: float) -> SensorEvent | None:
        markers = detect_markers(frame)
        if len(markers) < len(MARKER_IDS) or not self.calibration.markers:
            return None
        drift = max(
            float(np.abs(markers[i] - self.calibration.markers[i]).max()) for i in MARKER_IDS
        )
        if drift <= self.config.drift_limit:
            return None
        moved = self._followed(frame, markers)
        if moved is None:
            return None
        self.reader.recalibrated(moved)
        return _link(t, True, _moved(drift))

    def _followed(self, frame: np.ndarray, markers: dict[int, np.ndarray]) -> Calibration | None:
        """The calibration moved as the markers say, if its corners then frame the pattern at
        least as well as the old ones: a sticker nudged on the sheet (or a marker misread)
        moves the markers, not the board."""
        try:
            moved = self.calibration.follow(markers)
        except CalibrationError:
            return None
        if board_likeness(moved.canvas(frame)) < board_likeness(self.calibration.canvas(frame)):
            return None
        return moved

    def _find_board_again(
        self, frame: np.ndarray, t: float, reading: Reading
    ) -> SensorEvent | None:
        """The view stayed changed while still: find the corners again, or relearn the light."""
        old = self.calibration.corners
        markers = detect_markers(frame) if self.calibration.markers else {}
        moved = self._followed(frame, markers) if len(markers) == len(MARKER_IDS) else None
        if moved is not None and float(np.abs(moved.corners - old).max()) > self.config.drift_limit:
            return self._rebase(frame, t, moved, old)
        corners: np.ndarray | None = None
        # The grid search takes a second or more: only for a board found by its grid, or one
        # no longer seen or read where the corners put it (whatever found them at calibration).
        if self.calibration.method == "auto" or reading.unknown or reading.board < BOARD_LIKE:
            with contextlib.suppress(CornerError):
                grid = find_board_corners(frame, near=old)
                found, _ = snap_corners(frame, grid, self.calibration.k1)  # the same lens
                corners = self._turned(frame, found)
        # Where the grid agrees with the corners the camera has not moved: they stay (corners
        # clicked by hand are finer than the grid's, extended past a lens's bend), even when
        # a square fits no colour (a coin or a die on it, not a moved board). Corners not the
        # grid's own agree with it within the grid's own error.
        agree = self.config.drift_limit
        if self.calibration.method != "auto":
            side = float(np.linalg.norm(np.roll(old, -1, axis=0) - old, axis=1).max())
            agree = max(agree, _GRID_AGREES * side)
        if corners is not None and float(np.abs(corners - old).max()) > agree:
            return self._rebase(frame, t, self.calibration.moved_to(corners, {}), old)
        if not reading.unknown and reading.board >= BOARD_LIKE:  # the light changed, only?
            if not self._only_light(reading) and self._held_over < _HELD_OVER:
                self._held_over += 1  # an arm held still over it: wait, do not learn the arm
                return None
            self._held_over = 0
            return self._rebase(frame, t, self.calibration, old)
        if reading.board >= BOARD_LIKE and reading.unknown:
            named = ", ".join(map(str, sorted(reading.unknown)))
            unlike = (
                Phrase("squares {squares} fit no colour learnt", squares=named)
                if len(reading.unknown) > 1
                else Phrase("square {square} fits no colour learnt", square=named)
            )
            problem = Phrase(
                "{unlike}: something that is no piece lies there (clear it), or the light "
                "changed too much",
                unlike=unlike,
            )
            return self._fault(t, problem, reading.unknown)
        return self._fault(
            t, Phrase("the board's view changed and the board cannot be found again")
        )

    def _turned(self, frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
        """The turn of a board found again that reads most as the last snapshot did (a moved
        camera moves no piece; a move or two may have been played meanwhile), else nearest
        the old corners: the pieces' colours learnt decide, where the squares' brightness
        may mislead (a red playing square printed beside a green one is the brighter)."""
        last = self.kinds
        if last is None:
            return corners
        old = self.calibration.corners
        turns = [np.roll(corners, -k, axis=0) for k in range(4)]

        def unlike(turn: np.ndarray) -> tuple[int, float]:
            moved = self.calibration.moved_to(turn, {})
            kinds, _, _ = moved.read(moved.canvas(frame))
            differing = sum(a.lower() != b.lower() for a, b in zip(kinds, last, strict=True))
            return differing, float(np.abs(turn - old).sum())

        return min(turns, key=unlike)

    def _only_light(self, reading: Reading) -> bool:
        """Whether the light squares that look unlike themselves changed in brightness alone
        (a lamp, the sun, a shadow), not in hue as under an arm, a sleeve or a box."""
        change = self.reader.light_shift(reading.pixels)
        covered = np.abs(change).max(axis=1) > self.config.light_limit
        uneven = change.max(axis=1) - change.min(axis=1)
        return not bool((uneven[covered] > _LIGHT_HUE).any())

    def _rebase(
        self, frame: np.ndarray, t: float, calibration: Calibration, old: np.ndarray
    ) -> SensorEvent | None:
        self.reader.recalibrated(calibration)
        _, unknown, pixels = calibration.read(calibration.canvas(frame))
        if unknown.any():
            return self._fault(t, Phrase("the board's view changed and its squares no longer read"))
        calibration.light[:] = pixels.light
        self._not_found = 0
        drift = float(np.abs(calibration.corners - old).max())
        if drift > self.config.drift_limit:
            return _link(t, True, _moved(drift))
        return _link(t, True, Phrase("the light changed: light squares relearnt"))

    def _fault(
        self, t: float, problem: Phrase, squares: frozenset[int] = frozenset()
    ) -> SensorEvent | None:
        """One fault until the board reads again: on ``squares``, or, with none, the whole
        view lost, which is the link down (shown to the players like a camera unplugged)
        until the board reads again."""
        self._not_found += 1
        if self._faulted:
            return None
        self._faulted = True
        said = Phrase("{problem}: recalibrate (poolboard vision calibrate)", problem=problem)
        if squares:
            return SensorFault.worded(t, said, squares)
        self._view_lost = True
        return _link(t, False, said)


def _link(t: float, connected: bool, said: Phrase) -> LinkHealth:
    """The camera link's state, worded in English and as words a page says in its language."""
    return LinkHealth(t, connected, str(said), said)


def _moved(drift: float) -> Phrase:
    """How far the camera moved before its board was found again."""
    return Phrase("camera moved {px} px: corners found again", px=f"{drift:.1f}")
