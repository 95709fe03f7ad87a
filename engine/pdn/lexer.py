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
    """The lines of a text handle, numbered, with room to push back the rest of a line."""

    def __init__(self, handle: TextIO, name: str) -> None:
        self.handle = handle
        self.name = name
        self.line_no = 0
        self._pending: tuple[int, int, str] | None = None

    def next_line(self) -> tuple[int, int, str] | None:
        """(line number, columns already consumed, text without its line end), or ``None``."""
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
        return self.line_no, 0, text

    def push_back(self, line: int, offset: int, text: str) -> None:
        """Make ``text`` (which started at column ``offset + 1``) the next line read."""
        self._pending = (line, offset, text)


_DELIMITED = r"(?=[\s{}();\[\]]|$)"
_SPACE = re.compile(r"[\s\ufeff]*")
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_WORDS = (
    (Kind.NUMBER, re.compile(r"\d+\.+")),
    (Kind.RESULT, re.compile(r"(1-0|0-1|1/2-1/2|0-0|\*)" + _DELIMITED)),
    (Kind.MOVE, re.compile(r"(\d{1,2}(?:[-xX:]\d{1,2})+)[!?]{0,2}" + _DELIMITED)),
    (Kind.NAG, re.compile(r"\$(\d+)" + _DELIMITED)),
    (Kind.WORD, re.compile(r"[^\s{}();\[\]]+")),
)


class Lexer:
    """Reads tokens from a :class:`Source` one at a time."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self._line = 0
        self._offset = 0
        self._text = ""
        self._pos = 0

    def error(self, line: int, column: int, reason: str) -> PdnError:
        """A :class:`PdnError` at a place in this source."""
        return PdnError(self.source.name, line, column, reason)

    def next(self) -> Token | None:
        """The next token, or ``None`` at the end of the text."""
        while True:
            self._pos = _SPACE.match(self._text, self._pos).end()
            if self._pos < len(self._text):
                break
            if not self._load():
                return None
        text, start = self._text, self._pos
        line, column = self._line, self._offset + start + 1
        char = text[start]
        if char == "{":
            return self._comment(line, column)
        if char == ";":
            self._pos = len(text)
            return Token(Kind.COMMENT, text[start:], text[start + 1 :], line, column)
        if char == "[":
            match = _TAG.match(text, start)
            if match is None:
                raise self.error(
                    line, column, f'expected a tag like [Event "..."], got {_shown(text[start:])}'
                )
            self._pos = match.end()
            value = re.sub(r"\\(.)", r"\1", match.group(2))
            return Token(Kind.TAG, match.group(1), value, line, column)
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
        start = token.column - 1 - self._offset
        self.source.push_back(token.line, token.column - 1, self._text[start:])
        self._text, self._pos = "", 0

    def release(self) -> None:
        """Give the unread rest of the current line back to the source, if it holds anything."""
        rest = self._text[self._pos :]
        if rest.strip():
            self.source.push_back(self._line, self._offset + self._pos, rest)
        self._text, self._pos = "", 0

    def _load(self) -> bool:
        while (loaded := self.source.next_line()) is not None:
            self._line, self._offset, self._text = loaded
            self._pos = 0
            if not (self._offset == 0 and self._text.startswith("%")):
                return True
        self._text, self._pos = "", 0
        return False

    def _comment(self, line: int, column: int) -> Token:
        """A ``{...}`` comment, which may run over several lines."""
        parts = []
        start = self._pos + 1
        while (end := self._text.find("}", start)) < 0:
            parts.append(self._text[start:])
            if not self._load():
                raise self.error(line, column, "comment not closed: expected '}' before the end")
            start = 0
        parts.append(self._text[start:end])
        self._pos = end + 1
        body = "\n".join(parts)
        return Token(Kind.COMMENT, "{" + body + "}", body, line, column)


def _shown(text: str, limit: int = 30) -> str:
    """Text for an error message, quoted and cut short."""
    return repr(text if len(text) <= limit else text[:limit] + "...")
