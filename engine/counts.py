"""The draw counts (RULES.md R-DRW-1..6): strength, the count state after every ply, what a screen
shows.

A :class:`CountState` is derived from the one before and the move just played (:func:`advance`),
so a game keeps one per ply and taking a move back is dropping the last state.

>>> from engine.board import Board
>>> from engine.profiles import profile
>>> board = Board("W:WK1,K2,K3:BK32")
>>> state, keys = initial_state(board), [board.transposition_key()]
>>> [count.text for count in counts(state, profile("apca"), keys)]
['13 count: lone king has made 0 of 13 moves']
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.board import Board, Move
from engine.color import Color
from engine.geometry import BITS, LONG_DIAGONAL, squares_of
from engine.phrase import Phrase
from engine.profiles import RulesProfile
from engine.refusal import Refusal

REPETITIONS = 3  # R-DRW-1: the same position three times
_LONG_DIAGONAL_MASK = sum(BITS[s] for s in LONG_DIAGONAL)


def side_name(color: Color) -> str:
    """``"Black"`` or ``"White"``, as counts and results write a side."""
    return color.value.capitalize()


def strength(board: Board, color: Color) -> int:
    """R-DRW-6 (APCA 26): each man scores its rank from its own side (1 on its own back row ... 7
    on the row before the king row), each king 8."""
    own = board.pieces(color)
    total = 8 * (own & board.kings).bit_count()
    for square in squares_of(own & ~board.kings):
        row = (square - 1) // 4  # row 0 is Black's own back row, row 7 White's
        total += row + 1 if color is Color.BLACK else 8 - row
    return total


@dataclass(frozen=True, slots=True)
class StrongerSideCount:
    """An invoked R-DRW-4 count: the invoker's (weaker side's) moves made against the limit."""

    invoker: Color
    made: int
    limit: int
    restart: int  # the limit after a capture or a crowning
    since: int  # the ply it was invoked at: repetitions count from there (R-DRW-1)


@dataclass(frozen=True, slots=True)
class CountState:
    """Every count once ``ply`` moves have been played."""

    ply: int
    quiet: int  # plies in a row with no man move and no capture (R-DRW-5)
    lone: Color | None  # the lone king's side while a 13-count ending lasts (R-DRW-2)
    thirteen: int  # the lone king's moves in that ending
    long_line: int | None  # the stronger side's moves since the lone king held 4-29 (R-DRW-3)
    stronger: StrongerSideCount | None  # R-DRW-4, once the weaker side invoked it


def initial_state(board: Board) -> CountState:
    """The counts at a game's start position: a 13-count ending may already stand."""
    lone = _thirteen_ending(board)
    return CountState(
        ply=0,
        quiet=0,
        lone=lone,
        thirteen=0,
        long_line=0 if lone is not None and _holds_long_line(board, lone) else None,
        stronger=None,
    )


def advance(state: CountState, move: Move, board: Board) -> CountState:
    """The counts after ``move``, ``board`` being the position it left."""
    mover = board.turn.opponent
    man_moved = move.crowns or not board.kings & BITS[move.to_square]
    changed = bool(move.captures) or move.crowns

    if state.lone is not None and _lone_king_remains(board, state.lone):
        lone: Color | None = state.lone
        thirteen = state.thirteen + (mover is state.lone)
    else:
        lone, thirteen = _thirteen_ending(board), 0

    long_line = None
    if lone is not None:
        if state.long_line is not None:
            long_line = state.long_line + (mover is not lone)
        elif _holds_long_line(board, lone):
            long_line = 0

    stronger = state.stronger
    if stronger is not None:
        if changed:
            weaker = strength(board, stronger.invoker) < strength(board, stronger.invoker.opponent)
            stronger = replace(stronger, made=0, limit=stronger.restart) if weaker else None
        elif mover is stronger.invoker:
            stronger = replace(stronger, made=stronger.made + 1)

    return CountState(
        ply=state.ply + 1,
        quiet=0 if man_moved or move.captures else state.quiet + 1,
        lone=lone,
        thirteen=thirteen,
        long_line=long_line,
        stronger=stronger,
    )


def invoke(state: CountState, board: Board, side: Color, rules: RulesProfile) -> CountState:
    """The counts once ``side`` invokes the stronger-side count (R-DRW-4); a :class:`Refusal`
    naming the rule when the profile has none, the side is not the weaker (R-DRW-6) or it already
    runs."""
    if rules.stronger_side_count is None or rules.stronger_side_restart is None:
        raise Refusal(
            "R-DRW-4: the {profile} profile has no stronger-side count", profile=rules.name
        )
    own, other = strength(board, side), strength(board, side.opponent)
    if own >= other and side is Color.BLACK:
        raise Refusal(
            "R-DRW-6: Black is not the weaker side ({own} v {other} by strength); only the "
            "weaker side invokes the stronger-side count (R-DRW-4)",
            own=own,
            other=other,
        )
    if own >= other:
        raise Refusal(
            "R-DRW-6: White is not the weaker side ({own} v {other} by strength); only the "
            "weaker side invokes the stronger-side count (R-DRW-4)",
            own=own,
            other=other,
        )
    if state.stronger is not None and side is Color.BLACK:
        raise Refusal("R-DRW-4: Black already invoked the stronger-side count")
    if state.stronger is not None:
        raise Refusal("R-DRW-4: White already invoked the stronger-side count")
    count = StrongerSideCount(
        invoker=side,
        made=0,
        limit=rules.stronger_side_count,
        restart=rules.stronger_side_restart,
        since=state.ply,
    )
    return replace(state, stronger=count)


class CountKind(enum.Enum):
    """What a count counts."""

    REPETITION = "repetition"
    THIRTEEN = "13 count"
    LONG_LINE = "long line"
    STRONGER_SIDE = "stronger-side count"
    QUIET_PLAY = "quiet play"


@dataclass(frozen=True, slots=True)
class Count:
    """One running count as a screen shows it; ``side`` is whose moves count (``None``: both
    sides' moves, or positions for a repetition)."""

    kind: CountKind
    rule: str
    side: Color | None
    made: int
    limit: int
    text: str
    #: ``text`` as words a page says in its language.
    said: Phrase | None = None

    @property
    def reached(self) -> bool:
        """Whether the count has run out: the game is drawn by its rule."""
        return self.made >= self.limit

    def to_json(self) -> dict[str, Any]:
        """The count as JSON-ready data."""
        return {
            "kind": self.kind.value,
            "rule": self.rule,
            "side": None if self.side is None else self.side.value,
            "made": self.made,
            "limit": self.limit,
            "text": self.text,
        }


#: A running count in words (``Count.text``), each a message of the catalogues.
REPEATED = Phrase("repetition: this position has occurred {made} of {limit} times")
THIRTEEN = Phrase("{limit} count: lone king has made {made} of {limit} moves")
LONG_LINE = Phrase("long line: {side} has made {made} of {limit} moves to catch the lone king")
STRONGER_SIDE = Phrase("{limit} count: {side} (weaker side) has made {made} of {limit} moves")
QUIET_PLAY = Phrase("quiet play: {made} of {limit} moves each with no man move and no capture")
COUNT_TEXTS = (REPEATED, THIRTEEN, LONG_LINE, STRONGER_SIDE, QUIET_PLAY)
#: A side as counts and results name it, in words each language says (``side_name``).
SIDES = {Color.BLACK: Phrase("Black"), Color.WHITE: Phrase("White")}


def _count(
    kind: CountKind, rule: str, side: Color | None, made: int, limit: int, said: Phrase
) -> Count:
    """A count with its text in English and as words (``said``)."""
    return Count(kind, rule, side, made, limit, str(said), said)


def counts(
    state: CountState, rules: RulesProfile, keys: Sequence[tuple[int, int, int, bool]]
) -> list[Count]:
    """The counts running under ``rules``, in rule-ID order; ``keys`` are the transposition keys
    of every position so far (``keys[ply]``), for repetitions."""
    shown = []
    repetition = _repetitions(state, rules, keys)
    if repetition > 1:
        said = REPEATED.fill(made=repetition, limit=REPETITIONS)
        shown.append(_count(CountKind.REPETITION, "R-DRW-1", None, repetition, REPETITIONS, said))
    if state.lone is not None and rules.thirteen_count is not None:
        limit = rules.thirteen_count
        said = THIRTEEN.fill(made=state.thirteen, limit=limit)
        shown.append(_count(CountKind.THIRTEEN, "R-DRW-2", state.lone, state.thirteen, limit, said))
    if state.lone is not None and state.long_line is not None and rules.long_line is not None:
        strong, limit = state.lone.opponent, rules.long_line
        said = LONG_LINE.fill(side=SIDES[strong], made=state.long_line, limit=limit)
        shown.append(_count(CountKind.LONG_LINE, "R-DRW-3", strong, state.long_line, limit, said))
    if state.stronger is not None:
        count = state.stronger
        said = STRONGER_SIDE.fill(side=SIDES[count.invoker], made=count.made, limit=count.limit)
        shown.append(
            _count(CountKind.STRONGER_SIDE, "R-DRW-4", count.invoker, count.made, count.limit, said)
        )
    if rules.quiet_play is not None and state.quiet >= 2:
        made, limit = state.quiet // 2, rules.quiet_play
        said = QUIET_PLAY.fill(made=made, limit=limit)
        shown.append(_count(CountKind.QUIET_PLAY, "R-DRW-5", None, made, limit, said))
    return shown


def _repetitions(
    state: CountState, rules: RulesProfile, keys: Sequence[tuple[int, int, int, bool]]
) -> int:
    """How often the current position occurred where R-DRW-1 looks: the whole game, or since the
    stronger-side count was invoked; never before the last man move or capture (irreversible)."""
    if rules.repetition_always:
        start = 0
    elif state.stronger is not None:
        start = state.stronger.since
    else:
        return 0
    start = max(start, state.ply - state.quiet)
    current = keys[state.ply]
    return sum(1 for key in keys[start : state.ply + 1] if key == current)


def _thirteen_ending(board: Board) -> Color | None:
    """The lone king's side when only three kings and one king are on the board (R-DRW-2)."""
    if (board.black | board.white) & ~board.kings:
        return None
    match (board.black.bit_count(), board.white.bit_count()):
        case (1, 3):
            return Color.BLACK
        case (3, 1):
            return Color.WHITE
    return None


def _lone_king_remains(board: Board, lone: Color) -> bool:
    """Whether a 13-count ending goes on: one king against kings only (jumps still count one)."""
    return board.pieces(lone).bit_count() == 1 and not (board.black | board.white) & ~board.kings


def _holds_long_line(board: Board, lone: Color) -> bool:
    """R-DRW-3: the lone king stands on the long diagonal 4-29, the stronger side to move."""
    return board.turn is not lone and bool(board.pieces(lone) & _LONG_DIAGONAL_MASK)
