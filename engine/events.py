"""What the occupancy tracker tells the rest of the system: typed events, one class per kind.

Each event has ``t`` (sensor time, seconds) and a ``kind`` string used in JSON output
(``poolboard replay --json``, the web API). Consumers handle them by type, one handler per kind.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from engine.board import Move
from engine.color import Color
from engine.cues import Cues
from engine.phrase import Phrase


class TrackerState(enum.Enum):
    """What the board is waiting for; what a screen shows beside the board."""

    SETUP = "set up the position"
    TO_MOVE = "waiting for a move"
    MOVING = "move in progress"
    CONTINUE_CAPTURE = "continue the capture"
    REMOVE_CAPTURED = "remove the captured pieces"
    RESTORE = "restore the position"
    CROWNING = "crown the new king"


class Severity(enum.Enum):
    """How serious a violation is: a caution, an infraction, or grounds to forfeit (R-END-3)."""

    CAUTION = "caution"
    VIOLATION = "violation"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The set-up position stands on the board; play begins."""

    t: float
    fen: str
    kind: str = "start"

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object."""
        return {"event": self.kind, "t": self.t, "fen": self.fen}


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """What every event about one move carries: the move, its PDN ``notation``, the ``side``
    that played it and its ``ply`` (from 1)."""

    t: float
    move: Move
    notation: str
    side: Color
    ply: int
    kind: str

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object."""
        return {
            "event": self.kind,
            "t": self.t,
            "ply": self.ply,
            "side": self.side.value,
            "notation": self.notation,
            **self.move.to_json(),
        }


@dataclass(frozen=True, slots=True)
class MoveRecorded(PlayedMove):
    """A legal move was made and recorded."""

    kind: str = "move"


@dataclass(frozen=True, slots=True)
class MoveCorrected(PlayedMove):
    """The last recorded move was the start of another legal move, which replaces it: ``old``
    is the move first recorded."""

    kind: str = "correction"
    old: Move = field(kw_only=True)
    old_notation: str = field(kw_only=True)

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object: the new move, and the one it replaces under ``old``."""
        return {
            **PlayedMove.to_json(self),
            "old": {"notation": self.old_notation, **self.old.to_json()},
        }


@dataclass(frozen=True, slots=True)
class MoveTakenBack(PlayedMove):
    """The previous position was put back (a takeback, allowed by the rule profile)."""

    kind: str = "takeback"


@dataclass(frozen=True, slots=True)
class Violation:
    """A breach of a rule: ``rule`` is its RULES.md ID, ``squares`` the squares concerned."""

    t: float
    rule: str
    side: Color
    squares: frozenset[int]
    said: Phrase
    severity: Severity
    referee: bool = False  # flagged for the referee's decision (tournament profiles)
    kind: str = "violation"

    @property
    def message(self) -> str:
        """What was done wrong and what to do, in English (``said``, for any language)."""
        return str(self.said)

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object."""
        return {
            "event": self.kind,
            "t": self.t,
            "rule": self.rule,
            "side": self.side.value,
            "squares": sorted(self.squares),
            "message": self.message,
            "severity": self.severity.value,
            "referee": self.referee,
        }


@dataclass(frozen=True, slots=True)
class ViolationMended:
    """The player put right at once a violation of theirs (an improper move retracted and a
    legal move made, an unfinished capture finished: R-ILL-1, APCA 10). ``raised`` is the
    ``t`` of that :class:`Violation`, whose ``rule`` and ``side`` it repeats; ``message`` says
    how it was mended. It still counts as an improper move (R-ILL-1)."""

    t: float
    rule: str
    side: Color
    raised: float
    said: Phrase
    kind: str = "mended"

    @property
    def message(self) -> str:
        """How it was put right, in English (``said``, for any language)."""
        return str(self.said)

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object."""
        return {
            "event": self.kind,
            "t": self.t,
            "rule": self.rule,
            "side": self.side.value,
            "raised": self.raised,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class StateChanged:
    """The board now waits for something else; ``said`` says it in a sentence."""

    t: float
    state: TrackerState
    said: Phrase
    kind: str = "state"

    @property
    def detail(self) -> str:
        """The sentence in English (``said``, for any language)."""
        return str(self.said)

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object."""
        return {
            "event": self.kind,
            "t": self.t,
            "state": self.state.name.lower(),
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class CuesChanged:
    """The squares to light changed; ``cues`` is the whole new picture."""

    t: float
    cues: Cues
    kind: str = "cues"

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object: ``cues`` maps square numbers (as strings) to cue kinds."""
        return {"event": self.kind, "t": self.t, "cues": self.cues.to_json()}


@dataclass(frozen=True, slots=True)
class FaultReported:
    """A sensor fault (a flickering or stuck square): the squares are ignored until it clears."""

    t: float
    squares: frozenset[int]
    message: str
    #: ``message`` as words a page says in its language (None: a sensor's own English only).
    said: Phrase | None = None
    kind: str = "fault"

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object."""
        return {
            "event": self.kind,
            "t": self.t,
            "squares": sorted(self.squares),
            "message": self.message,
            "said": None if self.said is None else self.said.to_json(),
        }


TrackerEvent = (
    GameStarted
    | MoveRecorded
    | MoveCorrected
    | MoveTakenBack
    | Violation
    | ViolationMended
    | StateChanged
    | CuesChanged
    | FaultReported
)
