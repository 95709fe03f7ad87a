"""Mosquitto for the hall: its config, password file and ACL, and the broker process.

The ACL is the hall's security: each table (its broker user is its name) may write only its own
``poolboard/table/<name>/...`` topics and read only its own ``action`` topic; only the ``hall``
user writes actions. Nobody connects without a password (docs/hall.md).
"""

from __future__ import annotations

import getpass
import logging
import os
import shutil
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from poolboard.hall import topics
from poolboard.remote import protocol as remote_protocol

log = logging.getLogger("poolboard.hall.broker")


class BrokerError(RuntimeError):
    """Mosquitto cannot be configured or started; the message says why."""


@dataclass(frozen=True)
class BrokerTls:
    """The broker's TLS files (PEM): its certificate and key, and the CA for clients to trust."""

    certfile: str
    keyfile: str
    cafile: str = ""


def mosquitto_program(name: str = "mosquitto") -> str:
    """The path of a Mosquitto program (Debian puts the broker in /usr/sbin)."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/local/sbin")
    if found is None:
        raise BrokerError(
            f"{name} not found: install Debian's mosquitto package "
            "(sudo apt-get install mosquitto; docs/hall.md)"
        )
    return found


def acl_text() -> str:
    """The ACL: the hall reads and writes every table's topics; a table only its own; a board
    in a remote game only its own topics of that game."""
    lines = [
        "# Written by poolboard hall (docs/hall.md): regenerated at every start.",
        f"user {topics.HALL_USER}",
        f"topic readwrite {topics.ROOT}/#",
        "",
        "# Every table: %u is its broker user name, which is the table's name.",
    ]
    lines += [f"pattern write {topics.ROOT}/%u/{suffix}" for suffix in topics.TABLE_TOPICS]
    lines.append(f"pattern read {topics.ROOT}/%u/{topics.ACTION}")
    lines += [
        "",
        "# Remote games (docs/remote.md): a board writes only its own topics of a game and reads",
        "# every game's; its messages are signed with the game's invite besides.",
        f"pattern write {remote_protocol.ROOT}/+/%u/+",
        f"pattern read {remote_protocol.ROOT}/#",
    ]
    return "\n".join(lines) + "\n"


def write_password_file(path: Path, users: dict[str, str]) -> None:
    """Hash ``users`` (name -> password) into a Mosquitto password file with mosquitto_passwd."""
    for name, password in users.items():
        if not password or "\n" in password or "\r" in password:
            raise BrokerError(f"broker user {name!r}: the password must be one non-empty line")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600, exist_ok=True)
    os.chmod(path, 0o600)
    path.write_text("".join(f"{name}:{password}\n" for name, password in users.items()))
    done = subprocess.run(
        [mosquitto_program("mosquitto_passwd"), "-U", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        path.unlink(missing_ok=True)  # never leave the passwords in clear
        raise BrokerError(f"mosquitto_passwd failed: {done.stderr.strip() or done.stdout.strip()}")


def write_broker_config(
    directory: Path,
    *,
    host: str,
    port: int,
    users: dict[str, str],
    tls: BrokerTls | None = None,
) -> Path:
    """Write ``mosquitto.conf``, ``passwd`` and ``acl`` into ``directory``; the config's path.
    ``users`` holds every broker user with its password: the hall and each table."""
    directory.mkdir(parents=True, exist_ok=True)
    write_password_file(directory / "passwd", users)
    (directory / "acl").write_text(acl_text())
    lines = [
        "# Written by poolboard hall (docs/hall.md): regenerated at every start.",
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {directory / 'passwd'}",
        f"acl_file {directory / 'acl'}",
        "persistence true",  # retained states and the hall's queued events survive a restart
        f"persistence_location {directory}/",
        "autosave_interval 30",
        "max_queued_messages 10000",
        "set_tcp_nodelay true",  # a move is one small packet: send it now, not 40 ms later
        f"user {getpass.getuser()}",  # run as whoever runs the hall (root would switch user)
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "log_type notice",
        f"listener {port} {host}",
        # The listener's: a client's id is its user name, whatever it asks for, so nobody can
        # take over the hall's or a table's connection (and session) by connecting with its id.
        "use_username_as_clientid true",
    ]
    if tls is not None:
        lines += [f"certfile {tls.certfile}", f"keyfile {tls.keyfile}"]
        if tls.cafile:
            lines.append(f"cafile {tls.cafile}")
    config = directory / "mosquitto.conf"
    config.write_text("\n".join(lines) + "\n")
    return config


def port_open(host: str, port: int, timeout: float = 0.2) -> bool:
    """Whether something accepts TCP connections on ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


class Broker:
    """A ``mosquitto -c CONFIG`` process: ``start``, ``stop``, and ``supervise`` to restart it
    if it dies; its log goes to ``log_path``."""

    def __init__(self, config: Path, host: str, port: int, log_path: Path) -> None:
        self.config = config
        self.host = host
        self.port = port
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.restarts = 0

    def start(self, timeout: float = 10.0) -> None:
        """Start mosquitto and wait until it listens; BrokerError with its log if it cannot."""
        if port_open(self.host, self.port):
            raise BrokerError(f"{self.host}:{self.port} is taken: is another broker running?")
        with open(self.log_path, "ab") as log_file:
            self.process = subprocess.Popen(
                [mosquitto_program(), "-c", str(self.config)],
                stdout=log_file,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        deadline = time.monotonic() + timeout
        while not port_open(self.host, self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                tail = self.log_path.read_text(errors="replace").strip().splitlines()[-5:]
                raise BrokerError("mosquitto did not start: " + " | ".join(tail))
            time.sleep(0.05)

    @property
    def running(self) -> bool:
        """Whether the broker process is alive."""
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        """Stop the broker (SIGTERM, then SIGKILL after 5 s)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def supervise(self, stop: threading.Event) -> None:
        """Restart the broker whenever it dies, until ``stop`` is set; then stop it. A broker
        that will not start is retried after 1, 2, 4... up to 30 s."""
        wait = 0.5
        try:
            while not stop.wait(wait):
                if self.running:
                    wait = 0.5
                    continue
                code = None if self.process is None else self.process.returncode
                log.error("mosquitto exited (%s); restarting it", code)
                self.restarts += 1
                try:
                    self.start()
                    wait = 0.5
                except BrokerError as error:
                    log.error("%s", error)
                    wait = min(30.0, max(1.0, wait * 2))
        finally:
            self.stop()
