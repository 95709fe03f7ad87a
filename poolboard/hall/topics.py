"""The hall's MQTT protocol: topic names, table names and the JSON payloads (docs/hall.md).

Every topic lives under ``poolboard/table/<table>/``; a table writes only its own (the broker's
ACL enforces it) and only the hall writes ``action``. Payloads are UTF-8 JSON objects.
"""

from __future__ import annotations

import json
import re
from typing import Any

ROOT = "poolboard/table"
#: Topics a table publishes: (suffix, QoS, retained).
STATE = "state"  # the whole state, retained: a late subscriber sees every table at once
STATUS = "status"  # "online" / "offline" (the last will), retained
EVENTS = "events"  # every move, correction, violation, fault, clock event, result; QoS 1
REPLY = "reply"  # the answer to a referee action from the hall
#: The one topic a table reads: referee actions, written only by the hall.
ACTION = "action"
TABLE_TOPICS = (STATE, STATUS, EVENTS, REPLY)
QOS = 1
PROTOCOL_VERSION = 1
#: The hall's broker user name; no table may take it.
HALL_USER = "hall"

_TABLE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")


class ProtocolError(ValueError):
    """A message that does not follow docs/hall.md; the text says what was wrong."""


def check_table_name(name: str) -> str:
    """``name`` if it can be a table's name and broker user: 1-32 letters, digits, - or _
    (no MQTT wildcard or level separator), and not the hall's own name."""
    if not _TABLE_NAME.match(name):
        raise ValueError(
            f"table name {name!r}: use 1-32 letters, digits, '-' or '_', starting with a "
            "letter or digit"
        )
    if name == HALL_USER:
        raise ValueError(f"table name {name!r} is the hall's own broker user")
    return name


def topic(table: str, suffix: str) -> str:
    """``poolboard/table/<table>/<suffix>``."""
    return f"{ROOT}/{table}/{suffix}"


def split_topic(name: str) -> tuple[str, str]:
    """``(table, suffix)`` of a ``poolboard/table/...`` topic; ProtocolError otherwise."""
    parts = name.split("/")
    if len(parts) != 4 or "/".join(parts[:2]) != ROOT or parts[3] not in (*TABLE_TOPICS, ACTION):
        raise ProtocolError(
            f"topic {name!r} is not poolboard/table/<table>/<{'|'.join(TABLE_TOPICS)}>"
        )
    return parts[2], parts[3]


def encode(payload: dict[str, Any]) -> bytes:
    """Compact UTF-8 JSON."""
    return json.dumps(payload, separators=(",", ":")).encode()


def decode(raw: bytes, where: str) -> dict[str, Any]:
    """The JSON object in ``raw``; ProtocolError naming ``where`` if it is not one."""
    try:
        data = json.loads(raw.decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ProtocolError(f"{where}: not UTF-8 JSON ({error})") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"{where}: expected a JSON object, got {type(data).__name__}")
    return data
