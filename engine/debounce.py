"""Per-square debouncing of occupancy, with detection of squares that flicker without end.

A square's change takes effect only once it has held for ``hold`` seconds; one that reverts sooner
is noise. A square that changes more than ``flicker_limit`` times within ``flicker_window``
seconds is reported faulty and frozen at its last settled state until it has been quiet for
``flicker_window`` seconds (R-ILL-1 is never raised from a sensor fault).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from engine.geometry import BITS, squares_of


@dataclass
class Debouncer:
    """Turns raw snapshots into settled occupancy, one square at a time."""

    hold: float = 0.040
    flicker_limit: int = 30
    flicker_window: float = 5.0
    settled: int = 0
    raw: int = 0
    _pending: dict[int, float] = field(default_factory=dict)  # square -> raw change time
    _changes: dict[int, deque[float]] = field(default_factory=dict)
    _faulty: dict[int, float] = field(default_factory=dict)  # square -> last change time

    def reset(self, occupied: int) -> None:
        """Start from a known occupancy with nothing pending."""
        self.settled = self.raw = occupied
        self._pending.clear()
        self._changes.clear()
        self._faulty.clear()

    @property
    def faulty(self) -> frozenset[int]:
        """Squares currently ignored as faulty."""
        return frozenset(self._faulty)

    def observe(self, t: float, occupied: int) -> list[int]:
        """Take a raw snapshot; returns squares that have just become faulty."""
        changed = self.raw ^ occupied
        self.raw = occupied
        newly_faulty = []
        for square in squares_of(changed):
            if square in self._faulty:
                self._faulty[square] = t
                continue
            history = self._changes.setdefault(square, deque())
            history.append(t)
            while history and history[0] < t - self.flicker_window:
                history.popleft()
            if len(history) > self.flicker_limit:
                self._faulty[square] = t
                self._pending.pop(square, None)
                history.clear()
                newly_faulty.append(square)
                continue
            if (occupied ^ self.settled) & BITS[square]:
                self._pending.setdefault(square, t)
            else:
                self._pending.pop(square, None)  # reverted within the hold time: noise
        return newly_faulty

    def next_deadline(self) -> float | None:
        """When the earliest pending change or fault recovery is due."""
        times = [since + self.hold for since in self._pending.values()]
        times += [last + self.flicker_window for last in self._faulty.values()]
        return min(times, default=None)

    def settle(self, now: float) -> list[tuple[float, int, list[int]]]:
        """Apply the changes due by ``now``, in time order: (time, settled occupancy, squares
        recovered from a fault at that time) for each step."""
        steps: list[tuple[float, int, list[int]]] = []
        while True:
            due = self.next_deadline()
            if due is None or due > now:
                return steps
            recovered = [s for s, last in self._faulty.items() if last + self.flicker_window <= due]
            for square in recovered:
                del self._faulty[square]
                self._changes.pop(square, None)
                if (self.raw ^ self.settled) & BITS[square]:
                    self._pending[square] = due - self.hold
            for square in [s for s, since in self._pending.items() if since + self.hold <= due]:
                del self._pending[square]
                self.settled ^= BITS[square]
            steps.append((due, self.settled, recovered))
