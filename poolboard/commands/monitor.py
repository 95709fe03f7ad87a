"""``poolboard monitor``: print what a sensor reports as JSON lines, for bringing up a new board."""

from __future__ import annotations

import argparse
import json
import sys
import time

from poolboard.sensor_log import event_to_json
from poolboard.sensor_spec import SensorSpecError, open_sensor


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "monitor",
        help="print a sensor's snapshots, lever presses and link health as JSON lines",
        description="Print every event a sensor reports, one JSON object per line.",
    )
    parser.add_argument(
        "--sensor",
        required=True,
        metavar="SPEC",
        help="serial:PATH | serial:auto | gpio:CONFIG.toml | camera:SOURCE",
    )
    parser.add_argument(
        "--seconds", type=float, default=None, help="stop after this long (default: run until ^C)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        sensor = open_sensor(args.sensor)
    except (SensorSpecError, OSError) as error:
        print(f"poolboard monitor: {error}", file=sys.stderr)
        return 2
    deadline = None if args.seconds is None else time.monotonic() + args.seconds
    try:
        while deadline is None or time.monotonic() < deadline:
            event = sensor.read(timeout=0.2)
            if event is not None:
                print(json.dumps(event_to_json(event)), flush=True)
    finally:
        sensor.close()
    return 0
