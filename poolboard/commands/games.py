"""``poolboard games`` and ``poolboard export``: the recorded games, listed or written as PDN."""

from __future__ import annotations

import argparse
import json
import sys

from engine.pdn import write_games
from poolboard.commands.demo import demo_data_dir
from poolboard.config import ConfigError, load_config
from poolboard.storage import DamagedGame, GameStore, StorageError, StoredGame


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    games = subparsers.add_parser(
        "games",
        help="list the recorded games",
        description="List every recorded game: id, date, players, plies (half-moves), result "
        "and how the game ended.",
    )
    games.add_argument("--config", default=None, help="the service's config file")
    games.add_argument("--demo", action="store_true", help="the games of `poolboard demo`")
    games.add_argument("--json", action="store_true", help="one JSON object per game")
    games.set_defaults(handler=list_games)

    export = subparsers.add_parser(
        "export",
        help="write recorded games as PDN (with [%%clk] clock times)",
        description="Write recorded games as PDN: all of them, or the ids given.",
    )
    export.add_argument("ids", nargs="*", type=int, metavar="ID", help="game ids (default: all)")
    export.add_argument("--config", default=None, help="the service's config file")
    export.add_argument("--demo", action="store_true", help="the games of `poolboard demo`")
    export.add_argument("--out", default="-", help="output file (default: standard output)")
    export.set_defaults(handler=export_games)


def _open_store(args: argparse.Namespace) -> GameStore:
    """The store (the service's, or the demo's with ``--demo``), read-only: these commands work
    alongside the service and on a read-only medium."""
    if args.demo:
        if args.config:
            raise ConfigError("--demo and --config name two different stores: give one")
        folder = demo_data_dir()
    else:
        folder = load_config(args.config).storage.directory
    return GameStore(folder / "games.sqlite3", read_only=True)


def _tell_of_the_demo(args: argparse.Namespace, command: str) -> None:
    """With neither ``--demo`` nor ``--config``: if ``poolboard demo`` has recorded games, say
    where (on stderr), as they are kept apart from the service's and not listed here."""
    if args.demo or args.config:
        return
    folder = demo_data_dir()
    path = folder / "games.sqlite3"
    count = 0
    if path.exists():
        try:
            store = GameStore(path, read_only=True)
            count = len(store.games())
            store.close()
        except StorageError:
            pass  # `--demo` says what is wrong with it
    if count:
        games = f"{count} game{'s' if count > 1 else ''}"
        print(
            f"poolboard {command}: `poolboard demo` recorded {games}, kept apart in {folder}: "
            f"`poolboard {command} --demo` reads them",
            file=sys.stderr,
        )


def list_games(args: argparse.Namespace) -> int:
    """Print every game, a damaged one as such with the reason (exit 1 if there is one)."""
    try:
        games = _open_store(args).games()
    except (ConfigError, StorageError) as error:
        print(f"poolboard games: {error}", file=sys.stderr)
        _tell_of_the_demo(args, "games")
        return 2
    _tell_of_the_demo(args, "games")
    for game in games:
        if isinstance(game, DamagedGame):
            if args.json:
                print(json.dumps({"id": game.id, "created": game.created, "damaged": game.reason}))
            else:
                print(f"{game.id:5d}  {game.created[:16]}  DAMAGED: {game.reason}")
            continue
        summary = {
            "id": game.id,
            "created": game.created,
            "black": game.headers.get("Black", "?"),
            "white": game.headers.get("White", "?"),
            "event": game.headers.get("Event", "?"),
            "plies": len(game.moves),
            "result": game.result or "*",
            "reason": game.result_reason or "",
        }
        if args.json:
            print(json.dumps(summary))
        else:
            print(
                f"{game.id:5d}  {game.created[:16]}  {summary['black']} - {summary['white']}  "
                f"{summary['plies']:3d} plies  {summary['result']}  {summary['reason']}"
            )
    return 1 if any(isinstance(game, DamagedGame) for game in games) else 0


def export_games(args: argparse.Namespace) -> int:
    """Write the games as PDN; a damaged game is left out and named on stderr (exit 1)."""
    try:
        store = _open_store(args)
        games = [store.game(i) for i in args.ids] if args.ids else store.games()
    except (ConfigError, StorageError, KeyError) as error:
        print(f"poolboard export: {str(error).strip(chr(39))}", file=sys.stderr)
        _tell_of_the_demo(args, "export")
        return 2
    _tell_of_the_demo(args, "export")
    sound = [game for game in games if isinstance(game, StoredGame)]
    try:
        text = write_games([store.record(game) for game in sound])
    except StorageError as error:
        print(f"poolboard export: {error}", file=sys.stderr)
        return 2
    try:
        if args.out == "-":
            sys.stdout.write(text)
        else:
            with open(args.out, "w", encoding="utf-8") as handle:
                handle.write(text)
    except OSError as error:
        print(f"poolboard export: cannot write {args.out}: {error.strerror}", file=sys.stderr)
        return 2
    for game in games:
        if isinstance(game, DamagedGame):
            print(
                f"poolboard export: game {game.id} left out, damaged: {game.reason}",
                file=sys.stderr,
            )
    return 0 if len(sound) == len(games) else 1
