"""Scripted hands for tracker tests: lift and place pieces at chosen times, collect the events."""

from __future__ import annotations

import pytest

from engine.board import Board
from engine.color import Color
from engine.events import TrackerEvent
from engine.sensing import AdjustNotice, LeverPress, Snapshot
from engine.tracker import Tracker, TrackerConfig


class Hands:
    """A board with a tracker on it; each action happens ``step`` seconds after the last."""

    def __init__(self, fen: str | None = None, config: TrackerConfig | None = None) -> None:
        self.board = Board(fen) if fen else Board()
        self.tracker = Tracker(self.board, config)
        self.occupied = set(self.board.occupied_squares())
        self.t = 0.0
        self.events: list[TrackerEvent] = []
        self._snap()

    def _snap(self) -> None:
        self.events += self.tracker.feed(Snapshot(self.t, frozenset(self.occupied)))

    def lift(self, *squares: int, step: float = 0.2) -> Hands:
        for square in squares:
            self.t += step
            self.occupied.discard(square)
            self._snap()
        return self

    def place(self, *squares: int, step: float = 0.2) -> Hands:
        for square in squares:
            self.t += step
            self.occupied.add(square)
            self._snap()
        return self

    def move(self, start: int, end: int, *removed: int) -> Hands:
        """A move by hand: lift, set down, then take off the captured pieces."""
        return self.lift(start).place(end).lift(*removed)

    def lever(self, side: Color, step: float = 0.1) -> Hands:
        self.t += step
        self.events += self.tracker.feed(LeverPress(self.t, side))
        return self

    def adjust(self, side: Color, step: float = 0.1) -> Hands:
        self.t += step
        self.events += self.tracker.feed(AdjustNotice(self.t, side))
        return self

    def wait(self, seconds: float) -> Hands:
        self.t += seconds
        self.events += self.tracker.advance(self.t)
        return self

    def of(self, kind: str) -> list[TrackerEvent]:
        return [e for e in self.events if e.kind == kind]

    def notations(self) -> list[str]:
        return [e.notation for e in self.of("move")]

    def rules(self) -> list[str]:
        return [e.rule for e in self.of("violation")]

    def cues_seen(self) -> list[dict[str, str]]:
        return [e.cues.to_json() for e in self.of("cues")]


@pytest.fixture
def hands():
    """``hands(fen, **config)`` makes a started board (the position already stands)."""

    def make(fen: str | None = None, **config: object) -> Hands:
        return Hands(fen, TrackerConfig(**config))  # type: ignore[arg-type]

    return make
