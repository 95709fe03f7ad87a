"""A game record: ordered headers, the main line as move nodes, and the result.

>>> record = GameRecord()
>>> record.add_move_text("11-15").clock = 2691
>>> record.add_move_text("23-19").notation
'23-19'
>>> record.board().fen()
'B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from engine.board import STARTING_FEN, Board, IllegalMoveError, Move
from engine.color import Color
from engine.pdn.clock import join_clock

if TYPE_CHECKING:
    from engine.pdn.visitor import BaseVisitor

ResultT = TypeVar("ResultT")

#: Game results as checkers PDN writes them, the first mover's (Black's) score first (PDN 2.0
#: §6.1.1.1.1.5): Black won, White won, draw, both lose (a double forfeit), unknown or unfinished.
RESULTS = ("1-0", "0-1", "1/2-1/2", "0-0", "*")
#: The tag saying in which order a file writes the scores of a result, and its two values:
#: checkers' own (Black's score first, the default) or chess's (White's first).
RESULT_ORDER_TAG = "ResultOrder"
BLACK_FIRST, WHITE_FIRST = "Black-White", "White-Black"
#: The seven standard tags, in the order they are written.
SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
#: PDN's GameType number for American pool checkers.
POOL_GAME_TYPE = "23"


def default_headers() -> dict[str, str]:
    """The seven standard tags with PDN's "unknown" values, then ``GameType "23"``."""
    headers = dict.fromkeys(SEVEN_TAGS, "?")
    headers.update(Date="????.??.??", Result="*", GameType=POOL_GAME_TYPE)
    return headers


def move_label(number: int, turn: Color) -> str:
    """How PDN numbers a move: ``7.`` for Black's (the first player's), ``7...`` for White's."""
    return f"{number}." if turn is Color.BLACK else f"{number}..."


@dataclass
class MoveNode:
    """One move of the main line with what the record says about it.

    ``notation`` is the canonical PDN text (R-BRD-4); ``clock`` the mover's time left in seconds
    after the move (``[%clk]``); ``comment`` the remark after the move, whitespace collapsed.
    """

    move: Move
    notation: str
    comment: str = ""
    clock: float | None = None
    nags: list[int] = field(default_factory=list)


@dataclass
class GameRecord:
    """A recorded game: ``headers`` (insertion-ordered, tags as PDN text), a ``comment`` before
    the first move, and ``moves``, the main line from :attr:`starting_fen`."""

    headers: dict[str, str] = field(default_factory=default_headers)
    comment: str = ""
    moves: list[MoveNode] = field(default_factory=list)

    @property
    def starting_fen(self) -> str:
        """The start position: the ``[FEN]`` tag, or the standard start (R-BRD-3)."""
        return self.headers.get("FEN", STARTING_FEN)

    def setup(self, fen: str) -> None:
        """Start the game from a position: sets ``[SetUp "1"]`` and ``[FEN]``; clears the moves."""
        self.headers["SetUp"] = "1"
        self.headers["FEN"] = Board(fen).fen()
        self.moves.clear()

    @property
    def result(self) -> str:
        """The ``[Result]`` tag: one of :data:`RESULTS`."""
        return self.headers.get("Result", "*")

    @result.setter
    def result(self, value: str) -> None:
        if value not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, got {value!r}")
        self.headers["Result"] = value

    def starting_board(self) -> Board:
        """A new board at the start position."""
        return Board(self.starting_fen)

    def board(self) -> Board:
        """A new board at the final position, with the main line on its move stack."""
        board = self.starting_board()
        for node in self.moves:
            board.push(node.move)
        return board

    def add_move(self, move: Move, *, comment: str = "", clock: float | None = None) -> MoveNode:
        """Append a legal move to the main line; ``IllegalMoveError`` if it is not legal."""
        board = self.board()
        legal = next((m for m in board.generate_legal_moves() if m == move), None)
        if legal is None:
            raise IllegalMoveError("{move} is not legal in {fen}", move=repr(move), fen=board.fen())
        node = MoveNode(legal, board.notation(legal), " ".join(comment.split()), clock)
        self.moves.append(node)
        return node

    def add_move_text(self, text: str) -> MoveNode:
        """Append a move given as PDN text (``11-15``, ``15x22``, ``9x18x27``)."""
        return self.add_move(self.board().parse_move(text))

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walk the record through a visitor as the reader walks a file; returns its result."""
        visitor.begin_game()
        for name, value in self.headers.items():
            visitor.visit_header(name, value)
        board = self.starting_board()
        visitor.end_headers(board)
        if self.comment:
            visitor.visit_comment(self.comment)
        for node in self.moves:
            visitor.visit_move(board, node.move, node.notation)
            board.push(node.move)
            for nag in node.nags:
                visitor.visit_nag(nag)
            if node.comment or node.clock is not None:
                visitor.visit_comment(join_clock(node.clock, node.comment))
        visitor.visit_result(self.result)
        visitor.end_game()
        return visitor.result()
