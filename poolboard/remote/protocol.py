"""Remote board-to-board play over MQTT: invite codes, topics and signed messages (docs/remote.md).

Two boards play one game through a broker. Everything lives under
``poolboard/remote/<game>/<board>/<kind>`` where ``<board>`` is the writer's broker user (the ACL
lets a user write only its own topics). Every payload is a JSON object signed with an HMAC-SHA256
keyed by the invite code's secret, which never goes on the wire: a client without the invite
cannot make a message either board accepts. Numbers are integers (clock times in milliseconds),
so the signed text is the same in every language.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from pydantic import JsonValue

T = TypeVar("T")
#: A verified message's body as JSON decoded it.
Received = dict[str, JsonValue]

ROOT = "poolboard/remote"
#: v2 (docs/remote.md): records may be rewound (a takeback, a correction, voided moves), so a
#: ``record`` and a ``move`` say which rewind of the game they follow. v1 boards are refused.
PROTOCOL_VERSION = 2
QOS = 1
#: What a board publishes: ``hello`` and ``record`` and ``clock`` are retained.
HELLO = "hello"  # who this board is, which side it plays, the game's start and time control
MOVE = "move"  # one move this board's player made: ply, move, position after it
RECORD = "record"  # every move this board has recorded (its acknowledgement), and the result
CLOCK = "clock"  # the clock as the host (the one clock authority) has it
KINDS = (HELLO, MOVE, RECORD, CLOCK)
RETAINED = frozenset({HELLO, RECORD, CLOCK})
ROLES = ("host", "guest")
#: How a board's own user rewound its record: a casual takeback on the board, a referee's
#: correction (or the tracker's of the last move), or moves the referee voided.
REWIND_KINDS = ("takeback", "correction", "void")
#: The longest payload read (a record of a very long game is a few kilobytes); longer ones are
#: dropped before any parsing, as is JSON nested too deeply to parse.
MAX_PAYLOAD = 65_536

_GAME = re.compile(r"^[a-z0-9]{6,16}$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_BOARD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")


class ProtocolError(ValueError):
    """A message that does not follow docs/remote.md; the text says what was wrong."""


class VersionMismatch(ProtocolError):
    """A message of this game, rightly signed, in another version of the protocol: ``theirs``,
    its ``v`` as sent."""

    def __init__(self, theirs: object) -> None:
        super().__init__(f"protocol version {theirs!r}; this board speaks v{PROTOCOL_VERSION}")
        self.theirs = theirs


@dataclass(frozen=True)
class Invite:
    """An invite code ``<game>-<secret>``: the game's topic name and the key that signs it."""

    game: str
    secret: str

    @classmethod
    def new(cls) -> Invite:
        """A fresh invite: a 10-character game name and a 128-bit secret."""
        alphabet = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o, 1/l to misread
        game = "".join(secrets.choice(alphabet) for _ in range(10))
        return cls(game, secrets.token_urlsafe(16))

    @classmethod
    def parse(cls, code: str) -> Invite:
        """The invite in ``code``; ValueError saying what is wrong with it."""
        game, dash, secret = code.strip().partition("-")
        if not dash or not _GAME.match(game) or not _SECRET.match(secret):
            raise ValueError(
                "an invite code is <game>-<secret>: 6-16 lower-case letters or digits, a dash, "
                "then 16-64 letters, digits, '-' or '_' (poolboard remote-invite makes one)"
            )
        return cls(game, secret)

    def __str__(self) -> str:
        return f"{self.game}-{self.secret}"


def check_board_name(name: str) -> str:
    """``name`` if it can be a board's broker user and topic level: 1-32 letters, digits, - or _."""
    if not _BOARD.match(name):
        raise ValueError(f"board name {name!r}: use 1-32 letters, digits, '-' or '_'")
    return name


def topic(game: str, board: str, kind: str) -> str:
    """``poolboard/remote/<game>/<board>/<kind>``."""
    return f"{ROOT}/{game}/{board}/{kind}"


def game_filter(game: str) -> str:
    """The subscription that sees both boards of ``game``."""
    return f"{ROOT}/{game}/+/+"


def split_topic(name: str) -> tuple[str, str, str]:
    """``(game, board, kind)`` of a ``poolboard/remote/...`` topic; ProtocolError otherwise."""
    parts = name.split("/")
    if len(parts) != 5 or "/".join(parts[:2]) != ROOT or parts[4] not in KINDS:
        raise ProtocolError(f"topic {name!r} is not {ROOT}/<game>/<board>/<{'|'.join(KINDS)}>")
    return parts[2], parts[3], parts[4]


def _canonical(name: str, body: Mapping[str, object]) -> bytes:
    """What is signed: the topic, a newline, then the payload without ``sig`` as JSON with sorted
    keys, no spaces and only ASCII (docs/remote.md)."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return f"{name}\n{text}".encode()


def _signature(secret: str, name: str, body: Mapping[str, object]) -> str:
    return hmac.new(secret.encode(), _canonical(name, body), hashlib.sha256).hexdigest()


def encode(invite: Invite, name: str, body: Mapping[str, object]) -> bytes:
    """``body`` signed for topic ``name``, as the UTF-8 JSON payload to publish."""
    signed = {**body, "sig": _signature(invite.secret, name, body)}
    return json.dumps(signed, separators=(",", ":")).encode()


def decode(invite: Invite, name: str, raw: bytes) -> Received:
    """The verified body of a payload received on topic ``name``; ProtocolError if it is not
    a JSON object or its signature is not the game's (a client without the invite)."""
    if len(raw) > MAX_PAYLOAD:
        raise ProtocolError(f"{len(raw)} bytes, longer than {MAX_PAYLOAD}: not read")
    try:
        data = json.loads(raw.decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ProtocolError(f"not UTF-8 JSON ({error})") from None
    except RecursionError:
        raise ProtocolError("JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"expected a JSON object, got {type(data).__name__}")
    sig = data.pop("sig", None)
    if not isinstance(sig, str):
        raise ProtocolError("no signature ('sig'): not from a board of this game")
    if not hmac.compare_digest(sig, _signature(invite.secret, name, data)):
        raise ProtocolError("wrong signature: not from a board that holds this game's invite")
    if data.get("v") != PROTOCOL_VERSION:
        raise VersionMismatch(data.get("v"))
    return data


def field(data: Mapping[str, object], key: str, kind: type[T], what: str) -> T:
    """``data[key]`` if it is a ``kind``; ProtocolError naming the key and ``what`` it must be."""
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ProtocolError(f"{key!r} must be {what}, got {value!r}")
    return value
