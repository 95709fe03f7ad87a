"""The board's geometry in the standard 1-32 numbering (R-BRD-1, R-BRD-2), as lookup tables.

Seen from White's side the far row holds squares 1-4 left to right and the near row 29-32; square 29
is White's near-left corner and 4-8-11-15-18-22-25-29 is the long diagonal. Tables are indexed by
square number (index 0 unused) so move generation never converts numbers.
"""

from __future__ import annotations

SQUARES = tuple(range(1, 33))
ALL_SQUARES_MASK = (1 << 32) - 1

#: The four diagonal directions as (row step, column step); row 0 is the far row (squares 1-4).
DIRECTIONS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
#: Direction indices a man of each side moves forward in: White towards row 0, Black towards row 7.
WHITE_FORWARD = (0, 1)
BLACK_FORWARD = (2, 3)
#: The direction pointing back along each direction.
OPPOSITE = (3, 2, 1, 0)

LONG_DIAGONAL = (4, 8, 11, 15, 18, 22, 25, 29)


def bit(square: int) -> int:
    """The bitboard mask of one square: bit ``square - 1``."""
    return 1 << (square - 1)


def row_col(square: int) -> tuple[int, int]:
    """(row, column) of a square, row 0 the far row and column 0 White's left (a-file)."""
    row, index = divmod(square - 1, 4)
    return row, 2 * index + (1 if row % 2 == 0 else 0)


def square_at(row: int, col: int) -> int | None:
    """The square number at (row, column), or ``None`` off the board or on a light square."""
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2 + 1


def _ray(square: int, direction: int) -> tuple[int, ...]:
    row, col = row_col(square)
    drow, dcol = DIRECTIONS[direction]
    squares = []
    while (nxt := square_at(row + drow, col + dcol)) is not None:
        squares.append(nxt)
        row, col = row + drow, col + dcol
    return tuple(squares)


#: RAYS[square][direction]: the squares along that diagonal, nearest first.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = ((),) + tuple(
    tuple(_ray(s, d) for d in range(4)) for s in SQUARES
)
#: BITS[square] = bit(square).
BITS: tuple[int, ...] = (0,) + tuple(bit(s) for s in SQUARES)
#: JUMPS[square]: (direction, jumped square, landing square) for each direction a jump fits.
JUMPS: tuple[tuple[tuple[int, int, int], ...], ...] = ((),) + tuple(
    tuple((d, RAYS[s][d][0], RAYS[s][d][1]) for d in range(4) if len(RAYS[s][d]) >= 2)
    for s in SQUARES
)
#: Squares that crown a man of each side (R-PRO-1).
WHITE_KING_ROW_MASK = sum(bit(s) for s in range(1, 5))
BLACK_KING_ROW_MASK = sum(bit(s) for s in range(29, 33))


def squares_of(mask: int) -> list[int]:
    """The square numbers set in a bitboard, ascending."""
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length())
        mask ^= low
    return result
