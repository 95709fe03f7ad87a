"""A game: the moves from a start position with undo, its draw counts under a rule profile, and
how it ended (RULES.md R-END-1..3, R-DRW-1..6).

>>> game = Game("W:WK1,K2,K3:BK32", profile="apca")
>>> game.push_notation("1-5")
Move(1-5)
>>> [count.text for count in game.counts()]
['13 count: lone king has made 0 of 13 moves']
>>> game.agree_draw().reason
'draw by agreement (R-END-2)'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import profiles
from engine.board import Board, Move
from engine.color import Color
from engine.counts import SIDES, Count, CountState, advance, counts, initial_state, invoke
from engine.phrase import Phrase
from engine.profiles import DEFAULT_PROFILE, RulesProfile

#: PDN results, the first mover's (Black's) score first, as checkers writes them (PDN 2.0
#: §6.1.1.1.1.5): ``1-0`` Black won, ``0-1`` White won. Not chess's order.
BLACK_WINS, WHITE_WINS, DRAW = "1-0", "0-1", "1/2-1/2"


#: The reasons a game ends with on the board or by the players' word (``Outcome.reason``), each
#: a message of the catalogues (poolboard.records finds a stored reason's words back by them).
NO_MOVE = Phrase("{side} cannot move: every piece is blocked (R-END-1)")
NO_PIECES = Phrase("{side} has no pieces left (R-END-1)")
COUNT_RAN_OUT = Phrase("draw: {count} ({rule})")
AGREED = Phrase("draw by agreement (R-END-2)")
DECLARED = Phrase("draw declared by the referee: {reason} (R-END-2)")
FORFEITS = Phrase("{side} forfeits: {reason} (R-END-3)")
REASONS = (NO_MOVE, NO_PIECES, COUNT_RAN_OUT, AGREED, DECLARED, FORFEITS)


class GameOverError(ValueError):
    """A move, count or result asked for after the game has ended; the message says how it did."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the PDN result, the winner (``None`` for a draw), the rule ID and a
    reason that cites it."""

    result: str
    winner: Color | None
    rule: str
    reason: str
    #: ``reason`` as words a page says in its language (None: a reason given only as text).
    said: Phrase | None = None


class Game:
    """A game under a rule profile (``apca``, ``classic`` or ``casual``), from the start position
    or a FEN. Moves go through :meth:`push` / :meth:`pop`; each ply keeps its counts and outcome,
    so taking a move back restores exactly what stood before it."""

    def __init__(self, fen: str | None = None, profile: str | RulesProfile = DEFAULT_PROFILE):
        self.profile = profile if isinstance(profile, RulesProfile) else profiles.profile(profile)
        self._board = Board(fen) if fen is not None else Board()
        self.start_fen = self._board.fen()
        self._keys = [self._board.transposition_key()]
        self._states = [initial_state(self._board)]
        self._outcomes = [self._judge(self._states[0])]

    @property
    def board(self) -> Board:
        """The current position (play moves through the game, not on the board, to keep counts)."""
        return self._board

    # -- moves -----------------------------------------------------------------------------------

    def push(self, move: Move) -> Move:
        """Play a legal move and update every count; returns the move as generated (with its
        path). ``IllegalMoveError`` if it is not legal, ``GameOverError`` once the game is over."""
        self._refuse_if_over("no move can be played")
        played = self._board.push_legal(move)
        state = advance(self._states[-1], played, self._board)
        self._keys.append(self._board.transposition_key())
        self._states.append(state)
        self._outcomes.append(self._judge(state))
        return played

    def push_notation(self, text: str) -> Move:
        """Parse move text (``11-15``, ``15x22``, ``9x18x27``) and play it."""
        self._refuse_if_over("no move can be played")
        return self.push(self._board.parse_move(text))

    def pop(self) -> Move:
        """Take back the last move, with every count invoked and result set since it."""
        if not self._board.move_stack:
            raise IndexError(
                f"no move to take back: the game is at its start position {self.start_fen}"
            )
        self._keys.pop()
        self._states.pop()
        self._outcomes.pop()
        return self._board.pop()

    # -- counts ----------------------------------------------------------------------------------

    def counts(self) -> list[Count]:
        """The draw counts running now, in rule-ID order, for a screen to show."""
        return counts(self._states[-1], self.profile, self._keys)

    def invoke_count(self, side: Color) -> None:
        """The weaker side invokes the stronger-side count (R-DRW-4); it counts from that side's
        next move. ``ValueError`` naming the rule if the profile has none or ``side`` is not the
        weaker side by R-DRW-6 strength."""
        self._refuse_if_over("no count can be invoked")
        self._states[-1] = invoke(self._states[-1], self._board, side, self.profile)

    # -- the end ---------------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._outcomes[-1]

    @property
    def result(self) -> str | None:
        """The PDN result (``1-0`` Black won, ``0-1`` White won, ``1/2-1/2``), or ``None`` while
        the game goes on."""
        outcome = self._outcomes[-1]
        return None if outcome is None else outcome.result

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._outcomes[-1] is not None

    def agree_draw(self) -> Outcome:
        """Both players agree a draw (R-END-2)."""
        return self._finish(_ended(DRAW, None, "R-END-2", AGREED))

    def declare_draw(self, reason: str | Phrase) -> Outcome:
        """The referee declares a draw: neither side can force a win (R-END-2); ``reason`` as
        typed, or words."""
        return self._finish(_ended(DRAW, None, "R-END-2", DECLARED.fill(reason=reason)))

    def forfeit(self, loser: Color, reason: str | Phrase) -> Outcome:
        """``loser`` forfeits the game (R-END-3): time, repeated illegal moves, touch move."""
        said = FORFEITS.fill(side=SIDES[loser], reason=reason)
        return self._finish(_ended(_win_for(loser.opponent), loser.opponent, "R-END-3", said))

    def award(self, winner: Color, rule: str, reason: str | Phrase) -> Outcome:
        """End the game as won by ``winner`` for ``reason``, said in full (a resignation, a flag,
        a referee's decision): words, or a text said as it is; ``rule`` is the rule ID that
        applies, or ``""`` if none does."""
        said = reason if isinstance(reason, Phrase) else None
        return self._finish(Outcome(_win_for(winner), winner, rule, str(reason), said))

    def _finish(self, outcome: Outcome) -> Outcome:
        self._refuse_if_over("its result stands")
        self._outcomes[-1] = outcome
        return outcome

    def _refuse_if_over(self, what: str) -> None:
        outcome = self._outcomes[-1]
        if outcome is not None:
            raise GameOverError(f"the game is over ({outcome.result}, {outcome.reason}): {what}")

    def _judge(self, state: CountState) -> Outcome | None:
        """The outcome the position itself decides: no move (R-END-1) or a count run out."""
        board = self._board
        if not board.count_legal_moves():
            loser = board.turn
            why = NO_MOVE if board.pieces(loser) else NO_PIECES
            return _ended(
                _win_for(loser.opponent), loser.opponent, "R-END-1", why.fill(side=SIDES[loser])
            )
        for count in counts(state, self.profile, self._keys):
            if count.reached:
                ran_out = COUNT_RAN_OUT.fill(count=count.said or count.text, rule=count.rule)
                return _ended(DRAW, None, count.rule, ran_out)
        return None


def _ended(result: str, winner: Color | None, rule: str, said: Phrase) -> Outcome:
    """An outcome whose reason is ``said``, in English and as words."""
    return Outcome(result, winner, rule, str(said), said)


def _win_for(winner: Color) -> str:
    return WHITE_WINS if winner is Color.WHITE else BLACK_WINS
