"""A table's ``[hall]`` section: which broker to publish to, as whom (docs/config.md).

A typed section of board.toml (poolboard/section.py); :func:`check_hall_link` adds the hall's
own rules. An empty ``broker`` means the table is not in a hall.
"""

from __future__ import annotations

import ssl
from pathlib import Path

from poolboard.hall.topics import check_table_name
from poolboard.section import Section


class HallLinkConfig(Section):
    """The broker's address, the table's name and broker credentials, optional TLS."""

    broker: str = ""  # host name or address; empty: no hall
    port: int = 1883
    table: str = ""  # also the table's broker user name (the ACL keys its topics by user)
    password: str = ""
    tls: bool = False
    ca_file: str = ""  # TLS: the CA that signed the broker's certificate (empty: the system's)
    keepalive: int = 10  # seconds; the broker declares the table offline after 1.5 x this

    @property
    def enabled(self) -> bool:
        """Whether the table publishes to a hall."""
        return bool(self.broker)


def check_hall_link(link: HallLinkConfig) -> tuple[str, str] | None:
    """``(key, why)`` if ``link`` cannot be used, else ``None``."""
    if not link.enabled:
        return None
    if not link.table:
        return "table", "a table in a hall needs a name (the hall's [[tables]] name)"
    try:
        check_table_name(link.table)
    except ValueError as error:
        return "table", str(error)
    return check_broker_connection(link.port, link.keepalive, link.ca_file)


def check_broker_connection(port: int, keepalive: int, ca_file: str) -> tuple[str, str] | None:
    """``(key, why)`` if a broker connection's port, keepalive or TLS CA file cannot be used
    (shared by the hall's tables and remote play), else ``None``."""
    if not 1 <= port <= 65535:
        return "port", f"expected an integer 1-65535, got {port}"
    if not 2 <= keepalive <= 600:
        return "keepalive", f"expected 2-600 seconds, got {keepalive}"
    if ca_file:
        path = Path(ca_file).expanduser()
        if not path.is_file():
            return "ca_file", f"no such file {ca_file}"
        try:  # paho would raise the same at connect time, naming no key
            ssl.create_default_context(cafile=str(path))
        except (ssl.SSLError, OSError) as error:
            return "ca_file", f"{ca_file}: no certificate to trust the broker by ({error})"
    return None
