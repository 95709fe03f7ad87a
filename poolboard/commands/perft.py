"""``poolboard perft DEPTH [--fen FEN]``: node counts per depth, with times."""

from __future__ import annotations

import argparse
import sys
import time

from engine.board import Board, FenError
from engine.perft import divide, perft


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "perft",
        help="count move-tree leaves to each depth (checks the move generator)",
        description="Print the perft node count and time for each depth 1..DEPTH.",
    )
    parser.add_argument("depth", type=int, metavar="DEPTH", help="deepest depth to count (1-20)")
    parser.add_argument("--fen", default=None, help="start from this PDN FEN (default: start)")
    parser.add_argument(
        "--divide", action="store_true", help="also split the deepest count by first move"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.depth <= 20:
        print(f"poolboard perft: DEPTH must be 1-20, got {args.depth}", file=sys.stderr)
        return 2
    try:
        board = Board(args.fen) if args.fen else Board()
    except FenError as error:
        print(f"poolboard perft: {error}", file=sys.stderr)
        return 2
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        nodes = perft(board, depth)
        seconds = time.perf_counter() - started
        rate = nodes / seconds if seconds > 0 else float("inf")
        print(f"depth {depth:2d}  nodes {nodes:>12d}  time {seconds:9.3f} s  {rate:12,.0f} nodes/s")
    if args.divide:
        for text, nodes in sorted(divide(board, args.depth).items()):
            print(f"{text:>10s}  {nodes}")
    return 0
