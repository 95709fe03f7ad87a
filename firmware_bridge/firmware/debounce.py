"""Bit-parallel debouncing: a bit changes once it has read the same for N consecutive scans."""


class Debouncer:
    """Debounces every bit of a reading at once; ``settled`` is ``None`` until N scans are in."""

    def __init__(self, scans):
        self.scans = scans
        self.settled = None
        self._history = []

    def feed(self, raw):
        """Add one raw reading; returns the settled value (``None`` before the first N scans)."""
        history = self._history
        history.append(raw)
        if len(history) > self.scans:
            history.pop(0)
        if len(history) < self.scans:
            return self.settled
        first = history[0]
        stable = -1
        for reading in history:
            stable &= ~(reading ^ first)
        if self.settled is None:
            self.settled = first & stable
        else:
            self.settled = (self.settled & ~stable) | (first & stable)
        return self.settled
