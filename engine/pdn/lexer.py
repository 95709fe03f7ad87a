"""PDN text as tokens that know their line and column.

Lines come from a :class:`Source`, which can take back the unread end of a line so that the next
game starts exactly where the last one stopped. Tolerated on the way: a UTF-8 BOM, CRLF or CR line
ends, ``%`` escape lines, ``:`` as a capture separator, ``!``/``?`` after a move.
"""

from __future__ import annotations

import enum
import re
from typing import NamedTuple, TextIO

from engine.pdn.errors import PdnError
from engine.quote import quoted


class Kind(enum.Enum):
    """What a token is."""

    TAG = "tag"  # text: tag name, value: tag value (unescaped)
    COMMENT = "comment"  # value: the text inside {...} or after ;
    NAG = "nag"  # value: the number after $
    OPEN = "("
    CLOSE = ")"
    NUMBER = "move number"  # 7. or 7...
    MOVE = "move"  # value: the move without a !/? suffix
    RESULT = "result"
    WORD = "word"  # anything else: always an error where it stands


class Token(NamedTuple):
    """A token, its source text and value, and where it starts (1-based line and column)."""

    kind: Kind
    text: str
    value: str
    line: int
    column: int


class Source:
    """The lines of a text handle, numbered, with room to push back the rest of a line.

    A line is handed out as the whole text of the line and the index where reading resumes, so
    that giving back the rest of a line copies nothing: many games on one line read in linear time.
    """

    def __init__(self, handle: TextIO, name: str) -> None:
        self.handle = handle
        self.name = name
        self.line_no = 0
        self._pending: tuple[int, str, int] | None = None

    def next_line(self) -> tuple[int, str, int] | None:
        """(line number, text without its line end, index to read from), or ``None`` at the end."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            return pending
        raw = self.handle.readline()
        if not raw:
            return None
        self.line_no += 1
        text = raw.rstrip("\r\n")
        if self.line_no == 1:
            text = text.removeprefix("\ufeff")
        return self.line_no, text, 0

    def push_back(self, line: int, text: str, index: int) -> None:
        """Make ``text`` from ``index`` on (column ``index + 1`` of ``line``) the next line read."""
        self._pending = (line, text, index)


_DELIMITED = r"(?=[\s{}();\[\]]|$)"
_NON_SPACE = re.compile(r"[^\s\ufeff]")
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
#: A capture takes at most the 12 pieces a side has, so a move names at most 13 squares.
_WORDS = (
    (Kind.NUMBER, re.compile(r"\d+\.+")),
    (Kind.RESULT, re.compile(r"(1-0|0-1|1/2-1/2|0-0|\*)" + _DELIMITED)),
    (Kind.MOVE, re.compile(r"(\d{1,2}(?:[-xX:]\d{1,2}){1,12})[!?]{0,2}" + _DELIMITED)),
    (Kind.NAG, re.compile(r"\$(\d+)" + _DELIMITED)),
    (Kind.WORD, re.compile(r"[^\s{}();\[\]]+")),
)
#: Closing brackets that no opening one came before.
_STRAY = {"}": "'}' with no '{' open before it", "]": "']' with no '[' open before it"}


class Lexer:
    """Reads tokens from a :class:`Source` one at a time."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self._line = 0
        self._text = ""
        self._pos = 0

    def error(self, line: int, column: int, reason: str) -> PdnError:
        """A :class:`PdnError` at a place in this source."""
        return PdnError(self.source.name, line, column, reason)

    def next(self) -> Token | None:
        """The next token, or ``None`` at the end of the text."""
        while True:
            self._pos = _skip_space(self._text, self._pos)
            if self._pos < len(self._text):
                break
            if not self._load():
                return None
        text, start = self._text, self._pos
        line, column = self._line, start + 1
        char = text[start]
        if char == "{":
            return self._comment(line, column)
        if char == ";":
            self._pos = len(text)
            return Token(Kind.COMMENT, text[start:], text[start + 1 :], line, column)
        if char == "[":
            return self._tag(line, column)
        if char in _STRAY:
            raise self.error(line, column, _STRAY[char])
        if char in "()":
            self._pos = start + 1
            return Token(Kind(char), char, char, line, column)
        for kind, pattern in _WORDS:
            match = pattern.match(text, start)
            if match:
                self._pos = match.end()
                value = match.group(match.lastindex or 0)
                return Token(kind, match.group(0), value, line, column)
        raise AssertionError("unreachable: WORD matches any other character")  # pragma: no cover

    def push_back(self, token: Token) -> None:
        """Give a token of the current line, and the rest of that line, back to the source."""
        self.source.push_back(token.line, self._text, token.column - 1)
        self._text, self._pos = "", 0

    def release(self) -> None:
        """Give the unread rest of the current line back to the source, if it holds anything."""
        if _skip_space(self._text, self._pos) < len(self._text):
            self.source.push_back(self._line, self._text, self._pos)
        self._text, self._pos = "", 0

    def _load(self) -> bool:
        """Move on to the next line that is not a ``%`` escape line; ``False`` at the end."""
        while (loaded := self.source.next_line()) is not None:
            self._line, self._text, self._pos = loaded
            if not (self._pos == 0 and self._text.startswith("%")):
                return True
        self._text, self._pos = "", 0
        return False

    def _tag(self, line: int, column: int) -> Token:
        """A ``[Name "value"]`` tag pair, which must stand on one line."""
        match = _TAG.match(self._text, self._pos)
        if match is None:
            shown = quoted(self._text[self._pos :])
            raise self.error(line, column, f'expected a tag like [Event "..."], got {shown}')
        self._pos = match.end()
        value = re.sub(r"\\(.)", r"\1", match.group(2))
        return Token(Kind.TAG, match.group(1), value, line, column)

    def _comment(self, line: int, column: int) -> Token:
        """A ``{...}`` comment, which may run over several lines."""
        parts = []
        start = self._pos + 1
        while (end := self._text.find("}", start)) < 0:
            parts.append(self._text[start:])
            if not self._load():
                raise self.error(line, column, "comment not closed: expected '}' before the end")
            start = self._pos
        parts.append(self._text[start:end])
        self._pos = end + 1
        body = "\n".join(parts)
        return Token(Kind.COMMENT, "{" + body + "}", body, line, column)


def _skip_space(text: str, index: int) -> int:
    """The index of the first character at or after ``index`` that is not blank (or the end)."""
    found = _NON_SPACE.search(text, index)
    return len(text) if found is None else found.start()
