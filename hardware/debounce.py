"""Per-input debounce over bit masks: a change counts once it has held N scans and D seconds.

Used for the 32 reed switches and for the clock levers. Bit ``i`` of a reading is input ``i``;
each input settles on its own, so one chattering switch never holds back the others.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class _Pending:
    value: int
    scans: int
    since: float


class Debouncer:
    """Turns raw bit-mask readings into a settled mask.

    ``stable`` is the settled mask and ``known`` which bits have settled at least once (at start
    every bit must first hold its value for the debounce time). Example::

        d = Debouncer(width=32, scans=3, seconds=0.02)
        d.update(raw, t)  # True when the settled mask changed
    """

    def __init__(self, width: int, scans: int, seconds: float) -> None:
        self.full = (1 << width) - 1
        self.scans = scans
        self.seconds = seconds
        self.stable = 0
        self.known = 0
        self._pending: dict[int, _Pending] = {}

    @property
    def settled(self) -> bool:
        """Every input has settled at least once."""
        return self.known == self.full

    def update(self, raw: int, t: float, trusted: int | None = None) -> bool:
        """Feed one reading taken at ``t``; bits outside ``trusted`` are ignored this time.

        Returns whether ``stable`` or ``known`` changed.
        """
        trusted = self.full if trusted is None else trusted
        unsure = (raw ^ self.stable) | (self.full & ~self.known)
        for bit in [b for b in self._pending if not (unsure & trusted) >> b & 1]:
            del self._pending[bit]
        moved = False
        candidates = unsure & trusted
        while candidates:
            low = candidates & -candidates
            bit = low.bit_length() - 1
            candidates ^= low
            value = raw >> bit & 1
            pending = self._pending.get(bit)
            if pending is None or pending.value != value:
                pending = self._pending[bit] = _Pending(value, 0, t)
            pending.scans += 1
            if pending.scans >= self.scans and t - pending.since >= self.seconds:
                del self._pending[bit]
                self.stable = (self.stable & ~low) | (value << bit)
                self.known |= low
                moved = True
        return moved
