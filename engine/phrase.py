"""Words worded so that a program can say them in another language: an English ``message`` with
``{name}`` places, and the ``values`` that fill them, apart. The message is the key a translation
is looked up by (poolboard's catalogues); a value may itself be a phrase (a reason within a
refusal, the move to make within what the board waits for), said in the same language.

>>> where = Phrase("put a piece on {squares}", squares="12")
>>> line = Phrase("{first}; {then}", first=where, then=Phrase("clear {squares}", squares="17"))
>>> str(line)
'put a piece on 12; clear 17'
>>> line.to_json()["values"]["first"]
{'message': 'put a piece on {squares}', 'values': {'squares': '12'}}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from string import Formatter
from typing import TypeAlias


class Phrase:
    """``message`` (English, ``{name}`` places) and its ``values``; ``str()`` is the English."""

    __slots__ = ("message", "values")

    def __init__(self, message: str, /, **values: Value) -> None:
        self.message = message
        self.values = values

    def __str__(self) -> str:
        return self.message.format(**self.values) if self.values else self.message

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.message, self.values) == (
            other.message,
            other.values,
        )

    def __hash__(self) -> int:
        return hash((self.message, tuple(sorted(self.values))))

    def __repr__(self) -> str:
        return f"Phrase({self.message!r}, **{self.values!r})"

    def fill(self, **values: Value) -> Phrase:
        """This phrase's message with ``values``: a template kept as a phrase, filled in."""
        return Phrase(self.message, **values)

    @classmethod
    def from_json(cls, data: object) -> Phrase:
        """Inverse of :meth:`to_json`: words stored or sent as ``{"message": ..., "values":
        {...}}`` (``values`` may be left out), each value a text, a number or words of their
        own, read back as a phrase that can be said: each place of the message a ``{name}`` of
        a value, at most :data:`MAX_DEPTH` levels deep and :data:`MAX_SAID` characters said.
        Anything else is a ValueError naming what is wrong and where (``phrase.values.first``:
        the value ``first`` of the phrase); keys besides ``message`` and ``values`` are left
        unread (a newer program may add some).

        >>> ply = {"message": "ply {n}", "values": {"n": 3}}
        >>> Phrase.from_json({"message": "{a} or {b}", "values": {"a": ply, "b": "12-16"}})
        Phrase('{a} or {b}', **{'a': Phrase('ply {n}', **{'n': 3}), 'b': '12-16'})
        >>> Phrase.from_json({"message": "{a} or {b}", "values": {"a": ply, "b": True}})
        Traceback (most recent call last):
        ValueError: phrase.values.b: True is not a text, a number or words
        >>> Phrase.from_json({"message": "ply {n}", "values": {"m": 3}})
        Traceback (most recent call last):
        ValueError: phrase: 'ply {n}' has no value for {n}
        """
        return _read(data, "phrase", MAX_DEPTH)[0]

    def to_json(self) -> dict[str, object]:
        """``{"message": ..., "values": {...}}``, a phrase among the values as one too: what a
        page says in its language (poolboard.js ``t()``)."""
        values = {
            name: value.to_json() if isinstance(value, Phrase) else value
            for name, value in self.values.items()
        }
        return {"message": self.message, "values": values}


#: A value in a phrase: a number, a square, a move, what was typed, or words of their own.
Value: TypeAlias = str | int | float | Phrase


#: Words nested deeper than this are refused by :meth:`Phrase.from_json` (poolboard's deepest,
#: a list of moves said one "or" at a time, are a few dozen).
MAX_DEPTH = 100
#: Words longer than this, said, are refused by :meth:`Phrase.from_json` (poolboard's longest,
#: a violation with what to do about it, are a few hundred characters): a value used in many
#: places at each of many levels would otherwise say gigabytes.
MAX_SAID = 20_000


def _shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, so an error never echoes a huge value."""
    return _cut(repr(value), limit)


def _cut(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _place(path: str) -> str:
    """Where in the words an error is (``phrase.values.first``), cut to 80 characters."""
    return path if len(path) <= 80 else f"{path[:40]}...{path[-37:]}"


def _read(data: object, path: str, depth: int) -> tuple[Phrase, int]:
    """The phrase ``data`` holds (:meth:`Phrase.from_json`) and the length of what it says,
    found without saying it; ``path`` names it in an error."""
    where = _place(path)
    if depth == 0:
        raise ValueError(f"{where}: words nested deeper than {MAX_DEPTH} levels")
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}: {_shown(data)} is not an object with a message")
    message = data.get("message")
    if not isinstance(message, str):
        raise ValueError(f"{where}: the message {_shown(message)} is not a text")
    values = data.get("values")
    if values is None:
        values = {}
    if not isinstance(values, Mapping):
        raise ValueError(f"{where}: the values {_shown(values)} are not an object")
    read: dict[str, Value] = {}
    lengths: dict[str, int] = {}
    for name, value in values.items():
        if not isinstance(name, str):
            raise ValueError(f"{where}: the value name {_shown(name)} is not a text")
        at = f"{path}.values.{_cut(name)}"
        if isinstance(value, Mapping):
            read[name], lengths[name] = _read(value, at, depth - 1)
        elif isinstance(value, str | int | float) and not isinstance(value, bool):
            read[name], lengths[name] = value, len(str(value))
        else:
            raise ValueError(f"{_place(at)}: {_shown(value)} is not a text, a number or words")
    length = len(message) if not read else _said_length(message, lengths, where)
    if length > MAX_SAID:
        raise ValueError(f"{where}: words longer than {MAX_SAID} characters")
    return Phrase(message, **read), length


def _said_length(message: str, lengths: Mapping[str, int], where: str) -> int:
    """How long ``message`` is said with values of these ``lengths``; a ValueError unless each
    place is a ``{name}`` of a value (no format: no phrase poolboard makes has one)."""
    try:
        parts = list(Formatter().parse(message))
    except ValueError as error:
        raise ValueError(f"{where}: {_shown(message)} cannot be said: {error}") from None
    length = 0
    for text, name, spec, conversion in parts:
        length += len(text)
        if name is None:
            continue
        if spec or conversion or not name.isidentifier():
            place = f"{{{name}{'!' * bool(conversion)}{conversion or ''}{':' * bool(spec)}{spec}}}"
            raise ValueError(f"{where}: {_shown(message)}: {_cut(place)} is not a {{name}}")
        if name not in lengths:
            raise ValueError(f"{where}: {_shown(message)} has no value for {{{_cut(name)}}}")
        length += lengths[name]
    return length


def joined(parts: Iterable[Value], template: str) -> Value:
    """``parts`` joined two at a time by ``template`` (``"{first}; {then}"``, ``"{first} or
    {then}"``), so each joint is said in the reader's language: "12-16 or 12-17 or 12-20";
    ``""`` for none."""
    items = list(parts)
    whole = items[0] if items else ""
    for part in items[1:]:
        whole = Phrase(template, first=whole, then=part)
    return whole
