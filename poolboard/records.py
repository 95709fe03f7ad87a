"""How a game goes into its record: PDN tags other readers understand, and endings in words.

A result is stored with a reason that says what happened (a resignation, an agreed draw, a
referee's decision, a flag, a forfeit for repeated violations, or the position itself) and the
PDN ``[Termination]`` tag that goes with it; ``[Round "3.2"]`` numbers round 3, game 2 of its
match; ``[TimeControl]`` is written in the PGN/PDN form (docs/service.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.clock import Bonus, Scope, TimeControl
from engine.color import Color
from engine.counts import side_name

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
    for a draw), the rule that applies (``""`` if none) and the reason in words."""

    how: str
    winner: Color | None
    rule: str
    reason: str


def resignation(loser: Color) -> Ending:
    """``loser`` resigns (no rule: a player may always resign)."""
    return Ending("resignation", loser.opponent, "", f"{side_name(loser)} resigned")


def on_time(loser: Color, rule: str, per_move: bool) -> Ending:
    """``loser``'s flag fell (``rule``: R-END-3, R-TIM-3 or R-TIM-4) or a per-move limit ran
    out (R-TIM-1/2)."""
    what = "did not complete the move in time" if per_move else "ran out of time"
    return Ending("time", loser.opponent, rule, f"{side_name(loser)} {what} ({rule})")


def forfeit(loser: Color, rule: str, note: str = "") -> Ending:
    """The referee forfeits ``loser`` for repeating the breach of ``rule`` (R-END-3)."""
    why = f"{side_name(loser)} forfeits for repeated breaches of {rule} (R-END-3)"
    return Ending("forfeit", loser.opponent, "R-END-3", f"{why}: {note}" if note else why)


def referee_win(winner: Color, reason: str) -> Ending:
    """The referee awards the game to ``winner``."""
    return Ending("referee", winner, "", f"the referee's decision: {reason}")


def ended_in_words(winner: Color | None, reason: str, white: str, black: str) -> str:
    """``"Black (Ann) wins — White cannot move: every piece is blocked"`` or ``"Draw — ..."``:
    the result in words, with the winner's name when it is known."""
    if winner is None:
        head = "Draw"
    else:
        name = black if winner is Color.BLACK else white
        known = name and name not in ("?", "-")
        head = f"{side_name(winner)} ({name}) wins" if known else f"{side_name(winner)} wins"
    return f"{head} — {reason}"


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
