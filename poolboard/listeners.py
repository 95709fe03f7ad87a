"""Callbacks that hear every change of something: added and removed from any thread, called in
turn, one that fails logged without silencing the others or the change itself."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger("poolboard")

T = TypeVar("T")


class Listeners(Generic[T]):
    """The callbacks ``notify`` calls with each change (the session's state, a hall table's
    name); ``what`` names them in the log when one fails."""

    def __init__(self, what: str) -> None:
        self._what = what
        self._lock = threading.Lock()
        self._listeners: list[Callable[[T], object]] = []

    def add(self, listener: Callable[[T], object]) -> Callable[[], None]:
        """Call ``listener`` after every change; returns the function that stops it."""
        with self._lock:
            self._listeners.append(listener)

        def remove() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return remove

    def notify(self, change: T) -> None:
        """Call every listener with ``change``; one that raises is logged and the rest still hear
        (a spectator's broken connection must not stop a move from being recorded)."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(change)
            except Exception:
                log.exception("%s: a listener failed", self._what)
