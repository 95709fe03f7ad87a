"""``poolboard hall``: the tournament hall over a Mosquitto broker (docs/hall.md)."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from poolboard.hall.broker import BrokerError
from poolboard.hall.demo import DEMO_PASSWORD, MAX_TABLES
from poolboard.hall.settings import HallConfigError, load_hall_config


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "hall",
        help="the tournament hall: every table live, the director's console, the PDN feed",
        description=(
            "Run the hall HALL.toml describes (docs/hall.md): start and supervise Mosquitto "
            "(unless [broker] manage = false), follow every table, serve the pages."
        ),
    )
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--config", help="the hall's config (HALL.toml)")
    what.add_argument(
        "--demo",
        type=_tables,
        metavar="N",
        help=f"try it without hardware: a hall of N simulated tables playing on their own "
        f"(1-{MAX_TABLES}); the console's login is director / {DEMO_PASSWORD}",
    )
    parser.add_argument(
        "--write-broker-config",
        metavar="DIR",
        default=None,
        help="only write mosquitto.conf, passwd and acl for an existing broker into DIR",
    )
    parser.set_defaults(handler=run)


def _tables(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_TABLES:
        raise argparse.ArgumentTypeError(f"expected 1 to {MAX_TABLES} tables, got {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from poolboard.hall.service import broker_files, serve_hall

    if args.demo is not None:
        return _demo(args.demo)
    try:
        config = load_hall_config(args.config)
        if args.write_broker_config:
            written = broker_files(config, Path(args.write_broker_config))
            print(f"poolboard hall: wrote {written} and its passwd and acl")
            return 0
        return serve_hall(config, announce=lambda text: print(text, flush=True))
    except (HallConfigError, BrokerError, OSError) as error:
        print(f"poolboard hall: {error}", file=sys.stderr)
        return 2


def _demo(tables: int) -> int:
    """``--demo N``: the hall and N simulated tables in a temporary folder."""
    from poolboard.hall.demo import demo_config, demo_folder, demo_helpers
    from poolboard.hall.service import serve_hall

    logging.getLogger("poolboard").setLevel(logging.WARNING)  # N tables' chatter
    logging.getLogger("httpx").setLevel(logging.WARNING)  # the demo's own calls to the console
    try:
        with demo_folder() as folder:
            config = demo_config(folder, tables)
            print(
                f"poolboard hall: demo with {tables} simulated tables; the director's console "
                f"login is director / {DEMO_PASSWORD}; stop with Ctrl-C",
                flush=True,
            )
            return serve_hall(
                config,
                announce=lambda text: print(text, flush=True),
                helpers=demo_helpers(folder, config),
            )
    except (BrokerError, OSError) as error:
        print(f"poolboard hall: {error}", file=sys.stderr)
        return 2
