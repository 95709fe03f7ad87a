"""How a match is scored (R-TRN-3): 4 points for a win, 2 for a draw, 0 for a loss.

The one count of points: the table's match score (the pages, the hall's view of a table) and the
hall's standings both use it, so they cannot disagree.
"""

from __future__ import annotations

from enum import Enum

from engine.color import Color
from engine.game import BLACK_WINS, DRAW, WHITE_WINS

#: Points for a win, a draw and a loss (R-TRN-3).
WIN_POINTS, DRAW_POINTS, LOSS_POINTS = 4, 2, 0
#: The finished results, in PDN (checkers order: the first score is Black's).
RESULTS = (BLACK_WINS, WHITE_WINS, DRAW)


def points(result: str | None) -> dict[Color, int] | None:
    """Each side's points for a game's PDN ``result``; ``None`` while it has none (``*``).

    >>> points("1-0")[Color.BLACK], points("1/2-1/2")[Color.WHITE], points("*")
    (4, 2, None)
    """
    if result == DRAW:
        return {Color.BLACK: DRAW_POINTS, Color.WHITE: DRAW_POINTS}
    if result in (BLACK_WINS, WHITE_WINS):
        winner = Color.BLACK if result == BLACK_WINS else Color.WHITE
        return {winner: WIN_POINTS, winner.opponent: LOSS_POINTS}
    return None


def winner(result: str) -> Color | None:
    """The side that won a finished ``result``; ``None`` for a draw."""
    if result in (BLACK_WINS, WHITE_WINS):
        return Color.BLACK if result == BLACK_WINS else Color.WHITE
    return None


class Player(Enum):
    """A player of a match, whatever colour they play: the one who had Black in game 1, or
    the one who had White."""

    FIRST_BLACK = "Black of game 1"
    FIRST_WHITE = "White of game 1"


#: Both players of a match, the one with Black in game 1 first.
PLAYERS = (Player.FIRST_BLACK, Player.FIRST_WHITE)


def player_of(side: Color, number: int, *, swaps: bool = True) -> Player:
    """Who plays ``side`` in game ``number`` (1-based) of a match: colours change every game
    (R-TRN-2) unless ``swaps`` is false (an opponent off the board keeps its side).

    >>> player_of(Color.BLACK, 2).value, player_of(Color.BLACK, 2, swaps=False).value
    ('White of game 1', 'Black of game 1')
    """
    first_black = side is Color.BLACK
    if swaps and number % 2 == 0:
        first_black = not first_black
    return Player.FIRST_BLACK if first_black else Player.FIRST_WHITE
