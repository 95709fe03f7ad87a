"""What each legal move looks like to an occupancy sensor: its result and the way to it.

A sensor cannot tell whose piece stands where, so the tracker matches the board against results,
not differences (docs/tracker.md). For a legal move the board is *at* the move when the occupancy
equals its result, and *on the way* to it while the move can still get there: every square that
must keep its piece has it, and each other difference is the moving piece (standing on one square
of its trail, or in the hand) or a captured piece not yet removed (R-CAP-4: any order).

A sensor that sees colours (a camera) says more: :class:`SeenColours`. A board that is at or on
the way to a move by occupancy fits it only if no square shows the other colour than the move
allows there (the moving piece on its trail, the captured pieces where they stood, every other
piece where it stands): a piece swapped for one of the other colour is no legal move.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from engine.board import Board, Move
from engine.color import Color
from engine.geometry import BITS, RAYS, squares_of


@dataclass(frozen=True, slots=True)
class SeenColours:
    """What a sensor that sees colours shows, as bitboards: squares with a ``black`` or a
    ``white`` piece, and the ``kings`` among them it saw as kings (``Snapshot.pieces``: B/W).
    A square in neither colour is one whose colour is not known."""

    black: int = 0
    white: int = 0
    kings: int = 0

    @classmethod
    def of(cls, pieces: Iterable[tuple[int, str]]) -> SeenColours:
        """From ``(square, "b"|"w"|"B"|"W"|"?")`` pairs, as ``Snapshot.pieces`` holds them
        (``?``: a piece of neither colour seen, so in neither bitboard)."""
        black = white = kings = 0
        for square, symbol in pieces:
            if symbol in "bB":
                black |= BITS[square]
            elif symbol in "wW":
                white |= BITS[square]
            if symbol.isupper():
                kings |= BITS[square]
        return cls(black, white, kings)

    @property
    def known(self) -> int:
        """The squares whose piece's colour was seen (either colour)."""
        return self.black | self.white

    def only(self, squares: int) -> SeenColours:
        """What is seen on ``squares`` alone."""
        return SeenColours(self.black & squares, self.white & squares, self.kings & squares)

    def misfits(self, black: int, white: int) -> int:
        """Squares showing the other colour than ``black`` / ``white`` (where a piece of that
        colour belongs) say: squares the sensor sees a wrong-coloured piece on."""
        return (self.black & white) | (self.white & black)

    def symbols(self) -> dict[int, str]:
        """``{square: "b"|"w"|"B"|"W"}`` for the squares whose colour is known."""
        shown = {}
        for mask, man in ((self.black, "b"), (self.white, "w")):
            for square in squares_of(mask):
                shown[square] = man.upper() if self.kings & BITS[square] else man
        return shown


@dataclass(frozen=True, slots=True)
class MovePattern:
    """One legal move as bitboards: ``result`` once done, ``kept`` squares that must stay
    occupied throughout, ``trail`` every square the moving piece may stand on (start, landings and,
    for a flying king, the squares it slides over), ``captured`` the pieces it takes; ``black``
    and ``white`` the squares where a piece of that colour may stand while it is under way."""

    move: Move
    result: int
    kept: int
    trail: int
    captured: int
    black: int = 0
    white: int = 0

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

    def misfits(self, seen: SeenColours) -> int:
        """Squares where a colour-seeing sensor shows a piece of the colour this move cannot
        have there (0: the colours fit the move)."""
        return seen.misfits(self.black, self.white)


def move_patterns(board: Board) -> list[MovePattern]:
    """The pattern of every legal move in the position."""
    occupied = board.occupied
    mover_is_black = board.turn is Color.BLACK
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
        kept = occupied & ~start & ~captured
        movers, taken = (trail, captured) if mover_is_black else (captured, trail)
        patterns.append(
            MovePattern(
                move=move,
                result=kept | end,
                kept=kept,
                trail=trail,
                captured=captured,
                black=(board.black & kept) | movers,
                white=(board.white & kept) | taken,
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
