"""The core's queue and its lock: inputs from any thread, handled one at a time, in order."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from poolboard.session.inputs import Input

T = TypeVar("T")


@dataclass
class Slot(Generic[T]):
    """An input on the queue, and (once handled) its answer or the error it raised."""

    item: Input[T]
    waited: bool
    done: bool = False
    value: T | None = None
    error: Exception | None = None


class CoreLock:
    """The core's lock (reentrant): whoever releases it last first handles the inputs queued
    while it was held, so an input posted by another thread never waits for the next one."""

    def __init__(self, drain: Callable[[], None], queue: deque[Slot[object]]) -> None:
        self._lock = threading.RLock()
        self._depth = 0
        self._owner: int | None = None
        self._drain = drain
        self._queue = queue

    def acquire(self, blocking: bool = True) -> bool:
        """Take the lock (``blocking=False``: only if it is free); whether it was taken."""
        if not self._lock.acquire(blocking):
            return False
        self._depth += 1
        self._owner = threading.get_ident()
        return True

    def release(self) -> None:
        """Give the lock back; the last release handles what was queued meanwhile."""
        if self._depth == 1:
            try:
                self._drain()
            finally:
                self._depth, self._owner = 0, None
                self._lock.release()
            if self._queue and self.acquire(blocking=False):
                self.release()  # posted after the drain: handled now, not at the next input
            return
        self._depth -= 1
        self._lock.release()

    def held_here(self) -> bool:
        """Whether this thread holds the lock."""
        return self._owner == threading.get_ident()

    def __enter__(self) -> CoreLock:
        self.acquire()
        return self

    def __exit__(self, *_: object) -> None:
        self.release()
