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


def square_set(mask: int) -> frozenset[int]:
    """The squares set in a bitboard as a frozenset: the form sensors report occupancy in."""
    return frozenset(squares_of(mask))


def squares_of(mask: int) -> list[int]:
    """The square numbers set in a bitboard, ascending."""
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length())
        mask ^= low
    return result


# -- whole-board shifts: each moves every set square one step in a direction at once -------------
# In rows 0, 2, 4, 6 the dark squares are in columns 1, 3, 5, 7, in rows 1, 3, 5, 7 in columns
# 0, 2, 4, 6, so a one-square step is a shift by 3, 4 or 5 bits depending on the row's parity.

EVEN_ROWS_MASK = sum(bit(s) for s in SQUARES if ((s - 1) // 4) % 2 == 0)
ODD_ROWS_MASK = ALL_SQUARES_MASK & ~EVEN_ROWS_MASK
_RIGHT_EDGE = sum(bit(s) for s in SQUARES if row_col(s)[1] == 7)
_LEFT_EDGE = sum(bit(s) for s in SQUARES if row_col(s)[1] == 0)
_EVEN_NOT_RIGHT = EVEN_ROWS_MASK & ~_RIGHT_EDGE
_ODD_NOT_LEFT = ODD_ROWS_MASK & ~_LEFT_EDGE


def step_up_left(mask: int) -> int:
    """Every square one step towards row 0 and column 0."""
    return ((mask & EVEN_ROWS_MASK) >> 4) | ((mask & _ODD_NOT_LEFT) >> 5)


def step_up_right(mask: int) -> int:
    """Every square one step towards row 0 and column 7."""
    return ((mask & _EVEN_NOT_RIGHT) >> 3) | ((mask & ODD_ROWS_MASK) >> 4)


def step_down_left(mask: int) -> int:
    """Every square one step towards row 7 and column 0."""
    return (((mask & EVEN_ROWS_MASK) << 4) | ((mask & _ODD_NOT_LEFT) << 3)) & ALL_SQUARES_MASK


def step_down_right(mask: int) -> int:
    """Every square one step towards row 7 and column 7."""
    return (((mask & _EVEN_NOT_RIGHT) << 5) | ((mask & ODD_ROWS_MASK) << 4)) & ALL_SQUARES_MASK


#: STEPS[direction] shifts a whole bitboard one square along DIRECTIONS[direction].
STEPS = (step_up_left, step_up_right, step_down_left, step_down_right)


def men_that_can_capture(men: int, opponent: int, empty: int) -> int:
    """The men (any side) with an adjacent opposing piece and an empty square beyond it (R-MAN-2).

    Written out rather than composed from the step functions: move generation asks this at every
    node, and perft spends a fifth of its time here.
    """
    even, odd, even_nr, odd_nl, full = (
        EVEN_ROWS_MASK,
        ODD_ROWS_MASK,
        _EVEN_NOT_RIGHT,
        _ODD_NOT_LEFT,
        ALL_SQUARES_MASK,
    )
    # Up-left captures: the landing's down-right neighbour is an opponent, whose down-right is us.
    t = ((((empty & even_nr) << 5) | ((empty & odd) << 4)) & full) & opponent
    result = (((t & even_nr) << 5) | ((t & odd) << 4)) & full
    # Up-right captures.
    t = ((((empty & even) << 4) | ((empty & odd_nl) << 3)) & full) & opponent
    result |= (((t & even) << 4) | ((t & odd_nl) << 3)) & full
    # Down-left captures.
    t = (((empty & even_nr) >> 3) | ((empty & odd) >> 4)) & opponent
    result |= ((t & even_nr) >> 3) | ((t & odd) >> 4)
    # Down-right captures.
    t = (((empty & even) >> 4) | ((empty & odd_nl) >> 5)) & opponent
    result |= ((t & even) >> 4) | ((t & odd_nl) >> 5)
    return result & men


def count_man_steps(men: int, empty: int, black: bool) -> int:
    """How many one-square forward moves the given men have (R-MAN-1); Black moves towards
    row 7, White towards row 0. Written out for perft's leaves, like men_that_can_capture."""
    even, odd = EVEN_ROWS_MASK, ODD_ROWS_MASK
    if black:
        left = ((men & even) << 4) | ((men & _ODD_NOT_LEFT) << 3)
        right = ((men & _EVEN_NOT_RIGHT) << 5) | ((men & odd) << 4)
    else:
        left = ((men & even) >> 4) | ((men & _ODD_NOT_LEFT) >> 5)
        right = ((men & _EVEN_NOT_RIGHT) >> 3) | ((men & odd) >> 4)
    return (left & empty).bit_count() + (right & empty).bit_count()
