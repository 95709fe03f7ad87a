"""The position, legal moves and FEN of American pool checkers, on 32-bit bitboards.

Move generation implements R-MAN-1/2, R-KNG-1..3, R-CAP-1..5 and R-PRO-1/2 of RULES.md:

>>> board = Board()
>>> len(board.legal_moves)
7
>>> board.push(board.parse_move("11-15"))
>>> board.fen()
'W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15'
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from engine.color import Color
from engine.geometry import (
    ALL_SQUARES_MASK,
    BITS,
    BLACK_FORWARD,
    BLACK_KING_ROW_MASK,
    JUMPS,
    OPPOSITE,
    RAYS,
    STEPS,
    WHITE_FORWARD,
    WHITE_KING_ROW_MASK,
    count_man_steps,
    men_that_can_capture,
    square_at,
    squares_of,
)
from engine.quote import quoted
from engine.refusal import Refusal

#: How much of a bad FEN an error message quotes: any real position in full.
FEN_EXCERPT_LENGTH = 100
#: The row where each side's men are crowned (R-PRO-1): no man can stand there.
_CROWNING_ROW = {Color.BLACK: BLACK_KING_ROW_MASK, Color.WHITE: WHITE_KING_ROW_MASK}

STARTING_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


class FenError(Refusal):
    """A FEN string that is not valid PDN 3.0 FEN; the message names the offending part (a
    :class:`Refusal`, so the referee's page says it in its language)."""


class InvalidMoveError(Refusal):
    """Move text that is not a move at all (syntax), e.g. ``"11/15"``."""


class IllegalMoveError(Refusal):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(Refusal):
    """Move text that fits more than one legal move; the full path tells them apart."""


class Piece(NamedTuple):
    """A piece on a square: its side and whether it is a king."""

    color: Color
    king: bool

    @property
    def symbol(self) -> str:
        """``b``/``w`` for men, ``B``/``W`` for kings."""
        letter = self.color.letter
        return letter if self.king else letter.lower()


class Move:
    """A move: its path of squares (start, every landing, end), the captured squares in capture
    order, and whether it crowns. Two moves with the same start, end and captured set are the same
    move, whatever the path between (RULES.md R-BRD-4)."""

    __slots__ = ("captures", "crowns", "path")

    def __init__(self, path: tuple[int, ...], captures: tuple[int, ...] = (), crowns: bool = False):
        self.path = path
        self.captures = captures
        self.crowns = crowns

    @property
    def from_square(self) -> int:
        """Where the moving piece starts."""
        return self.path[0]

    @property
    def to_square(self) -> int:
        """Where the moving piece ends."""
        return self.path[-1]

    @property
    def capture_mask(self) -> int:
        """Bitboard of the captured squares."""
        mask = 0
        for square in self.captures:
            mask |= BITS[square]
        return mask

    def is_capture(self) -> bool:
        """Whether the move jumps at least one piece."""
        return bool(self.captures)

    def to_json(self) -> dict[str, Any]:
        """The move's squares as JSON: ``from``, ``to``, ``path``, ``captures``, ``crowns``."""
        return {
            "from": self.path[0],
            "to": self.path[-1],
            "path": list(self.path),
            "captures": list(self.captures),
            "crowns": self.crowns,
        }

    def key(self) -> tuple[int, int, frozenset[int]]:
        """Identity of the move: (start, end, captured set)."""
        return (self.path[0], self.path[-1], frozenset(self.captures))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        sep = "x" if self.captures else "-"
        return f"Move({sep.join(map(str, self.path))})"


class Board:
    """A position with the side to move and a stack of the moves pushed onto it.

    ``Board()`` is the start position (R-BRD-3), ``Board(fen)`` any position, ``Board.empty()``
    no pieces.
    """

    def __init__(self, fen: str | None = STARTING_FEN) -> None:
        self.black = 0
        self.white = 0
        self.kings = 0
        self.turn = Color.BLACK
        # (black, white, kings, turn, move) before each pushed move
        self._stack: list[tuple[int, int, int, Color, Move]] = []
        if fen is not None:
            self.set_fen(fen)

    # -- construction and FEN ------------------------------------------------------------------

    @classmethod
    def empty(cls) -> Board:
        """A board with no pieces, Black to move."""
        return cls(None)

    @classmethod
    def from_fen(cls, fen: str) -> Board:
        """The position a PDN FEN describes, e.g. ``Board.from_fen("W:W9:B6,7")``."""
        return cls(fen)

    def set_fen(self, fen: str) -> None:
        """Replace the position with a PDN 3.0 FEN (``1-12`` ranges and ``K`` kings accepted)."""
        black, white, kings, turn = _parse_fen(fen)
        self.black, self.white, self.kings, self.turn = black, white, kings, turn
        self._stack.clear()

    def fen(self) -> str:
        """The position as PDN FEN: side to move, then White's and Black's squares, ``K`` kings."""

        def field(color: Color, mask: int) -> str:
            items = [f"K{s}" if self.kings & BITS[s] else str(s) for s in squares_of(mask)]
            return color.letter + ",".join(items)

        white, black = field(Color.WHITE, self.white), field(Color.BLACK, self.black)
        return f"{self.turn.letter}:{white}:{black}"

    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy, with or without the move stack."""
        board = Board.empty()
        board.black, board.white, board.kings, board.turn = (
            self.black,
            self.white,
            self.kings,
            self.turn,
        )
        if stack:
            board._stack = list(self._stack)
        return board

    # -- pieces --------------------------------------------------------------------------------

    @property
    def occupied(self) -> int:
        """Bitboard of all occupied squares."""
        return self.black | self.white

    def occupied_squares(self) -> frozenset[int]:
        """The occupied squares, as a sensor would report them."""
        return frozenset(squares_of(self.black | self.white))

    def pieces(self, color: Color) -> int:
        """Bitboard of one side's pieces."""
        return self.black if color is Color.BLACK else self.white

    def piece_at(self, square: int) -> Piece | None:
        """The piece on a square, or ``None``."""
        mask = BITS[square]
        if self.black & mask:
            return Piece(Color.BLACK, bool(self.kings & mask))
        if self.white & mask:
            return Piece(Color.WHITE, bool(self.kings & mask))
        return None

    def set_piece_at(self, square: int, piece: Piece | None) -> None:
        """Put a piece on a square (``None`` clears it)."""
        mask = BITS[square]
        self.black &= ~mask
        self.white &= ~mask
        self.kings &= ~mask
        if piece is None:
            return
        if piece.color is Color.BLACK:
            self.black |= mask
        else:
            self.white |= mask
        if piece.king:
            self.kings |= mask

    def transposition_key(self) -> tuple[int, int, int, bool]:
        """What makes two positions the same for repetition (R-DRW-1): pieces and whether Black
        is to move. Only ints, so the garbage collector need not track a table of keys."""
        return (self.black, self.white, self.kings, self.turn is Color.BLACK)

    # -- moves ---------------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        """A live view of the legal moves: supports ``in``, ``len``, ``bool`` and iteration."""
        return LegalMoves(self)

    def generate_legal_moves(self) -> list[Move]:
        """All legal moves: the captures if any exists (R-CAP-1), otherwise the simple moves."""
        return self.generate_captures() or self.generate_simple_moves()

    def count_legal_moves(self) -> int:
        """How many legal moves there are, without building them when none is a capture."""
        captures = self.generate_captures()
        if captures:
            return len(captures)
        black = self.turn is Color.BLACK
        own = self.black if black else self.white
        empty = ALL_SQUARES_MASK & ~(self.black | self.white)
        count = count_man_steps(own & ~self.kings, empty, black)
        for square in squares_of(own & self.kings):
            for ray in RAYS[square]:
                for target in ray:
                    if not empty & BITS[target]:
                        break
                    count += 1
        return count

    def has_capture(self) -> bool:
        """Whether the side to move must capture (R-CAP-1)."""
        return bool(self.generate_captures())

    def generate_captures(self) -> list[Move]:
        """Every complete capture sequence of the side to move (R-MAN-2, R-KNG-2/3, R-CAP-2..5)."""
        if self.turn is Color.BLACK:
            own, opponent, king_row = self.black, self.white, BLACK_KING_ROW_MASK
        else:
            own, opponent, king_row = self.white, self.black, WHITE_KING_ROW_MASK
        empty = ALL_SQUARES_MASK & ~(own | opponent)
        kings = own & self.kings
        men_that_capture = men_that_can_capture(own & ~kings, opponent, empty)
        if not men_that_capture and not kings:
            return []
        found: dict[tuple[int, int, int], Move] = {}
        for square in squares_of(men_that_capture):
            _man_captures(
                square, square, (square,), (), 0, opponent, empty | BITS[square], king_row, found
            )
        for square in squares_of(kings):
            _king_captures(
                square, square, (square,), (), 0, -1, opponent, empty | BITS[square], found
            )
        return list(found.values())

    def generate_simple_moves(self) -> list[Move]:
        """Every non-capturing move (R-MAN-1, R-KNG-1), whether or not a capture is compulsory."""
        if self.turn is Color.BLACK:
            own, forward, king_row = self.black, BLACK_FORWARD, BLACK_KING_ROW_MASK
        else:
            own, forward, king_row = self.white, WHITE_FORWARD, WHITE_KING_ROW_MASK
        empty = ALL_SQUARES_MASK & ~(self.black | self.white)
        moves = []
        men = own & ~self.kings
        for direction in forward:
            targets = STEPS[direction](men) & empty
            back = OPPOSITE[direction]
            while targets:
                low = targets & -targets
                targets ^= low
                target = low.bit_length()
                moves.append(Move((RAYS[target][back][0], target), (), bool(king_row & low)))
        for square in squares_of(own & self.kings):
            for ray in RAYS[square]:
                for target in ray:
                    if not empty & BITS[target]:
                        break
                    moves.append(Move((square, target)))
        return moves

    def is_legal(self, move: Move) -> bool:
        """Whether the move is legal in this position."""
        return move in self.generate_legal_moves()

    def push(self, move: Move) -> None:
        """Play a move (assumed legal: see :meth:`push_legal`); captured pieces all leave at the
        end of the sequence (R-CAP-4) and a man ending on the king row is crowned (R-PRO-1)."""
        black, white, kings, turn = self.black, self.white, self.kings, self.turn
        self._stack.append((black, white, kings, turn, move))
        path = move.path
        start, end = BITS[path[0]], BITS[path[-1]]
        captured = 0
        for square in move.captures:
            captured |= BITS[square]
        if turn is Color.BLACK:
            self.black = (black & ~start) | end
            self.white = white & ~captured
            self.turn = Color.WHITE
        else:
            self.white = (white & ~start) | end
            self.black = black & ~captured
            self.turn = Color.BLACK
        kings &= ~captured
        if kings & start:
            kings = (kings & ~start) | end
        elif move.crowns:
            kings |= end
        self.kings = kings

    def push_legal(self, move: Move) -> Move:
        """Play a move after checking it is legal; returns the generated move (with its path)."""
        for legal in self.generate_legal_moves():
            if legal == move:
                self.push(legal)
                return legal
        raise IllegalMoveError("{move} is not legal in {fen}", move=repr(move), fen=self.fen())

    def pop(self) -> Move:
        """Take back the last move pushed, returning it."""
        self.black, self.white, self.kings, self.turn, move = self._stack.pop()
        return move

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed since the position was set, oldest first."""
        return [snapshot[4] for snapshot in self._stack]

    def peek(self) -> Move:
        """The last move pushed."""
        return self._stack[-1][4]

    def result_occupancy(self, move: Move) -> frozenset[int]:
        """The occupied squares once ``move`` is played: what a sensor sees when it is done."""
        occupied = (self.occupied & ~BITS[move.path[0]] & ~move.capture_mask) | BITS[move.path[-1]]
        return frozenset(squares_of(occupied))

    # -- notation ------------------------------------------------------------------------------

    def notation(self, move: Move) -> str:
        """The move as PDN text: ``11-15``, ``15x22``, or the full path ``9x18x27`` only when
        another legal capture has the same start and end (R-BRD-4)."""
        legal = self.generate_legal_moves()
        if move not in legal:
            raise IllegalMoveError("{move} is not legal in {fen}", move=repr(move), fen=self.fen())
        if not move.captures:
            return f"{move.path[0]}-{move.path[-1]}"
        twins = [m for m in legal if m.path[0] == move.path[0] and m.path[-1] == move.path[-1]]
        if len(twins) > 1:
            return "x".join(map(str, move.path))
        return f"{move.path[0]}x{move.path[-1]}"

    def parse_move(self, text: str) -> Move:
        """The legal move PDN move text names (``11-15``, ``15x22``, ``15:22``, ``9x18x27``).

        ``x`` or ``:`` must name a capture; ``-`` is accepted for either. A path that is exactly
        one move's path names that move even when others share its ends."""
        squares = _parse_move_squares(text)
        capture_marked = bool(re.search(r"[x:]", text, re.IGNORECASE))
        candidates = [
            m
            for m in self.generate_legal_moves()
            if m.path[0] == squares[0]
            and m.path[-1] == squares[-1]
            and (m.captures or not capture_marked)
        ]
        exact = [m for m in candidates if list(m.path) == squares]
        if len(exact) == 1:
            return exact[0]
        if len(squares) > 2:
            captured = self._captures_along(squares)
            candidates = [m for m in candidates if m.capture_mask == captured]
        if not candidates and self.has_capture():
            raise IllegalMoveError(
                "{text} is not a legal move in {fen} (a capture is compulsory, R-CAP-1)",
                text=repr(text),
                fen=self.fen(),
            )
        if not candidates:
            raise IllegalMoveError(
                "{text} is not a legal move in {fen}", text=repr(text), fen=self.fen()
            )
        if len(candidates) > 1:
            options = ", ".join("x".join(map(str, m.path)) for m in candidates)
            raise AmbiguousMoveError(
                "{text} fits several captures: {options}; give the path",
                text=repr(text),
                options=options,
            )
        return candidates[0]

    def push_notation(self, text: str) -> Move:
        """Parse and play move text; returns the move played."""
        move = self.parse_move(text)
        self.push(move)
        return move

    def _captures_along(self, path: list[int]) -> int | None:
        """Bitboard of the opposing pieces a capture path jumps, or ``None`` if it is no path."""
        opponent = self.white if self.turn is Color.BLACK else self.black
        captured = 0
        for a, b in itertools.pairwise(path):
            leg = next((ray for ray in RAYS[a] if b in ray), None)
            if leg is None:
                return None
            between = leg[: leg.index(b)]
            jumped = [s for s in between if opponent & BITS[s]]
            if len(jumped) != 1:
                return None
            captured |= BITS[jumped[0]]
        return captured

    # -- display -------------------------------------------------------------------------------

    def __str__(self) -> str:
        rows = []
        for row in range(8):
            cells = []
            for col in range(8):
                square = square_at(row, col)
                piece = self.piece_at(square) if square else None
                cells.append(piece.symbol if piece else ("." if square else " "))
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.transposition_key() == other.transposition_key()

    __hash__ = None  # type: ignore[assignment]  # mutable


class LegalMoves:
    """The legal moves of a board, computed when asked (like python-chess's ``legal_moves``)."""

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return iter(self._board.generate_legal_moves())

    def __len__(self) -> int:
        return len(self._board.generate_legal_moves())

    def __bool__(self) -> bool:
        return bool(self._board.generate_legal_moves())

    def __contains__(self, move: object) -> bool:
        return move in self._board.generate_legal_moves()

    def count(self) -> int:
        """How many legal moves there are (counted without building them where possible)."""
        return self._board.count_legal_moves()


def _man_captures(
    start: int,
    square: int,
    path: tuple[int, ...],
    captures: tuple[int, ...],
    captured: int,
    opponent: int,
    empty: int,
    king_row: int,
    found: dict[tuple[int, int, int], Move],
) -> None:
    """Extend a man's capture from ``square``; a man jumps forward or backward (R-MAN-2) and,
    passing the king row mid-capture, jumps on as a man (R-PRO-2)."""
    extended = False
    for _direction, over, land in JUMPS[square]:
        over_bit = BITS[over]
        if opponent & over_bit and not captured & over_bit and empty & BITS[land]:
            extended = True
            _man_captures(
                start,
                land,
                path + (land,),
                captures + (over,),
                captured | over_bit,
                opponent,
                empty,
                king_row,
                found,
            )
    if not extended and captures:
        key = (start, square, captured)
        if key not in found:
            found[key] = Move(path, captures, bool(king_row & BITS[square]))


def _king_captures(
    start: int,
    square: int,
    path: tuple[int, ...],
    captures: tuple[int, ...],
    captured: int,
    came_along: int,
    opponent: int,
    empty: int,
    found: dict[tuple[int, int, int], Move],
) -> None:
    """Extend a flying king's capture from ``square`` (R-KNG-2): captured pieces stay and block
    (R-CAP-4); where some landings allow a further capture, only those are allowed (R-KNG-3)."""
    back = OPPOSITE[came_along] if came_along >= 0 else -1
    for direction, ray in enumerate(RAYS[square]):
        if direction == back:
            continue
        landings = _landings_beyond(ray, opponent, empty, captured)
        if not landings:
            continue
        target, squares = landings
        now_captured = captured | BITS[target]
        now_captures = captures + (target,)
        going_on = [
            s for s in squares if _king_can_capture(s, direction, opponent, empty, now_captured)
        ]
        if going_on:
            for landing in going_on:
                _king_captures(
                    start,
                    landing,
                    path + (landing,),
                    now_captures,
                    now_captured,
                    direction,
                    opponent,
                    empty,
                    found,
                )
        else:
            for landing in squares:
                key = (start, landing, now_captured)
                if key not in found:
                    found[key] = Move(path + (landing,), now_captures, False)


def _landings_beyond(
    ray: tuple[int, ...], opponent: int, empty: int, captured: int
) -> tuple[int, list[int]] | None:
    """Along a ray: the first piece, if a capturable opponent, and the empty squares beyond it."""
    length = len(ray)
    i = 0
    while i < length and empty & BITS[ray[i]]:
        i += 1
    if i >= length - 1:
        return None
    target_bit = BITS[ray[i]]
    if not opponent & target_bit or captured & target_bit:
        return None
    squares = []
    for square in ray[i + 1 :]:
        if not empty & BITS[square]:
            break
        squares.append(square)
    return (ray[i], squares) if squares else None


def _king_can_capture(
    square: int, came_along: int, opponent: int, empty: int, captured: int
) -> bool:
    back = OPPOSITE[came_along]
    return any(
        _landings_beyond(ray, opponent, empty, captured)
        for direction, ray in enumerate(RAYS[square])
        if direction != back
    )


_MOVE_TEXT = re.compile(r"^\s*(\d{1,2})((?:\s*[-x:]\s*\d{1,2})+)\s*$", re.IGNORECASE)


def _parse_move_squares(text: str) -> list[int]:
    match = _MOVE_TEXT.match(text)
    if not match:
        raise InvalidMoveError(
            "{text} is not a move: expected e.g. 11-15, 15x22 or 9x18x27", text=repr(text)
        )
    squares = [int(match.group(1)), *map(int, re.findall(r"\d{1,2}", match.group(2)))]
    bad = [s for s in squares if not 1 <= s <= 32]
    if bad:
        raise InvalidMoveError(
            "{text}: square {square} is not a dark square 1-32 (R-BRD-2)",
            text=repr(text),
            square=bad[0],
        )
    return squares


@functools.lru_cache(maxsize=256)
def _parse_fen(fen: str) -> tuple[int, int, int, Color]:
    shown = quoted(fen, limit=FEN_EXCERPT_LENGTH)
    text = fen.strip().strip('"').rstrip(".").strip()
    fields = [f.strip() for f in text.split(":")]
    if len(fields) < 3:
        raise FenError(
            "FEN {fen}: expected 'TURN:W...:B...' with three ':'-separated fields", fen=shown
        )
    try:
        turn = Color.from_letter(fields[0])
    except ValueError:
        side = quoted(fields[0])
        raise FenError(
            "FEN {fen}: side to move must be B or W, got {side}", fen=shown, side=side
        ) from None
    masks = {Color.BLACK: 0, Color.WHITE: 0}
    kings = 0
    seen_colors: set[Color] = set()
    for field in fields[1:]:
        if not field:
            continue
        letter = field[0].upper()
        if letter in "HF" and field[1:].isdigit():  # move counters some programs append
            continue
        if letter not in "BW":
            raise FenError(
                "FEN {fen}: field {field} must start with W or B", fen=shown, field=quoted(field)
            )
        color = Color.from_letter(letter)
        if color in seen_colors and color is Color.BLACK:
            raise FenError("FEN {fen}: pieces of black listed twice", fen=shown)
        if color in seen_colors:
            raise FenError("FEN {fen}: pieces of white listed twice", fen=shown)
        seen_colors.add(color)
        for item in filter(None, (i.strip() for i in field[1:].split(","))):
            king = item[:1].upper() == "K"
            for square in _fen_item_squares(item[1:] if king else item, shown):
                bit = BITS[square]
                if (masks[Color.BLACK] | masks[Color.WHITE]) & bit:
                    raise FenError(
                        "FEN {fen}: square {square} is given twice", fen=shown, square=square
                    )
                if not king and bit & _CROWNING_ROW[color]:
                    raise _crowning_row_error(color, square, shown)
                masks[color] |= bit
                if king:
                    kings |= bit
    return masks[Color.BLACK], masks[Color.WHITE], kings, turn


def _fen_item_squares(item: str, shown: str) -> Iterable[int]:
    match = re.fullmatch(r"(\d{1,2})(?:-(\d{1,2}))?", item)
    if not match:
        raise FenError(
            "FEN {fen}: {item} is not a square or a range like 1-12", fen=shown, item=quoted(item)
        )
    low = int(match.group(1))
    high = int(match.group(2) or low)
    for square in (low, high):
        if not 1 <= square <= 32:
            raise FenError(
                "FEN {fen}: square {square} is not a dark square 1-32 (R-BRD-2)",
                fen=shown,
                square=square,
            )
    if high < low:
        raise FenError("FEN {fen}: range {item} runs backwards", fen=shown, item=quoted(item))
    return range(low, high + 1)


def _crowning_row_error(color: Color, square: int, shown: str) -> FenError:
    """A man of ``color`` listed on its own crowning row (R-PRO-1), said per side so each
    sentence is one the catalogues hold."""
    if color is Color.BLACK:
        return FenError(
            "FEN {fen}: a Black man on {square} stands on the row where it is crowned (R-PRO-1): "
            "write it as a king, K{square}",
            fen=shown,
            square=square,
        )
    return FenError(
        "FEN {fen}: a White man on {square} stands on the row where it is crowned (R-PRO-1): "
        "write it as a king, K{square}",
        fen=shown,
        square=square,
    )
