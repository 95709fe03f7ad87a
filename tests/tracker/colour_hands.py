"""Hands and simulated players in front of a sensor that sees colours (a camera).

The occupancy-only helpers (conftest ``Hands``, ``poolboard.simulator``) move pieces by square;
these also keep which piece is where, so every snapshot carries ``pieces`` as a camera reports
them: ``b``/``w`` men, ``B``/``W`` kings when the camera can tell kings (``sees_kings``).
"""

from __future__ import annotations

import random

from engine.board import Board, Move
from engine.sensing import Snapshot
from engine.tracker import TrackerConfig
from poolboard.simulator import HumanSimulator, HumanStyle
from tests.tracker.conftest import Hands


def symbols(board: Board, sees_kings: bool = True) -> dict[int, str]:
    """The pieces of ``board`` as a camera shows them."""
    shown = {}
    for square in board.occupied_squares():
        piece = board.piece_at(square)
        assert piece is not None
        shown[square] = piece.symbol if sees_kings else piece.symbol.lower()
    return shown


class ColourHands(Hands):
    """``Hands`` whose snapshots carry colours; a lifted piece stays in the hand until placed."""

    def __init__(self, fen: str | None = None, config: TrackerConfig | None = None) -> None:
        self.pieces = symbols(Board(fen) if fen else Board())
        self.hand: list[str] = []
        super().__init__(fen, config)

    def _snap(self) -> None:
        shown = {square: self.pieces[square] for square in self.occupied}
        self.events += self.tracker.feed(Snapshot.from_pieces(self.t, shown))

    def lift(self, *squares: int, step: float = 0.2) -> ColourHands:
        for square in squares:
            self.hand.append(self.pieces.pop(square))
            super().lift(square, step=step)
        return self

    def place(self, *squares: int, step: float = 0.2, piece: str | None = None) -> ColourHands:
        """Put down the piece last lifted (or ``piece``, say one from beside the board)."""
        for square in squares:
            self.pieces[square] = piece or self.hand.pop()
            super().place(square, step=step)
        return self

    def show(self, square: int, piece: str, step: float = 0.2) -> ColourHands:
        """The piece on ``square`` now looks like ``piece`` (a crown put on, a piece swapped
        without the square ever reading empty)."""
        self.t += step
        self.pieces[square] = piece
        self._snap()
        return self


class ColourSimulator(HumanSimulator):
    """``HumanSimulator`` in front of a camera: each snapshot says which piece is where. The
    opponent crowning a new king puts it back as a king (seen as one if ``sees_kings``)."""

    def __init__(
        self, rng: random.Random, style: HumanStyle | None = None, *, sees_kings: bool = True
    ) -> None:
        super().__init__(rng, style)
        self.sees_kings = sees_kings
        self.pieces: dict[int, str] = {}
        self.left: dict[int, str] = {}  # the piece last lifted off each square
        self.mover: str | None = None  # the piece being moved, during a move
        self.own: set[int] = set()  # squares whose own piece comes back (start, captured)

    def set_up(self, board: Board) -> None:
        self.pieces = symbols(board, self.sees_kings)
        super().set_up(board)

    def make_move(self, move: Move, king: bool) -> None:
        self.mover = self.pieces[move.path[0]]
        self.own = {move.path[0], *move.captures}
        super().make_move(move, king)
        self.mover = None

    def _set(self, square: int, present: bool) -> None:
        super()._set(square, present)
        if present and self.mover is None and self.sees_kings:  # a new king put back, crowned
            self.pieces[square] = self.pieces[square].upper()
            self._snapshot()

    def _toggle(self, square: int, present: bool) -> None:
        if not present:
            self.left[square] = self.pieces.pop(square)
        elif self.mover is None or square in self.own:
            self.pieces[square] = self.left[square]
        else:
            self.pieces[square] = self.mover
        super()._toggle(square, present)

    def _snapshot(self) -> None:
        shown = {square: self.pieces[square] for square in self.occupied}
        self.events.append(Snapshot.from_pieces(round(self.t, 4), shown))
