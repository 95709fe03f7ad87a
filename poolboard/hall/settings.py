"""``HALL.toml``: the hall's own configuration (docs/hall.md), validated with clear errors.

Every table is listed with its broker password; the broker is started and supervised by the hall
(``manage = true``) or is an existing one. A bad file raises :class:`HallConfigError` naming the
key and why, never a traceback.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

from pydantic import Field, ValidationError, field_validator

from poolboard.config import DisplayConfig
from poolboard.hall.topics import check_table_name
from poolboard.section import Section


class HallConfigError(ValueError):
    """A hall configuration that cannot be used; the message names the key and why."""


Port = Annotated[int, Field(ge=1, le=65535)]


class HallSection(Section):
    """The event's name, where the hall keeps its data, and its web address."""

    event: str = Field(default="Tournament", min_length=1, max_length=120)
    data: str = "hall-data"  # a folder: the hall's SQLite, the broker's files, the PDN feed
    host: str = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65535)] = 8090


class DirectorSection(Section):
    """The director's console credentials (HTTP Basic); no password: the console is closed."""

    username: str = Field(default="director", min_length=1, max_length=64)
    password: str = ""


class BrokerSection(Section):
    """The broker: started and supervised by the hall (``manage``) or an existing one."""

    manage: bool = True
    host: str = "127.0.0.1"  # managed: the address it listens on; else the broker to reach
    port: Port = 1883
    hall_password: str = Field(min_length=1)  # the broker user "hall"
    keepalive: Annotated[int, Field(ge=2, le=600)] = 10  # the hall's own connection
    certfile: str = ""  # managed broker's TLS certificate and key (PEM); both or neither
    keyfile: str = ""
    tls: bool = False  # connect with TLS (an existing broker, or a managed one with certs)
    ca_file: str = ""  # the CA the hall trusts for the broker's certificate


class EventSection(Section):
    """How a match is played: an even number of games, colours alternating (R-TRN-2)."""

    games_per_match: Annotated[int, Field(ge=2, le=40, multiple_of=2)] = 2


class AlertSection(Section):
    """When the director is warned about a table."""

    out_of_sync_seconds: Annotated[float, Field(ge=1, le=3600)] = 20.0
    no_move_minutes: Annotated[float, Field(gt=0, le=600)] = 10.0


class BroadcastSection(Section):
    """The live PDN feed: also written to ``folder`` when set, ``delay_seconds`` behind."""

    folder: str = ""
    delay_seconds: Annotated[float, Field(ge=0, le=7200)] = 0.0


class TableEntry(Section):
    """One table of the hall: its name (its broker user) and its broker password."""

    name: str
    password: str = Field(min_length=1)

    @field_validator("name")
    @classmethod
    def _name(cls, name: str) -> str:
        return check_table_name(name)


class HallConfig(Section):
    """The whole ``HALL.toml``."""

    hall: HallSection = HallSection()
    director: DirectorSection = DirectorSection()
    broker: BrokerSection
    event: EventSection = EventSection()
    alerts: AlertSection = AlertSection()
    broadcast: BroadcastSection = BroadcastSection()
    #: The pages' language unless a reader chooses theirs, as a board's ``[display]``.
    display: DisplayConfig = DisplayConfig()
    tables: list[TableEntry] = Field(min_length=1, max_length=500)

    @field_validator("tables")
    @classmethod
    def _unique(cls, tables: list[TableEntry]) -> list[TableEntry]:
        seen: set[str] = set()
        for table in tables:
            if table.name in seen:
                raise ValueError(f"table {table.name!r} is listed twice")
            seen.add(table.name)
        return tables

    @property
    def data_dir(self) -> Path:
        """The hall's data folder."""
        return Path(self.hall.data).expanduser()

    @property
    def table_names(self) -> list[str]:
        """The tables in the order the file lists them."""
        return [table.name for table in self.tables]


def _where(location: tuple[int | str, ...]) -> str:
    """``[broker] port`` / ``[[tables]] #2 name`` from a pydantic error location."""
    parts = list(location)
    if not parts:
        return "the file"
    if parts[0] == "tables":
        index = f" #{parts[1] + 1}" if len(parts) > 1 and isinstance(parts[1], int) else ""
        rest = " ".join(str(p) for p in parts[2:])
        return f"[[tables]]{index} {rest}".rstrip()
    return f"[{parts[0]}] " + " ".join(str(p) for p in parts[1:])


def hall_config_from_mapping(data: Mapping[str, object], name: str = "hall.toml") -> HallConfig:
    """Validate parsed TOML; HallConfigError names the first wrong key."""
    try:
        config = HallConfig.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        message = first["msg"].removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            message = "unknown key (docs/hall.md lists them)"
        raise HallConfigError(f"{name}: {_where(first['loc']).strip()}: {message}") from None
    if bool(config.broker.certfile) != bool(config.broker.keyfile):
        raise HallConfigError(f"{name}: [broker] certfile and keyfile go together")
    return config


def load_hall_config(path: str | Path) -> HallConfig:
    """Read and validate ``HALL.toml``."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise HallConfigError(f"{path}: cannot read the hall config: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise HallConfigError(f"{path}: not valid TOML: {error}") from None
    return hall_config_from_mapping(data, str(path))
