"""How a game goes into its record: PDN tags other readers understand, and endings in words.

A result is stored with a reason that says what happened (a resignation, an agreed draw, a
referee's decision, a flag, a forfeit for repeated violations, or the position itself) and the
PDN ``[Termination]`` tag that goes with it; ``[Round "3.2"]`` numbers round 3, game 2 of its
match; ``[TimeControl]`` is written in the PGN/PDN form (docs/service.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engine import counts, game
from engine.clock import Bonus, Scope, TimeControl
from engine.color import Color
from engine.counts import SIDES, side_name
from engine.phrase import Phrase

#: PDN/PGN ``[Termination]`` values, by how a game ended.
TERMINATION = {
    "board": "normal",  # no move left (R-END-1) or a draw count ran out (R-DRW-*)
    "resignation": "normal",
    "agreement": "normal",
    "time": "time forfeit",
    "forfeit": "rules infraction",
    "referee": "adjudication",
    "abandoned": "abandoned",
}


@dataclass(frozen=True)
class Ending:
    """How a game ended, for the store: ``how`` (a :data:`TERMINATION` key), the winner (``None``
    for a draw), the rule that applies (``""`` if none) and the reason in words (``said``: as
    words a page says in its language; None for a reason given only as text)."""

    how: str
    winner: Color | None
    rule: str
    reason: str
    said: Phrase | None = None


#: The reasons the session ends a game with (``Ending.reason``), each a message of the catalogues.
RESIGNED = Phrase("{side} resigned")
OUT_OF_TIME = Phrase("{side} ran out of time ({rule})")
MOVE_NOT_IN_TIME = Phrase("{side} did not complete the move in time ({rule})")
FORFEITED = Phrase("{side} forfeits for repeated breaches of {rule} (R-END-3)")
FORFEITED_NOTE = Phrase("{side} forfeits for repeated breaches of {rule} (R-END-3): {note}")
REFEREE_DECISION = Phrase("the referee's decision: {reason}")
#: A remote game's result taken from the other board when it sent no reason (docs/remote.md).
DECIDED_THERE = Phrase("decided on the other board")
#: The reasons a referee's decision has when the referee gives none.
NO_FORCED_WIN = Phrase("neither side can force a win")
DECLARED_BY_REFEREE = Phrase("declared by the referee")
#: Every reason a result is stored with, as :func:`reason_said` finds its words back: a
#: referee's own words among them ("{reason}", "{note}") stay as typed.
REASONS = (
    *game.REASONS,
    *counts.COUNT_TEXTS,
    RESIGNED,
    OUT_OF_TIME,
    MOVE_NOT_IN_TIME,
    FORFEITED_NOTE,
    FORFEITED,
    REFEREE_DECISION,
    DECIDED_THERE,
    NO_FORCED_WIN,
    DECLARED_BY_REFEREE,
)
#: The side a stored reason names, as the pages say it.
SIDE_NAMES = {side_name(color): SIDES[color] for color in Color}


def _ending(how: str, winner: Color, rule: str, said: Phrase) -> Ending:
    """An ending whose reason is ``said``, in English and as words."""
    return Ending(how, winner, rule, str(said), said)


def resignation(loser: Color) -> Ending:
    """``loser`` resigns (no rule: a player may always resign)."""
    return _ending("resignation", loser.opponent, "", RESIGNED.fill(side=SIDES[loser]))


def on_time(loser: Color, rule: str, per_move: bool) -> Ending:
    """``loser``'s flag fell (``rule``: R-END-3, R-TIM-3 or R-TIM-4) or a per-move limit ran
    out (R-TIM-1/2)."""
    what = MOVE_NOT_IN_TIME if per_move else OUT_OF_TIME
    return _ending("time", loser.opponent, rule, what.fill(side=SIDES[loser], rule=rule))


def forfeit(loser: Color, rule: str, note: str = "") -> Ending:
    """The referee forfeits ``loser`` for repeating the breach of ``rule`` (R-END-3)."""
    side = SIDES[loser]
    why = (
        FORFEITED_NOTE.fill(side=side, rule=rule, note=note)
        if note
        else FORFEITED.fill(side=side, rule=rule)
    )
    return _ending("forfeit", loser.opponent, "R-END-3", why)


def referee_win(winner: Color, reason: str) -> Ending:
    """The referee awards the game to ``winner`` for ``reason``, as typed (or
    :data:`DECLARED_BY_REFEREE`, in words)."""
    why = DECLARED_BY_REFEREE if reason == str(DECLARED_BY_REFEREE) else reason
    return _ending("referee", winner, "", REFEREE_DECISION.fill(reason=why))


def ended_said(
    winner: Color | None, reason: str, white: str, black: str, said: Phrase | None = None
) -> Phrase:
    """``"Ann (Black) wins — White cannot move: every piece is blocked"`` or ``"Draw — ..."``:
    the result in words, with the winner's name when it is known (never a bare ``1-0``, which
    means the opposite to a chess player), as words each language can say: the reason's own
    words ``said`` when they say ``reason``, else found back by :func:`reason_said` (a result
    stored before its words were kept). The pages, the referee's, the hall's and its console
    all say it so.

    >>> str(ended_said(Color.WHITE, "Black resigned", "Ann", "?"))
    'Ann (White) wins — Black resigned'
    >>> str(ended_said(Color.WHITE, "", "?", "Bo"))
    'White wins'
    """
    if winner is None:
        head = Phrase("Draw")
    else:
        name = black if winner is Color.BLACK else white
        if name and name not in ("?", "-"):
            head = (
                Phrase("{name} (Black) wins", name=name)
                if winner is Color.BLACK
                else Phrase("{name} (White) wins", name=name)
            )
        else:
            head = Phrase("Black wins") if winner is Color.BLACK else Phrase("White wins")
    if not reason:
        return head
    kept = said_now(reason, said)
    words = reason_said(reason) if kept is None else kept
    return Phrase("{head} — {reason}", head=head, reason=words)


def said_now(reason: str | None, said: Phrase | None) -> Phrase | None:
    """A result's stored words ``said`` while they say its ``reason``; ``None`` when there are
    none, or when they say another: a poolboard that does not keep the words (an older one,
    after a downgrade) changed the result and left the last words beside it.

    >>> said_now("White resigned", RESIGNED.fill(side=SIDES[Color.WHITE]))
    Phrase('{side} resigned', **{'side': Phrase('White', **{})})
    >>> said_now("Black resigned", RESIGNED.fill(side=SIDES[Color.WHITE])) is None
    True
    """
    return said if said is not None and str(said) == reason else None


def reason_said(reason: str) -> Phrase:
    """A result's reason stored as text alone (by a poolboard that did not keep its words, or
    a far board's), as the words it was made of (:data:`REASONS`), so a page says it in its
    language: "White resigned" is ``{side} resigned`` with the side "White". A reason no
    template fits (a referee's own words) is said as it is.

    >>> reason_said("draw: 13 count: lone king has made 13 of 13 moves (R-DRW-2)").to_json()
    ... # doctest: +NORMALIZE_WHITESPACE
    {'message': 'draw: {count} ({rule})', 'values': {'count': {'message':
    '{limit} count: lone king has made {made} of {limit} moves', 'values': {'limit': '13',
    'made': '13'}}, 'rule': 'R-DRW-2'}}
    """
    for template, pattern in _reason_patterns():
        if found := pattern.fullmatch(reason):
            values = {
                name: SIDE_NAMES[text]
                if name == "side"
                else reason_said(text)
                if name in _WORDS
                else text
                for name, text in found.groupdict().items()
            }
            return template.fill(**values)
    return Phrase(reason)


#: The places of a reason that hold words of their own (a count's text, a referee's reason).
_WORDS = ("count", "reason", "note")


@cache
def _reason_patterns() -> list[tuple[Phrase, re.Pattern[str]]]:
    """Each of :data:`REASONS` with the pattern its filled-in text matches."""
    found = []
    for template in REASONS:
        regex, seen = "", set()
        for index, part in enumerate(re.split(r"\{(\w+)\}", template.message)):
            if index % 2 == 0:
                regex += re.escape(part)
            elif part in seen:
                regex += f"(?P={part})"
            else:
                seen.add(part)
                regex += f"(?P<{part}>Black|White)" if part == "side" else f"(?P<{part}>.+?)"
        found.append((template, re.compile(regex)))
    return found


def pdn_time_control(control: TimeControl) -> tuple[str, str]:
    """The ``[TimeControl]`` value in the PGN/PDN form (``300``, ``300+5``, ``40/7200:1800``,
    ``-``) and a note in words for what that form cannot say (a delay, a match clock, a
    per-move limit); the note is ``""`` when the tag says it all."""
    if control.move_limit is not None:
        limit = control.move_limit
        note = (
            f"per-move limit: time is called after {limit.call:g} s on one move and the move "
            f"forfeits {limit.grace:g} s later (R-TIM-1)"
        )
        if limit.capture_call is not None:
            note += f"; {limit.capture_call:g} s with exactly one capture (R-TIM-2)"
        return "-", note
    parts = [
        f"{stage.seconds:g}" if stage.moves is None else f"{stage.moves}/{stage.seconds:g}"
        for stage in control.stages
    ]
    notes = []
    if control.bonus is Bonus.FISCHER:
        parts[-1] += f"+{control.bonus_seconds:g}"
    elif control.bonus is Bonus.DELAY:
        notes.append(f"US delay of {control.bonus_seconds:g} s a move")
    elif control.bonus is Bonus.BRONSTEIN:
        notes.append(f"Bronstein delay of {control.bonus_seconds:g} s a move")
    if control.scope is Scope.MATCH:
        notes.append(
            f"match clock: {control.stages[0].seconds:g} s a side for the whole match, "
            "carried from game to game (R-TIM-4)"
        )
    return ":".join(parts), "; ".join(notes)


def round_tag(round_name: str, game_number: int) -> str:
    """``[Round]`` for game ``game_number`` of a match in round ``round_name``: ``"3.2"``; a
    round that is not known (``?``) gives ``"?.2"``."""
    return f"{round_name.strip() or '?'}.{game_number}"


def game_number(round_value: str) -> int:
    """The game's number in its match from a ``[Round]`` value (``"3.2"`` -> 2; 1 if none)."""
    _, dot, number = round_value.rpartition(".")
    return int(number) if dot and number.isdigit() and int(number) > 0 else 1


def round_name(round_value: str) -> str:
    """The round without the game number (``"3.2"`` -> ``"3"``)."""
    head, dot, number = round_value.rpartition(".")
    return head if dot and number.isdigit() else round_value


def one_line(text: str) -> str:
    """``text`` with every run of spaces, tabs and line breaks (a form feed, U+2028 ...) one
    space: a player's or an event's name as a game records it, on one line of a PDN tag.

    >>> one_line("  Ann  Lee ")
    'Ann Lee'
    """
    return " ".join(text.split())
