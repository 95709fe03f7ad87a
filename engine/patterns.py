"""What each legal move looks like to an occupancy sensor: its result and the way to it.

A sensor cannot tell whose piece stands where, so the tracker matches the board against results,
not differences (docs/tracker.md). For a legal move the board is *at* the move when the occupancy
equals its result, and *on the way* to it while the move can still get there: every square that
must keep its piece has it, and each other difference is the moving piece (standing on one square
of its trail, or in the hand) or a captured piece not yet removed (R-CAP-4: any order).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from engine.board import Board, Move
from engine.geometry import BITS, RAYS


@dataclass(frozen=True, slots=True)
class MovePattern:
    """One legal move as bitboards: ``result`` once done, ``kept`` squares that must stay
    occupied throughout, ``trail`` every square the moving piece may stand on (start, landings and,
    for a flying king, the squares it slides over), ``captured`` the pieces it takes."""

    move: Move
    result: int
    kept: int
    trail: int
    captured: int

    @property
    def start(self) -> int:
        """Bit of the square the moving piece starts on."""
        return BITS[self.move.path[0]]

    @property
    def end(self) -> int:
        """Bit of the square the moving piece ends on."""
        return BITS[self.move.path[-1]]

    def is_at(self, occupied: int) -> bool:
        """Whether the board shows this move finished."""
        return occupied == self.result

    def is_on_way(self, occupied: int) -> bool:
        """Whether the board can still become this move's result (or already is it)."""
        if occupied & self.kept != self.kept:
            return False
        extra = occupied & ~self.kept
        if extra & ~(self.trail | self.captured):
            return False
        mover = extra & self.trail
        return mover & (mover - 1) == 0  # the moving piece stands on one square at most

    def mover_square(self, occupied: int) -> int:
        """Bit of the trail square the moving piece stands on now (0: in the hand)."""
        return occupied & ~self.kept & self.trail

    def extends(self, other: MovePattern) -> bool:
        """Whether ``other``'s finished board is on the way to this move: this move is what the
        player was still doing when ``other`` was recorded (a slide went on, more came off)."""
        return self.move != other.move and self.is_on_way(other.result)


def move_patterns(board: Board) -> list[MovePattern]:
    """The pattern of every legal move in the position."""
    occupied = board.occupied
    patterns = []
    for move in board.generate_legal_moves():
        captured = move.capture_mask
        start, end = BITS[move.path[0]], BITS[move.path[-1]]
        trail = 0
        for a, b in itertools.pairwise(move.path):
            ray = next(r for r in RAYS[a] if b in r)
            for square in ray[: ray.index(b) + 1]:
                trail |= BITS[square]
        trail = (trail | start) & ~captured
        patterns.append(
            MovePattern(
                move=move,
                result=(occupied & ~start & ~captured) | end,
                kept=occupied & ~start & ~captured,
                trail=trail,
                captured=captured,
            )
        )
    return patterns


def missed_capture_results(board: Board) -> dict[int, Move]:
    """Result occupancy -> simple move, for the simple moves the side to move made while a capture
    was compulsory: how a missed compulsory capture (R-CAP-1) is recognised. Empty if none is."""
    if not board.has_capture():
        return {}
    occupied = board.occupied
    return {
        (occupied & ~BITS[move.path[0]]) | BITS[move.path[-1]]: move
        for move in board.generate_simple_moves()
    }
