"""Reading PDN games: the grammar and the move legality, feeding a visitor.

>>> import io
>>> record = read_game(io.StringIO('[Event "Club"]\\n1. 11-15 23-19 {[%clk 0:04:51]} *'))
>>> [node.notation for node in record.moves], record.moves[1].clock
(['11-15', '23-19'], 291.0)

Variations ``( ... )`` are checked for balance and skipped: a record keeps the main line.
Results come out in checkers' order (``1-0``: Black, the first mover, won); a file that writes
chess's order says so with ``[ResultOrder "White-Black"]``.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterator
from typing import Any, Generic, TextIO, TypeVar, overload

from engine.board import (
    AmbiguousMoveError,
    Board,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
)
from engine.color import Color
from engine.pdn.errors import PdnError
from engine.pdn.lexer import Kind, Lexer, Source, Token
from engine.pdn.model import (
    BLACK_FIRST,
    POOL_GAME_TYPE,
    RESULT_ORDER_TAG,
    RESULTS,
    WHITE_FIRST,
    GameRecord,
    move_label,
)
from engine.pdn.visitor import BaseVisitor, GameBuilder
from engine.quote import quoted

ResultT = TypeVar("ResultT")

#: The annotation glyphs written after a move, as the NAGs they stand for.
SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
#: The largest numeric annotation glyph (NAGs are $0 to $255, as in PGN).
MAX_NAG = 255
_SWAPPED = {"1-0": "0-1", "0-1": "1-0"}
#: American pool checkers spelt out: Black first, 8 by 8, numbered squares from the bottom right
#: of the first player (PDN 3.0). Other "23,..." values are pool variants with other notations.
POOL_GAME_TYPE_FULL = "23,B,8,8,N1,0"

_sources: weakref.WeakKeyDictionary[TextIO, Source] = weakref.WeakKeyDictionary()


@overload
def read_game(handle: TextIO, *, name: str | None = None) -> GameRecord | None: ...


@overload
def read_game(
    handle: TextIO, *, name: str | None = None, Visitor: Callable[[], BaseVisitor[ResultT]]
) -> ResultT | None: ...


def read_game(
    handle: TextIO,
    *,
    name: str | None = None,
    Visitor: Callable[[], BaseVisitor[Any]] = GameBuilder,
) -> Any:
    """The next game in a text handle, as the visitor's result; ``None`` at the end.

    Raises :class:`PdnError` naming ``name`` (default: the handle's ``name``), line and column.
    Calling it again on the same handle reads the next game, with line numbers running on.
    """
    return _GameParser(_source_for(handle, name), Visitor()).parse()


@overload
def read_games(handle: TextIO, *, name: str | None = None) -> Iterator[GameRecord]: ...


@overload
def read_games(
    handle: TextIO, *, name: str | None = None, Visitor: Callable[[], BaseVisitor[ResultT]]
) -> Iterator[ResultT]: ...


def read_games(
    handle: TextIO,
    *,
    name: str | None = None,
    Visitor: Callable[[], BaseVisitor[Any]] = GameBuilder,
) -> Iterator[Any]:
    """Every game left in a text handle, in order."""
    while (game := read_game(handle, name=name, Visitor=Visitor)) is not None:
        yield game


def _source_for(handle: TextIO, name: str | None) -> Source:
    """The handle's numbered line source, kept between calls so positions and pushed-back text
    carry over from one game to the next."""
    label = name or str(getattr(handle, "name", "<pdn>"))
    try:
        source = _sources.get(handle)
        if source is None or _at_start(handle):
            source = _sources[handle] = Source(handle, label)
    except TypeError:  # a handle that cannot be weakly referenced: positions restart per game
        return Source(handle, label)
    source.name = label
    return source


def _at_start(handle: TextIO) -> bool:
    """Whether a handle stands at its beginning (read afresh, e.g. after ``seek(0)``)."""
    try:
        return handle.seekable() and handle.tell() == 0
    except (OSError, ValueError):
        return False


def _is_pool_game_type(value: str) -> bool:
    """Whether a GameType value is ``23`` or ``23,B,8,8,N1`` (with or without the ``,0``)."""
    fields = [field.strip() for field in value.split(",")]
    full = POOL_GAME_TYPE_FULL.split(",")
    return fields == full[:1] or fields in (full[:5], full)


class _GameParser(Generic[ResultT]):
    """Reads one game: tags, then move text up to a result, the next tag section or the end."""

    def __init__(self, source: Source, visitor: BaseVisitor[ResultT]) -> None:
        self.lexer = Lexer(source)
        self.visitor = visitor
        self.started = False
        self.board: Board | None = None  # set when the tags are over
        self.number = 1
        self.tags: dict[str, Token] = {}
        self.fen: str | None = None
        self.moves = 0
        self.leading: list[str] = []

    def parse(self) -> ResultT | None:
        open_variations: list[Token] = []
        while (token := self.lexer.next()) is not None:
            if token.kind is Kind.COMMENT and self.board is None and not self.tags:
                self.leading.append(token.value)  # a game of nothing but comments is no game
                continue
            self._begin()
            if token.kind is Kind.TAG:
                if self.board is not None:
                    if open_variations:
                        raise self._variation_not_closed(open_variations[-1])
                    self.lexer.push_back(token)
                    break
                self._tag(token)
                continue
            if token.kind is Kind.WORD:
                raise self._unexpected(token)
            if token.kind is Kind.NAG:
                self._check_nag(token)
            board = self._board()
            if open_variations:
                if token.kind is Kind.OPEN:
                    open_variations.append(token)
                elif token.kind is Kind.CLOSE:
                    open_variations.pop()
                elif token.kind is Kind.RESULT:
                    raise self._variation_not_closed(open_variations[-1])
                continue
            match token.kind:
                case Kind.OPEN:
                    open_variations.append(token)
                case Kind.COMMENT:
                    self.visitor.visit_comment(token.value)
                case Kind.NAG if self.moves:
                    self.visitor.visit_nag(int(token.value))
                case Kind.MOVE:
                    self._move(board, token)
                case Kind.RESULT:
                    self._result(token)
                    self.lexer.release()
                    return self.visitor.result()
                case Kind.NUMBER | Kind.NAG:
                    pass
                case _:
                    raise self._unexpected(token)
        if open_variations:
            raise self._variation_not_closed(open_variations[-1])
        if not self.started or (not self.tags and not self.moves):
            return None
        self._board()
        header = self.tags.get("Result")
        self.visitor.visit_result(self._checkers_result(header.value) if header else "*")
        self.visitor.end_game()
        return self.visitor.result()

    def _begin(self) -> None:
        if not self.started:
            self.started = True
            self.visitor.begin_game()

    def _tag(self, token: Token) -> None:
        """Check the tags the reader relies on and keep the tag: the visitor gets the tags when
        the tag section is over, with the result in checkers' order."""
        name, value = token.text, token.value
        if name == "GameType" and not _is_pool_game_type(value):
            raise self.lexer.error(
                token.line,
                token.column,
                f"GameType {quoted(value)} is not American pool checkers: "
                f'expected "{POOL_GAME_TYPE}" or "{POOL_GAME_TYPE_FULL}"',
            )
        if name == "FEN":
            try:
                Board(value)
            except FenError as error:
                raise self.lexer.error(token.line, token.column, f"[FEN]: {error}") from None
            self.fen = value
        if name == "Result" and value not in RESULTS:
            expected = f"expected a result ({', '.join(RESULTS)}), got {quoted(value)}"
            raise self.lexer.error(token.line, token.column, expected)
        if name == RESULT_ORDER_TAG and value not in (BLACK_FIRST, WHITE_FIRST):
            raise self.lexer.error(
                token.line,
                token.column,
                f'expected [{name} "{BLACK_FIRST}"] (the default) or [{name} "{WHITE_FIRST}"], '
                f"got {quoted(value)}",
            )
        self.tags[name] = token

    def _checkers_result(self, result: str) -> str:
        """A result as the file writes it, in checkers' order (``1-0``: Black won)."""
        order = self.tags.get(RESULT_ORDER_TAG)
        return _SWAPPED.get(result, result) if order and order.value == WHITE_FIRST else result

    def _board(self) -> Board:
        """The current board; the first move-text token (or the end) closes the tag section."""
        if self.board is None:
            setup = self.tags.get("SetUp")
            if setup is not None and setup.value.strip() == "1" and self.fen is None:
                raise self.lexer.error(
                    setup.line, setup.column, 'expected a [FEN "..."] tag with [SetUp "1"]'
                )
            self.board = Board(self.fen) if self.fen is not None else Board()
            for name, tag in self.tags.items():
                if name == "Result":
                    self.visitor.visit_header(name, self._checkers_result(tag.value))
                elif name != RESULT_ORDER_TAG:  # read, and so no longer true of the record
                    self.visitor.visit_header(name, tag.value)
            self.visitor.end_headers(self.board.copy())
            for comment in self.leading:
                self.visitor.visit_comment(comment)
        return self.board

    def _move(self, board: Board, token: Token) -> None:
        move = self._parse_move(board, token)
        self.visitor.visit_move(board, move, board.notation(move))
        turn = board.turn
        board.push(move)
        self.moves += 1
        if turn is Color.WHITE:
            self.number += 1
        suffix = token.text[len(token.value) :]
        if suffix:
            self.visitor.visit_nag(SUFFIX_NAGS[suffix])

    def _parse_move(self, board: Board, token: Token) -> Move:
        """The legal move a token names; ``x``/``:`` must be a capture, ``-`` may be one."""
        label = f"move {move_label(self.number, board.turn)} {token.value}"
        try:
            move = board.parse_move(token.value)
        except InvalidMoveError as error:
            raise self.lexer.error(token.line, token.column, f"{label}: {error}") from None
        except IllegalMoveError:
            move = None
        except AmbiguousMoveError:
            move = self._full_path_move(board, token, label)
        if move is None or (not move.captures and re.search("[xX:]", token.value)):
            reason = f"{label} is not legal in FEN {board.fen()}"
            if board.has_capture():
                reason += " (a capture is compulsory, R-CAP-1)"
            raise self.lexer.error(token.line, token.column, reason)
        return move

    def _full_path_move(self, board: Board, token: Token, label: str) -> Move:
        """The capture whose whole path is the text (``15x6`` for the single jump when a longer
        capture also runs 15 to 6), else an error listing the paths to choose from."""
        squares = [int(s) for s in re.findall(r"\d+", token.value)]
        exact = [m for m in board.generate_legal_moves() if list(m.path) == squares]
        if len(exact) == 1:
            return exact[0]
        options = ", ".join(
            "x".join(map(str, m.path))
            for m in board.generate_legal_moves()
            if (m.from_square, m.to_square) == (squares[0], squares[-1])
        )
        reason = f"{label} is ambiguous in FEN {board.fen()}: write the full path, one of {options}"
        raise self.lexer.error(token.line, token.column, reason)

    def _result(self, token: Token) -> None:
        header = self.tags.get("Result")
        result = token.value
        if header is not None and "*" not in (header.value, result) and header.value != result:
            raise self.lexer.error(
                token.line,
                token.column,
                f'result {result} disagrees with [Result "{header.value}"] at line {header.line}',
            )
        if result == "*" and header is not None:
            result = header.value
        self.visitor.visit_result(self._checkers_result(result))
        self.visitor.end_game()

    def _check_nag(self, token: Token) -> None:
        """A NAG must be a number from 0 to :data:`MAX_NAG`."""
        digits = token.value.lstrip("0")
        if len(digits) > len(str(MAX_NAG)) or int(digits or "0") > MAX_NAG:
            raise self.lexer.error(
                token.line,
                token.column,
                f"NAG {quoted(token.text)} is out of range: expected $0 to ${MAX_NAG}",
            )

    def _unexpected(self, token: Token) -> PdnError:
        expected = "a move or a result" if self.board is not None else "a tag, a move or a result"
        return self.lexer.error(
            token.line, token.column, f"expected {expected}, got {quoted(token.text)}"
        )

    def _variation_not_closed(self, opened: Token) -> PdnError:
        return self.lexer.error(
            opened.line, opened.column, "variation not closed: expected ')' to match this '('"
        )
