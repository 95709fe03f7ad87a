"""Three (or two) kings against one, solved backwards under the 13 count and the long line.

Search alone cannot win these endings in time: the longest wins within the counts take 12
moves (23 plies), far past the depth a move's time reaches. :class:`KingsEnding` knows them all.
For every position of one to three kings against a lone king, strong side to move, it holds the
fewest moves to the win (R-END-1: the lone king captured or left without a move) against the
best defence, counting as engine/counts.py does: the lone king's 13th move completed draws
(R-DRW-2), and once the lone king stands on the long diagonal 4-29 with the strong side to move,
the strong side has 5 more moves (R-DRW-3). Moves come from :mod:`engine.board` (flying kings,
compulsory capture R-CAP-1, so a king sacrificed into two kings v one is in the table).

Building it takes some seconds and a few hundred MB while it runs (about 320,000 positions);
afterwards only the winning distances are kept. The table is solved with White as the strong
side; a position with Black strong is read turned half round (square s becomes 33 - s). Under
a profile without the long line the wins it gives are still wins; a few more exist that it
leaves to the search.
"""

from __future__ import annotations

import itertools

from engine.board import Board, Move
from engine.color import Color
from engine.geometry import BITS, LONG_DIAGONAL, SQUARES

THIRTEEN = 13  # R-DRW-2: strong-side moves from a start position before the 13th lone-king move
LONG_LINE = 5  # R-DRW-3: strong-side moves once the lone king holds 4-29
DIAGONAL_BITS = sum(BITS[s] for s in LONG_DIAGONAL)
_LOW = 0xFFFFFFFF
#: The bit of a position key that says White is to move.
WHITE_TO_MOVE = 1 << 64
_TURNED = (0,) + tuple(BITS[33 - s] for s in SQUARES)  # bit of square s, turned half round


def position_key(white: int, black: int, white_to_move: bool) -> int:
    """A position as one int: White's squares, Black's above them, the side to move on top."""
    return white | black << 32 | (WHITE_TO_MOVE if white_to_move else 0)


def _successors(board: Board) -> list[int]:
    """The distinct positions the side to move can reach, as keys (the other side to move)."""
    found = set()
    white, black = board.white, board.black
    for move in board.generate_legal_moves():
        moved, landed = BITS[move.from_square], BITS[move.to_square]
        if board.turn is Color.WHITE:
            found.add(position_key(white & ~moved | landed, black & ~move.capture_mask, False))
        else:
            found.add(position_key(white & ~move.capture_mask, black & ~moved | landed, True))
    return list(found)


def _turned(squares: int) -> int:
    """A set of squares (bits) seen from the other side of the board."""
    return sum(_TURNED[s] for s in SQUARES if squares & BITS[s])


class KingsEnding:
    """Fewest strong-side moves to the win within the counts, for every position of one to three
    kings against a lone king; :meth:`winning_move` plays them."""

    def __init__(self, long_line: int = LONG_LINE, *, keep_moves: bool = False) -> None:
        """Solve every position; ``long_line`` is R-DRW-3's budget (13: a profile without it);
        ``keep_moves`` keeps each position's successors in :attr:`moves` (for study)."""
        self.long_line = long_line
        moves: dict[int, list[int]] = {}
        board = Board.empty()
        for lone in SQUARES:
            others = [s for s in SQUARES if s != lone]
            for count in (1, 2, 3):
                for strong in itertools.combinations(others, count):
                    white, black = sum(BITS[s] for s in strong), BITS[lone]
                    board.white, board.black, board.kings = white, black, white | black
                    for turn in (Color.WHITE, Color.BLACK):
                        board.turn = turn
                        moves[position_key(white, black, turn is Color.WHITE)] = _successors(board)
        #: Black-to-move position -> strong-side moves needed after it (0: the lone king is lost)
        self.needs: dict[int, int] = {}
        #: White-to-move position -> White moves to the win
        self.white_moves: dict[int, int] = {}
        self._solve(moves)
        #: Each position's successors (empty unless ``keep_moves``).
        self.moves: dict[int, list[int]] = moves if keep_moves else {}

    def _solve(self, moves: dict[int, list[int]]) -> None:
        """Backward induction by layers of White moves to the win."""
        parents: dict[int, list[int]] = {p: [] for p in moves}
        waiting: dict[int, int] = {}
        frontier = []
        for position, reached in moves.items():
            for child in reached:
                if child in parents:
                    parents[child].append(position)
            if position & WHITE_TO_MOVE:
                for child in reached:  # the lone king captured, or left without a move (R-END-1)
                    if child >> 32 == 0 or not moves[child]:
                        self.needs[child] = 0
                if any(child >> 32 == 0 or not moves[child] for child in reached):
                    frontier.append(position)
                    self.white_moves[position] = 1
            elif not any(child & _LOW == 0 for child in reached):
                waiting[position] = len(reached)  # the lone king never takes every king
        layer = 1
        while frontier and layer <= THIRTEEN:
            following = []
            for position in frontier:
                if position >> 32 & DIAGONAL_BITS and layer > self.long_line:
                    continue  # the lone king holds 4-29 here: only 5 moves left (R-DRW-3)
                for parent in parents[position]:
                    if parent not in waiting:
                        continue
                    waiting[parent] -= 1
                    if waiting[parent]:
                        continue
                    self.needs[parent] = layer
                    for grandparent in parents[parent]:
                        if grandparent not in self.white_moves:
                            self.white_moves[grandparent] = layer + 1
                            following.append(grandparent)
            frontier, layer = following, layer + 1

    def winning_move(self, board: Board, budget: int = THIRTEEN) -> tuple[Move, int] | None:
        """The strong side's fastest winning move and how many moves the win takes (this one
        included), if ``board`` is kings only, one against two or three, that side to move, and
        the win fits in ``budget`` moves (what the running counts leave); else ``None``."""
        mover, waiter = board.turn, board.turn.opponent
        mine = board.white if mover is Color.WHITE else board.black
        theirs = board.black if mover is Color.WHITE else board.white
        if board.kings != mine | theirs or theirs.bit_count() != 1 or mine.bit_count() > 3:
            return None
        best: tuple[Move, int] | None = None
        for move in board.generate_legal_moves():
            moved, landed = BITS[move.from_square], BITS[move.to_square]
            strong, lone = mine & ~moved | landed, theirs & ~move.capture_mask
            if waiter is Color.WHITE:  # Black is strong: read the table turned half round
                strong, lone = _turned(strong), _turned(lone)
            needs = self.needs.get(position_key(strong, lone, False))
            if needs is not None and needs + 1 <= budget and (best is None or needs + 1 < best[1]):
                best = (move, needs + 1)
        return best
