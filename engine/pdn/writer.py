"""Writing PDN: an exporter visitor, so records (or files being read) come out as PDN text.

Tags come one a line, then a blank line, then the move text wrapped at 80 columns (a single word
longer than that keeps its own line). A comment holding ``}`` is written as a ``;`` comment, which
runs to the end of its line. No line starts with ``%``, which would make it an escape line
that readers skip: a comment word starting with ``%`` takes the word before it along to the next
line. Captures use ``x`` and the full path only when two captures share a start and an end
(R-BRD-4).
"""

from __future__ import annotations

import re

from engine.board import Board, Move
from engine.color import Color
from engine.pdn.model import BLACK_FIRST, RESULT_ORDER_TAG, GameRecord, move_label
from engine.pdn.visitor import BaseVisitor

LINE_LENGTH = 80
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
#: A comment's words for wrapping: runs of non-blank text, where a command such as
#: ``[%clk 0:44:51]`` counts as non-blank, so that it stays on one line.
_COMMENT_WORD = re.compile(r"(?:\[%[^\[\]]*\]|\S)+")
#: A word that ends the line (after a ``;`` comment).
_LINE_END = "\n"


class PdnExporter(BaseVisitor[str]):
    """Collects one game as PDN text; ``result()`` is the text, ending in a newline."""

    def __init__(self, line_length: int = LINE_LENGTH) -> None:
        self.line_length = line_length

    def begin_game(self) -> None:
        self._tags: list[str] = []
        self._words: list[str] = []
        self._number = 1
        self._need_number = True
        self._text = ""

    def visit_header(self, name: str, value: str) -> None:
        if not _TAG_NAME.fullmatch(name):
            raise ValueError(f"tag name {name!r} must be letters, digits or '_'")
        if value.splitlines() not in ([], [value]):  # \n, \r, a form feed, U+2028 ...
            raise ValueError(f"tag {name} holds a line break, which PDN cannot write")
        if name == RESULT_ORDER_TAG and value != BLACK_FIRST:
            raise ValueError(
                f"a record's results are in checkers' order: [{name} \"{value}\"] would make "
                "readers take them the other way"
            )
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        self._tags.append(f'[{name} "{escaped}"]')

    def visit_move(self, board: Board, move: Move, notation: str) -> None:
        if board.turn is Color.BLACK or self._need_number:
            self._words.append(move_label(self._number, board.turn))
        self._words.append(notation)
        if board.turn is Color.WHITE:
            self._number += 1
        self._need_number = False

    def visit_comment(self, comment: str) -> None:
        if "}" in comment:  # it would end a {...} comment early: a ; comment runs to the line end
            self._words.extend(["; " + " ".join(comment.split()), _LINE_END])
            self._need_number = True
            return
        words = _COMMENT_WORD.findall(comment)
        if words:
            words[0] = "{" + words[0]
            words[-1] += "}"
            self._words.extend(words)
        else:
            self._words.append("{}")
        self._need_number = True

    def visit_nag(self, nag: int) -> None:
        self._words.append(f"${nag}")
        self._need_number = True

    def visit_result(self, result: str) -> None:
        self._words.append(result)

    def end_game(self) -> None:
        lines = _wrap(self._words, self.line_length)
        self._text = "\n".join([*self._tags, "", *lines]) + "\n"

    def result(self) -> str:
        return self._text


def _wrap(words: list[str], line_length: int) -> list[str]:
    """Words as lines of at most ``line_length`` columns, where no line starts with ``%``.

    A line runs longer only where a word cannot move: a single long word, or ``%`` words that must
    stay with the word before them.
    """
    lines: list[list[str]] = [[]]
    width = 0
    lead = 0  # where in the line the last word that may start a line stands
    for word in words:
        line = lines[-1]
        if word == _LINE_END:
            lines.append([])
            width = lead = 0
            continue
        if line and width + 1 + len(word) > line_length:
            if not word.startswith("%"):
                lines.append([word])
                width, lead = len(word), 0
                continue
            if lead > 0:  # the % word takes the word before it (and any % words between) along
                carried = [*line[lead:], word]
                del line[lead:]
                lines.append(carried)
                width, lead = len(" ".join(carried)), 0
                continue
        line.append(word)
        width += len(word) + (len(line) > 1)
        if not word.startswith("%"):
            lead = len(line) - 1
    return [" ".join(line) for line in lines if line]


def write_game(record: GameRecord, *, line_length: int = LINE_LENGTH) -> str:
    """One game as PDN text (tags, a blank line, the move text, a final newline)."""
    return record.accept(PdnExporter(line_length))


def write_games(records: list[GameRecord]) -> str:
    """Several games as one PDN file, a blank line between games."""
    return "\n".join(write_game(record) for record in records)
