"""Three kings against one solved backwards under the 13 count and the long line.

    .venv/bin/python -m bench.kings_table [--positions 24] [--seed 7] [--no-engine] [--no-long-line]

A retrograde solver over every position of one to three White kings against one Black king,
either side to move, with the moves of :mod:`engine.board` (flying kings R-KNG-1/2, compulsory
capture R-CAP-1, so a king sacrificed into 2K v 1K is in the table). For a White-to-move
position it finds the fewest White moves that force the win (R-END-1: the lone king captured or
left without a move) against the best defence; the lone king makes one move fewer. A win only
counts inside the counts, as engine/counts.py reads them: the lone king's 13th move completed
draws (R-DRW-2), so White has 13 moves from a start position; once the lone king stands on
4-29 with White to move, White has 5 more moves, counted on to the end of the ending (R-DRW-3).
Both counts run down one a full move, so a position with White to move needs only its
remaining budget of White moves. It then checks the positions bench/endings.py draws (same
seed) against the table and the engine.
"""

from __future__ import annotations

import argparse
import time

from bench.endings import play_out, positions
from engine.board import Board
from engine.endgame import (
    DIAGONAL_BITS,
    LONG_LINE,
    THIRTEEN,
    WHITE_TO_MOVE,
    KingsEnding,
    position_key,
)
from engine.search import Limits

UNSOLVED = 99  # no win within the counts


def white_to_win(table: KingsEnding, fen: str) -> int:
    """White moves to the win from a start position with White to move, or ``UNSOLVED``."""
    board = Board(fen)
    moves = table.white_moves.get(position_key(board.white, board.black, True), UNSOLVED)
    budget = table.long_line if board.black & DIAGONAL_BITS else THIRTEEN
    return moves if moves <= budget else UNSOLVED


def summary(table: KingsEnding) -> list[str]:
    """How many start positions of each kind the stronger side wins within the counts."""
    lines = []
    for kings in (3, 2):
        groups = {"White to move, off 4-29": [0, 0], "White to move, on 4-29": [0, 0]}
        groups["Black to move"] = [0, 0]
        groups["Black to move, a capture compulsory (R-CAP-1)"] = [0, 0]
        for position in table.moves:
            if (position & 0xFFFFFFFF).bit_count() != kings:
                continue
            if position & WHITE_TO_MOVE:
                on_line = bool(position >> 32 & DIAGONAL_BITS)
                group = groups["White to move, on 4-29" if on_line else "White to move, off 4-29"]
                budget = table.long_line if on_line else THIRTEEN
                group[0] += table.white_moves.get(position, UNSOLVED) <= budget
                group[1] += 1
                continue
            # the lone king's first move: 12 White moves left after it
            won = not table.moves[position] or table.needs.get(position, UNSOLVED) < THIRTEEN
            names = ["Black to move"]
            if any(child & 0xFFFFFFFF != position & 0xFFFFFFFF for child in table.moves[position]):
                names.append("Black to move, a capture compulsory (R-CAP-1)")
            for name in names:
                groups[name][0] += won
                groups[name][1] += 1
        for name, (count, total) in groups.items():
            lines.append(f"{kings}K v 1K, {name}: {count} of {total} won within the counts")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=24, help="bench/endings.py positions")
    parser.add_argument("--seed", type=int, default=7, help="bench/endings.py's seed")
    parser.add_argument("--no-engine", action="store_true", help="skip the engine's play-outs")
    parser.add_argument(
        "--no-long-line", action="store_true", help="13 count only (classic: no R-DRW-3)"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    table = KingsEnding(THIRTEEN if args.no_long_line else LONG_LINE, keep_moves=True)
    print(f"{len(table.moves)} positions solved in {time.perf_counter() - started:.0f} s")
    print("\n".join(summary(table)))
    tallies = {"won": 0} if args.no_engine else {"won": 0, "depth 6": 0, "0.3 s": 0}
    for fen in positions(args.positions, args.seed):
        moves = white_to_win(table, fen)
        line = f"{fen}: " + (f"won in {moves} moves" if moves != UNSOLVED else "not won")
        tallies["won"] += moves != UNSOLVED
        if not args.no_engine:
            for name, limits in (("depth 6", Limits(depth=6)), ("0.3 s", Limits(movetime=0.3))):
                converted, made = play_out(fen, limits)
                tallies[name] += converted
                line += f"; {name}: " + (f"won in {made}" if converted else "drawn")
        print(line, flush=True)
    print(", ".join(f"{name}: {count} of {args.positions}" for name, count in tallies.items()))
    print(f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
