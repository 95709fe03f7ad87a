"""Three kings against one under the 13 count: how often the engine wins in time.

    .venv/bin/python -m bench.endings [--positions 24] [--movetime 0.3 | --depth 6]

Random positions (seeded): three White kings against one Black king that is not on the long
diagonal 4-29 (where R-DRW-3 would give the three only 5 moves), White to move, no capture
on either side. Each is played out by the engine on both sides under the ``apca`` profile
through :class:`engine.game.Game`, which draws it when the lone king's 13th move is made
(R-DRW-2). Not every such position is a win within 13 moves in pool; the score is how many the
engine converts, and how many moves it needed. (Run as a module from the repository root.)
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from engine.board import Board
from engine.color import Color
from engine.game import Game
from engine.geometry import LONG_DIAGONAL, SQUARES
from engine.search import Limits, Root, Searcher


def positions(count: int, seed: int) -> list[str]:
    """``count`` FENs of three White kings v one Black king off the long diagonal, quiet."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        lone, *strong = rng.sample(SQUARES, 4)
        if lone in LONG_DIAGONAL:
            continue
        fen = f"W:W{','.join(f'K{s}' for s in sorted(strong))}:BK{lone}"
        lone_to_move = "B" + fen[1:]
        if not Board(fen).has_capture() and not Board(lone_to_move).has_capture():
            found.append(fen)
    return found


def play_out(fen: str, limits: Limits) -> tuple[bool, int]:
    """Whether the three kings won, and the moves White made."""
    game = Game(fen, profile="apca")
    searchers = {Color.WHITE: Searcher(), Color.BLACK: Searcher()}
    while not game.is_over():
        result = searchers[game.board.turn].search(Root.from_game(game), limits)
        assert result.best is not None  # the game is not over, so a move exists
        game.push(result.best)
    outcome = game.outcome()
    won = outcome is not None and outcome.winner is Color.WHITE
    return won, (len(game.board.move_stack) + 1) // 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=24, help="random positions played")
    parser.add_argument("--movetime", type=float, default=0.3, help="seconds per move, both")
    parser.add_argument("--depth", type=int, help="a fixed depth instead (reproducible)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the positions")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    limits = Limits(depth=args.depth) if args.depth else Limits(movetime=args.movetime)
    started = time.perf_counter()
    wins, moves = 0, []
    for fen in positions(args.positions, args.seed):
        won, made = play_out(fen, limits)
        wins += won
        if won:
            moves.append(made)
        print(f"{fen}: {'won in ' + str(made) + ' moves' if won else 'drawn'}", flush=True)
    mean = f", mean {sum(moves) / len(moves):.1f} moves to win" if moves else ""
    took = time.perf_counter() - started
    print(f"three kings v one, {limits}: won {wins} of {args.positions}{mean}, {took:.0f} s")


if __name__ == "__main__":
    main()
