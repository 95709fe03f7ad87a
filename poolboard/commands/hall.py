"""``poolboard hall``: the tournament hall over a Mosquitto broker (docs/hall.md)."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from poolboard.hall.broker import BrokerError
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
    parser.add_argument("--config", required=True, help="the hall's config (HALL.toml)")
    parser.add_argument(
        "--write-broker-config",
        metavar="DIR",
        default=None,
        help="only write mosquitto.conf, passwd and acl for an existing broker into DIR",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from poolboard.hall.service import broker_files, serve_hall

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
