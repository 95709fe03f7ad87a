"""Playing levels 1-10: how deep and how long the search looks, and how much noise blurs its
evaluation (hundredths of a man) so the low levels make human-sized mistakes.

>>> LEVELS[1].depth, LEVELS[10].movetime
(1, 8.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.search import Limits


@dataclass(frozen=True, slots=True)
class Level:
    """One level's search depth limit, seconds per move and evaluation noise."""

    depth: int
    movetime: float
    noise: int

    def limits(self) -> Limits:
        """The search limits this level plays with."""
        return Limits(depth=self.depth, movetime=self.movetime)


LEVELS = {
    1: Level(1, 0.1, 120),
    2: Level(2, 0.1, 80),
    3: Level(3, 0.2, 60),
    4: Level(4, 0.3, 30),
    5: Level(5, 0.5, 15),
    6: Level(6, 0.5, 5),
    7: Level(9, 1.0, 0),
    8: Level(12, 2.0, 0),
    9: Level(20, 4.0, 0),
    10: Level(64, 8.0, 0),
}
