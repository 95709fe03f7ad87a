"""``poolboard install-service``: run poolboard at boot under systemd, logging to journald."""

from __future__ import annotations

import argparse
import getpass
import grp
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

UNIT_NAME = "poolboard.service"
#: Groups that give the service the GPIO, SPI, serial ports and camera (those that exist here).
DEVICE_GROUPS = ("gpio", "spi", "dialout", "video")
#: Open files allowed: systemd's default soft limit of 1,024 is too few for many web clients.
OPEN_FILES = 65536


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "install-service",
        help="install and start a systemd unit that runs 'poolboard run' at boot",
        description=(
            "Write a systemd unit running 'poolboard run --config CONFIG' as USER (logs go to "
            "journald: journalctl -u poolboard), then enable and start it. Needs root."
        ),
    )
    parser.add_argument("--config", required=True, help="the config file the service reads")
    parser.add_argument(
        "--user", default=None, help="run as this user (default: you, also under sudo)"
    )
    parser.add_argument(
        "--unit-dir", default="/etc/systemd/system", help="where to write the unit file"
    )
    parser.add_argument("--print", action="store_true", help="only print the unit")
    parser.add_argument("--no-start", action="store_true", help="write it, but do not start it")
    parser.set_defaults(handler=run)


def existing_groups(names: tuple[str, ...] = DEVICE_GROUPS) -> list[str]:
    """The groups among ``names`` this machine has (systemd refuses to start with a missing one)."""
    found = []
    for name in names:
        try:
            grp.getgrnam(name)
        except KeyError:
            continue
        found.append(name)
    return found


def unit_text(executable: str, config: str, user: str, groups: list[str] | None = None) -> str:
    """The systemd unit: runs as ``user`` in its own writable runtime folder (lgpio on a Pi 5
    makes a notification file in the working directory), restarts on failure, may open
    OPEN_FILES files; ``groups`` give it GPIO, SPI, serial and camera."""
    chosen = existing_groups() if groups is None else groups
    group_line = f"SupplementaryGroups={' '.join(chosen)}\n" if chosen else ""
    return f"""[Unit]
Description=poolboard electronic pool checkers board
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User={user}
{group_line}RuntimeDirectory=poolboard
WorkingDirectory=/run/poolboard
ExecStart={executable} run --config {config}
Restart=on-failure
RestartSec=2
LimitNOFILE={OPEN_FILES}
Environment=PYTHONUNBUFFERED=1

[Install]
WantedBy=multi-user.target
"""


def run(args: argparse.Namespace) -> int:
    config = Path(args.config).expanduser().resolve()
    if not config.is_file():
        print(f"poolboard install-service: no config file at {config}", file=sys.stderr)
        return 2
    # The poolboard being run now (sudo's PATH may not reach the .venv), and the user behind sudo.
    beside = Path(sys.executable).with_name("poolboard")
    executable = str(beside) if beside.exists() else shutil.which("poolboard") or "poolboard"
    user = args.user or os.environ.get("SUDO_USER") or getpass.getuser()
    if user == "root" and args.user is None:
        print(
            "poolboard install-service: refusing to run the service as root; give --user NAME"
            " (the user who plays, e.g. pi) or --user root if you really mean it",
            file=sys.stderr,
        )
        return 2
    try:
        pwd.getpwnam(user)
    except KeyError:
        print(f"poolboard install-service: no user {user!r} on this machine", file=sys.stderr)
        return 2
    text = unit_text(executable, str(config), user)
    if args.print:
        sys.stdout.write(text)
        return 0
    unit = Path(args.unit_dir) / UNIT_NAME
    try:
        unit.write_text(text)
    except OSError as error:
        print(
            f"poolboard install-service: cannot write {unit}: {error.strerror} (run it with sudo)",
            file=sys.stderr,
        )
        return 2
    print(f"wrote {unit}")
    if args.no_start:
        return 0
    for command in (["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", UNIT_NAME]):
        if subprocess.run(command).returncode != 0:
            print(f"poolboard install-service: {' '.join(command)} failed", file=sys.stderr)
            return 1
    print("started: journalctl -u poolboard -f shows its log")
    return 0
