"""A board's ``[remote]`` section: the broker, the invite and this board's part in the game.

A typed section of board.toml (poolboard/section.py); :func:`check_remote_link` adds the
remote game's own rules (docs/remote.md). An empty ``broker`` means no remote game.
"""

from __future__ import annotations

from poolboard.hall.link import check_broker_connection
from poolboard.remote_protocol import ROLES, Invite, check_board_name
from poolboard.section import Section


class RemoteLinkConfig(Section):
    """Where the broker is, who this board is on it, and which game; the side the other board
    plays is ``[opponent] side``."""

    broker: str = ""  # host name or address; empty: no remote game
    port: int = 1883
    user: str = ""  # this board's broker user; also its name in the game's topics
    password: str = ""
    tls: bool = False
    ca_file: str = ""  # TLS: the CA that signed the broker's certificate (empty: the system's)
    keepalive: int = 10  # seconds
    invite: str = ""  # the game's invite code, the same on both boards (<game>-<secret>)
    role: str = "guest"  # "host": the inviting board, the one clock authority; or "guest"

    @property
    def enabled(self) -> bool:
        """Whether this board plays a remote game."""
        return bool(self.broker)


def check_remote_link(link: RemoteLinkConfig) -> tuple[str, str] | None:
    """``(key, why)`` if ``link`` cannot be used, else ``None``."""
    if not link.enabled:
        return None
    if not link.user:
        return "user", "a remote board needs its broker user name"
    try:
        check_board_name(link.user)
        Invite.parse(link.invite)
    except ValueError as error:
        return ("user" if "board name" in str(error) else "invite"), str(error)
    if link.role not in ROLES:
        return "role", f"expected host or guest, got {link.role!r}"
    return check_broker_connection(link.port, link.keepalive, link.ca_file)
