"""The typed schema of every message the hall reads from a table (docs/hall.md, "Topics").

A payload is used only once it has passed :func:`parse`: UTF-8, valid JSON with no NaN or
Infinity and at most :data:`MAX_DEPTH` levels of nesting, then one of the models below (a
table's state is the board's own :class:`~poolboard.session.state.BoardState`), whose numbers
are bounded (a game id fits SQLite's 64 bits, a clock is finite). Anything else is a
:class:`~poolboard.hall.topics.ProtocolError` naming the topic and the field, which the hall
turns into an alert: a broken or hostile table can never blind it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from poolboard.hall import topics
from poolboard.session.state import BoardState, Id, Result, SaidView, Seconds, Short, Text

#: When the table sent a message (Unix time).
WallClock = Annotated[float, Field(allow_inf_nan=False, ge=0, le=1e11)]


class _Model(BaseModel):
    # Strict types; keys the hall does not read are kept (a newer table may add some).
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)


class _Envelope(_Model):
    v: Literal[1]
    table: Short
    boot: Short = ""
    sent: WallClock | None = None


class StatusMessage(_Envelope):
    """``poolboard/table/<t>/status``."""

    status: Literal["online", "offline"]
    reason: Text = ""
    keepalive: Annotated[float, Field(allow_inf_nan=False, ge=1, le=3600)] = 10.0


class StateMessage(_Envelope):
    """``poolboard/table/<t>/state``."""

    boot: Short
    seq: Id
    state: BoardState


class EventMessage(_Envelope):
    """``poolboard/table/<t>/events``; ``data`` is checked against its kind's model."""

    boot: Short
    seq: Id
    game_id: Id
    kind: Short
    data: dict[Short, JsonValue]


class ReplyMessage(_Envelope):
    """``poolboard/table/<t>/reply``: the answer to an action; a refusal of the table's
    session also says it as ``message`` and ``values`` (docs/api.md), for the hall's pages."""

    id: Short
    ok: bool
    error: Text | None = None
    message: Text | None = None
    values: Annotated[dict[Short, Text | int | float | SaidView], Field(max_length=16)] = {}


class MoveData(_Model):
    """A move event; the newest also carries the clocks after it."""

    ply: Annotated[int, Field(ge=1, le=100_000)]
    move: Short
    black: Seconds | None = None
    white: Seconds | None = None


class ResultData(_Model):
    """The game ended."""

    result: Result
    reason: Text | None = ""


class ViolationData(_Model):
    """The tracker saw a rule broken."""

    rule: Short = ""
    message: Text = ""
    said: SaidView | None = None  # the message as words a page says in its language


class FaultData(_Model):
    """A sensor fault."""

    message: Text = "sensor fault"
    said: SaidView | None = None  # the message as words a page says in its language


class ClockData(_Model):
    """A clock event (``FlagFell``...)."""

    event: Short
    side: Short | None = None
    rule: Short | None = None


class PenaltyData(_Model):
    """A caution or forfeit given by a referee."""

    severity: Short = ""
    side: Short | None = None
    rule: Short | None = None
    note: Text | None = ""


class RefereeData(_Model):
    """A referee action at the table, from its audit log."""

    action: Short
    actor: Short = ""
    data: dict[Short, JsonValue] = {}


#: The kinds whose ``data`` the hall reads; other kinds pass with their envelope checked.
EVENT_DATA: dict[str, type[_Model]] = {
    "move": MoveData,
    "result": ResultData,
    "violation": ViolationData,
    "fault": FaultData,
    "clock": ClockData,
    "referee": RefereeData,
}

Message = StatusMessage | StateMessage | EventMessage | ReplyMessage
_MODELS: dict[
    str, type[StatusMessage] | type[StateMessage] | type[EventMessage] | type[ReplyMessage]
] = {
    topics.STATUS: StatusMessage,
    topics.STATE: StateMessage,
    topics.EVENTS: EventMessage,
    topics.REPLY: ReplyMessage,
}


def _first_error(error: ValidationError) -> str:
    first = error.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "message"
    more = error.error_count() - 1
    return f"{where}: {first['msg']}" + (f" (and {more} more)" if more else "")


def validate(table: str, suffix: str, data: dict[str, JsonValue]) -> Message:
    """``data`` (decoded from ``poolboard/table/<table>/<suffix>``) as its typed message;
    ProtocolError naming the topic and the first wrong field otherwise."""
    where = topics.topic(table, suffix)
    model = _MODELS.get(suffix)
    if model is None:
        raise topics.ProtocolError(f"{where}: the hall does not read this topic")
    try:
        # strict=True reaches the nested BoardState too (the table builds it laxly).
        message = model.model_validate(data, strict=True)
        if isinstance(message, EventMessage) and message.kind in EVENT_DATA:
            penalty = message.kind == "referee" and message.data.get("action") == "penalty"
            EVENT_DATA[message.kind].model_validate(message.data)
            if penalty:
                PenaltyData.model_validate(message.data.get("data"))
    except ValidationError as error:
        raise topics.ProtocolError(f"{where}: {_first_error(error)}") from None
    if message.table != table:
        raise topics.ProtocolError(f"{where}: says it is from table {message.table!r}")
    return message


def parse(raw: bytes, table: str, suffix: str) -> Message:
    """The typed message in ``raw`` from ``poolboard/table/<table>/<suffix>``; ProtocolError
    naming the topic and what was wrong otherwise."""
    return validate(table, suffix, topics.decode(raw, topics.topic(table, suffix)))
