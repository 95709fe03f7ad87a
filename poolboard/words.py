"""Words for people: what the audience's pages, the hall's screens and the voice say, in the
words a player uses: no rule codes (those stay on the referee's page and in the PDN), times in
minutes and hours, "1 piece" and "2 pieces".

>>> time_control(TimeControl.from_string("apca-match"))
'45 minutes a side for the whole match'
>>> count(1, "piece"), count(12, "piece"), count(1, "ply", "plies")
('1 piece', '12 pieces', '1 ply')
"""

from __future__ import annotations

import re

from engine.clock import Bonus, Scope, TimeControl
from engine.color import Color
from poolboard import records

#: A rule's ID cited beside the words: "(R-END-1)", "(R-TIM-1, R-TIM-2)" or "R-ILL-1: ".
_CITED = re.compile(r"\s*\((?:R-[A-Z]+-\d+(?:,\s*)?)+\)|\bR-[A-Z]+-\d+:\s*")
#: A rule's ID standing for the rule itself ("repeated breaches of R-TCH-2").
_NAMED = re.compile(r"\bR-[A-Z]+-\d+\b")
#: The rules a reason names by their ID (RULES.md), as a player calls them.
RULE_NAMES = {
    "R-TCH-1": "the touch-move rule",
    "R-TCH-2": "the touch rule",
    "R-TCH-3": "the adjust rule",
    "R-ILL-1": "the rule against illegal moves",
    "R-CAP-1": "the compulsory capture",
    "R-CAP-3": "the rule to finish a jump",
    "R-END-3": "the rules of conduct",
}


def without_rule_codes(text: str) -> str:
    """``text`` with the rule IDs it cites left out, and a rule named by its ID named in words.

    >>> without_rule_codes("White has no pieces left (R-END-1)")
    'White has no pieces left'
    >>> without_rule_codes("R-ILL-1: 12-17 is not a legal move")
    '12-17 is not a legal move'
    >>> without_rule_codes("Black forfeits for repeated breaches of R-TCH-2 (R-END-3)")
    'Black forfeits for repeated breaches of the touch rule'
    """
    text = _CITED.sub(" ", text)
    text = _NAMED.sub(lambda found: RULE_NAMES.get(found[0], "the rules"), text)
    return " ".join(text.split()).replace(" :", ":")


def count(number: int, noun: str, plural: str = "") -> str:
    """``number`` with ``noun``, in the plural (``plural``, else ``noun`` + s) unless it is 1."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def duration(seconds: float) -> str:
    """A length of time as a person says it: "45 minutes", "1 hour 30 minutes", "5 seconds".

    >>> duration(2700), duration(5400), duration(90), duration(7.5)
    ('45 minutes', '1 hour 30 minutes', '1 minute 30 seconds', '7.5 seconds')
    """
    whole = round(seconds)
    if whole != seconds or seconds < 60:
        return f"{seconds:g} second{'' if seconds == 1 else 's'}"
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [count(hours, "hour")] if hours else []
    parts += [count(minutes, "minute")] if minutes else []
    parts += [count(secs, "second")] if secs else []
    return " ".join(parts)


def time_control(control: TimeControl) -> str:
    """The time control in words: "45 minutes a side for the whole match", "5 minutes a side,
    5 seconds added a move", "40 moves in 2 hours, then 30 minutes", "5 minutes a move"."""
    limit = control.move_limit
    if limit is not None:
        text = f"{duration(limit.call)} a move"
        if limit.capture_call is not None:
            text += f" ({duration(limit.capture_call)} with a single capture)"
        return text
    stages = [
        f"{duration(stage.seconds)}"
        if stage.moves is None
        else f"{count(stage.moves, 'move')} in {duration(stage.seconds)}"
        for stage in control.stages
    ]
    text = ", then ".join(stages)
    if control.stages[0].moves is None and len(stages) == 1:
        text += " a side"
    if control.scope is Scope.MATCH:
        text += " for the whole match"
    bonus = duration(control.bonus_seconds)
    if control.bonus is Bonus.FISCHER:
        text += f", {bonus} added a move"
    elif control.bonus is Bonus.DELAY:
        text += f", {bonus} delay a move"
    elif control.bonus is Bonus.BRONSTEIN:
        text += f", up to {bonus} back a move"
    return text


def result(winner: Color | None, reason: str, white: str, black: str) -> str:
    """How the game ended, for the audience: :func:`records.ended_in_words` without rule IDs.

    >>> result(Color.BLACK, "White has no pieces left (R-END-1)", "?", "Ann")
    'Black (Ann) wins — White has no pieces left'
    """
    return without_rule_codes(records.ended_in_words(winner, reason, white, black))
