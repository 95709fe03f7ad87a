"""The hall's MQTT protocol: topic names, table names and the JSON payloads (docs/hall.md).

Every topic lives under ``poolboard/table/<table>/``; a table writes only its own (the broker's
ACL enforces it) and only the hall writes ``action``. Payloads are UTF-8 JSON objects.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from pydantic import JsonValue

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


def encode(payload: Mapping[str, object]) -> bytes:
    """Compact UTF-8 JSON."""
    return json.dumps(payload, separators=(",", ":")).encode()


#: The largest payload read (a state with a long game is some tens of KiB).
MAX_PAYLOAD = 256 * 1024
#: The deepest nesting of arrays and objects read (a state needs 5); checked before parsing,
#: so that a hostile payload cannot exhaust the parser's recursion.
MAX_DEPTH = 32
_ESCAPES = re.compile(rb"\\.", re.DOTALL)
_STRINGS = re.compile(rb'"[^"]*"')
_NOT_BRACKETS = re.compile(rb"[^\[\]{}]+")


def _depth(raw: bytes) -> int:
    """How deeply the arrays and objects of the JSON text ``raw`` nest (strings skipped; every
    step is linear in the length, whatever the text)."""
    depth = deepest = 0
    for bracket in _NOT_BRACKETS.sub(b"", _STRINGS.sub(b"", _ESCAPES.sub(b"", raw))):
        depth += 1 if bracket in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    number = float(text)
    if number in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is out of range")
    return number


def decode(raw: bytes, where: str) -> dict[str, JsonValue]:
    """The JSON object in ``raw``; ProtocolError naming ``where`` if it is not one, is larger
    than MAX_PAYLOAD, nests deeper than MAX_DEPTH or holds NaN, Infinity or a huge number."""
    if len(raw) > MAX_PAYLOAD:
        raise ProtocolError(f"{where}: {len(raw)} bytes, more than {MAX_PAYLOAD}")
    if _depth(raw) > MAX_DEPTH:
        raise ProtocolError(f"{where}: JSON nested deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(raw.decode(), parse_constant=_no_constant, parse_float=_finite)
    except UnicodeDecodeError as error:
        raise ProtocolError(f"{where}: not UTF-8 ({error})") from None
    except ValueError as error:  # JSONDecodeError, NaN, huge numbers
        raise ProtocolError(f"{where}: not valid JSON ({str(error)[:200]})") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"{where}: expected a JSON object, got {type(data).__name__}")
    return data
