"""A static evaluation of pool checkers positions, in hundredths of a man, for the search.

The terms (weights below): material with flying kings (R-KNG-1/2) worth about three men; the
back-rank guard against crowning (R-PRO-1); men in the centre; tempo and advancement, which grow
as the board empties; runaway men nothing can stop from crowning; mobility; kings with no move.
Kings-only endings that rules or theory make drawn (two kings against one; three against one
when the lone king holds the long diagonal, which R-DRW-3 lets it do) are scaled towards zero,
so the stronger side plays to take the long diagonal first. The draw counts themselves
(R-DRW-2/3/4) depend on the moves made, so the search scales for them, not this module.

>>> from engine.board import Board
>>> evaluate(Board())
0
>>> evaluate(Board("B:W21-32:B1-12,K13")) > 250
True
"""

from __future__ import annotations

from engine.board import Board
from engine.color import Color
from engine.geometry import (
    BITS,
    LONG_DIAGONAL,
    RAYS,
    SQUARES,
    count_man_steps,
    row_col,
    squares_of,
)

MAN = 100
KING = 300
#: A won position's score, minus the plies to the win: any score beyond WIN - MAX_PLY is a win.
WIN = 100_000
MAX_PLY = 256

BACK_GUARD = 12  # each man still on its own back row while the opponent has men to crown
KEY_GUARD = 8  # extra for the two bridge squares (1 and 3 for Black, 30 and 32 for White)
CENTRE = 10  # each man on the four centre squares 14, 15, 18, 19
NEAR_CENTRE = 4  # each man on 10, 11, 22, 23
ADVANCE_EARLY = 1  # per row a man has advanced, with many pieces on the board
ADVANCE_LATE = 6  # per row a man has advanced, with few
RUNAWAY = 140  # a man with a free road to the king row, less RUNAWAY_ROW per row still to go
RUNAWAY_ROW = 14
MOBILITY = 2  # per legal simple move
KING_MOBILITY = 1  # per square a king can slide to
TRAPPED_KING = 40  # a king with no simple move

_ROWS = [sum(BITS[s] for s in SQUARES if (s - 1) // 4 == row) for row in range(8)]
_CENTRE_MASK = sum(BITS[s] for s in (14, 15, 18, 19))
_NEAR_CENTRE_MASK = sum(BITS[s] for s in (10, 11, 22, 23))
_LONG_DIAGONAL_MASK = sum(BITS[s] for s in LONG_DIAGONAL)
_BACK = {Color.BLACK: _ROWS[0], Color.WHITE: _ROWS[7]}
_KEY_GUARD = {Color.BLACK: BITS[1] | BITS[3], Color.WHITE: BITS[30] | BITS[32]}


def _cone(square: int, black: bool) -> int:
    """The squares ahead of a man that an opposing man could stop it from: the widening
    triangle towards its king row."""
    row, col = row_col(square)
    mask = 0
    for other in SQUARES:
        other_row, other_col = row_col(other)
        ahead = other_row - row if black else row - other_row
        if ahead > 0 and abs(other_col - col) <= ahead:
            mask |= BITS[other]
    return mask


_CONES = {
    Color.BLACK: (0,) + tuple(_cone(s, True) for s in SQUARES),
    Color.WHITE: (0,) + tuple(_cone(s, False) for s in SQUARES),
}


def material(board: Board, color: Color) -> int:
    """One side's material alone: men and flying kings at :data:`MAN` and :data:`KING`."""
    own = board.pieces(color)
    return MAN * (own & ~board.kings).bit_count() + KING * (own & board.kings).bit_count()


def evaluate(board: Board) -> int:
    """The position's value for the side to move (positive: better for it)."""
    black, white, kings = board.black, board.white, board.kings
    empty = ~(black | white) & 0xFFFFFFFF
    black_men, white_men = black & ~kings, white & ~kings
    black_kings, white_kings = black & kings, white & kings
    pieces = (black | white).bit_count()

    score = MAN * (black_men.bit_count() - white_men.bit_count())
    score += KING * (black_kings.bit_count() - white_kings.bit_count())

    if black_men or white_men:
        score += _men_terms(board, Color.BLACK, black_men, white, white_kings, empty, pieces)
        score -= _men_terms(board, Color.WHITE, white_men, black, black_kings, empty, pieces)
        score += MOBILITY * (
            count_man_steps(black_men, empty, True) - count_man_steps(white_men, empty, False)
        )
    score += _king_terms(black_kings, empty) - _king_terms(white_kings, empty)

    if not black_men and not white_men:
        score = _scale_kings_ending(score, black_kings, white_kings)
    return score if board.turn is Color.BLACK else -score


def _men_terms(
    board: Board,
    color: Color,
    men: int,
    opponent: int,
    opponent_kings: int,
    empty: int,
    pieces: int,
) -> int:
    """Guard, centre, advancement and runaway terms for one side's men."""
    score = 0
    if opponent & ~opponent_kings:
        guard = men & _BACK[color]
        score += (
            BACK_GUARD * guard.bit_count() + KEY_GUARD * (guard & _KEY_GUARD[color]).bit_count()
        )
    score += CENTRE * (men & _CENTRE_MASK).bit_count()
    score += NEAR_CENTRE * (men & _NEAR_CENTRE_MASK).bit_count()
    per_row = ADVANCE_LATE if pieces <= 10 else ADVANCE_EARLY
    black = color is Color.BLACK
    advanced = 0
    for row in range(1, 7):
        count = (men & _ROWS[row]).bit_count()
        if count:
            advanced += count * (row if black else 7 - row)
    score += per_row * advanced
    if not opponent_kings:
        cones = _CONES[color]
        for square in squares_of(men):
            if not cones[square] & opponent:
                row = (square - 1) // 4
                to_go = 7 - row if black else row
                score += RUNAWAY - RUNAWAY_ROW * to_go
    return score


def _king_terms(kings: int, empty: int) -> int:
    """Mobility of one side's flying kings, and a penalty for each one that cannot move."""
    score = 0
    for square in squares_of(kings):
        reach = 0
        for ray in RAYS[square]:
            for target in ray:
                if not empty & BITS[target]:
                    break
                reach += 1
        score += KING_MOBILITY * reach if reach else -TRAPPED_KING
    return score


def _scale_kings_ending(score: int, black_kings: int, white_kings: int) -> int:
    """Kings only: two kings cannot beat one, and three beat one only when the lone king is
    kept off the long diagonal (R-DRW-3), so such scores shrink towards a draw."""
    black_count, white_count = black_kings.bit_count(), white_kings.bit_count()
    if min(black_count, white_count) != 1:
        return score
    strong_count = max(black_count, white_count)
    lone = black_kings if black_count == 1 else white_kings
    strong = white_kings if black_count == 1 else black_kings
    if strong_count <= 2:
        return score // 8
    if strong_count == 3:
        sign = 1 if score > 0 else -1
        if lone & _LONG_DIAGONAL_MASK:
            return score // 4
        if strong & _LONG_DIAGONAL_MASK:
            return score + sign * 60
    return score
