"""A remote game's rewinds (docs/remote.md): a record rewound by its own board's user (a
takeback, a correction, voided moves) is numbered, and both boards' records then carry it, so the
other board can follow it or name it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.phrase import Phrase
from poolboard.remote import protocol
from poolboard.remote.protocol import ProtocolError

#: Where a board makes its record agree, in :meth:`Rewind.instruction`: this board, or the other.
HERE, THERE = Phrase("here"), Phrase("there")


@dataclass(frozen=True)
class Rewind:
    """A record rewound by its own board's user (docs/remote.md): the game's ``number``-th
    rewind (both boards' counted), made on board ``by``, ``how`` (a
    :data:`~poolboard.remote.protocol.REWIND_KINDS`), from ``ply`` on, undoing ``undone`` (the
    moves that board had from ``ply``)."""

    number: int
    by: str
    how: str
    ply: int
    undone: tuple[str, ...]

    def fields(self) -> dict[str, object]:
        """The ``rewinds`` and ``rewind`` fields of a record (and of the board's kept state)."""
        described = {"by": self.by, "how": self.how, "ply": self.ply, "undone": list(self.undone)}
        return {"rewinds": self.number, "rewind": described}

    def explains(self, before: Sequence[str], after: Sequence[str]) -> bool:
        """Whether ``before`` is a record this rewind was made on (the same moves up to
        ``ply``, then the moves it undid, as far as both go: moves made while it crossed count)
        and ``after``, the record it made, differs from it."""
        kept = self.ply - 1
        if list(before) == list(after) or list(before[:kept]) != list(after[:kept]):
            return False
        return len(before) >= kept and all(
            mine == undone for mine, undone in zip(before[kept:], self.undone, strict=False)
        )

    def done(self, after: Sequence[str]) -> Phrase:
        """What it did, in words: ``took back 22-18 at ply 8``, ``corrected ply 7 to 22-17``."""
        if self.how == "correction":
            if len(after) >= self.ply:
                return Phrase(
                    "corrected ply {ply} to {move}", ply=self.ply, move=after[self.ply - 1]
                )
            return Phrase("corrected ply {ply}", ply=self.ply)
        moves, one = " ".join(self.undone), len(self.undone) == 1
        if self.how == "takeback":
            if one:
                return Phrase("took back {moves} at ply {ply}", moves=moves, ply=self.ply)
            return Phrase("took back {moves} from ply {ply}", moves=moves, ply=self.ply)
        if one:
            return Phrase("voided {moves} at ply {ply}", moves=moves, ply=self.ply)
        return Phrase("voided {moves} from ply {ply}", moves=moves, ply=self.ply)

    def instruction(self, where: Phrase) -> Phrase:
        """How a board whose record lacks it makes it agree (``where``: :data:`HERE` or
        :data:`THERE`)."""
        one = len(self.undone) == 1
        if self.how == "correction":
            return Phrase("correct it {where} (the referee's correction)", where=where)
        if self.how == "takeback":
            if one:
                return Phrase("take it back {where} too", where=where)
            return Phrase("take them back {where} too", where=where)
        if one:
            return Phrase("void it {where} too (the referee's void)", where=where)
        return Phrase("void them {where} too (the referee's void)", where=where)


def number_of(rewind: Rewind | None) -> int:
    """How many rewinds a record follows (0: none)."""
    return 0 if rewind is None else rewind.number


def rewind_from(data: Mapping[str, object]) -> Rewind | None:
    """The :class:`Rewind` in a record's (or the kept state's) ``rewinds`` and ``rewind``
    fields; ProtocolError naming what is wrong."""
    number = protocol.field(data, "rewinds", int, "a count of rewinds from 0")
    described = data.get("rewind")
    if number < 0:
        raise ProtocolError(f"'rewinds' must be a count of rewinds from 0, got {number}")
    if number == 0:
        if described is not None:
            raise ProtocolError("'rewind' must be null while 'rewinds' is 0")
        return None
    if not isinstance(described, dict):
        raise ProtocolError(f"'rewind' must describe rewind {number}: by, how, ply, undone")
    how = protocol.field(described, "how", str, "takeback, correction or void")
    if how not in protocol.REWIND_KINDS:
        raise ProtocolError(f"'how' must be one of {', '.join(protocol.REWIND_KINDS)}: {how!r}")
    ply = protocol.field(described, "ply", int, "the first ply it changed")
    undone = protocol.field(described, "undone", list, "the moves it undid")
    if ply < 1 or not undone or not all(isinstance(text, str) for text in undone):
        raise ProtocolError("'rewind' must have a 'ply' from 1 and the moves it undid in PDN")
    by = protocol.field(described, "by", str, "the board that made it")
    return Rewind(number, by, how, ply, tuple(undone))
