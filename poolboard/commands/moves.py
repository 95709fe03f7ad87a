"""``poolboard moves [FEN ...] [--json]``: the legal moves of positions, one output line each.

With no FEN arguments it reads FENs from stdin, one a line, and answers each line as it comes, so
another program can keep it open as a move oracle. A bad FEN gives an error line (or object) in
its place and a non-zero exit status at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator

from engine.board import Board, FenError, Move


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "moves",
        help="list the legal moves of positions given as PDN FEN",
        description="Print the legal moves of each FEN (arguments, or stdin one a line), "
        "one output line per FEN: notations separated by spaces, or a JSON list with --json.",
    )
    parser.add_argument(
        "fens", nargs="*", metavar="FEN", help="positions, e.g. 'B:W21-32:B1-12' (default: stdin)"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print a JSON list of {from, to, path, captures, crowns, notation} per line",
    )
    parser.set_defaults(handler=run)


def move_to_json(board: Board, move: Move) -> dict[str, object]:
    """A legal move as the JSON object ``moves`` and ``pdn`` print."""
    return {**move.to_json(), "notation": board.notation(move)}


def answer(fen: str, *, as_json: bool) -> tuple[str, bool]:
    """The output line for one FEN, and whether the FEN was good."""
    try:
        board = Board(fen.strip().removeprefix("\ufeff"))
    except FenError as error:
        return (json.dumps({"error": str(error)}) if as_json else f"error: {error}"), False
    moves = sorted(board.generate_legal_moves(), key=lambda move: move.path)
    if as_json:
        return json.dumps([move_to_json(board, move) for move in moves]), True
    return " ".join(board.notation(move) for move in moves), True


def _stdin_lines() -> Iterator[str]:
    """Lines of stdin; bytes that are not UTF-8 become U+FFFD and so a FEN error, not a crash."""
    for raw in sys.stdin.buffer:
        yield raw.decode("utf-8", errors="replace").rstrip("\r\n")


def run(args: argparse.Namespace) -> int:
    fens: Iterable[str] = args.fens or _stdin_lines()
    all_good = True
    for fen in fens:
        line, good = answer(fen, as_json=args.json)
        all_good &= good
        print(line, flush=True)
    return 0 if all_good else 1
