"""What a board sensor reports, and the two small interfaces every sensor and display implements.

Most sensors only know which of the 32 dark squares hold a piece, never whose; a camera can also
see each piece's colour, and a king where the picture shows one, and says so in ``Snapshot.pieces``.
Backends (GPIO reed matrix, the serial bridge, the camera, the simulated board) turn their readings
into these events; the occupancy tracker consumes them. Times are seconds on a monotonic clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from engine.color import Color
from engine.cues import Cues
from engine.phrase import Phrase

SQUARES = range(1, 33)


class SensorSpecError(ValueError):
    """A sensor spec (``serial:...``, ``gpio:...``, ``camera:...``) that names no backend, or
    that the backend rejects; the message says what is wrong."""


def occupancy(squares: Iterable[int]) -> frozenset[int]:
    """Validate squares 1-32 and freeze them; ``ValueError`` names the first bad square."""
    result = frozenset(squares)
    for square in result:
        if not isinstance(square, int) or isinstance(square, bool) or not 1 <= square <= 32:
            raise ValueError(f"square {square!r} is not a dark square 1-32 (R-BRD-2)")
    return result


#: What a sensor that sees pieces reports on an occupied square: ``b``/``w`` a man (or a king it
#: cannot tell from one), ``B``/``W`` a king it saw, ``?`` a piece whose side it cannot see (a
#: spare of another colour standing in for a lost one): occupancy alone, there.
PIECE_SYMBOLS = frozenset("bwBW?")


def seen_pieces(pieces: Mapping[int, str]) -> tuple[tuple[int, str], ...]:
    """Validate a ``{square: symbol}`` reading and freeze it, sorted by square; ``ValueError``
    names the first bad square or symbol."""
    occupancy(pieces)
    for square, symbol in pieces.items():
        if symbol not in PIECE_SYMBOLS:
            raise ValueError(f"square {square}: piece {symbol!r} is not one of b, w, B, W, ?")
    return tuple(sorted(pieces.items()))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The full set of occupied squares at time ``t``; ``pieces`` is what a sensor that sees
    colours (a camera) saw on each of them, as ``seen_pieces`` returns it, ``None`` for
    occupancy-only sensors."""

    t: float
    occupied: frozenset[int]
    pieces: tuple[tuple[int, str], ...] | None = None

    def __post_init__(self) -> None:
        if self.pieces is not None and frozenset(s for s, _ in self.pieces) != self.occupied:
            raise ValueError("a snapshot's pieces must name exactly its occupied squares")

    @classmethod
    def from_pieces(cls, t: float, pieces: Mapping[int, str]) -> Snapshot:
        """A snapshot from a colour-seeing sensor: ``{square: "b"|"w"|"B"|"W"|"?"}``."""
        return cls(t, occupancy(pieces), seen_pieces(pieces))

    def piece_map(self) -> dict[int, str] | None:
        """``pieces`` as ``{square: symbol}``, or ``None`` when the sensor sees no colours."""
        return None if self.pieces is None else dict(self.pieces)


@dataclass(frozen=True, slots=True)
class LeverPress:
    """A player pressed their clock lever (``side`` is whose lever)."""

    t: float
    side: Color


@dataclass(frozen=True, slots=True)
class AdjustNotice:
    """A player announced "adjust" (R-TCH-3): their next lift is an adjustment, not a touch."""

    t: float
    side: Color


@dataclass(frozen=True, slots=True)
class SensorFault:
    """The sensor itself is wrong (stuck or ghost squares, a broken link); never a move."""

    t: float
    message: str
    squares: frozenset[int] = field(default_factory=frozenset)
    #: ``message`` as words a page says in its language (None: a sensor that words only
    #: ``message``).
    said: Phrase | None = None

    @classmethod
    def worded(cls, t: float, said: Phrase, squares: frozenset[int] = frozenset()) -> SensorFault:
        """A fault told as ``said``: its English the message, its words kept for a page's
        language."""
        return cls(t, str(said), squares, said)


@dataclass(frozen=True, slots=True)
class LinkHealth:
    """State of the link to a sensor (serial bridge, camera): for monitoring, never a move."""

    t: float
    connected: bool
    detail: str = ""
    #: ``detail`` as words a page says in its language (None: a sensor that words only ``detail``).
    said: Phrase | None = None


SensorEvent = Snapshot | LeverPress | AdjustNotice | SensorFault | LinkHealth


@runtime_checkable
class Sensor(Protocol):
    """A source of board events. ``read`` blocks up to ``timeout`` seconds and returns one event,
    or ``None`` when nothing happened; ``close`` releases the hardware."""

    def read(self, timeout: float | None = None) -> SensorEvent | None: ...

    def close(self) -> None: ...


@runtime_checkable
class PositionLearner(Protocol):
    """A sensor that learns from the positions the game recorded (a camera follows the light
    from them, without a recalibration). ``confirm`` gets ``{square: "b"|"w"|"B"|"W"}`` after
    each recorded move and says whether it learnt from it."""

    def confirm(self, position: Mapping[int, str]) -> bool: ...


@runtime_checkable
class CueDisplay(Protocol):
    """Something that shows cues on the squares (LED chain, web board). ``show`` replaces the whole
    picture: cues are derived state, never patched incrementally."""

    def show(self, cues: Cues) -> None: ...

    def close(self) -> None: ...
