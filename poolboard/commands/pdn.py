"""``poolboard pdn FILE [--json]``: read and replay every game of a PDN file.

Every move is checked against the rules; the first error is reported as ``file:line:column`` with
a non-zero exit status. Text mode prints a summary line per game; ``--json`` one object per game.
"""

from __future__ import annotations

import argparse
import io
import json
import sys

from engine.pdn import GameRecord, PdnError, read_games
from poolboard.commands.moves import move_to_json


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "pdn",
        help="check and summarise the games of a PDN file",
        description="Read and replay every game of a PDN file (American pool checkers, "
        "GameType 23); report the first error as FILE:LINE:COLUMN.",
    )
    parser.add_argument("file", metavar="FILE", help="the PDN file ('-' for stdin)")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per game: headers, moves, result",
    )
    parser.set_defaults(handler=run)


def game_to_json(record: GameRecord) -> dict[str, object]:
    """A game as the JSON object ``pdn --json`` prints."""
    board = record.starting_board()
    moves = []
    for node in record.moves:
        item = move_to_json(board, node.move)
        item.update(clock=node.clock, comment=node.comment, nags=node.nags)
        moves.append(item)
        board.push(node.move)
    return {
        "headers": record.headers,
        "start": record.starting_fen,
        "comment": record.comment,
        "moves": moves,
        "result": record.result,
        "end": board.fen(),
    }


def summary(index: int, record: GameRecord) -> str:
    """One line about a game: who, where, how long, how it ended."""
    h = record.headers
    who = f"{h.get('White', '?')} v {h.get('Black', '?')}"
    where = ", ".join(h.get(tag, "?") for tag in ("Event", "Date"))
    return (
        f"game {index}: {who} ({where}): {len(record.moves)} moves, result {record.result}, "
        f"end {record.board().fen()}"
    )


def read_text(path: str) -> str:
    """The file's text: UTF-8 (a BOM allowed), else Latin-1 as older checkers programs wrote."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def run(args: argparse.Namespace) -> int:
    try:
        text = read_text(args.file)
    except OSError as error:
        print(f"poolboard pdn: cannot read {args.file}: {error.strerror or error}", file=sys.stderr)
        return 2
    name = "<stdin>" if args.file == "-" else args.file
    count = 0
    try:
        for count, record in enumerate(read_games(io.StringIO(text, newline=None), name=name), 1):
            print(json.dumps(game_to_json(record)) if args.json else summary(count, record))
    except PdnError as error:
        print(f"poolboard pdn: {error}", file=sys.stderr)
        return 1
    if count == 0:
        print(f"poolboard pdn: {name}: no games found", file=sys.stderr)
        return 1
    return 0
