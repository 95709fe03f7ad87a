"""What a board sensor reports, and the two small interfaces every sensor and display implements.

A sensor only knows which of the 32 dark squares hold a piece, never whose. Backends (GPIO reed
matrix, the serial bridge, the camera, the simulated board) turn their readings into these events;
the occupancy tracker consumes them. Times are seconds on a monotonic clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from engine.color import Color
from engine.cues import Cues

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


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The full set of occupied squares at time ``t``."""

    t: float
    occupied: frozenset[int]


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


@dataclass(frozen=True, slots=True)
class LinkHealth:
    """State of the link to a sensor (serial bridge, camera): for monitoring, never a move."""

    t: float
    connected: bool
    detail: str = ""


SensorEvent = Snapshot | LeverPress | AdjustNotice | SensorFault | LinkHealth


@runtime_checkable
class Sensor(Protocol):
    """A source of board events. ``read`` blocks up to ``timeout`` seconds and returns one event,
    or ``None`` when nothing happened; ``close`` releases the hardware."""

    def read(self, timeout: float | None = None) -> SensorEvent | None: ...

    def close(self) -> None: ...


@runtime_checkable
class CueDisplay(Protocol):
    """Something that shows cues on the squares (LED chain, web board). ``show`` replaces the whole
    picture: cues are derived state, never patched incrementally."""

    def show(self, cues: Cues) -> None: ...

    def close(self) -> None: ...
