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
from engine.phrase import Phrase
from poolboard import records
from poolboard.locale import translation

#: A rule's ID cited beside the words: "(R-END-1)", "(R-TIM-1, R-TIM-2)" or "R-ILL-1: ".
_CITED = re.compile(r"\s*\((?:R-[A-Z]+-\d+(?:,\s*)?)+\)|\bR-[A-Z]+-\d+:\s*")
#: A rule's ID standing for the rule itself ("repeated breaches of R-TCH-2").
_NAMED = re.compile(r"\bR-[A-Z]+-\d+\b")
#: The rules a reason names by their ID (RULES.md), as a player calls them.
RULE_NAMES = {
    "R-TCH-1": Phrase("the touch-move rule"),
    "R-TCH-2": Phrase("the touch rule"),
    "R-TCH-3": Phrase("the adjust rule"),
    "R-ILL-1": Phrase("the rule against illegal moves"),
    "R-CAP-1": Phrase("the compulsory capture"),
    "R-CAP-3": Phrase("the rule to finish a jump"),
    "R-END-3": Phrase("the rules of conduct"),
}
OTHER_RULES = Phrase("the rules")


def said(phrase: Phrase, language: str = "en") -> str:
    """``phrase`` in ``language``: its message from the catalogue with its places filled, each
    value that is words of its own said the same (what the pages' ``t()`` does).

    >>> said(records.reason_said("White resigned"), "es")
    'Blancas abandonan'
    """
    values = {
        name: said(value, language) if isinstance(value, Phrase) else value
        for name, value in phrase.values.items()
    }
    text = translation(language).gettext(phrase.message)
    return text.format(**values) if values else text


def without_rule_codes(text: str, language: str = "en") -> str:
    """``text`` with the rule IDs it cites left out, and a rule named by its ID named in words
    (in ``language``).

    >>> without_rule_codes("White has no pieces left (R-END-1)")
    'White has no pieces left'
    >>> without_rule_codes("R-ILL-1: 12-17 is not a legal move")
    '12-17 is not a legal move'
    >>> without_rule_codes("a capture is compulsory (R-CAP-1); capture with 15")
    'a capture is compulsory; capture with 15'
    >>> without_rule_codes("Black forfeits for repeated breaches of R-TCH-2 (R-END-3)")
    'Black forfeits for repeated breaches of the touch rule'
    """

    def named(found: re.Match[str]) -> str:
        return said(RULE_NAMES.get(found[0], OTHER_RULES), language)

    text = _NAMED.sub(named, _CITED.sub(" ", text))
    return " ".join(text.split()).replace(" :", ":").replace(" ;", ";")


def count(number: int, noun: str, plural: str = "") -> str:
    """``number`` with ``noun``, in the plural (``plural``, else ``noun`` + s) unless it is 1."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def duration(seconds: float, language: str = "en") -> str:
    """A length of time as a person says it: "45 minutes", "1 hour 30 minutes", "5 seconds".

    >>> duration(2700), duration(5400), duration(90), duration(7.5)
    ('45 minutes', '1 hour 30 minutes', '1 minute 30 seconds', '7.5 seconds')
    >>> duration(5400, "es")
    '1 hora 30 minutos'
    """
    _n = translation(language).ngettext
    whole = round(seconds)
    if whole != seconds or seconds < 60:
        return _n("{n} second", "{n} seconds", 1 if seconds == 1 else 2).format(n=f"{seconds:g}")
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [_n("{n} hour", "{n} hours", hours).format(n=hours)] if hours else []
    parts += [_n("{n} minute", "{n} minutes", minutes).format(n=minutes)] if minutes else []
    parts += [_n("{n} second", "{n} seconds", secs).format(n=secs)] if secs else []
    return " ".join(parts)


def time_control(control: TimeControl, language: str = "en") -> str:
    """The time control in words: "45 minutes a side for the whole match", "5 minutes a side,
    5 seconds added a move", "40 moves in 2 hours, then 30 minutes", "5 minutes a move"; in
    ``language`` (one of :data:`poolboard.locale.LANGUAGES`).

    >>> time_control(TimeControl.from_string("apca-match"), "es")
    '45 minutos por jugador para todo el encuentro'
    """
    found = translation(language)
    _, _n = found.gettext, found.ngettext
    limit = control.move_limit
    if limit is not None:
        text = _("{time} a move").format(time=duration(limit.call, language))
        if limit.capture_call is not None:
            single = duration(limit.capture_call, language)
            text = _("{text} ({time} with a single capture)").format(text=text, time=single)
        return text
    stages = [
        duration(stage.seconds, language)
        if stage.moves is None
        else _n("{n} move in {time}", "{n} moves in {time}", stage.moves).format(
            n=stage.moves, time=duration(stage.seconds, language)
        )
        for stage in control.stages
    ]
    text = stages[0]
    for stage in stages[1:]:
        text = _("{text}, then {stage}").format(text=text, stage=stage)
    if control.stages[0].moves is None and len(stages) == 1:
        text = _("{time} a side").format(time=text)
    if control.scope is Scope.MATCH:
        text = _("{text} for the whole match").format(text=text)
    bonus = duration(control.bonus_seconds, language)
    if control.bonus is Bonus.FISCHER:
        text = _("{text}, {time} added a move").format(text=text, time=bonus)
    elif control.bonus is Bonus.DELAY:
        text = _("{text}, {time} delay a move").format(text=text, time=bonus)
    elif control.bonus is Bonus.BRONSTEIN:
        text = _("{text}, up to {time} back a move").format(text=text, time=bonus)
    return text


def result(
    winner: Color | None,
    reason: str,
    white: str,
    black: str,
    language: str = "en",
    reason_words: Phrase | None = None,
) -> str:
    """How the game ended, for the audience: :func:`records.ended_said` (``reason_words``:
    the reason's own words) without rule IDs, in ``language``.

    >>> result(Color.BLACK, "White has no pieces left (R-END-1)", "?", "Ann")
    'Ann (Black) wins — White has no pieces left'
    >>> result(Color.BLACK, "White has no pieces left (R-END-1)", "?", "Ann", "es")
    'Gana Ann (Negras) — Blancas no tienen piezas'
    """
    ended = records.ended_said(winner, reason, white, black, reason_words)
    return without_rule_codes(said(ended, language), language)
