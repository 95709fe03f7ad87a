"""The occupancy tracker: sensor snapshots in, recorded moves, violations and cues out.

A reed board only says which squares hold a piece. The tracker keeps the recorded position and
matches each settled occupancy against the results of its legal moves (:mod:`engine.patterns`): a
move is recorded the moment the board shows it, unless another legal move is still on the way (a
king sliding on, more pieces to come off), in which case it waits for the settle window; a
recorded move that the board then extends is corrected. A sensor that also sees colours (a camera:
``Snapshot.pieces``) narrows every match: a board fits a move or a position only if no square
shows the wrong colour, the set-up is checked piece by piece, and a king seen on a new king's
square is its crowning. The recorded game only ever advances by legal moves. docs/tracker.md
explains every situation and cue.

A move chosen off the board (the computer, a far board: :meth:`Tracker.expect`) is cued square by
square and is the only move the tracker then records; any other board is cued to restore, naming
the move to make, and breaks no rule (the hand executing it plays for the opponent). A hint
(:meth:`Tracker.show_hint`) lights a suggested move until the next move.

>>> from engine.sensing import Snapshot
>>> tracker = Tracker(config=TrackerConfig(debounce=0))
>>> _ = tracker.feed(Snapshot(0.0, Board().occupied_squares()))
>>> after = (Board().occupied_squares() - {11}) | {15}
>>> [e.notation for e in tracker.feed(Snapshot(1.0, after)) if e.kind == "move"]
['11-15']
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.board import Board, Move
from engine.color import Color
from engine.cues import CueKind, Cues
from engine.debounce import Debouncer
from engine.events import (
    CuesChanged,
    FaultReported,
    GameStarted,
    MoveCorrected,
    MoveRecorded,
    MoveTakenBack,
    Severity,
    StateChanged,
    TrackerEvent,
    TrackerState,
    Violation,
    ViolationMended,
)
from engine.geometry import BITS, squares_of
from engine.patterns import MovePattern, SeenColours, missed_capture_results, move_patterns
from engine.phrase import Phrase, Value, joined
from engine.profiles import profile
from engine.sensing import AdjustNotice, LeverPress, SensorEvent, SensorFault, Snapshot


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """Timings (seconds) and rule-profile switches of the tracker."""

    debounce: float = 0.040  # a square change reverting sooner is noise
    settle: float = 0.300  # wait before recording a move that could still extend
    # A capturing piece set down mid-capture may stand while its player thinks: after
    # ``jump_reminder`` the way on is cued more urgently; only after ``incomplete_jump`` (or the
    # clock lever, or the other side moving) has the turn ended on an incomplete jump (R-CAP-3).
    jump_reminder: float = 10.0
    incomplete_jump: float = 60.0
    stuck: float = 5.0  # an unexplained board one square off this long: suspect that square
    confirm: float = 0.6  # how long the confirm cue shows on a recorded move's end square
    takeback: bool = False  # restoring the previous position undoes the last move (casual)
    notice: float = 5.0  # how long a violation raised with the board at rest is told
    referee_flags: bool = True  # touch-move breaches flagged for the referee (apca)
    # R-ILL-1 (APCA 10): one improper move is corrected; continuing (from this many) is
    # grounds to forfeit, flagged for the referee's judgment.
    illegal_forfeit_after: int = 2

    @classmethod
    def for_profile(cls, name: str, **overrides: float) -> TrackerConfig:
        """The switches a rule profile implies (engine.profiles): takebacks only in ``casual``,
        referee flags in the tournament profiles; ``ValueError`` for an unknown name."""
        rules = profile(name)
        return cls(
            takeback=rules.takeback,
            referee_flags=rules.referee_flags,
            **overrides,  # type: ignore[arg-type]
        )


@dataclass
class _LastMove:
    """The last recorded move and the position before it, while it can still be corrected."""

    before: Board
    patterns: list[MovePattern]
    pattern: MovePattern
    correctable: bool = True


@dataclass
class _View:
    """What one evaluation concluded: the state, the cue layers and the next time to look again."""

    state: TrackerState
    detail: Phrase
    cues: dict[int, CueKind] = field(default_factory=dict)
    wake: list[float] = field(default_factory=list)


class Tracker:
    """Turns a stream of sensor events into game events for one game.

    Feed it every sensor event with :meth:`feed`, and call :meth:`advance` when time passes with
    no event (at :meth:`next_deadline` at the latest): settle windows and the incomplete-jump
    timeout are decided from timestamps, never from wall-clock time.
    """

    def __init__(
        self,
        board: Board | None = None,
        config: TrackerConfig | None = None,
        *,
        resuming: bool = False,
        opponent: Color | None = None,
    ) -> None:
        """``resuming``: the game was under way before a restart, so a board already showing a
        legal move from the position (made while the service was down) starts play at once.
        ``opponent``: the side played off the board (its moves come through :meth:`expect`);
        a casual takeback then goes back to the last position with the player here to move."""
        self.config = config or TrackerConfig()
        self.resuming = resuming
        self.opponent = opponent
        self._expected: Move | None = None  # the opponent's move to execute (expect)
        self._hint: Move | None = None  # a suggested move to light (show_hint)
        self._taking_back = False  # the opponent's reply is back: the player's move follows
        self.board = board.copy() if board is not None else Board()
        self.started = False
        self._debouncer = Debouncer(hold=self.config.debounce)
        self._unreadable = frozenset[int]()  # squares a sensor fault named, until its next reading
        self._now = -math.inf
        self._since = -math.inf  # when the settled occupancy (or its colours) last changed
        self._has_reading = False  # no snapshot yet: nothing to judge
        self._occupied: int | None = None
        self._seen: SeenColours | None = None  # last colour seen on each square (None: no colours)
        self._colours: SeenColours | None = None  # the colours on the settled squares last judged
        self._sees_kings = False  # the sensor has shown a king: one it shows as a man is uncrowned
        self._patterns = self._current_patterns()
        self._last: _LastMove | None = None
        self._finished: MovePattern | None = None  # the board showed this move, not yet recorded
        self._touched: int | None = None  # the side to move's first lifted playable piece
        self._rearranging = False  # more than one own piece off: the board is being reset
        self._adjusting = False  # the current lift follows an adjust notice (R-TCH-3)
        self._adjust_notice: set[Color] = set()
        self._unplayable_lifted: set[int] = set()
        self._crown: int | None = None  # a new king's square, until crowned (R-PRO-1)
        self._crown_lifted = False
        self._confirm_until = -math.inf
        self._raised: set[tuple[int, str]] = set()  # (occupancy, rule) already reported
        self._violation: Violation | None = None  # the improper move standing on the board
        # What that move did wrong, said again while the position is restored.
        self._wrong: Value = ""
        self._stopped: int | None = None  # where the capturing piece stood mid-capture
        self._unmended: list[Violation] = []  # improper moves not yet put right
        self._notice: Violation | None = None  # a violation raised with the board at rest ...
        self._notice_until = -math.inf  # ... told until then
        self._offences: Counter[tuple[Color, str]] = Counter()
        self._timer: float | None = None
        self._state: tuple[TrackerState, str] | None = None
        self._cues = Cues.none()
        self._out: list[TrackerEvent] = []

    # -- public interface -----------------------------------------------------------------------

    def feed(self, event: SensorEvent) -> list[TrackerEvent]:
        """Process one sensor event (after letting time run up to it); returns what followed."""
        self._advance_to(event.t)
        match event:
            case Snapshot(t, occupied, pieces):
                read_again, self._unreadable = bool(self._unreadable), frozenset()
                mask = 0
                for square in occupied:
                    mask |= BITS[square]
                self._see(mask, pieces)
                if not self._has_reading:
                    self._debouncer.reset(mask)  # the first reading is the board as it stands
                    self._has_reading = True
                faulty = self._debouncer.observe(t, mask)
                for square in faulty:
                    flickers = Phrase(
                        "square {square} flickers without end: sensor fault; it is ignored "
                        "until it has been quiet for {seconds} s",
                        square=square,
                        seconds=f"{self._debouncer.flicker_window:g}",
                    )
                    self._emit(_fault(t, {square}, flickers))
                if (faulty or read_again) and self._has_reading:
                    self._evaluate(t)
                self._advance_to(t)
            case LeverPress(t, _side):
                self._evaluate(t, lever=True)
            case AdjustNotice(_t, side):
                self._adjust_notice.add(side)
            case SensorFault(t, message, squares, said):
                self._emit(FaultReported(t, squares, message, said))
                if squares:  # a camera sends no reading until they read again
                    self._unreadable = frozenset(squares)
                    if self._has_reading:
                        self._evaluate(t)
        return self._drain()

    def advance(self, t: float) -> list[TrackerEvent]:
        """Let time pass up to ``t`` with no new sensor event; returns what followed."""
        self._advance_to(t)
        return self._drain()

    def next_deadline(self) -> float | None:
        """The next time something will happen if no sensor event arrives first."""
        times = [x for x in (self._debouncer.next_deadline(), self._timer) if x is not None]
        return min(times, default=None)

    @property
    def occupied(self) -> frozenset[int] | None:
        """The settled occupancy last judged (``None`` before the first reading)."""
        return None if self._occupied is None else frozenset(squares_of(self._occupied))

    def settled_snapshot(self, t: float) -> Snapshot | None:
        """The board as last judged, stamped ``t`` (with its colours when the sensor sees every
        square's): what a fresh tracker for the same board is told first. ``None`` before the
        first reading."""
        if self._occupied is None:
            return None
        colours = self._colours
        if colours is None or colours.known != self._occupied:
            return Snapshot(t, frozenset(squares_of(self._occupied)))
        return Snapshot.from_pieces(t, colours.symbols())

    @property
    def expected(self) -> Move | None:
        """The opponent's move the board must show next, if one is waiting (:meth:`expect`)."""
        return self._expected

    @property
    def hint(self) -> Move | None:
        """The suggested move being lit, if any (:meth:`show_hint`)."""
        return self._hint

    def expect(self, move: Move | None, t: float) -> list[TrackerEvent]:
        """Wait for ``move`` (a legal move of the side to move, chosen off the board): its
        squares are cued and only it is recorded, once the board shows exactly it (with the
        usual debounce and settle); ``None`` goes back to any legal move. ``ValueError`` for a
        move that is not legal here."""
        self._expected = self._legal(move)
        self._patterns = self._current_patterns()
        self._hint = None
        self._touched = None
        return self._look_again(t)

    def show_hint(self, move: Move | None, t: float) -> list[TrackerEvent]:
        """Light ``move`` (legal for the side to move) as a hint until the next move is
        recorded or taken back; ``None`` puts the hint out. ``ValueError`` if not legal."""
        self._hint = self._legal(move)
        return self._look_again(t)

    def _legal(self, move: Move | None) -> Move | None:
        if move is not None and move not in self.board.generate_legal_moves():
            raise ValueError(f"{move.path}: not a legal move in this position")
        return move

    def _look_again(self, t: float) -> list[TrackerEvent]:
        """Re-judge the board after the tracker's own state changed (no sensor event)."""
        self._advance_to(t)
        if self._has_reading:
            self._evaluate(max(t, self._now))
        return self._drain()

    def _current_patterns(self) -> list[MovePattern]:
        """The moves the board may show next: every legal move, only the expected one, or
        none while the opponent off the board has not chosen yet."""
        if self._awaiting_opponent():
            return []
        patterns = move_patterns(self.board)
        if self._expected is None:
            return patterns
        return [p for p in patterns if p.move == self._expected]

    def _awaiting_opponent(self) -> bool:
        """Whether the opponent off the board is to move and its move is not known yet: a move
        the hand makes for it now is not its move, so nothing is recorded."""
        return (
            self.opponent is not None
            and self.board.turn is self.opponent
            and self._expected is None
        )

    @property
    def cues(self) -> Cues:
        """The squares to light now."""
        return self._cues

    @property
    def state(self) -> TrackerState | None:
        """What the board is waiting for now."""
        return self._state[0] if self._state else None

    # -- time ----------------------------------------------------------------------------------

    def _advance_to(self, t: float) -> None:
        while True:
            deadline = self.next_deadline()
            if deadline is None or deadline > t:
                break
            steps = self._debouncer.settle(deadline)
            self._now = max(self._now, deadline)
            if steps:
                for when, _occupied, recovered in steps:
                    if recovered:
                        squares = ", ".join(map(str, recovered))
                        quiet = (
                            Phrase("squares {squares} are quiet again", squares=squares)
                            if len(recovered) > 1
                            else Phrase("square {square} is quiet again", square=squares)
                        )
                        self._emit(_fault(when, recovered, quiet))
                    self._evaluate(when)
            else:
                self._timer = None
                self._evaluate(deadline)
        self._now = max(self._now, t)
        if self._has_reading and (
            self._effective() != self._occupied or self._effective_colours() != self._colours
        ):
            self._evaluate(t)

    def _effective(self) -> int:
        """Settled occupancy, with faulty squares read as the recorded position has them."""
        faulty = 0
        for square in self._debouncer.faulty:
            faulty |= BITS[square]
        return (self._debouncer.settled & ~faulty) | (self.board.occupied & faulty)

    def _see(self, occupied: int, pieces: tuple[tuple[int, str], ...] | None) -> None:
        """Keep the colours a snapshot shows; a square it shows empty keeps its last colour
        until the debounced occupancy agrees. A snapshot without colours forgets them."""
        if pieces is None:
            self._seen = None
            return
        fresh = SeenColours.of(pieces)
        old = self._seen or SeenColours()
        self._seen = SeenColours(
            (old.black & ~occupied) | fresh.black,
            (old.white & ~occupied) | fresh.white,
            (old.kings & ~occupied) | fresh.kings,
        )
        self._sees_kings = self._sees_kings or bool(fresh.kings)

    def _effective_colours(self) -> SeenColours | None:
        """The colours seen on the settled squares (faulty squares: colour unknown)."""
        if self._seen is None:
            return None
        faulty = 0
        for square in self._debouncer.faulty:
            faulty |= BITS[square]
        return self._seen.only(self._effective() & ~faulty)

    def _fits(self, pattern: MovePattern) -> bool:
        """Whether the colours seen (if any) allow ``pattern``'s move."""
        return self._colours is None or not pattern.misfits(self._colours)

    def _is_at(self, pattern: MovePattern, occupied: int) -> bool:
        return pattern.is_at(occupied) and self._fits(pattern)

    def _is_on_way(self, pattern: MovePattern, occupied: int) -> bool:
        return pattern.is_on_way(occupied) and self._fits(pattern)

    def _wrong_pieces(self, board: Board, *, kings: bool = False) -> int:
        """Squares ``board`` has a piece on where the sensor sees the other colour (and, with
        ``kings``, a king where a man belongs); 0 for occupancy-only sensors."""
        seen = self._colours
        if seen is None:
            return 0
        wrong = seen.misfits(board.black, board.white)
        if kings:
            wrong |= seen.kings & board.occupied & ~board.kings
        return wrong

    def _shows(self, board: Board, occupied: int) -> bool:
        """Whether the board stands as ``board`` has it, colours included."""
        return occupied == board.occupied and not self._wrong_pieces(board)

    # -- evaluation ----------------------------------------------------------------------------

    def _evaluate(self, t: float, lever: bool = False) -> None:
        occupied = self._effective()
        colours = self._effective_colours()
        if occupied != self._occupied or colours != self._colours:
            self._occupied = occupied
            self._colours = colours
            self._since = t
        view = (
            self._view_setup(t, occupied)
            if not self.started
            else self._view_play(t, occupied, lever)
        )
        if self.started:
            view.cues = self._with_standing_cues(t, occupied, view)
        self._publish(t, view)

    def _view_setup(self, t: float, occupied: int) -> _View:
        target = self.board.occupied
        # A king seen where a man belongs is named while the board is set up (a stack left from
        # the last game), but never holds the start: moves are matched by colour alone (R-PRO-3)
        # and a camera's king call can be wrong where the player sees a man and cannot fix it.
        wrong = self._wrong_pieces(self.board, kings=True) & occupied
        resumed_on_the_way = self.resuming and any(
            self._is_on_way(p, occupied) for p in self._patterns
        )
        if (occupied == target and not self._wrong_pieces(self.board)) or resumed_on_the_way:
            self.started = True
            self._emit(GameStarted(t, self.board.fen()))
            return self._view_play(t, occupied, False)
        cues = _restore_cues(target, occupied)
        cues.update({square: CueKind.WRONG_PIECE for square in squares_of(wrong)})
        parts = _restore_parts(target, occupied, self._replace_parts(wrong))
        return _View(TrackerState.SETUP, Phrase("set up the position: {parts}", parts=parts), cues)

    def _replace_parts(self, wrong: int) -> list[Value]:
        """For each square in ``wrong``: "replace the white piece on 9 with a black man"."""
        seen = self._colours or SeenColours()
        parts: list[Value] = []
        for square in squares_of(wrong):
            piece = self.board.piece_at(square)
            if piece is None:
                continue
            black, king = bool(seen.black & BITS[square]), bool(seen.kings & BITS[square])
            parts.append(
                Phrase(
                    "replace the {shown} on {square} with {wanted}",
                    shown=_SEEN_PIECES[(black, king)],
                    square=square,
                    wanted=_WANTED_PIECES[(piece.color, piece.king)],
                )
            )
        return parts

    def _held(self, t: float, seconds: float) -> bool:
        """Whether the board has stood unchanged for ``seconds`` at time ``t``."""
        return t >= self._since + seconds

    def _view_play(self, t: float, occupied: int, lever: bool) -> _View:
        self._follow_crowning(occupied)
        if self._last is not None and self._last.correctable:
            view = self._view_correction(t, occupied, lever)
            if view is not None:
                return view
        if self._shows(self.board, occupied):
            return self._view_at_rest(t)
        if self._taking_back and self._between_takeback(occupied):
            if self._takeback_due(t, occupied):
                return self._view_at_rest(t)
            return self._view_taking_back()
        self._taking_back = False
        if self._expected is None and not self._awaiting_opponent():
            self._follow_touch(occupied)
        at = next((p for p in self._patterns if self._is_at(p, occupied)), None)
        on_way = [p for p in self._patterns if p is not at and self._is_on_way(p, occupied)]
        if at is not None:
            going_on = bool(on_way) or self._other_move_on_way(at, occupied)
            if not going_on or lever or self._held(t, self.config.settle):
                self._record(t, at)
                return self._view_at_rest(t)
            self._finished = at
            return _View(
                TrackerState.MOVING,
                Phrase("{move} unless the move goes on", move=self.board.notation(at.move)),
                wake=[self._since + self.config.settle],
            )
        if on_way:
            return self._view_on_way(t, occupied, on_way, lever)
        if self._opponent_has_started(occupied):
            assert self._finished is not None
            self._record(t, self._finished)
            return self._view_play(t, occupied, lever)
        return self._view_off_path(t, occupied, lever)

    def _other_move_on_way(self, at: MovePattern, occupied: int) -> bool:
        """With an expected move: whether the hand may still be going on to another legal
        move (a king sliding past the square it should stop on), so the settle window applies
        as it would to any move."""
        if self._expected is None:
            return False
        return any(
            p.move != at.move and self._is_on_way(p, occupied) for p in move_patterns(self.board)
        )

    def _is_previous_position(self, occupied: int) -> bool:
        return self._last is not None and self._shows(self._last.before, occupied)

    def _opponent_has_started(self, occupied: int) -> bool:
        """The board showed a finished move that could still have gone on, and now shows the
        opponent's move under way from there: the first move was finished after all."""
        if self._finished is None:
            return False
        self.board.push(self._finished.move)
        try:
            return any(self._is_on_way(p, occupied) for p in move_patterns(self.board))
        finally:
            self.board.pop()

    def _view_at_rest(self, t: float) -> _View:
        if self._unplayable_lifted and self._violation is None:
            self._caution_touch(t)
        self._violation = None
        self._stopped = None
        self._mend(t, self.board.turn.opponent, Phrase("the position was put back"))
        self._finished = None
        self._taking_back = False
        self._raised.clear()
        self._adjusting = False
        self._rearranging = False
        self._unplayable_lifted.clear()
        to_move = _TO_MOVE[self.board.turn]
        if self._crown is not None:
            crown = Phrase("crown the new king on {square}", square=self._crown)
            view = _View(TrackerState.CROWNING, crown)
        elif self._expected is not None:
            notation = self.board.notation(self._expected)
            play = Phrase("{to_move}: play {move} on the board", to_move=to_move, move=notation)
            view = _View(TrackerState.TO_MOVE, play)
        elif self._touched is not None:
            view = _View(
                TrackerState.TO_MOVE,
                Phrase(
                    "{to_move}: the piece on {square} was lifted, so it is the one to move "
                    "(R-TCH-1)",
                    to_move=to_move,
                    square=self._touched,
                ),
            )
        else:
            view = _View(TrackerState.TO_MOVE, to_move)
        if self._notice is not None and t < self._notice_until:
            view.detail = Phrase(
                "{detail} — {notice}", detail=view.detail, notice=self._notice.said
            )
        return view

    def _view_on_way(
        self, t: float, occupied: int, on_way: list[MovePattern], lever: bool
    ) -> _View:
        captures = [p for p in on_way if p.captured]
        placed = occupied & ~self.board.occupied
        if not captures or not placed:
            return _View(TrackerState.MOVING, Phrase("move in progress"))
        finishing = [p for p in captures if p.end == placed]
        if finishing:
            left = 0
            for pattern in finishing:
                left |= occupied & pattern.captured
            return _View(
                TrackerState.REMOVE_CAPTURED,
                Phrase("remove the captured pieces: {squares}", squares=_listed(left)),
                {square: CueKind.REMOVE for square in squares_of(left)},
            )
        standing = placed.bit_length()
        onward: set[int] = set()
        for pattern in captures:
            path = pattern.move.path
            if standing in path[1:-1]:
                onward.add(path[path.index(standing) + 1])
        if not onward:  # a king set down on its way between two landings: still moving
            return _View(TrackerState.MOVING, Phrase("move in progress"))
        self._stopped = standing
        landings = joined(map(str, sorted(onward)), "{first} or {then}")
        way_on = Phrase("jump on from {square} to {squares}", square=standing, squares=landings)
        # A player thinking on a landing square breaks no rule: the turn has not ended until
        # the clock lever is pressed, the other side moves or the long wait is over (R-CAP-3,
        # APCA 10 and 21); before that a reminder, never a penalty.
        reminder = min(self.config.jump_reminder, self.config.incomplete_jump / 2)
        ended = Phrase("the clock was pressed") if lever else Phrase("it stood too long")
        if lever or self._held(t, self.config.incomplete_jump):
            self._raise(
                t,
                occupied,
                "R-CAP-3",
                frozenset(onward | {standing}),
                Phrase(
                    "incomplete jump (R-CAP-3): the capture stopped on {square} and {ended}; "
                    "finish it: {way_on}",
                    square=standing,
                    ended=ended,
                    way_on=way_on,
                ),
                wrong=Phrase(
                    "incomplete jump (R-CAP-3): the capture stopped on {square}", square=standing
                ),
            )
        if self._violation is not None or self._held(t, reminder):
            detail = Phrase("the capture is not finished: {way_on} (R-CAP-3)", way_on=way_on)
            kind = CueKind.JUMP_REMINDER
        else:
            detail = Phrase("capture under way: {way_on}", way_on=way_on)
            kind = CueKind.CONTINUE_JUMP
        if self._violation is not None:
            detail = Phrase("{wrong}: {way_on}", wrong=self._wrong, way_on=way_on)
        return _View(
            TrackerState.CONTINUE_CAPTURE,
            detail,
            {square: kind for square in onward},
            wake=[self._since + reminder, self._since + self.config.incomplete_jump],
        )

    def _view_off_path(self, t: float, occupied: int, lever: bool) -> _View:
        expected = self.board.occupied
        added = occupied & ~expected
        missing = expected & ~occupied
        if self._crown is not None and not added and missing == BITS[self._crown]:
            crowning = Phrase("crowning the new king on {square}", square=self._crown)
            return _View(TrackerState.CROWNING, crowning)
        if self._takeback_due(t, occupied):
            return self._view_at_rest(t)
        if self.config.takeback and self._is_previous_position(occupied):
            return self._view_taking_back()
        if not (lever or self._held(t, self.config.settle)):
            # Hands pass through such boards (a sensor that sees the arrival before the
            # departure, a piece set down and moved on): no cue and no verdict yet.
            return _View(
                TrackerState.MOVING,
                Phrase("move in progress"),
                wake=[self._since + self.config.settle],
            )
        if self._expected is not None:
            return self._view_not_expected(occupied)
        if self._awaiting_opponent():
            return self._view_awaiting_opponent(occupied)
        wrong = self._wrong_pieces(self.board) & occupied
        replace = self._replace_parts(wrong)
        looks_like = next((p for p in self._patterns if p.is_at(occupied)), None)
        if looks_like is not None and self._colours is not None:
            # The occupancy of a legal move, with a piece of the wrong colour in it (a swap).
            seen = self._colours
            misfit = [
                Phrase("a black piece on {square}", square=square)
                if seen.black & BITS[square]
                else Phrase("a white piece on {square}", square=square)
                for square in squares_of(looks_like.misfits(seen))
            ]
            notation = self.board.notation(looks_like.move)
            pieces = joined(misfit, "{first}, {then}")
            replace.append(Phrase("{move} cannot leave {pieces}", move=notation, pieces=pieces))
        cues = _restore_cues(expected, occupied)
        cues.update({square: CueKind.WRONG_PIECE for square in squares_of(wrong)})
        restore = _restore(expected, occupied, replace)
        view = _View(TrackerState.RESTORE, restore, cues)
        if not (added or wrong) or self._is_previous_position(occupied):
            # Pieces lifted and nothing put down, or the last move put back where takebacks are
            # not allowed: no move was attempted; the cues ask for the position back.
            return view
        view.wake = [self._since + self.config.stuck]
        missed = missed_capture_results(self.board).get(occupied)
        side, played = self.board.turn, self._played(added, missing)
        squares = frozenset(squares_of(added | missing | wrong))
        if self._stopped is not None:
            # The turn ended with the capture open: the other side moved, or the capturing
            # side did something else (R-CAP-3; an improper move, APCA 10).
            rule = "R-CAP-3"
            wrong_part = Phrase(
                "incomplete jump (R-CAP-3): the capture stopped on {square} was not finished",
                square=self._stopped,
            )
        elif missed is not None:
            capturers = frozenset(p.move.path[0] for p in self._patterns)
            for square in capturers:
                view.cues[square] = CueKind.MUST_CAPTURE
            rule = "R-CAP-1"
            squares = capturers | {missed.path[0], missed.path[-1]}
            wrong_part = Phrase(
                "{move} is not allowed: a capture is compulsory (R-CAP-1); capture with {squares}",
                move=f"{missed.path[0]}-{missed.path[-1]}",
                squares=", ".join(map(str, sorted(capturers))),
            )
        elif self._moved_out_of_turn(added, missing):
            side, rule = self.board.turn.opponent, "R-ILL-1"
            wrong_part = (
                Phrase("{move} is out of turn: it is Black's move (R-BRD-3)", move=played)
                if self.board.turn is Color.BLACK
                else Phrase("{move} is out of turn: it is White's move (R-BRD-3)", move=played)
            )
        else:
            rule = "R-ILL-1"
            wrong_part = Phrase("{move} is not a legal move (R-ILL-1)", move=played)
        self._raise(
            t,
            occupied,
            rule,
            squares,
            Phrase(
                "{wrong}: {restore}{then}",
                wrong=wrong_part,
                restore=restore,
                then=self._then_move(),
            ),
            side=side,
            wrong=wrong_part,
        )
        if self._violation is not None:
            view.detail = Phrase(
                "{wrong}: {restore}{then}",
                wrong=self._wrong,
                restore=restore,
                then=self._then_move(),
            )
        if self._held(t, self.config.stuck):
            self._suspect_stuck_square(t, occupied)
        return view

    def _played(self, added: int, missing: int) -> Value:
        """What the board shows was played, written as a move where it looks like one
        (``10-17``, ``15x24``; R-BRD-4), else by the squares emptied and filled."""
        turn = self.board.turn
        own, theirs = missing & self.board.pieces(turn), missing & self.board.pieces(turn.opponent)
        if added.bit_count() == 1:
            if own.bit_count() == 1:
                return f"{own.bit_length()}{'x' if theirs else '-'}{added.bit_length()}"
            if theirs.bit_count() == 1 and not own:
                return f"{theirs.bit_length()}-{added.bit_length()}"
        if not (added or missing):
            return Phrase("that")
        gone = _listed(missing) if missing else Phrase("none")
        came = _listed(added) if added else Phrase("none")
        return Phrase("the move emptying {gone} and filling {came}", gone=gone, came=came)

    def _then_move(self) -> Value:
        """The move to make once the position is back, when a piece was lifted that can move:
        that piece (R-TCH-1; an improper move is retracted and made right with the same piece
        where possible, R-CAP-3)."""
        touched = self._touched
        if touched is None:
            return ""
        moves = [self.board.notation(p.move) for p in self._patterns if p.move.path[0] == touched]
        return Phrase(
            "; then move the piece on {square} (R-TCH-1): {moves}",
            square=touched,
            moves=joined(moves, "{first} or {then}"),
        )

    def _moved_out_of_turn(self, added: int, missing: int) -> bool:
        """Whether a sensor that sees colours shows only the other side's pieces moved: every
        piece gone was theirs and every piece come is seen in their colour. The offence is
        then theirs, not the side to move's (occupancy alone cannot tell: the side to move)."""
        seen = self._colours
        if seen is None or not added:
            return False
        other = self.board.turn.opponent
        seen_theirs = seen.black if other is Color.BLACK else seen.white
        return missing & ~self.board.pieces(other) == 0 and added & ~seen_theirs == 0

    def _view_not_expected(self, occupied: int) -> _View:
        """The board shows neither the expected move nor the way to it: restore, then play it.
        No rule is broken (the hand plays for the opponent), so nothing is reported."""
        assert self._expected is not None
        expected = self.board.occupied
        notation = self.board.notation(self._expected)
        other = next((p for p in move_patterns(self.board) if self._is_at(p, occupied)), None)
        wrong = self._wrong_pieces(self.board) & occupied
        cues = _restore_cues(expected, occupied)
        cues.update({square: CueKind.WRONG_PIECE for square in squares_of(wrong)})
        detail = _restore(expected, occupied, self._replace_parts(wrong))
        if other is not None:
            played = self.board.notation(other.move)
            detail = Phrase("{move} is not the move to make: {detail}", move=played, detail=detail)
        then = Phrase("{detail}; then play {move}", detail=detail, move=notation)
        return _View(TrackerState.RESTORE, then, cues)

    def _view_awaiting_opponent(self, occupied: int) -> _View:
        """The board changed while the opponent off the board is still choosing: restore, then
        wait. No rule is broken (the hand is not the opponent's), so nothing is reported."""
        expected = self.board.occupied
        wrong = self._wrong_pieces(self.board) & occupied
        cues = _restore_cues(expected, occupied)
        cues.update({square: CueKind.WRONG_PIECE for square in squares_of(wrong)})
        detail = _restore(expected, occupied, self._replace_parts(wrong))
        wait = (
            Phrase("{detail}; then wait for Black's move", detail=detail)
            if self.board.turn is Color.BLACK
            else Phrase("{detail}; then wait for White's move", detail=detail)
        )
        return _View(TrackerState.RESTORE, wait, cues)

    def _view_taking_back(self) -> _View:
        """The previous position stands (casual): a takeback, once it has stood the settle
        window; against an opponent, once the player's own move is back too."""
        detail = Phrase("taking back?")
        if self._takes_back_two():
            detail = Phrase("taking back? put back your own move too")
            self._taking_back = True
        return _View(TrackerState.MOVING, detail, wake=[self._since + self.config.settle])

    def _takes_back_two(self) -> bool:
        """Whether a takeback undoes two moves: the opponent's reply with the player's move."""
        return (
            self.opponent is not None
            and self.board.turn is not self.opponent
            and len(self.board.move_stack) >= 2
        )

    def _between_takeback(self, occupied: int) -> bool:
        """Whether the board is on its way from the position before the opponent's reply to
        the one before the player's move (their piece in the hand): such a board may look
        like a capture (the reply offered a piece) but is the takeback going on."""
        reply = self.board.pop()
        before_reply = self.board.occupied
        own = self.board.pop()
        before_own = self.board.occupied
        self.board.push(own)
        self.board.push(reply)
        agree = ~(before_reply ^ before_own)
        return (occupied & agree) == (before_reply & agree)

    def _view_correction(self, t: float, occupied: int, lever: bool) -> _View | None:
        last = self._last
        assert last is not None
        if self._is_at(last.pattern, occupied):
            return None
        if self._is_previous_position(occupied):
            if self._takeback_due(t, occupied):
                return self._view_at_rest(t)
            if self.config.takeback:
                return self._view_taking_back()
            last.correctable = False
            return None
        going_on = [
            p for p in last.patterns if p.extends(last.pattern) and self._is_on_way(p, occupied)
        ]
        if not going_on:
            last.correctable = False
            return None
        at = next((p for p in going_on if self._is_at(p, occupied)), None)
        others = [p for p in going_on if p is not at]
        if at is not None and (not others or lever or self._held(t, self.config.settle)):
            self._correct(t, at)
            return self._view_at_rest(t)
        return _View(
            TrackerState.MOVING, Phrase("move in progress"), wake=[self._since + self.config.settle]
        )

    # -- actions -------------------------------------------------------------------------------

    def _record(self, t: float, pattern: MovePattern) -> None:
        move = pattern.move
        side = self.board.turn
        notation = self.board.notation(move)
        touched, stopped = self._touched, self._stopped
        before = self.board.copy(stack=False)
        self._last = _LastMove(before, self._patterns, pattern)
        self.board.push(move)
        self._finished = None  # whatever move the board showed finished is recorded or gone by
        self._expected = None
        self._patterns = self._current_patterns()
        self._after_move(t, move.crowns, move.path[-1])
        self._emit(MoveRecorded(t, move, notation, side, len(self.board.move_stack)))
        finished = stopped is not None and stopped in move.path[1:-1]
        if finished:
            self._mend(t, side, Phrase("{move} finished the capture", move=notation))
        else:
            self._mend(t, side, Phrase("{move} played", move=notation))
        if touched is not None and touched != move.path[0]:
            self._raise(
                t,
                None,
                "R-TCH-1",
                frozenset({touched, move.path[0]}),
                _for_the_referee(
                    Phrase(
                        "touch move (R-TCH-1): {side} lifted the piece on {square}, which could "
                        "move, then played {move}; the touched piece must be moved",
                        side=_SIDES[side],
                        square=touched,
                        move=notation,
                    ),
                    self.config.referee_flags,
                ),
                side=side,
                severity=Severity.VIOLATION,
                referee=self.config.referee_flags,
            )

    def _correct(self, t: float, pattern: MovePattern) -> None:
        last = self._last
        assert last is not None
        old = self.board.pop()
        old_notation = last.before.notation(old)
        side = self.board.turn
        notation = self.board.notation(pattern.move)
        self.board.push(pattern.move)
        last.pattern = pattern
        self._expected = None
        self._patterns = self._current_patterns()
        self._after_move(t, pattern.move.crowns, pattern.move.path[-1])
        self._emit(
            MoveCorrected(
                t,
                pattern.move,
                notation,
                side,
                len(self.board.move_stack),
                old=old,
                old_notation=old_notation,
            )
        )

    def _after_move(self, t: float, crowns: bool, end: int) -> None:
        self._touched = None
        self._hint = None
        self._taking_back = False
        self._adjusting = False
        self._unplayable_lifted.clear()
        self._violation = None
        self._stopped = None
        self._notice = None
        self._crown, self._crown_lifted = (end, False) if crowns else (None, False)
        self._confirm_until = t + self.config.confirm

    def _takeback_due(self, t: float, occupied: int) -> bool:
        """Casual play: the previous position stood still for the settle window: undo. Against
        an opponent off the board, the position before the player's own last move: undo both
        that move and the opponent's reply (or the player's move alone, if no reply yet)."""
        if (
            not self.config.takeback
            or not self.board.move_stack
            or not self._held(t, self.config.settle)
        ):
            return False
        plies = 2 if self._takes_back_two() else 1
        undone = [self.board.pop() for _ in range(plies)]
        if not self._shows(self.board, occupied):
            for move in reversed(undone):
                self.board.push(move)
            return False
        self._unmended.clear()  # the moves they would have mended are taken back
        replay = self.board.copy()
        for move in reversed(undone):
            replay.push(move)
        self._expected = None
        self._patterns = self._current_patterns()
        self._last = None
        self._after_move(t, False, undone[-1].path[0])
        self._confirm_until = -math.inf
        for move in undone:
            replay.pop()
            notation, side = replay.notation(move), replay.turn
            self._emit(MoveTakenBack(t, move, notation, side, len(replay.move_stack) + 1))
        return True

    def _follow_crowning(self, occupied: int) -> None:
        """The opponent crowns a new king (R-PRO-1): a sensor that sees kings shows one there;
        on any other, or where it sees a piece of neither side put back (a spare standing in
        for the crown), it is lifted and put back (which is no touch)."""
        if self._crown is None:
            return
        square = BITS[self._crown]
        colours = self._colours
        if colours is not None and colours.kings & square:
            self._crown = None
        elif not occupied & square:
            self._crown_lifted = True
        elif self._crown_lifted and (
            not self._sees_kings or (colours is not None and not colours.known & square)
        ):
            self._crown = None

    def _follow_touch(self, occupied: int) -> None:
        """Touch move (R-TCH-1/2): the side to move's first lifted piece, unless announced."""
        side = self.board.turn
        lifted = self.board.pieces(side) & ~occupied
        if lifted.bit_count() > 1 or self._rearranging:
            # No move lifts two of the mover's pieces: the board is being cleared or set up
            # again, which is no touch until the position stands again.
            self._rearranging, self._touched = True, None
            return
        if not lifted or self._touched is not None or self._adjusting:
            return
        if side in self._adjust_notice:
            self._adjust_notice.discard(side)
            self._adjusting = True
            return
        for square in squares_of(lifted):
            if any(p.move.path[0] == square for p in self._patterns):
                self._touched = square
                return
        self._unplayable_lifted.update(squares_of(lifted))

    def _caution_touch(self, t: float) -> None:
        """A piece that cannot be played was lifted and put back (R-TCH-2)."""
        side = self.board.turn
        squares = frozenset(self._unplayable_lifted)
        self._unplayable_lifted.clear()
        repeat = self._offences[(side, "R-TCH-2")] >= 1
        listed = ", ".join(map(str, sorted(squares)))
        self._raise(
            t,
            None,
            "R-TCH-2",
            squares,
            Phrase(
                "touch move (R-TCH-2): {side} touched the piece on {squares}, which cannot be "
                "played: {what}",
                side=_SIDES[side],
                squares=listed,
                what=Phrase("repeated, grounds to forfeit") if repeat else Phrase("a caution"),
            ),
            side=side,
            severity=Severity.FORFEIT if repeat else Severity.CAUTION,
            referee=self.config.referee_flags,
        )

    def _raise(
        self,
        t: float,
        occupied: int | None,
        rule: str,
        squares: frozenset[int],
        message: Phrase,
        *,
        side: Color | None = None,
        severity: Severity | None = None,
        referee: bool = False,
        wrong: Phrase | None = None,
    ) -> None:
        """Report a violation and tell it: one per improper move (the boards it passes through
        until the position is back are one move, APCA 10), and repeated improper moves flag a
        forfeit. One raised with the board at rest (``occupied`` None: touch move) is told for
        the ``notice`` time. While an opponent's move is being executed nothing is reported:
        the cues guide it."""
        if self._expected is not None:
            return
        improper = rule in _ILLEGAL
        if occupied is not None:
            if (occupied, rule) in self._raised or (improper and self._violation is not None):
                return
            self._raised.add((occupied, rule))
        side = side or self.board.turn
        self._offences[(side, rule)] += 1
        if severity is None:
            illegal = sum(n for (s, r), n in self._offences.items() if s is side and r in _ILLEGAL)
            severity = (
                Severity.FORFEIT
                if illegal >= self.config.illegal_forfeit_after
                else Severity.VIOLATION
            )
            referee = referee or severity is Severity.FORFEIT
        violation = Violation(t, rule, side, squares, message, severity, referee)
        if occupied is not None:
            self._violation, self._wrong = violation, wrong or message
        else:
            self._notice, self._notice_until = violation, t + self.config.notice
        if improper:
            self._unmended.append(violation)
        self._emit(violation)

    def _mend(self, t: float, side: Color, how: Phrase) -> None:
        """``side``'s improper moves are put right (R-ILL-1): say so for each."""
        for violation in [v for v in self._unmended if v.side is side]:
            self._unmended.remove(violation)
            mended = Phrase("mended at once: {how}", how=how)
            self._emit(ViolationMended(t, violation.rule, side, violation.t, mended))

    def _suspect_stuck_square(self, t: float, occupied: int) -> None:
        # A legal move's result first: all but one square agreeing with a move is the likelier
        # story than a new piece on the board.
        candidates = [p.result for p in self._patterns] + [self.board.occupied]
        for result in candidates:
            wrong = result ^ occupied
            if wrong and wrong & (wrong - 1) == 0 and (occupied, "stuck") not in self._raised:
                self._raised.add((occupied, "stuck"))
                square = wrong.bit_length()
                stuck = (
                    Phrase(
                        "square {square} still reads occupied: if its piece is where it should "
                        "be, the sensor on that square may be stuck",
                        square=square,
                    )
                    if occupied & wrong
                    else Phrase(
                        "square {square} still reads empty: if its piece is where it should "
                        "be, the sensor on that square may be stuck",
                        square=square,
                    )
                )
                self._emit(_fault(t, {square}, stuck))
                return

    # -- output --------------------------------------------------------------------------------

    def _with_standing_cues(self, t: float, occupied: int, view: _View) -> dict[int, CueKind]:
        layers: list[dict[int, CueKind]] = [view.cues]
        if self._violation is not None:
            # The piece that must come off blinks as an error; the rest keeps its guidance.
            layers.insert(
                0, {s: CueKind.ERROR for s, k in view.cues.items() if k is CueKind.RESTORE_CLEAR}
            )
        if self._touched is not None and occupied & BITS[self._touched]:
            layers.append({self._touched: CueKind.TOUCH_MOVE})
        if self._notice is not None and t < self._notice_until:
            view.wake.append(self._notice_until)
            told = self._notice.squares & frozenset(squares_of(occupied))
            layers.insert(0, {square: CueKind.ERROR for square in told})
        if self._crown is not None:
            layers.append({self._crown: CueKind.CROWN})
        if self._sees_kings and self._colours is not None:
            # Kings the sensor shows as men: still kings (R-PRO-3), but asking to be crowned.
            seen = self._colours.known
            uncrowned = self.board.kings & occupied & seen & ~self._colours.kings
            layers.append({square: CueKind.CROWN for square in squares_of(uncrowned)})
        for square in self._debouncer.faulty | self._unreadable:
            layers.append({square: CueKind.ERROR})
        if self._expected is not None:
            layers.append(_move_cues(self._expected, occupied, _PLAY_CUES, remove=True))
        elif self._hint is not None:
            layers.append(_move_cues(self._hint, occupied, _HINT_CUES, remove=False))
        stack = self.board.move_stack
        if stack and occupied == self.board.occupied and self._expected is None:
            last = stack[-1]
            if t < self._confirm_until:
                view.wake.append(self._confirm_until)
                layers.append({last.path[-1]: CueKind.CONFIRM})
            layers.append({last.path[0]: CueKind.MOVE_FROM, last.path[-1]: CueKind.MOVE_TO})
        return dict(Cues.merge(*layers).squares)

    def _publish(self, t: float, view: _View) -> None:
        if self._state != (view.state, str(view.detail)):
            self._state = (view.state, str(view.detail))
            self._emit(StateChanged(t, view.state, view.detail))
        cues = Cues.merge(view.cues)
        if cues != self._cues:
            self._cues = cues
            self._emit(CuesChanged(t, cues))
        future = [w for w in view.wake if w > t]
        self._timer = min(future, default=None)

    def _emit(self, event: TrackerEvent) -> None:
        self._out.append(event)

    def _drain(self) -> list[TrackerEvent]:
        out, self._out = self._out, []
        return out


#: Rules whose breach is an illegal move in the sense of R-ILL-1 (repeated: grounds to forfeit).
_ILLEGAL = frozenset({"R-ILL-1", "R-CAP-1", "R-CAP-3"})


#: The cues of a move to make: its start, its landings on the way, its end.
_PLAY_CUES = (CueKind.PLAY_FROM, CueKind.PLAY_PATH, CueKind.PLAY_TO)
_HINT_CUES = (CueKind.HINT_FROM, CueKind.HINT_TO, CueKind.HINT_TO)


def _move_cues(
    move: Move, occupied: int, kinds: tuple[CueKind, CueKind, CueKind], *, remove: bool
) -> dict[int, CueKind]:
    """Light ``move`` as far as the board has not done it yet: its start while the piece is
    still there, its landings and end until the piece stands on the end and, with ``remove``,
    each captured piece still to take off (R-CAP-4)."""
    start, landing, end = kinds
    cues: dict[int, CueKind] = {}
    first, last = move.path[0], move.path[-1]
    arrived = first != last and bool(occupied & BITS[last]) and not occupied & BITS[first]
    if not arrived:
        cues.update({square: landing for square in move.path[1:-1]})
        cues[last] = end
        if occupied & BITS[first]:
            cues[first] = start
    if remove:
        cues.update({s: CueKind.REMOVE for s in move.captures if occupied & BITS[s]})
    return cues


def _restore_cues(target: int, occupied: int) -> dict[int, CueKind]:
    cues = {s: CueKind.RESTORE_FILL for s in squares_of(target & ~occupied)}
    cues.update({s: CueKind.RESTORE_CLEAR for s in squares_of(occupied & ~target)})
    return cues


def _restore_parts(target: int, occupied: int, replace: list[Value]) -> Value:
    """What to do to bring ``occupied`` to ``target``: "put a piece on 12; clear 17", then
    each of ``replace``."""
    parts: list[Value] = []
    if fill := target & ~occupied:
        parts.append(Phrase("put a piece on {squares}", squares=_listed(fill)))
    if clear := occupied & ~target:
        parts.append(Phrase("clear {squares}", squares=_listed(clear)))
    return joined(parts + replace, "{first}; {then}")


def _restore(target: int, occupied: int, replace: list[Value]) -> Phrase:
    """ "restore the position: " and what to do (:func:`_restore_parts`)."""
    parts = _restore_parts(target, occupied, replace)
    return Phrase("restore the position: {parts}", parts=parts)


def _listed(squares: int) -> str:
    """The squares of a mask as a list: "12, 17" (numbers read the same in every language)."""
    return ", ".join(map(str, squares_of(squares)))


def _fault(t: float, squares: Iterable[int], said: Phrase) -> FaultReported:
    """A sensor fault on ``squares`` the tracker itself finds, worded for any language."""
    return FaultReported(t, frozenset(squares), str(said), said)


def _for_the_referee(message: Phrase, flagged: bool) -> Phrase:
    """``message``, said to be for the referee to judge when the profile flags it."""
    return Phrase("{text}, for the referee to judge", text=message) if flagged else message


#: A side in a message, and the side to move as the pages say it.
_SIDES = {Color.BLACK: Phrase("Black"), Color.WHITE: Phrase("White")}
_TO_MOVE = {Color.BLACK: Phrase("Black to move"), Color.WHITE: Phrase("White to move")}
#: A piece as the sensor sees it (black?, king?) and as the position wants it.
_SEEN_PIECES = {
    (True, False): Phrase("black piece"),
    (True, True): Phrase("black king"),
    (False, False): Phrase("white piece"),
    (False, True): Phrase("white king"),
}
_WANTED_PIECES = {
    (Color.BLACK, False): Phrase("a black man"),
    (Color.BLACK, True): Phrase("a black king"),
    (Color.WHITE, False): Phrase("a white man"),
    (Color.WHITE, True): Phrase("a white king"),
}
