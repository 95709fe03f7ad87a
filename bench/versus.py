"""A match at equal time per move against py-draughts' ``SimpleEngine``, adapted to pool.

    .venv/bin/python -m bench.versus [--movetime 0.2] [--pairs 8] [--max-plies 200]

py-draughts (a dev dependency; not our code) plays Russian draughts with a generic alpha-beta
engine: negamax with PVS, a Zobrist transposition table, quiescence over captures, killers and
history, iterative deepening under a time limit, and an evaluation of material (king 2.5 men)
and piece-square tables. Russian draughts is pool with one difference: a man reaching the far
row in the middle of a capture crowns and jumps on as a king, where in pool (R-PRO-2) it jumps
on as a man and is not crowned. The squares and directions are the same (py-draughts' Black
starts on 1-12 and moves down the board like pool's Black), so a pool FEN is a Russian FEN.

Our :class:`engine.game.Game` is the referee. Before each of its moves py-draughts gets a fresh
``RussianBoard`` from the game's FEN (the positions cannot drift apart; its transposition table
persists over the game), and its answer is mapped onto our legal moves by start square, end
square and captured squares. A Russian-only answer (crowning in passing) has no pool twin: it is
replaced by the pool move with the same start square that shares most captured squares, and
counted. Openings, colours, the ply cap and the count claims are as in ``bench.ladder``.
Both sides get ``--movetime`` per move (py-draughts ``--odds`` times as much, to see how much
time it needs to catch up); the time each really used is printed.
"""

from __future__ import annotations

import argparse
import platform
import time

from bench.ladder import Player, Tally, opening, play
from engine.board import Move
from engine.color import Color
from engine.game import Game
from engine.search import Limits, Root, Searcher


class PyDraughtsPlayer:
    """py-draughts' SimpleEngine on the game's position, its moves mapped onto pool moves."""

    def __init__(self, movetime: float) -> None:
        from draughts import SimpleEngine  # dev extra: imported here so --help works without it

        self.engine = SimpleEngine(depth_limit=64, time_limit=movetime)
        self.substituted = 0
        self.moves = 0
        self.seconds = 0.0

    def __call__(self, game: Game) -> Move:
        from draughts.boards.russian import Board as RussianBoard

        board = RussianBoard.from_fen(game.board.fen())
        started = time.perf_counter()
        chosen = self.engine.get_best_move(board)
        assert not isinstance(chosen, tuple)  # no evaluation was asked for
        self.seconds += time.perf_counter() - started
        self.moves += 1
        path = [square + 1 for square in chosen.square_list]
        captured = {square + 1 for square in chosen.captured_list}
        legal = game.board.generate_legal_moves()
        for move in legal:
            same_ends = move.path[0] == path[0] and move.path[-1] == path[-1]
            if same_ends and set(move.captures) == captured:
                return move
        self.substituted += 1
        same_start = [move for move in legal if move.path[0] == path[0]] or legal
        return max(same_start, key=lambda move: len(captured & set(move.captures)))


class OurPlayer:
    """Our searcher at a fixed move time, no depth limit and no noise (level 10's settings)."""

    def __init__(self, movetime: float) -> None:
        self.searcher = Searcher()
        self.limits = Limits(movetime=movetime)
        self.moves = 0
        self.seconds = 0.0

    def __call__(self, game: Game) -> Move:
        started = time.perf_counter()
        result = self.searcher.search(Root.from_game(game), self.limits)
        self.seconds += time.perf_counter() - started
        self.moves += 1
        assert result.best is not None  # the game is not over, so a move exists
        return result.best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movetime", type=float, default=0.2, help="seconds per move, both")
    parser.add_argument(
        "--odds", type=float, default=1.0, help="py-draughts' move time is this many times ours"
    )
    parser.add_argument("--pairs", type=int, default=8, help="openings, each played twice")
    parser.add_argument("--max-plies", type=int, default=200, help="adjudicate a draw after")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    tally = Tally()
    ours_time = theirs_time = 0.0
    ours_moves = theirs_moves = substituted = 0
    for index in range(args.pairs):
        start = opening(5000 + index)
        for our_color in (Color.BLACK, Color.WHITE):
            ours = OurPlayer(args.movetime)
            theirs = PyDraughtsPlayer(args.movetime * args.odds)
            players: tuple[Player, Player] = (
                (ours, theirs) if our_color is Color.BLACK else (theirs, ours)
            )
            result, plies, capped = play(*players, start, args.max_plies)
            tally.add(result, our_color, plies, capped)
            ours_time, ours_moves = ours_time + ours.seconds, ours_moves + ours.moves
            theirs_time, theirs_moves = theirs_time + theirs.seconds, theirs_moves + theirs.moves
            substituted += theirs.substituted
            print(f"opening {index + 1}, poolboard {our_color.value}: {result}, {plies} plies")
    print(
        f"poolboard {args.movetime:g} s v py-draughts SimpleEngine {args.movetime * args.odds:g} s"
        f" per move: {tally.summary()}"
    )
    print(
        f"time per move used: poolboard {ours_time / max(ours_moves, 1):.3f} s, "
        f"py-draughts {theirs_time / max(theirs_moves, 1):.3f} s; "
        f"py-draughts moves with no pool twin (crowning in passing), replaced: {substituted}"
    )


if __name__ == "__main__":
    main()
