"""What the board can show one move after a position the game confirmed, and which of those
a frame shows: a move is recognised from the squares whose look changed, even where a square's
reading on its own is unsure (glare on a square just left, a near-black empty square).

Every move either side's pieces could make is a candidate, captures compulsory or not: the
camera says what was played and the tracker judges it. A move that no piece could make (a man
stepping back, a piece set down two squares away) explains nothing, so its frame keeps its own
reading and the tracker sees what was really played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.board import Board, Move, Piece
from engine.color import Color
from vision.outline import UNSEEN_SIDE as UNSEEN

EMPTY = "empty"


@dataclass(frozen=True)
class Successor:
    """One way the board can look after a piece moved: the squares it changes and the
    board's kinds afterwards (squares 1-32)."""

    changed: frozenset[int]
    landing: int
    kinds: tuple[str, ...]


def successors(shown: tuple[str, ...], position: Mapping[int, str]) -> tuple[Successor, ...]:
    """The boards that can follow ``shown`` (the board as the camera saw the game's
    ``position``, square -> "b" | "w" | "B" | "W" | "empty"): every move of either side, and each
    multi-jump paused on a landing square with the pieces jumped so far taken off or not
    yet. The squares a move changes name the move: the one empty square among them is
    where it lands, the piece of the mover's side the one it started from.

    >>> shown = ("b",) + ("empty",) * 31
    >>> [(sorted(s.changed), s.landing) for s in successors(shown, {1: "b"})]
    [([1, 5], 5), ([1, 6], 6)]
    """
    board = Board.empty()
    for square, symbol in position.items():
        if symbol in ("b", "w", "B", "W"):  # "empty" may be named too
            board.set_piece_at(square, Piece(Color.from_letter(symbol.upper()), symbol.isupper()))
    found: dict[frozenset[int], Successor] = {}
    for side in Color:
        board.turn = side
        for move in board.generate_captures() + board.generate_simple_moves():
            found |= {successor.changed: successor for successor in _stages(shown, move)}
    return tuple(found.values())


def _stages(shown: tuple[str, ...], move: Move) -> list[Successor]:
    """The boards a move shows when its piece stands still: on each landing square, with
    the pieces it jumped so far taken off or still there."""
    stages = []
    for step in range(1, len(move.path)):
        for taken in dict.fromkeys((move.captures[:step], ())):
            kinds = list(shown)
            kinds[move.from_square - 1] = EMPTY
            for square in taken:
                kinds[square - 1] = EMPTY
            landing = move.path[step]
            kinds[landing - 1] = shown[move.from_square - 1]
            changed = frozenset((move.from_square, landing, *taken))
            stages.append(Successor(changed, landing, tuple(kinds)))
    return stages


def explain(
    read: tuple[str, ...],
    known: tuple[str, ...],
    changed: frozenset[int],
    candidates: tuple[Successor, ...],
) -> tuple[str, ...] | None:
    """The board a frame shows if one move explains it, else None.

    A move explains the frame when every square it changes changed its look and a piece of
    the mover's side (or of a side not seen) is read where it lands. A square it empties may
    still read as a piece (glare, a near-black square) only when nothing else changed; a
    piece nudged beside it would otherwise make a piece set down look like a move. Other
    changed squares must read as what they held (a shadow, a nudge, not a piece moved).
    Where several moves explain it, the one changing most squares (a whole jump, not its
    first step); a king read on the landing square is a man crowned as it landed.
    """
    best: list[Successor] = []
    for candidate in candidates:
        landing = read[candidate.landing - 1]
        mover = candidate.kinds[candidate.landing - 1]
        if not candidate.changed <= changed or landing.lower() not in (mover.lower(), UNSEEN):
            continue
        others = changed - candidate.changed
        if any(read[s - 1].lower() != known[s - 1].lower() for s in others):
            continue
        emptied = candidate.changed - {candidate.landing}
        if others and any(read[s - 1] != EMPTY for s in emptied):
            continue
        if best and len(candidate.changed) < len(best[0].changed):
            continue
        if best and len(candidate.changed) > len(best[0].changed):
            best = []
        best.append(candidate)
    if not best or any(other.kinds != best[0].kinds for other in best):
        return None  # two moves of as many squares, each explaining it: neither is sure
    kinds = list(best[0].kinds)
    landed, seen = kinds[best[0].landing - 1], read[best[0].landing - 1]
    if seen.lower() == landed and seen != landed:
        kinds[best[0].landing - 1] = seen
    return tuple(kinds)
