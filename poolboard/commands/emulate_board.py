"""``poolboard emulate-board``: the real Pico firmware on a simulated board behind a pty."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
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
        "--board-id", default="EMULATED", help="the board id the firmware reports (text)"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for the fault injectors")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from firmware_bridge.emulator import Emulator

    try:
        emulator = Emulator(args.link, board_id=args.board_id.encode(), seed=args.seed)
        emulator.start()
    except OSError as error:
        print(f"poolboard emulate-board: cannot create the port: {error}", file=sys.stderr)
        return 2
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
