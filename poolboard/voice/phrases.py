"""What the board says, in the players' own words: a move as "11 to 15", a capture as "15 takes
24, takes 31", a violation in the tracker's words with what to do about it, the clock's
warnings, a pause, the result.

Squares are given as numbers: espeak-ng reads them in the voice's language ("eleven",
"once"). Every sentence goes through the language's catalogue (:mod:`poolboard.locale`).
"""

from __future__ import annotations

import re

from engine.board import Board, Move
from engine.game import BLACK_WINS, DRAW, WHITE_WINS
from engine.phrase import Phrase, Value
from poolboard.locale import translation
from poolboard.session.state import Json
from poolboard.words import without_rule_codes


class Phrasebook:
    """The sentences of one language (``en`` or ``es``)."""

    def __init__(self, language: str) -> None:
        self.language = language
        found = translation(language)
        self._ = found.gettext
        self._n = found.ngettext

    def side(self, side: object) -> str:
        """``black``/``white`` (a Color's value) as the players call the side."""
        return self._("Black") if side == "black" else self._("White")

    def move(self, notation: str, before: str | None) -> str:
        """``11-15`` as "11 to 15"; a capture by every square it lands on ("15 takes 24, takes
        31"), found from ``before`` (the position's FEN) when the notation gives only its ends."""
        path = _path(notation, before)
        if "x" not in notation:
            return self._("{start} to {end}").format(start=path[0], end=path[-1])
        takes = ", ".join(self._("takes {square}").format(square=square) for square in path[1:])
        return f"{path[0]} {takes}"

    def crowned(self, square: int) -> str:
        """A man reached the far row and is now a king."""
        return self._("Crowned on {square}").format(square=square)

    def to_move(self, turn: str, kind: str) -> str:
        """After a correction or a takeback (``kind``): whose move it is now."""
        head = self._("Move corrected.") if kind == "correction" else self._("Move taken back.")
        to_move = self._("White to move") if turn == "white" else self._("Black to move")
        return f"{head} {to_move}."

    def opponent_plays(self, kind: str, side: str, move: str) -> str:
        """The computer (or a board far away) chose ``move`` (already in words)."""
        if kind == "engine":
            return self._("The computer plays {move}.").format(move=move)
        return self._("{side} plays {move}.").format(side=self.side(side), move=move)

    def violation(self, data: Json) -> str | None:
        """A violation (``ViolationShown.data``) in the tracker's own words (its ``said``, what
        the pages show, with what to do and the squares), rule IDs left out and each move said
        as a move ("1 to 5"); ``None`` for the news that it was put right at once (the mending is
        the move itself)."""
        if data.get("mended"):
            return None
        try:
            phrase = Phrase.from_json(data.get("said"))
        except ValueError:  # a violation worded in English only, or words that cannot be said
            phrase = Phrase(str(data.get("message", "")))
        sentence = without_rule_codes(self.spoken(phrase), self.language) + "."
        side = "Black" if data.get("side") == "black" else "White"
        if not _holds(phrase, side):  # a touch move names the side itself
            sentence = f"{self._(side)}: {sentence}"
        if data.get("severity") == "forfeit" and not _holds(phrase, _FORFEIT):
            sentence += " " + self._("Repeated: grounds to forfeit.")
        if data.get("referee"):
            sentence += " " + self._("Call the referee.")
        return sentence

    def spoken(self, value: Value) -> str:
        """Words (a :class:`Phrase`) in this language as they are said: each move in them
        as :meth:`move` says it, squares and other numbers as they are (espeak-ng reads a
        number in the voice's language)."""
        if isinstance(value, Phrase):
            values = {name: self.spoken(part) for name, part in value.values.items()}
            text = self._(value.message)
            return text.format(**values) if values else text
        if isinstance(value, str) and _MOVE.fullmatch(value):
            return self.move(value, None)
        return str(value)

    def clock(self, data: Json) -> str | None:
        """A clock event (``ClockNoted.data``): time left, a flag, "time" called, a forfeit."""
        side = self.side(data.get("side"))
        match data.get("event"):
            case "TimeWarning":
                seconds = round(float(str(data.get("threshold", 0))))
                if seconds >= 60 and seconds % 60 == 0:
                    minutes = seconds // 60
                    left = self._n("{n} minute left", "{n} minutes left", minutes).format(n=minutes)
                else:
                    left = self._n("{n} second left", "{n} seconds left", seconds).format(n=seconds)
                return f"{side}: {left}."
            case "FlagFell":
                return self._("{side}: the flag has fallen.").format(side=side)
            case "MoveTimeCalled":
                return self._("{side}: time.").format(side=side)
            case "MoveTimeForfeit":
                return self._("{side} did not move in time and forfeits.").format(side=side)
        return None

    def referee(self, action: str) -> str | None:
        """A referee's action players must hear of: the clock paused or running again."""
        if action == "pause":
            return self._("The clock is paused.")
        if action == "resume":
            return self._("The clock runs again.")
        return None

    def result(self, result: str) -> str:
        """The game's result (PDN)."""
        return {
            BLACK_WINS: self._("Black wins."),
            WHITE_WINS: self._("White wins."),
            DRAW: self._("The game is drawn."),
        }.get(result, self._("The game is over."))


#: A move as a violation's words quote it (PDN: ``11-15``, ``15x24x31``).
_MOVE = re.compile(r"\d+(?:-\d+|(?:x\d+)+)")
#: What a touch violation says when it is repeated (engine/tracker.py).
_FORFEIT = "repeated, grounds to forfeit"


def _holds(phrase: Phrase, message: str) -> bool:
    """Whether ``phrase`` says ``message``, itself or within one of its values."""
    return phrase.message == message or any(
        isinstance(value, Phrase) and _holds(value, message) for value in phrase.values.values()
    )


def played(notation: str, before: str | None) -> Move | None:
    """The move ``notation`` names in the position ``before`` (a FEN); ``None`` if it is not
    known or the move is not legal there."""
    if before is None:
        return None
    try:
        return Board(before).parse_move(notation)
    except ValueError:
        return None


def _path(notation: str, before: str | None) -> list[int]:
    """The squares a move starts on and lands on, from its notation and the position before."""
    move = played(notation, before)
    if move is not None:
        return list(move.path)
    return [int(part) for part in notation.replace("x", "-").split("-")]
