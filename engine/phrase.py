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
    def from_json(cls, message: str, values: Mapping[str, object]) -> Phrase:
        """Inverse of :meth:`to_json`: ``message`` and its ``values``, a phrase among them as a
        ``{"message": ..., "values": ...}`` object (words another program sent, said again);
        any other value that is not a number is said as its text.

        >>> ply = {"message": "ply {n}", "values": {"n": 3}}
        >>> Phrase.from_json("{a} or {b}", {"a": ply, "b": 1})
        Phrase('{a} or {b}', **{'a': Phrase('ply {n}', **{'n': 3}), 'b': 1})
        """
        return cls(message, **{name: _value(value) for name, value in values.items()})

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


def _value(value: object) -> Value:
    """A value of :meth:`Phrase.from_json` as a phrase holds it."""
    if isinstance(value, dict) and isinstance(value.get("message"), str):
        return Phrase.from_json(value["message"], value.get("values") or {})
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return str(value)


def joined(parts: Iterable[Value], template: str) -> Value:
    """``parts`` joined two at a time by ``template`` (``"{first}; {then}"``, ``"{first} or
    {then}"``), so each joint is said in the reader's language: "12-16 or 12-17 or 12-20";
    ``""`` for none."""
    items = list(parts)
    whole = items[0] if items else ""
    for part in items[1:]:
        whole = Phrase(template, first=whole, then=part)
    return whole
