"""``poolboard analyse GAME.pdn [--movetime MS | --depth N] [--output FILE]``: annotate games.

Every move of every game gets its evaluation as a PDN comment (from Black's view), mistakes and
blunders a ``$2``/``$4`` NAG (``?``/``??``) and the better move; tags, comments, clock times and
the result stay as they were. The file is read whole first, so bad PDN stops the command before
any search, with the reader's ``FILE:LINE:COLUMN`` error. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import io
import os
import stat
import sys
import tempfile
from pathlib import Path

from engine.analysis import BLUNDER_NAG, MISTAKE_NAG, analyse, annotate
from engine.color import Color
from engine.pdn import GameRecord, PdnError, read_games, write_games
from engine.profiles import DEFAULT_PROFILE, PROFILES
from engine.search import MAX_DEPTH, TABLE_LIMIT, Limits
from poolboard.commands.pdn import read_text
from poolboard.opponents.computer import table_limit

DEFAULT_MOVETIME_MS = 500


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "analyse",
        help="annotate the games of a PDN file: each move's evaluation, mistakes marked",
        description="Search every position of every game and write the games back as PDN with "
        "each move's evaluation (Black's view, in men) in a comment and mistakes (?, $2) and "
        "blunders (??, $4) marked with the better move. See docs/engine.md.",
    )
    parser.add_argument("file", metavar="GAME.pdn", help="the PDN file ('-' for stdin)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--movetime",
        type=int,
        metavar="MS",
        help=f"milliseconds of search per position (default {DEFAULT_MOVETIME_MS})",
    )
    budget.add_argument("--depth", type=int, metavar="N", help=f"search depth 1-{MAX_DEPTH}")
    parser.add_argument("--output", "-o", metavar="FILE", help="write here (default: stdout)")
    parser.add_argument(
        "--profile",
        choices=sorted(PROFILES),
        default=DEFAULT_PROFILE,
        help="rule profile for the draw counts (default %(default)s)",
    )
    parser.set_defaults(handler=run)


def _limits(args: argparse.Namespace) -> Limits | str:
    """The search limits asked for, or what is wrong with them."""
    if args.depth is not None:
        if not 1 <= args.depth <= MAX_DEPTH:
            return f"--depth must be 1-{MAX_DEPTH}, got {args.depth}"
        return Limits(depth=args.depth)
    movetime = args.movetime if args.movetime is not None else DEFAULT_MOVETIME_MS
    if movetime < 1:
        return f"--movetime must be at least 1 ms, got {movetime}"
    return Limits(movetime=movetime / 1000)


def _budget_text(limits: Limits) -> str:
    if limits.depth is not None:
        return f"depth {limits.depth}"
    assert limits.movetime is not None
    return f"{round(limits.movetime * 1000)} ms a position"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _players(record: GameRecord) -> str:
    h = record.headers
    return f"{h.get('Black', '?')} (Black) v {h.get('White', '?')} (White)"


def _write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it: never half a file. The
    file keeps its permissions, or a new one gets the usual ones (not mkstemp's 0600)."""
    target = Path(path)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0o022)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace) -> int:
    limits = _limits(args)
    if isinstance(limits, str):
        print(f"poolboard analyse: {limits}", file=sys.stderr)
        return 2
    try:
        text = read_text(args.file)
    except OSError as error:
        reason = error.strerror or error
        print(f"poolboard analyse: cannot read {args.file}: {reason}", file=sys.stderr)
        return 2
    name = "<stdin>" if args.file == "-" else args.file
    try:
        records = list(read_games(io.StringIO(text, newline=None), name=name))
    except PdnError as error:
        print(f"poolboard analyse: {error}", file=sys.stderr)
        return 1
    if not records:
        print(f"poolboard analyse: {name}: no games found", file=sys.stderr)
        return 1

    rules = PROFILES[args.profile]
    annotator = f"poolboard analyse ({_budget_text(limits)}, {rules.name} rules)"
    live = sys.stderr.isatty()
    entries = table_limit(TABLE_LIMIT, share=4)  # the only search running: a quarter of memory
    for number, record in enumerate(records, 1):
        label = f"game {number} of {len(records)}"
        print(f"{label}: {_players(record)}, {len(record.moves)} plies", file=sys.stderr)

        def progress(done: int, total: int, label: str = label) -> None:
            if live:
                print(f"\r{label}: position {done} of {total}", end="", file=sys.stderr)

        analysis = analyse(record, limits, rules, progress=progress, table_limit=entries)
        if live:
            print(file=sys.stderr)
        for note in analysis.notes:
            print(f"{label}: {note}", file=sys.stderr)
        counts = "; ".join(
            f"{side.value.title()} {_count(analysis.marked(side, MISTAKE_NAG), 'mistake')}, "
            f"{_count(analysis.marked(side, BLUNDER_NAG), 'blunder')}"
            for side in (Color.BLACK, Color.WHITE)
        )
        print(f"{label}: {counts}", file=sys.stderr)
        annotate(record, analysis, annotator)

    output = write_games(records)
    if args.output is None:
        sys.stdout.write(output)
        return 0
    try:
        _write_atomically(args.output, output)
    except OSError as error:
        reason = error.strerror or error
        print(f"poolboard analyse: cannot write {args.output}: {reason}", file=sys.stderr)
        return 2
    return 0
