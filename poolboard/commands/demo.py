"""``poolboard demo``: the whole system on the simulated board, with the web UI; no hardware,
no config. It prints the address it serves on. ``--opponent engine``: play the computer on the
virtual board (docs/opponents.md)."""

from __future__ import annotations

import argparse
import logging
import math
import socket
import sys
from pathlib import Path

from engine.profiles import PROFILES
from poolboard.autoplay import MAX_SPEED, AutoPlayer
from poolboard.config import (
    OPPONENT_KINDS,
    Config,
    DisplayConfig,
    GameConfig,
    OpponentConfig,
    RefereeConfig,
    RulesConfig,
    StorageConfig,
    VoiceConfig,
    WebConfig,
    default_data_dir,
)
from poolboard.locale import LANGUAGES
from poolboard.service import build_session, serve
from poolboard.simulated_board import SimulatedBoard
from poolboard.storage import StorageError

DEMO_REFEREE_PASSWORD = "demo"


def demo_data_dir() -> Path:
    """Where ``poolboard demo`` keeps its games (``poolboard games --demo`` reads them)."""
    return default_data_dir() / "demo"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="the whole system on the simulated board, with the web UI",
        description=(
            "Run the service on the simulated board and serve the web UI: the spectator board "
            "at /, the virtual board at /board (tap to lift and place pieces), the referee "
            "console at /referee (user referee, password demo). Games are kept in the demo's "
            "own folder of the data directory: `poolboard games --demo` lists them and "
            "`poolboard export --demo` writes them as PDN."
        ),
    )
    parser.add_argument(
        "--host", type=_host, default="127.0.0.1", help="address to serve on (0.0.0.0: all)"
    )
    parser.add_argument(
        "--port", type=_port, default=8080, help="port (default 8080; any free one if taken)"
    )
    parser.add_argument(
        "--autoplay", action="store_true", help="simulated hands play games by themselves"
    )
    parser.add_argument(
        "--speed",
        type=_speed,
        default=1.0,
        help=f"autoplay speed, above 0 up to {MAX_SPEED:g} (default 1)",
    )
    parser.add_argument("--seed", type=int, default=None, help="autoplay random seed")
    parser.add_argument(
        "--opponent",
        choices=OPPONENT_KINDS,
        default="none",
        help="engine: play the computer on the virtual board (default none: both sides here)",
    )
    parser.add_argument(
        "--level", type=_level, default=5, help="the computer's level, 1-10 (default 5)"
    )
    parser.add_argument(
        "--side",
        choices=("black", "white"),
        default="white",
        help="the side the computer plays (default white; Black moves first)",
    )
    parser.add_argument(
        "--rules",
        choices=tuple(PROFILES),
        default=None,
        help="rule profile (default casual against the computer, so takebacks work; else apca)",
    )
    parser.add_argument(
        "--voice", action="store_true", help="say the game aloud with espeak-ng (docs/voice.md)"
    )
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        default="en",
        help="the pages' and the voice's language (default en; es: Spanish)",
    )
    parser.set_defaults(handler=run)


def _players(args: argparse.Namespace) -> GameConfig:
    """Against the computer the person at the board is "You" (the computer's side is named
    after it); two people at the board are unnamed until the referee names them."""
    if args.opponent == "none":
        return GameConfig()
    return GameConfig(black="You") if args.side == "white" else GameConfig(white="You")


def _host(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "empty; 0.0.0.0 (or ::) serves every interface, 127.0.0.1 this machine only"
        )
    return text


def _level(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 10:
        raise argparse.ArgumentTypeError(f"expected a level 1-10, got {text!r}")
    return int(text)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number 0-65535, got {text!r}")
    return port


def _speed(text: str) -> float:
    try:
        speed = float(text)
    except ValueError:
        speed = math.nan
    if not 0 < speed <= MAX_SPEED:  # NaN fails this too
        raise argparse.ArgumentTypeError(
            f"expected a number above 0, up to {MAX_SPEED:g}, got {text!r}"
        )
    return speed


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if args.autoplay and args.opponent != "none":
        print(
            "poolboard demo: --autoplay plays both sides itself: leave out --opponent",
            file=sys.stderr,
        )
        return 2
    rules = args.rules or ("casual" if args.opponent != "none" else "apca")
    port = args.port if args.port == 0 or _port_free(args.host, args.port) else 0
    config = Config(
        storage=StorageConfig(path=str(demo_data_dir())),
        web=WebConfig(host=args.host, port=port),
        referee=RefereeConfig(password=DEMO_REFEREE_PASSWORD),
        rules=RulesConfig(profile=rules),
        opponent=OpponentConfig(kind=args.opponent, side=args.side, level=args.level),
        display=DisplayConfig(language=args.language),
        voice=VoiceConfig(enabled=args.voice),
        game=_players(args),
    )
    try:
        # Playing the computer is a game of its own: never an earlier demo's match resumed.
        session = build_session(config, resume=args.opponent == "none")
    except (StorageError, OSError) as error:
        print(f"poolboard demo: {error}", file=sys.stderr)
        return 2
    helpers = []
    if args.autoplay:
        assert isinstance(session.sensor, SimulatedBoard)
        player = AutoPlayer(session, session.sensor, speed=args.speed, seed=args.seed)
        helpers.append(player.run)
    print(
        f"poolboard demo: referee console login: referee / {DEMO_REFEREE_PASSWORD}; "
        f"games kept in {config.storage.directory}",
        flush=True,
    )
    if args.opponent == "engine":
        print(
            f"poolboard demo: the computer (level {args.level}) plays {args.side}, {rules} "
            "rules: play on the virtual board at /board",
            flush=True,
        )
    try:
        return serve(
            session, web=True, announce=lambda text: print(text, flush=True), helpers=helpers
        )
    except OSError as error:
        print(f"poolboard demo: {error}", file=sys.stderr)
        return 2
