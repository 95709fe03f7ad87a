"""A board's ``[remote]`` section: the broker, the invite and this board's part in the game.

A typed section of board.toml (poolboard/section.py): each key's type and range, the user's
board name and the invite's form are checked as the file is read, the error naming the key;
:func:`check_remote_link` adds the rules between keys (docs/remote.md). An empty ``broker``
means no remote game.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

from poolboard.hall.link import check_broker_connection
from poolboard.remote.protocol import ROLES, Invite, check_board_name
from poolboard.section import Section, between, one_of


def _board_name(name: str) -> str:
    """A board's broker user, or empty (said missing by :func:`check_remote_link`)."""
    return check_board_name(name) if name else name


def _invite(code: str) -> str:
    """An invite code (``<game>-<secret>``), or empty (said missing by ``check_remote_link``)."""
    if code:
        Invite.parse(code)
    return code


class RemoteLinkConfig(Section):
    """Where the broker is, who this board is on it, and which game; the side the other board
    plays is ``[opponent] side``."""

    broker: str = ""  # host name or address; empty: no remote game
    port: Annotated[int, between(1, 65535, "an integer 1-65535")] = 1883
    user: Annotated[str, AfterValidator(_board_name)] = ""  # also its name in the game's topics
    password: str = ""
    tls: bool = False
    ca_file: str = ""  # TLS: the CA that signed the broker's certificate (empty: the system's)
    keepalive: Annotated[int, between(2, 600, "2-600 seconds")] = 10
    invite: Annotated[str, AfterValidator(_invite)] = ""  # the same on both boards
    #: "host": the inviting board, the one clock authority; or "guest".
    role: Annotated[str, one_of(*ROLES)] = "guest"

    @property
    def enabled(self) -> bool:
        """Whether this board plays a remote game."""
        return bool(self.broker)


def check_remote_link(link: RemoteLinkConfig) -> tuple[str, str] | None:
    """``(key, why)`` if an enabled ``link`` lacks its user or invite, or its CA file holds
    no certificate, else ``None`` (each key's own form is checked on reading)."""
    if not link.enabled:
        return None
    if not link.user:
        return "user", "a remote board needs its broker user name"
    if not link.invite:
        return "invite", "a remote board needs the game's invite code (poolboard remote-invite)"
    return check_broker_connection(link.port, link.keepalive, link.ca_file)
