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
import itertools
import time

from bench.endings import play_out, positions
from engine.board import Board
from engine.color import Color
from engine.geometry import BITS, LONG_DIAGONAL, SQUARES
from engine.search import Limits

THIRTEEN = 13  # R-DRW-2: White moves from a start position before the 13th lone-king move
LONG_LINE = 5  # R-DRW-3: White moves once the lone king holds 4-29
UNSOLVED = 99  # no win within the counts
_DIAGONAL = sum(BITS[s] for s in LONG_DIAGONAL)
_WHITE_TO_MOVE = 1 << 64


def key(white: int, black: int, white_to_move: bool) -> int:
    """A position as one int: White's squares, Black's above them, the side to move on top."""
    return white | black << 32 | (_WHITE_TO_MOVE if white_to_move else 0)


def fen_of(position: int) -> str:
    """The FEN of a position key (all pieces are kings)."""
    white, black = position & 0xFFFFFFFF, position >> 32 & 0xFFFFFFFF
    board = Board.empty()
    board.white, board.black, board.kings = white, black, white | black
    board.turn = Color.WHITE if position & _WHITE_TO_MOVE else Color.BLACK
    return board.fen()


def successors(board: Board, white: int, black: int) -> list[int]:
    """The distinct positions the side to move can reach, as keys (the other side to move)."""
    found = set()
    for move in board.generate_legal_moves():
        moved = BITS[move.from_square]
        if board.turn is Color.WHITE:
            after_white = white & ~moved | BITS[move.to_square]
            found.add(key(after_white, black & ~move.capture_mask, False))
        else:
            after_black = black & ~moved | BITS[move.to_square]
            found.add(key(white & ~move.capture_mask, after_black, True))
    return list(found)


class KingsTable:
    """Fewest White moves to a win within the counts, for every White-to-move position."""

    def __init__(self, long_line: int | None = LONG_LINE) -> None:
        self.long_line = THIRTEEN if long_line is None else long_line  # ``None``: classic
        board = Board.empty()
        self.moves: dict[int, list[int]] = {}
        for lone in SQUARES:
            others = [s for s in SQUARES if s != lone]
            for count in (1, 2, 3):
                for strong in itertools.combinations(others, count):
                    white, black = sum(BITS[s] for s in strong), BITS[lone]
                    board.white, board.black, board.kings = white, black, white | black
                    for turn in (Color.WHITE, Color.BLACK):
                        board.turn = turn
                        position = key(white, black, turn is Color.WHITE)
                        self.moves[position] = successors(board, white, black)
        self.white_moves: dict[int, int] = {}  # White-to-move position -> White moves to win
        self.needs: dict[int, int] = {}  # Black-to-move position -> budget needed after it
        self._solve()

    def _solve(self) -> None:
        """Backward induction by layers of White moves to the win."""
        parents: dict[int, list[int]] = {p: [] for p in self.moves}
        waiting: dict[int, int] = {}
        frontier = []
        for position, reached in self.moves.items():
            for child in reached:
                if child in parents:
                    parents[child].append(position)
            if position & _WHITE_TO_MOVE:
                # a capture of the lone king, or a lone king left without a move (R-END-1)
                if any(child >> 32 == 0 or not self.moves[child] for child in reached):
                    frontier.append(position)
            elif not any(child & 0xFFFFFFFF == 0 for child in reached):
                waiting[position] = len(reached)  # the lone king never takes every king
        for position in frontier:
            self.white_moves[position] = 1
        layer = 1
        while frontier and layer <= THIRTEEN:
            following = []
            for position in frontier:
                if position >> 32 & _DIAGONAL and layer > self.long_line:
                    continue  # the lone king got onto 4-29 here: only 5 moves left (R-DRW-3)
                for parent in parents[position]:
                    if parent not in waiting:
                        continue
                    waiting[parent] -= 1
                    if waiting[parent]:
                        continue
                    self.needs[parent] = layer
                    for grandparent in parents[parent]:
                        if grandparent not in self.white_moves:
                            self.white_moves[grandparent] = layer + 1
                            following.append(grandparent)
            frontier, layer = following, layer + 1

    def white_to_win(self, fen: str) -> int:
        """White moves to the win from a start position with White to move, or ``UNSOLVED``."""
        board = Board(fen)
        position = key(board.white, board.black, True)
        moves = self.white_moves.get(position, UNSOLVED)
        budget = self.long_line if board.black & _DIAGONAL else THIRTEEN
        return moves if moves <= budget else UNSOLVED


def summary(table: KingsTable) -> list[str]:
    """How many start positions of each kind the stronger side wins within the counts."""
    lines = []
    for kings in (3, 2):
        groups = {"White to move, off 4-29": [0, 0], "White to move, on 4-29": [0, 0]}
        groups["Black to move"] = [0, 0]
        groups["Black to move, a capture compulsory (R-CAP-1)"] = [0, 0]
        for position in table.moves:
            if (position & 0xFFFFFFFF).bit_count() != kings:
                continue
            if position & _WHITE_TO_MOVE:
                on_line = bool(position >> 32 & _DIAGONAL)
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
    table = KingsTable(None if args.no_long_line else LONG_LINE)
    print(f"{len(table.moves)} positions solved in {time.perf_counter() - started:.0f} s")
    print("\n".join(summary(table)))
    tallies = {"won": 0} if args.no_engine else {"won": 0, "depth 6": 0, "0.3 s": 0}
    for fen in positions(args.positions, args.seed):
        moves = table.white_to_win(fen)
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
