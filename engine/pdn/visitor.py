"""Visitors: what the reader (or :meth:`GameRecord.accept`) calls, in file order, for one game.

The reader checks the grammar and the legality of every move; a visitor decides what to keep.
:class:`GameBuilder` builds a :class:`GameRecord`; the exporter in :mod:`engine.pdn.writer` writes
text. ``visit_move`` receives the board *before* the move.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from engine.board import Board, Move
from engine.pdn.clock import split_clock
from engine.pdn.model import GameRecord, MoveNode, default_headers

ResultT = TypeVar("ResultT")


class BaseVisitor(Generic[ResultT]):
    """Does nothing at every step; subclasses override the steps they care about."""

    def begin_game(self) -> None:
        """A game starts (before its first tag or move)."""

    def visit_header(self, name: str, value: str) -> None:
        """A tag pair, e.g. ``("Event", "Club night")``."""

    def end_headers(self, board: Board) -> None:
        """The tags are over; ``board`` is the start position (a copy the visitor may keep)."""

    def visit_move(self, board: Board, move: Move, notation: str) -> None:
        """A legal main-line move, with its canonical notation; ``board`` is before the move."""

    def visit_comment(self, comment: str) -> None:
        """A comment's text (``{...}`` or ``; ...``) after the last move, or before the first."""

    def visit_nag(self, nag: int) -> None:
        """A numeric annotation glyph, ``$1`` (also written ``!``) after the last move."""

    def visit_result(self, result: str) -> None:
        """The game's result, one of :data:`engine.pdn.model.RESULTS`."""

    def end_game(self) -> None:
        """The game is over."""

    def result(self) -> ResultT:
        """What the visit produced; ``read_game`` returns it."""
        raise NotImplementedError


class GameBuilder(BaseVisitor[GameRecord]):
    """Builds a :class:`GameRecord`, taking ``[%clk]`` times out of comments into ``clock``.

    The comments after a move (or before the first) are gathered and joined once the next move
    or the end comes, so a move with thousands of comments is read in linear time.
    """

    def begin_game(self) -> None:
        self.record = GameRecord(headers=default_headers())
        self._comments: list[str] = []

    def visit_header(self, name: str, value: str) -> None:
        self.record.headers[name] = value

    def visit_move(self, board: Board, move: Move, notation: str) -> None:
        self._settle_comments()
        self.record.moves.append(MoveNode(move, notation))

    def visit_comment(self, comment: str) -> None:
        self._comments.append(comment)

    def visit_nag(self, nag: int) -> None:
        if self.record.moves:
            self.record.moves[-1].nags.append(nag)

    def visit_result(self, result: str) -> None:
        self.record.result = result

    def end_game(self) -> None:
        self._settle_comments()

    def result(self) -> GameRecord:
        return self.record

    def _settle_comments(self) -> None:
        """The comments gathered, joined with whitespace collapsed, onto the last move (the
        first clock time in them its clock) or, before the first move, onto the game."""
        if not self._comments:
            return
        text = " ".join(" ".join(self._comments).split())
        self._comments.clear()
        if self.record.moves:
            node = self.record.moves[-1]
            node.clock, node.comment = split_clock(text)
        else:
            self.record.comment = text
