"""The ``poolboard`` command: collects the subcommands from :mod:`poolboard.commands`."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from poolboard import commands


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand module's parser registered."""
    parser = argparse.ArgumentParser(
        prog="poolboard",
        description="Electronic board software for American pool checkers.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; its handler (``args.handler``) returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
