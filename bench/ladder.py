"""Self-play ladder: each playing level against the one below it, both colours, varied openings.

    .venv/bin/python -m bench.ladder [--levels 1-7] [--pairs 6] [--max-plies 200]

For each pair of neighbouring levels, ``--pairs`` openings are drawn (2 or 3 random legal plies
from the start position, seeded), and each is played twice, the stronger level taking Black
once and White once. Games run under the ``apca`` profile through :class:`engine.game.Game`,
which ends them (R-END-1, the draw counts R-DRW-1..4); the weaker side claims the stronger-side
count when :func:`engine.search.claims_count` says so. A game still going after
``--max-plies`` plies is adjudicated a draw and counted as such. Prints W/D/L of the higher
level, its score with a 95 % interval (normal approximation over games), and the Elo
difference the score implies. ``--time-scale`` multiplies every level's move time (its depth
limit stays), to afford the high levels.

(Run as a module from the repository root.)
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.board import Move
from engine.color import Color
from engine.game import BLACK_WINS, DRAW, WHITE_WINS, Game
from engine.levels import LEVELS
from engine.search import Limits, Root, Searcher, claims_count

#: A player: the move it chooses in the game's current position.
Player = Callable[[Game], Move]


@dataclass
class Tally:
    """Games from one side's point of view: wins, draws, losses, and draws by the ply cap."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    capped: int = 0
    plies: list[int] = field(default_factory=list)

    def add(self, result: str, color: Color, plies: int, capped: bool) -> None:
        """Count one game's PDN result for the side that played ``color``."""
        mine = BLACK_WINS if color is Color.BLACK else WHITE_WINS
        if result == DRAW:
            self.draws += 1
        elif result == mine:
            self.wins += 1
        else:
            self.losses += 1
        self.capped += capped
        self.plies.append(plies)

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    def summary(self) -> str:
        """``W/D/L``, the score with its 95 % interval, and the Elo difference it implies."""
        n = self.games
        score = (self.wins + self.draws / 2) / n
        per_game = [1.0] * self.wins + [0.5] * self.draws + [0.0] * self.losses
        mean_square = sum((x - score) ** 2 for x in per_game) / max(n - 1, 1)
        margin = 1.96 * math.sqrt(mean_square / n)
        return (
            f"+{self.wins} ={self.draws} -{self.losses} ({n} games, {self.capped} capped): "
            f"score {score:.2f} ± {margin:.2f}, Elo {_elo(score)}, "
            f"mean length {sum(self.plies) / n:.0f} plies"
        )


def _elo(score: float) -> str:
    if score <= 0:
        return "-inf"
    if score >= 1:
        return "+inf"
    return f"{-400 * math.log10(1 / score - 1):+.0f}"


def opening(seed: int) -> list[Move]:
    """2 or 3 random legal plies from the start position, the same for a given seed."""
    rng = random.Random(seed)
    game = Game()
    moves = []
    for _ in range(rng.choice((2, 3))):
        move = rng.choice(game.board.generate_legal_moves())
        moves.append(game.push(move))
    return moves


def play(
    black: Player, white: Player, start: list[Move], max_plies: int, profile: str = "apca"
) -> tuple[str, int, bool]:
    """One game from the opening ``start``: the PDN result, the plies played, and whether the
    ply cap (a draw) ended it. Each side to move claims the stronger-side count if it should."""
    game = Game(profile=profile)
    for move in start:
        game.push(move)
    players = {Color.BLACK: black, Color.WHITE: white}
    while not game.is_over() and len(game.board.move_stack) < max_plies:
        turn = game.board.turn
        if claims_count(game, turn):
            game.invoke_count(turn)
        game.push(players[turn](game))
    if game.result is None:
        return DRAW, len(game.board.move_stack), True
    return game.result, len(game.board.move_stack), False


def level_player(level: int, seed: int, time_scale: float) -> Player:
    """A level's player, its own searcher (table kept over the game) and noise seed."""
    chosen = LEVELS[level]
    searcher = Searcher(noise=chosen.noise, seed=seed)
    limits = Limits(depth=chosen.depth, movetime=chosen.movetime * time_scale)

    def choose(game: Game) -> Move:
        result = searcher.search(Root.from_game(game), limits)
        assert result.best is not None  # the game is not over, so a move exists
        return result.best

    return choose


def ladder_pair(low: int, high: int, pairs: int, max_plies: int, time_scale: float) -> Tally:
    """``high`` against ``low``: ``pairs`` openings, each played with both colours."""
    tally = Tally()
    for index in range(pairs):
        start = opening(1000 * high + index)
        for high_color in (Color.BLACK, Color.WHITE):
            seed = 2 * index + (high_color is Color.WHITE)
            mine = level_player(high, seed, time_scale)
            theirs = level_player(low, seed + 7919, time_scale)
            black, white = (mine, theirs) if high_color is Color.BLACK else (theirs, mine)
            result, plies, capped = play(black, white, start, max_plies)
            tally.add(result, high_color, plies, capped)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1-7", help="range of levels, e.g. 1-7")
    parser.add_argument("--pairs", type=int, default=6, help="openings per pair of levels")
    parser.add_argument("--max-plies", type=int, default=200, help="adjudicate a draw after")
    parser.add_argument("--time-scale", type=float, default=1.0, help="move time multiplier")
    args = parser.parse_args()
    first, last = (int(part) for part in args.levels.split("-"))
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print(f"{args.pairs} openings x 2 colours per pair, time scale {args.time_scale:g}")
    for high in range(first + 1, last + 1):
        started = time.perf_counter()
        tally = ladder_pair(high - 1, high, args.pairs, args.max_plies, args.time_scale)
        took = time.perf_counter() - started
        print(f"level {high} v {high - 1}: {tally.summary()}, {took:.0f} s", flush=True)


if __name__ == "__main__":
    main()
