"""The game clock (RULES.md R-TIM-1..4): time controls, their short strings, and a clock that
applies one.

Time comes from an injected monotonic source (a callable returning seconds). Remaining time is
worked out from timestamps, never by counting ticks, so a late poll loses nothing; a snapshot
(:meth:`Clock.to_dict`) resumes after a crash without charging the outage.

>>> now = [0.0]
>>> clock = Clock(TimeControl.from_string("300+5"), lambda: now[0])
>>> clock.start(Color.BLACK)
>>> now[0] = 12.0
>>> clock.move_made(Color.BLACK)
True
>>> clock.remaining(Color.BLACK), clock.running
(293.0, <Color.WHITE: 'white'>)
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any

from engine.color import Color
from engine.phrase import Phrase
from engine.refusal import Refusal

#: A monotonic time source: seconds as a float, never going backwards (``time.monotonic``).
TimeSource = Callable[[], float]

DEFAULT_WARNINGS = (300.0, 60.0, 10.0)
MOVE_CALL = 300.0  # R-TIM-1: "time" is called after five minutes on one move ...
MOVE_GRACE = 60.0  # ... and the move not completed a minute later forfeits.
APCA_MATCH_SECONDS = 2700.0  # R-TIM-4: double clocks, 45 minutes a side for the match
APCA_GAME_SECONDS = 1800.0  # R-TIM-4: on a complaint, 30 minutes a side for a game
SNAPSHOT_VERSION = 1


class TimeControlError(Refusal):
    """A time control string or description that makes no sense; the message says what is wrong
    (a :class:`Refusal`, so the referee's page says it in its language)."""


class ClockError(Refusal):
    """An operation the clock cannot do as it stands (the wrong side moved, paused twice, ...);
    a referee's refusals are literal sentences, each a message of poolboard's catalogues."""


def _number(seconds: float) -> str:
    """Seconds as a time control writes them: ``300``, ``2.5`` (never an exponent)."""
    if float(seconds).is_integer():
        return str(int(seconds))
    return format(Decimal(repr(float(seconds))), "f")


def _check_seconds(what: Phrase, seconds: float) -> None:
    """``seconds`` is a time for ``what`` (words such as "the per-move call")."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise TimeControlError(
            "{what} must be a number of seconds, got {seconds}", what=what, seconds=repr(seconds)
        )
    if not (math.isfinite(seconds) and seconds > 0):
        raise TimeControlError(
            "{what} must be a finite number of seconds above 0, got {seconds}",
            what=what,
            seconds=str(seconds),
        )


# -- time controls -------------------------------------------------------------------------------


class Bonus(enum.Enum):
    """What each move earns; the value is the letter in a time control string."""

    NONE = ""
    FISCHER = "+"  # a fixed increment after every move
    BRONSTEIN = "b"  # after every move, the time it used, up to the delay
    DELAY = "d"  # US (simple) delay: the clock waits that long before counting down


class Scope(enum.Enum):
    """Whether the time is for one game or for a whole match (R-TIM-4: carried into game 2)."""

    GAME = "game"
    MATCH = "match"


@dataclass(frozen=True, slots=True)
class Stage:
    """``seconds`` for each side's next ``moves`` moves (R-TIM-3); ``moves=None``: to the end."""

    seconds: float
    moves: int | None = None

    def __post_init__(self) -> None:
        _check_seconds(Phrase("a stage's time"), self.seconds)
        if self.moves is not None and (isinstance(self.moves, bool) or self.moves < 1):
            raise TimeControlError(
                "a stage's move count must be 1 or more, got {moves}", moves=repr(self.moves)
            )


@dataclass(frozen=True, slots=True)
class MoveLimit:
    """R-TIM-1: "time" is called after ``call`` seconds on one move, which forfeits ``grace``
    seconds later; R-TIM-2: a shorter ``capture_call`` (and ``capture_grace``, default the same
    grace) when the mover has exactly one capturing move."""

    call: float = MOVE_CALL
    grace: float = MOVE_GRACE
    capture_call: float | None = None
    capture_grace: float | None = None

    def __post_init__(self) -> None:
        _check_seconds(Phrase("the per-move call"), self.call)
        _check_seconds(Phrase("the per-move grace"), self.grace)
        if self.capture_call is None:
            if self.capture_grace is not None:
                raise TimeControlError("a one-capture grace needs a one-capture call (R-TIM-2)")
            return
        _check_seconds(Phrase("the one-capture call"), self.capture_call)
        if self.capture_grace is not None:
            _check_seconds(Phrase("the one-capture grace"), self.capture_grace)
        call, grace, _ = self.limits(one_capture=True)
        if call > self.call or grace > self.grace:
            raise TimeControlError(
                "the one-capture limit {limit} must not be longer than the normal {normal} "
                "(R-TIM-2)",
                limit=f"{_number(call)}+{_number(grace)}",
                normal=f"{_number(self.call)}+{_number(self.grace)}",
            )

    def limits(self, one_capture: bool) -> tuple[float, float, str]:
        """(call, grace, rule ID) for a move, given whether it has exactly one capture."""
        if one_capture and self.capture_call is not None:
            grace = self.grace if self.capture_grace is None else self.capture_grace
            return self.capture_call, grace, "R-TIM-2"
        return self.call, self.grace, "R-TIM-1"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A time control: either ``stages`` of time (sudden death, moves-in-time) with a per-move
    ``bonus``, or a per-move ``move_limit``. ``str()`` gives the string :meth:`from_string` reads.

    >>> TimeControl.from_string("40/7200:1800").stages
    (Stage(seconds=7200.0, moves=40), Stage(seconds=1800.0, moves=None))
    """

    stages: tuple[Stage, ...] = ()
    bonus: Bonus = Bonus.NONE
    bonus_seconds: float = 0.0
    move_limit: MoveLimit | None = None
    scope: Scope = Scope.GAME

    def __post_init__(self) -> None:
        object.__setattr__(self, "stages", tuple(self.stages))
        if (self.move_limit is None) == (not self.stages):
            raise TimeControlError("a time control has either stages of time or a per-move limit")
        if any(stage.moves is None for stage in self.stages[:-1]):
            raise TimeControlError("only the last stage may be sudden death (have no move count)")
        if (self.bonus is Bonus.NONE) != (self.bonus_seconds == 0):
            raise TimeControlError(
                "bonus {bonus} does not fit {seconds} bonus seconds",
                bonus=self.bonus.name,
                seconds=repr(self.bonus_seconds),
            )
        if self.bonus is not Bonus.NONE:
            _check_seconds(Phrase("the increment or delay"), self.bonus_seconds)
        if self.move_limit is not None and (
            self.bonus is not Bonus.NONE or self.scope is Scope.MATCH
        ):
            raise TimeControlError("a per-move limit takes no increment, delay or match scope")
        if self.scope is Scope.MATCH and (len(self.stages) != 1 or self.stages[0].moves):
            raise TimeControlError(
                "a match clock (R-TIM-4) holds one time for the whole match, e.g. 'match:2700'"
            )

    @property
    def is_per_move(self) -> bool:
        """Whether this is a per-move limit (R-TIM-1/2) rather than a time budget."""
        return self.move_limit is not None

    @classmethod
    def from_string(cls, text: str) -> TimeControl:
        """Parse a config / PDN ``TimeControl`` string (docs/clock.md); the error names the part."""
        return _parse(text)

    def __str__(self) -> str:
        if self.move_limit is not None:
            return _render_move_limit(self.move_limit)
        if self == PRESETS["apca-match"]:
            return "apca-match"
        stages = ":".join(
            _number(s.seconds) if s.moves is None else f"{s.moves}/{_number(s.seconds)}"
            for s in self.stages
        )
        bonus = f"{self.bonus.value}{_number(self.bonus_seconds)}" if self.bonus_seconds else ""
        prefix = "match:" if self.scope is Scope.MATCH else ""
        return f"{prefix}{stages}{bonus}"


#: Named controls a string may use; ``str()`` writes ``apca-game`` as plain ``1800``.
PRESETS: dict[str, TimeControl] = {
    "apca-match": TimeControl((Stage(APCA_MATCH_SECONDS),), scope=Scope.MATCH),
    "apca-game": TimeControl((Stage(APCA_GAME_SECONDS),)),
}

_NUMBER = r"\d+(?:\.\d+)?"
_STAGE = re.compile(rf"(?:(\d+)/)?({_NUMBER})")
_BONUS = re.compile(rf"(.*?)([+bd])({_NUMBER})")
_MOVE_PART = re.compile(rf"({_NUMBER})(?:\+({_NUMBER}))?")


def _parse(text: str) -> TimeControl:
    if not isinstance(text, str):
        raise TimeControlError("a time control is a string, got {kind}", kind=type(text).__name__)
    spec = text.strip().lower()
    if spec in PRESETS:
        return PRESETS[spec]
    if not spec:
        raise TimeControlError("empty time control: expected e.g. '300', '300+5' or 'move:300'")
    try:
        if spec.startswith("move:"):
            return TimeControl(move_limit=_parse_move_limit(spec.removeprefix("move:")))
        scope = Scope.MATCH if spec.startswith("match:") else Scope.GAME
        budget = spec.removeprefix("match:")
        bonus, bonus_seconds = Bonus.NONE, 0.0
        if found := _BONUS.fullmatch(budget):
            budget, bonus, bonus_seconds = found[1], Bonus(found[2]), float(found[3])
            if bonus_seconds == 0:  # "300+0" is plain sudden death
                bonus = Bonus.NONE
        stages = tuple(_parse_stage(part) for part in budget.split(":"))
        return TimeControl(stages, bonus, bonus_seconds, scope=scope)
    except TimeControlError as error:
        raise TimeControlError(
            "time control {text}: {error}", text=repr(text), error=error.phrase
        ) from None


def _parse_stage(part: str) -> Stage:
    found = _STAGE.fullmatch(part)
    if found is None:
        raise TimeControlError(
            "{part} is not a stage: expected SECONDS or MOVES/SECONDS (e.g. 300 or 40/7200), "
            "then at most one +N (Fischer), dN (US delay) or bN (Bronstein)",
            part=repr(part),
        )
    return Stage(float(found[2]), None if found[1] is None else int(found[1]))


def _parse_move_limit(spec: str) -> MoveLimit:
    normal, comma, capture = spec.partition(",")
    call, grace = _parse_move_part(normal, "move:")
    grace = MOVE_GRACE if grace is None else grace
    if not comma:
        return MoveLimit(call, grace)
    if not capture.startswith("capture:"):
        raise TimeControlError(
            "{capture} after ',' should be capture:SECONDS[+GRACE]", capture=repr(capture)
        )
    capture_call, capture_grace = _parse_move_part(capture.removeprefix("capture:"), "capture:")
    return MoveLimit(call, grace, capture_call, None if capture_grace == grace else capture_grace)


def _parse_move_part(part: str, label: str) -> tuple[float, float | None]:
    found = _MOVE_PART.fullmatch(part)
    if found is None:
        raise TimeControlError(
            "{label}{part} should be {label}SECONDS or {label}SECONDS+GRACE (e.g. {label}300+60)",
            label=label,
            part=part,
        )
    return float(found[1]), None if found[2] is None else float(found[2])


def _render_move_limit(limit: MoveLimit) -> str:
    text = f"move:{_number(limit.call)}"
    if limit.grace != MOVE_GRACE:
        text += f"+{_number(limit.grace)}"
    if limit.capture_call is not None:
        text += f",capture:{_number(limit.capture_call)}"
        if limit.capture_grace is not None:
            text += f"+{_number(limit.capture_grace)}"
    return text


# -- events --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TimeWarning:
    """``side``'s time fell to ``threshold`` seconds or below; ``remaining`` when it was seen."""

    side: Color
    threshold: float
    remaining: float


@dataclass(frozen=True, slots=True)
class FlagFell:
    """``side`` ran out of time and loses (R-END-3); ``rule`` is the one that set the time."""

    side: Color
    rule: str


@dataclass(frozen=True, slots=True)
class MoveTimeCalled:
    """The call of "time" on ``side``'s move (R-TIM-1, or R-TIM-2 for a one-capture move)."""

    side: Color
    rule: str


@dataclass(frozen=True, slots=True)
class MoveTimeForfeit:
    """``side`` did not complete the move within the grace after "time" and forfeits."""

    side: Color
    rule: str


ClockEvent = TimeWarning | FlagFell | MoveTimeCalled | MoveTimeForfeit
_EVENT_TYPES: dict[str, type[ClockEvent]] = {
    kind.__name__: kind for kind in (TimeWarning, FlagFell, MoveTimeCalled, MoveTimeForfeit)
}


# -- the clock -----------------------------------------------------------------------------------


class ClockState(enum.Enum):
    """Where the clock is in the current game."""

    READY = "ready"  # set for a game, not started
    RUNNING = "running"
    PAUSED = "paused"  # by the referee; the side to move resumes when it is resumed
    STOPPED = "stopped"  # the game is over (a result, a flag or a forfeit)


class Clock:
    """Applies a :class:`TimeControl` for one game or a match, reading ``time_source``.

    Every call first brings the clock up to the source's time; what happened on the way (time
    warnings at ``warnings`` seconds, a flag, "time" called) waits for :meth:`poll`, each once.
    """

    _to_move: Color | None
    _since: float | None  # when the running side's time started; None while paused or stopped
    _warned: dict[Color, set[float]]
    _timed_out: Color | None

    def __init__(
        self,
        control: TimeControl,
        time_source: TimeSource,
        *,
        warnings: Iterable[float] = DEFAULT_WARNINGS,
    ) -> None:
        thresholds = tuple(warnings)
        for threshold in thresholds:
            try:
                _check_seconds(Phrase("a warning threshold"), threshold)
            except TimeControlError as error:
                raise ValueError(str(error)) from None
        self._control = control
        self._source = time_source
        self._warnings = tuple(sorted({float(t) for t in thresholds}, reverse=True))
        self._last = -math.inf
        self._game = 1
        self._pending: list[ClockEvent] = []
        self._banked = {side: 0.0 for side in Color}
        self._reset_game(carry=False)

    # -- what the clock shows --------------------------------------------------------------------

    @property
    def control(self) -> TimeControl:
        """The time control this clock applies."""
        return self._control

    @property
    def state(self) -> ClockState:
        """Ready, running, paused or stopped."""
        self._advance()
        return self._state()

    @property
    def to_move(self) -> Color | None:
        """The side whose turn it is on the clock (also while paused); ``None`` when not playing."""
        self._advance()
        return self._to_move

    @property
    def running(self) -> Color | None:
        """The side whose time is counting down now, if any."""
        self._advance()
        return self._to_move if self._since is not None else None

    @property
    def game(self) -> int:
        """The game's number in the match, from 1."""
        return self._game

    @property
    def timed_out(self) -> Color | None:
        """The side that lost this game on time (a flag or a per-move forfeit), if any."""
        self._advance()
        return self._timed_out

    def remaining(self, side: Color) -> float:
        """``side``'s time left now. Per-move clocks: the mover's time to the forfeit, the other
        side's full normal limit."""
        return self._remaining(side, self._advance())

    def move_time(self) -> float:
        """Time used on the current move so far (0 when no one is to move)."""
        return self._move_used(self._advance()) if self._to_move is not None else 0.0

    def moves(self, side: Color) -> int:
        """Moves ``side`` has made in this game."""
        return self._moves[side]

    def moves_to_go(self, side: Color) -> int | None:
        """Moves ``side`` still owes in this moves-in-time stage (R-TIM-3); ``None`` if none."""
        if self._control.is_per_move:
            return None
        stage = self._control.stages[self._stage]
        return None if stage.moves is None else max(0, stage.moves - self._stage_moves[side])

    def poll(self) -> tuple[ClockEvent, ...]:
        """What happened since the last poll, in order; each event is returned exactly once."""
        self._advance()
        events = tuple(self._pending)
        self._pending.clear()
        return events

    # -- what players and the referee do ---------------------------------------------------------

    def start(self, side: Color, *, one_capture: bool = False) -> None:
        """Start the game with ``side`` to move; ``one_capture``: its position has exactly one
        capturing move (R-TIM-2)."""
        now = self._advance()
        if self._state() is not ClockState.READY:
            raise ClockError(f"game {self._game} has already started on the clock")
        self._started = True
        self._begin_turn(side, now, one_capture)

    def move_made(self, side: Color, *, one_capture: bool = False) -> bool:
        """``side`` completed a move (recorded, or its lever pressed): its time stops, the bonus
        and any new allotment are added and the opponent's time starts. ``one_capture``: the
        opponent now has exactly one capturing move (R-TIM-2). ``False`` if ``side`` had already
        lost on time: the move came too late and :meth:`poll` says why."""
        now = self._advance()
        if self._timed_out is not None:
            return False
        state = self._state()
        if state is not ClockState.RUNNING:
            raise ClockError(f"no move can be timed: the clock is {state.value}")
        if side is not self._to_move:
            raise ClockError(
                f"it is {_name(self._to_move)}'s turn on the clock, not {_name(side)}'s"
            )
        used = self._move_used(now)
        self._moves[side] += 1
        if not self._control.is_per_move:
            self._banked[side] += self._earned(used) - self._charged(used)
            self._stage_moves[side] += 1
            self._next_allotment()
        self._begin_turn(side.opponent, now, one_capture)
        return True

    def hand_over(self, side: Color, *, one_capture: bool = False) -> None:
        """The turn passes to ``side`` with no move made (a referee's correction changed whose
        move it is): the time used so far is charged to the side that had the turn, no bonus is
        earned and no move counted. A paused clock stays paused. ``one_capture``: as in
        :meth:`start`."""
        now = self._advance()
        state = self._state()
        if state not in (ClockState.RUNNING, ClockState.PAUSED):
            raise ClockError(f"the turn cannot pass: the clock is {state.value}")
        if side is self._to_move:
            return
        mover = self._to_move
        assert mover is not None  # running or paused
        if not self._control.is_per_move:
            self._banked[mover] -= self._charged(self._move_used(now))
        paused = state is ClockState.PAUSED
        self._begin_turn(side, now, one_capture)
        if paused:
            self._since = None

    def pause(self) -> None:
        """Stop the running side's time (the referee); the move's time so far is kept."""
        now = self._advance()
        state = self._state()
        if state is ClockState.READY:
            raise ClockError("cannot pause: the clock is ready")
        if state is ClockState.PAUSED:
            raise ClockError("cannot pause: the clock is paused")
        if state is ClockState.STOPPED:
            raise ClockError("cannot pause: the clock is stopped")
        self._used = self._move_used(now)
        self._since = None

    def resume(self) -> None:
        """Restart the side to move's time from now after :meth:`pause`."""
        now = self._advance()
        state = self._state()
        if state is ClockState.READY:
            raise ClockError("cannot resume: the clock is ready")
        if state is ClockState.RUNNING:
            raise ClockError("cannot resume: the clock is running")
        if state is ClockState.STOPPED:
            raise ClockError("cannot resume: the clock is stopped")
        self._since = now

    def adjust(self, side: Color, seconds: float) -> None:
        """Give ``side`` ``seconds`` more (negative: take them; a side is never left below 0, so
        taking more than it has makes its flag fall). Per-move clocks: only the side to move,
        for this move."""
        now = self._advance()
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise ValueError(f"an adjustment is a number of seconds, got {seconds!r}")
        if not math.isfinite(seconds):
            raise ValueError(f"an adjustment must be a finite number of seconds, got {seconds}")
        if self._timed_out is Color.BLACK:
            raise ClockError("Black has already lost this game on time")
        if self._timed_out is Color.WHITE:
            raise ClockError("White has already lost this game on time")
        if self._control.is_per_move:
            if side is not self._to_move:
                raise ClockError("a per-move clock (R-TIM-1) only holds time for the side to move")
            call, grace, _ = self._limits()
            self._used = min(self._move_used(now) - seconds, call + grace)
            if self._since is not None:
                self._since = now
        else:
            floor = self._charged(self._move_used(now)) if side is self._to_move else 0.0
            self._banked[side] = max(self._banked[side] + seconds, floor)
        self._rearm(now)
        self._advance()

    def stop(self) -> None:
        """End the game on the clock (a result was reached); the mover's time so far is charged."""
        now = self._advance()
        if self._state() is ClockState.READY:
            raise ClockError(f"game {self._game} has not started on the clock")
        if self._to_move is not None and not self._control.is_per_move:
            self._banked[self._to_move] -= self._charged(self._move_used(now))
        self._end_turn()

    def new_game(self, *, swap_sides: bool = False) -> None:
        """Set the clock for the match's next game: a match clock (R-TIM-4) keeps each player's
        time, any other starts afresh. ``swap_sides``: the players change colours (R-TRN-2), so
        Black's time left becomes White's and the other way round. :meth:`start` it when the
        first move is due."""
        self._advance()
        if self._state() is ClockState.READY:
            raise ClockError(f"game {self._game} has not started on the clock")
        if self._to_move is not None:
            self.stop()
        self._game += 1
        if swap_sides:
            self._banked = {side: self._banked[side.opponent] for side in Color}
        self._reset_game(carry=self._control.scope is Scope.MATCH)

    # -- snapshots -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The clock's state as JSON-ready data: times left and the move's time so far, never a
        timestamp, so :meth:`from_dict` restarts the side to move from the new source's now."""
        now = self._advance()
        return {
            "version": SNAPSHOT_VERSION,
            "control": str(self._control),
            "warnings": list(self._warnings),
            "game": self._game,
            "started": self._started,
            "to_move": None if self._to_move is None else self._to_move.value,
            "paused": self._to_move is not None and self._since is None,
            "remaining": {side.value: self._banked[side] for side in Color},
            "move_used": self._move_used(now) if self._to_move is not None else 0.0,
            "one_capture": self._one_capture,
            "called": self._called,
            "stage": self._stage,
            "stage_moves": {side.value: self._stage_moves[side] for side in Color},
            "moves": {side.value: self._moves[side] for side in Color},
            "warned": {side.value: sorted(self._warned[side]) for side in Color},
            "timed_out": None if self._timed_out is None else self._timed_out.value,
            "pending": [event_to_dict(event) for event in self._pending],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], time_source: TimeSource) -> Clock:
        """A clock from :meth:`to_dict` data; a running side's time restarts from
        ``time_source``'s now, so the outage is not charged. ``ClockError`` names a bad field."""
        snap = _Snapshot(data)
        if snap.get("version", int) != SNAPSHOT_VERSION:
            raise ClockError(f"clock snapshot: version must be {SNAPSHOT_VERSION}")
        try:
            control = TimeControl.from_string(snap.get("control", str))
        except TimeControlError as error:
            raise ClockError(f"clock snapshot: {error}") from None
        try:
            clock = cls(control, time_source, warnings=snap.get("warnings", list))
        except ValueError as error:
            raise ClockError(f"clock snapshot: {error}") from None
        clock._game = snap.get("game", int)
        clock._started = snap.get("started", bool)
        clock._to_move = snap.side("to_move")
        clock._banked = snap.per_side("remaining", float)
        clock._used = snap.get("move_used", float)
        clock._one_capture = snap.get("one_capture", bool)
        clock._called = snap.get("called", bool)
        clock._stage = snap.get("stage", int)
        clock._stage_moves = snap.per_side("stage_moves", int)
        clock._moves = snap.per_side("moves", int)
        clock._warned = {
            side: set(snap.thresholds(f"warned.{side.value}", given))
            for side, given in snap.per_side("warned", list).items()
        }
        clock._timed_out = snap.side("timed_out")
        clock._pending = [_event_from_dict(item) for item in snap.get("pending", list)]
        if not 0 <= clock._stage < len(control.stages or (None,)):
            raise ClockError(f"clock snapshot: stage {clock._stage} is not in {control}")
        if clock._to_move is not None and not snap.get("paused", bool):
            clock._since = clock._advance()
        return clock

    # -- inside --------------------------------------------------------------------------------

    def _reset_game(self, carry: bool) -> None:
        if not carry and self._control.stages:
            self._banked = {side: self._control.stages[0].seconds for side in Color}
        self._started = False
        self._to_move = None
        self._since = None
        self._used = 0.0
        self._one_capture = False
        self._called = False
        self._stage = 0
        self._stage_moves = {side: 0 for side in Color}
        self._moves = {side: 0 for side in Color}
        self._warned = {side: set() for side in Color}
        self._timed_out = None

    def _state(self) -> ClockState:
        if not self._started:
            return ClockState.READY
        if self._to_move is None:
            return ClockState.STOPPED
        return ClockState.RUNNING if self._since is not None else ClockState.PAUSED

    def _begin_turn(self, side: Color, now: float, one_capture: bool) -> None:
        self._to_move, self._since, self._used = side, now, 0.0
        self._one_capture, self._called = bool(one_capture), False
        if self._control.is_per_move:
            self._warned[side] = set()  # every move has its own limit
        self._rearm(now)
        self._advance()

    def _end_turn(self) -> None:
        self._to_move, self._since, self._used = None, None, 0.0

    def _move_used(self, now: float) -> float:
        return self._used + (now - self._since if self._since is not None else 0.0)

    def _limits(self, one_capture: bool | None = None) -> tuple[float, float, str]:
        """The per-move limit for the current move, or for a move with(out) one capture."""
        limit = self._control.move_limit
        assert limit is not None, "only per-move clocks have move limits"
        return limit.limits(self._one_capture if one_capture is None else one_capture)

    def _charged(self, used: float) -> float:
        """What ``used`` seconds on a move cost the budget: all of it, or past the US delay."""
        if self._control.bonus is Bonus.DELAY:
            return max(0.0, used - self._control.bonus_seconds)
        return used

    def _earned(self, used: float) -> float:
        """What a move that took ``used`` seconds gives back: the increment, or up to the delay."""
        if self._control.bonus is Bonus.FISCHER:
            return self._control.bonus_seconds
        if self._control.bonus is Bonus.BRONSTEIN:
            return min(self._control.bonus_seconds, used)
        return 0.0

    def _next_allotment(self) -> None:
        """R-TIM-3: when both sides have made a stage's moves, each gets the next allotment on
        top of what it has left; the last moves-in-time stage repeats."""
        stages = self._control.stages
        stage = stages[self._stage]
        if stage.moves is None or any(self._stage_moves[s] < stage.moves for s in Color):
            return
        self._stage = min(self._stage + 1, len(stages) - 1)
        for side in Color:
            self._banked[side] += stages[self._stage].seconds
            self._stage_moves[side] -= stage.moves

    def _remaining(self, side: Color, now: float) -> float:
        if side is self._timed_out:
            return 0.0
        if self._control.is_per_move:
            if side is self._to_move:
                call, grace, _ = self._limits()
                return call + grace - self._move_used(now)
            call, grace, _ = self._limits(one_capture=False)
            return call + grace
        banked = self._banked[side]
        if side is self._to_move:
            banked -= self._charged(self._move_used(now))
        return banked

    def _flag_rule(self) -> str:
        if self._control.stages[self._stage].moves is not None:
            return "R-TIM-3"  # ran out before completing the required moves
        return "R-TIM-4" if self._control.scope is Scope.MATCH else "R-END-3"

    def _advance(self) -> float:
        """Read the time source and queue whatever happened up to now; returns now."""
        now = float(self._source())
        if math.isnan(now):
            raise ClockError("the time source returned NaN")
        now = max(now, self._last)  # a monotonic source never goes back; be sure of it
        self._last = now
        mover = self._to_move
        if mover is None:
            return now
        if self._control.is_per_move:
            call, grace, rule = self._limits()
            used = self._move_used(now)
            if used >= call and not self._called:
                self._called = True
                self._pending.append(MoveTimeCalled(mover, rule))
            if used >= call + grace:
                self._lose_on_time(mover, MoveTimeForfeit(mover, rule))
                return now
        else:
            for side in (mover, mover.opponent):
                if self._remaining(side, now) <= 0:
                    self._banked[mover] -= self._charged(self._move_used(now))
                    self._banked[side] = 0.0
                    self._lose_on_time(side, FlagFell(side, self._flag_rule()))
                    return now
        for side in (mover,) if self._control.is_per_move else Color:
            self._warn(side, now)
        return now

    def _lose_on_time(self, side: Color, event: ClockEvent) -> None:
        self._end_turn()
        self._timed_out = side
        self._pending.append(event)

    def _warn(self, side: Color, now: float) -> None:
        """One warning for the lowest threshold newly reached; higher ones count as given."""
        left = self._remaining(side, now)
        reached = {t for t in self._warnings if left <= t}
        new = reached - self._warned[side]
        if new:
            self._warned[side] |= reached
            self._pending.append(TimeWarning(side, min(new), left))

    def _rearm(self, now: float) -> None:
        """Time went back above a threshold (a bonus, an allotment, a new move): warn again."""
        for side in Color:
            left = self._remaining(side, now)
            self._warned[side] = {t for t in self._warned[side] if left <= t}


def _name(side: Color | None) -> str:
    return "no one" if side is None else side.value.capitalize()


def event_to_dict(event: ClockEvent) -> dict[str, Any]:
    """A clock event as JSON-ready data: ``event`` (its class name) and its fields."""
    data: dict[str, Any] = {"event": type(event).__name__}
    for item in fields(event):
        value = getattr(event, item.name)
        data[item.name] = value.value if isinstance(value, Color) else value
    return data


def _event_from_dict(data: Any) -> ClockEvent:
    try:
        kind = _EVENT_TYPES[data["event"]]
        values = {item.name: data[item.name] for item in fields(kind)}
        values["side"] = Color(values["side"])
        return kind(**values)
    except (KeyError, TypeError, ValueError) as error:
        raise ClockError(f"clock snapshot: bad pending event {data!r} ({error})") from None


class _Snapshot:
    """Typed reads from snapshot data, each error naming the field."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping):
            raise ClockError(f"clock snapshot: expected a mapping, got {type(data).__name__}")
        self._data = data

    def get(self, key: str, kind: type) -> Any:
        if key not in self._data:
            raise ClockError(f"clock snapshot: missing {key!r}")
        value = self._data[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ClockError(f"clock snapshot: {key!r} should be {kind.__name__}, got {value!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise ClockError(f"clock snapshot: {key!r} must be finite, got {value!r}")
        return value

    def thresholds(self, key: str, values: list[Any]) -> list[float]:
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            raise ClockError(f"clock snapshot: {key!r} should hold numbers of seconds")
        return [float(v) for v in values]

    def side(self, key: str) -> Color | None:
        if key not in self._data:
            raise ClockError(f"clock snapshot: missing {key!r}")
        value = self._data[key]
        if value is None:
            return None
        try:
            return Color(value)
        except ValueError:
            raise ClockError(f"clock snapshot: {key!r} should be black, white or null") from None

    def per_side(self, key: str, kind: type) -> dict[Color, Any]:
        inner = _Snapshot(self.get(key, dict))
        try:
            return {side: inner.get(side.value, kind) for side in Color}
        except ClockError as error:
            raise ClockError(f"{error} in {key!r}") from None
