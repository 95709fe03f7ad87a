"""The simulated board: a sensor fed by software (the web UI's virtual board, the demo, tests).

It follows the contract of the real sensors (engine.sensing.Sensor): full snapshots stamped with
the monotonic clock, lever presses and adjust notices, read one at a time with a timeout.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable

from engine.color import Color
from engine.sensing import AdjustNotice, LeverPress, SensorEvent, Snapshot, occupancy


class SimulatedBoard:
    """A sensor whose pieces are placed and lifted by calls instead of magnets.

    >>> board = SimulatedBoard(now=lambda: 1.0)
    >>> board.set_occupied([1, 2, 3])
    >>> board.read(timeout=0)
    Snapshot(t=1.0, occupied=frozenset({1, 2, 3}))
    """

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._events: queue.Queue[SensorEvent] = queue.Queue()
        self._occupied: frozenset[int] = frozenset()
        self._lock = threading.Lock()
        self._closed = False

    @property
    def occupied(self) -> frozenset[int]:
        """The squares holding a piece now."""
        return self._occupied

    def set_occupied(self, squares: Iterable[int]) -> None:
        """Report a whole new occupancy (``ValueError`` names a square that is not 1-32)."""
        squares = occupancy(squares)
        with self._lock:
            self._occupied = squares
            self._events.put(Snapshot(self._now(), squares))

    def place(self, square: int) -> None:
        """Put a piece on a square."""
        self.set_occupied(self._occupied | {square})

    def lift(self, square: int) -> None:
        """Take the piece off a square."""
        self.set_occupied(self._occupied - {square})

    def press_lever(self, side: Color) -> None:
        """A player presses their clock lever."""
        self._events.put(LeverPress(self._now(), side))

    def announce_adjust(self, side: Color) -> None:
        """A player says "adjust" (R-TCH-3)."""
        self._events.put(AdjustNotice(self._now(), side))

    def read(self, timeout: float | None = None) -> SensorEvent | None:
        """The next event, waiting up to ``timeout`` seconds (``None``: until there is one,
        ``0``: not at all); ``None`` if nothing happened."""
        if self._closed:
            return None
        try:
            return self._events.get(block=timeout != 0, timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """Stop reporting."""
        self._closed = True
