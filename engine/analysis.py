"""Game analysis: every move of a recorded game judged by the search, mistakes marked.

Each position of the game is searched; the best move's value is that search's score. When the
game's move is another, the position it leads to is searched one ply less deep, so both moves
are looked at to the same depth, and its score, seen from the mover, is the move's value. The
difference is what the move lost: :data:`MISTAKE` hundredths of a man or more make a
mistake (NAG 2, ``?``), :data:`BLUNDER` or more a blunder (NAG 4, ``??``). The engine's own best
move and a forced move (the only legal one, often a compulsory capture, R-CAP-1) lose nothing.

>>> from engine.pdn import GameRecord
>>> from engine.search import Limits
>>> record = GameRecord()
>>> record.setup("B:W18,30:B14,1")
>>> record.add_move_text("14x23").notation
'14x23'
>>> analysis = analyse(record, Limits(depth=4))
>>> [(v.notation, v.nag, v.forced) for v in analysis.verdicts]
[('14x23', None, True)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.color import Color
from engine.evaluation import WIN
from engine.game import Game
from engine.pdn.model import GameRecord
from engine.profiles import DEFAULT_PROFILE, RulesProfile, profile
from engine.search import TABLE_LIMIT, WIN_THRESHOLD, Limits, Root, Searcher

#: A move losing this much (hundredths of a man) against the best move is a mistake ...
MISTAKE = 50
#: ... and this much a blunder: about a man.
BLUNDER = 100
#: Scores are capped at ten men before they are compared: a won game stays won, whatever the
#: distance to the win.
CAP = 1000
MISTAKE_NAG, BLUNDER_NAG = 2, 4


@dataclass(frozen=True, slots=True)
class Verdict:
    """One move judged: its value and the best move's, both from the mover's view, and how
    much it lost (0 for the engine's choice or a forced move)."""

    ply: int
    mover: Color
    notation: str
    value: int
    best: str
    best_value: int
    loss: int
    forced: bool

    @property
    def nag(self) -> int | None:
        """2 (``?``) for a mistake, 4 (``??``) for a blunder, else ``None``."""
        if self.loss >= BLUNDER:
            return BLUNDER_NAG
        if self.loss >= MISTAKE:
            return MISTAKE_NAG
        return None

    def comment(self) -> str:
        """The move's evaluation for a PDN comment, from Black's view, with what was better."""
        text = f"eval {evaluation_text(self.value, self.mover)}"
        if self.nag is not None:
            kind = "blunder" if self.nag == BLUNDER_NAG else "mistake"
            better = evaluation_text(self.best_value, self.mover)
            text += f"; {kind}, {self.best} was better ({better})"
        return text


@dataclass(frozen=True, slots=True)
class Analysis:
    """A game's verdicts, move by move, and a note when the record played on past an end its
    profile would have called (the counts then restart)."""

    verdicts: list[Verdict]
    notes: list[str]

    def marked(self, mover: Color, nag: int) -> int:
        """How many of ``mover``'s moves carry ``nag``."""
        return sum(1 for v in self.verdicts if v.mover is mover and v.nag == nag)


def evaluation_text(value: int, mover: Color) -> str:
    """A value from ``mover``'s view written from Black's: ``+0.35`` (men), ``Black wins in 7``
    (the winner's moves), ``Black has won`` at the end, ``0.00`` for a draw."""
    black = value if mover is Color.BLACK else -value
    if abs(black) >= WIN_THRESHOLD:
        winner = "Black" if black > 0 else "White"
        moves = (WIN - abs(black) + 1) // 2
        return f"{winner} wins in {moves}" if moves else f"{winner} has won"
    return f"{black / 100:+.2f}" if black else "0.00"


def analyse(
    record: GameRecord,
    limits: Limits,
    rules: RulesProfile | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    table_limit: int = TABLE_LIMIT,
) -> Analysis:
    """Judge every move of ``record`` with searches bounded by ``limits``; ``progress(done,
    total)`` hears each move judged; ``table_limit``: the search table's entries (memory)."""
    rules = rules or profile(DEFAULT_PROFILE)
    game = Game(record.starting_fen, rules)
    roots = [Root.from_game(game)]
    outcomes = [game.outcome()]
    notes = []
    for ply, node in enumerate(record.moves, 1):
        ended = game.outcome()
        if ended is not None:
            notes.append(
                f"the game was over before ply {ply} ({ended.result}, {ended.reason}) under "
                f"{rules.name} rules, but the record plays on: the counts restart there"
            )
            game = Game(game.board.fen(), rules)
        game.push(node.move)
        roots.append(Root.from_game(game))
        outcomes.append(game.outcome())

    searcher = Searcher(table_limit=table_limit)
    last = len(roots) - 1

    def value_of(index: int, bound: Limits) -> int:
        """The score of position ``index`` for its side to move: its outcome at the record's end,
        through forced moves to the next choice, else searched within ``bound``."""
        sign = 1
        while index < last and roots[index].board.count_legal_moves() == 1:
            index, sign = index + 1, -sign  # as in the search, a forced move costs no depth
        outcome = outcomes[index] if index == last else None
        if outcome is not None:  # the game ended here: a draw, or the side to move has lost
            return 0 if outcome.winner is None else -sign * WIN
        return sign * searcher.search(roots[index], bound).score

    verdicts = []
    for index, node in enumerate(record.moves):
        board = roots[index].board
        forced = board.count_legal_moves() == 1
        if forced:
            value = -value_of(index + 1, limits)
            best, best_value = node.notation, value
        else:
            result = searcher.search(roots[index], limits)
            assert result.best is not None  # the record plays a move here
            best, best_value = board.notation(result.best), result.score
            if best == node.notation:
                value = best_value
            else:  # the played move searched as deep as the best move was, for a fair comparison
                reply = Limits(depth=max(result.depth - 1, 1), movetime=limits.movetime)
                value = -value_of(index + 1, reply)
        loss = max(_capped(best_value) - _capped(value), 0)
        verdicts.append(
            Verdict(index + 1, board.turn, node.notation, value, best, best_value, loss, forced)
        )
        if progress is not None:
            progress(index + 1, len(record.moves))
    return Analysis(verdicts, notes)


def annotate(record: GameRecord, analysis: Analysis, annotator: str) -> None:
    """Write the verdicts into the record: each move's comment gains its evaluation, mistakes
    and blunders their NAG; an ``[Annotator]`` tag names the analysis."""
    for node, verdict in zip(record.moves, analysis.verdicts, strict=True):
        node.comment = "; ".join(filter(None, [node.comment, verdict.comment()]))
        nag = verdict.nag
        if nag is not None and nag not in node.nags:
            node.nags.append(nag)
    record.headers["Annotator"] = annotator


def _capped(score: int) -> int:
    return max(-CAP, min(CAP, score))
