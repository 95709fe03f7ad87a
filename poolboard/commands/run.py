"""``poolboard run``: the service on the board its config describes, with the web UI.

The config must name the sensor: a forgotten ``[sensor]`` never silently runs the simulated
board (``kind = "simulated"`` asks for it; ``poolboard demo`` needs no config at all).
"""

from __future__ import annotations

import argparse
import logging
import sys

from hardware.spi_leds import SpiUnavailable
from poolboard.config import ConfigError, load_config
from poolboard.sensor_spec import SensorSpecError
from poolboard.service import build_session, serve
from poolboard.storage import StorageError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the board service (sensor, tracker, clock, recording, web UI)",
        description=(
            "Run the service the config describes (docs/config.md): read the board, record "
            "every game, drive the LEDs and serve the web UI, until stopped (SIGTERM, ^C)."
        ),
    )
    parser.add_argument(
        "--config", required=True, help="config file naming the board's sensor (docs/config.md)"
    )
    parser.add_argument("--no-web", action="store_true", help="record only: no web UI")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        session = build_session(load_config(args.config, require_sensor=True))
    except (ConfigError, SensorSpecError, SpiUnavailable, StorageError, OSError) as error:
        print(f"poolboard run: {error}", file=sys.stderr)
        return 2
    try:
        return serve(session, web=not args.no_web, announce=lambda text: print(text, flush=True))
    except OSError as error:  # the web port is taken, or the address does not exist
        print(f"poolboard run: {error}", file=sys.stderr)
        return 2
