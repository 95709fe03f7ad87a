"""Watches that tell a broken sensor from play: stuck squares, endless flicker, repeated faults.

Each watch is fed per scan (or per settled change) and returns only what is newly wrong, so a
fault is reported once per episode instead of 250 times a second.
"""

from __future__ import annotations

from collections import deque


class StuckWatch:
    """A square that never changes while every other square has changed ``changes`` times.

    Fed settled changes only. Pieces on the back rank may rest a whole game, so the bar is high:
    all 31 others must have moved; the square is reported once, and again only after it changed.
    """

    def __init__(self, changes: int) -> None:
        self.changes = changes
        self._counts = [[0] * 32 for _ in range(32)]  # [square][other]: other's changes since
        self.flagged = 0

    def update(self, changed: int) -> int:
        """Feed the mask of squares that just changed; returns the mask of newly stuck squares."""
        if not changed:
            return 0
        newly = 0
        for square in range(32):
            counts = self._counts[square]
            if changed >> square & 1:
                counts[:] = [0] * 32
                self.flagged &= ~(1 << square)
                continue
            for other in range(32):
                if changed >> other & 1:
                    counts[other] += 1
            if not self.flagged >> square & 1 and all(
                n >= self.changes for i, n in enumerate(counts) if i != square
            ):
                self.flagged |= 1 << square
                newly |= 1 << square
        return newly


class FlickerWatch:
    """A square whose raw reading toggles ``toggles`` times within ``window`` seconds.

    A chattering reed settles within milliseconds; one that keeps toggling has a magnet on the
    edge of its range or a loose wire. Cleared once the square has been quiet for a window.
    """

    def __init__(self, toggles: int, window: float) -> None:
        self.toggles = toggles
        self.window = window
        self._times: dict[int, deque[float]] = {}
        self.flagged = 0

    def update(self, toggled: int, t: float) -> int:
        """Feed the mask of raw bits that flipped since the last scan; returns newly flickering."""
        newly = 0
        while toggled:
            low = toggled & -toggled
            toggled ^= low
            times = self._times.setdefault(low.bit_length() - 1, deque())
            times.append(t)
            while times[0] < t - self.window:
                times.popleft()
            if len(times) >= self.toggles and not self.flagged & low:
                self.flagged |= low
                newly |= low
        flagged = self.flagged
        while flagged:
            low = flagged & -flagged
            flagged ^= low
            if self._times[low.bit_length() - 1][-1] < t - self.window:
                self.flagged &= ~low
        return newly


class FaultLatch:
    """Reports a recurring fault when it first names squares, not on every scan that sees it.

    Squares already reported stay reported until the fault has been absent for ``hold`` seconds.
    """

    def __init__(self, hold: float) -> None:
        self.hold = hold
        self.reported: frozenset[int] = frozenset()
        self._last_seen = float("-inf")

    def update(self, squares: frozenset[int], t: float) -> bool:
        """Feed this scan's squares (empty: no fault now); True when it should be reported."""
        if squares:
            self._last_seen = t
            if not squares <= self.reported:
                self.reported |= squares
                return True
        elif self.reported and t - self._last_seen >= self.hold:
            self.reported = frozenset()
        return False
