"""``poolboard monitor``: print what a sensor reports as JSON lines, for bringing up a new board;
``--check`` walks through every square instead (poolboard/bringup.py)."""

from __future__ import annotations

import argparse
import json
import sys
import time

from engine.sensing import CueDisplay, Sensor
from poolboard.bringup import BringUpCheck
from poolboard.sensor_log import event_to_json
from poolboard.sensor_spec import SensorSpecError, open_sensor


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "monitor",
        help="print a sensor's snapshots, lever presses and link health as JSON lines",
        description=(
            "Print every event a sensor reports, one JSON object per line. With --check, walk"
            " through every square of a newly wired board instead: it lights each square's LED,"
            " asks for a piece on it, and names every square that never closed, closed together"
            " with or as another, or whose LED stayed dark."
        ),
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
    parser.add_argument(
        "--check", action="store_true", help="the guided bring-up check, square by square"
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="--check: how long to wait for each piece before noting the square never closed",
    )
    parser.set_defaults(handler=run)


def open_display(spec: str, sensor: Sensor) -> CueDisplay | None:
    """The LEDs of the board under check: the Pico's own (the serial sensor drives them), or the
    SPI strip of a GPIO board file's ``[leds]`` table; None when the board has none."""
    if isinstance(sensor, CueDisplay):
        return sensor
    scheme, _, argument = spec.partition(":")
    if scheme != "gpio":
        return None
    from hardware.config import load_toml, section
    from hardware.spi_leds import LedLayout, SpiCueDisplay

    table = section(load_toml(argument), "leds", "board file")
    return SpiCueDisplay(LedLayout.from_mapping(table)) if table else None


def run(args: argparse.Namespace) -> int:
    try:
        sensor = open_sensor(args.sensor)
    except (SensorSpecError, OSError) as error:
        print(f"poolboard monitor: {error}", file=sys.stderr)
        return 2
    try:
        if args.check:
            return _check(args, sensor)
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        while deadline is None or time.monotonic() < deadline:
            event = sensor.read(timeout=0.2)
            if event is not None:
                print(json.dumps(event_to_json(event)), flush=True)
    finally:
        sensor.close()
    return 0


def _check(args: argparse.Namespace, sensor: Sensor) -> int:
    try:
        display = open_display(args.sensor, sensor)
    except (OSError, ValueError, RuntimeError) as error:
        print(f"poolboard monitor: the board's LEDs: {error}", file=sys.stderr)
        return 2
    check = BringUpCheck(
        sensor, display, say=lambda text: print(text, flush=True), ask=input, wait=args.wait
    )
    try:
        report = check.run()
    finally:
        # The Pico's LEDs are the sensor itself (closed with it); only an SPI strip is closed here.
        if display is not None and not isinstance(sensor, CueDisplay):
            display.close()
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1
