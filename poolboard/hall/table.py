"""The table's side of the hall: publish the session to the broker, take referee actions from it.

Runs beside the web server inside ``poolboard run`` when the config has a ``[hall]`` broker. The
session is never made to wait: the publisher subscribes to the session's typed events (a move
recorded, a correction, a result...: poolboard/session/events.py) and to its whole state, only
queues them, and a worker thread turns them into MQTT messages (docs/hall.md). The broker being
down costs only the live view: paho keeps reconnecting, queues the events (bounded), and on every
(re)connect the table says "online" and re-publishes its whole state. The SQLite record stays
the truth.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from pydantic import BaseModel, ValidationError

from engine.color import Color
from poolboard.broker_client import BrokerConnection, login_client
from poolboard.hall import topics
from poolboard.hall.link import HallLinkConfig
from poolboard.session import RefereeError, Session
from poolboard.session.events import (
    BoardChanged,
    ClockNoted,
    DomainEvent,
    FaultShown,
    GameOpened,
    MovePlayed,
    RecordRewritten,
    RefereeActed,
    ResultReached,
    ViolationShown,
)
from poolboard.session.state import Json
from poolboard.web.director import Details, Ending, Void
from poolboard.web.models import (
    ClockAdjustment,
    MoveCorrection,
    Penalty,
    PositionSetup,
    Result,
    SideBody,
)

log = logging.getLogger("poolboard.hall")

#: Events kept for the broker while it is unreachable; beyond this the oldest are dropped and a
#: subscriber sees the gap in ``seq`` (the retained state still has every move).
MAX_QUEUED = 5000
#: Action ids remembered to answer a QoS 1 duplicate without doing the action twice.
ACTIONS_REMEMBERED = 200


class _Action:
    """One referee action: the body it accepts (web.models, the console's validation) and how
    it is applied to the session with the actor's name."""

    def __init__(
        self, model: type[BaseModel] | None, apply: Callable[[Session, str, Any], None]
    ) -> None:
        self.model = model
        self.apply = apply


#: The referee console's actions (docs/api.md), by the names of its endpoints.
ACTIONS: dict[str, _Action] = {
    "pause": _Action(None, lambda s, who, _: s.pause_clock(who)),
    "resume": _Action(None, lambda s, who, _: s.resume_clock(who)),
    "adjust-clock": _Action(
        ClockAdjustment, lambda s, who, b: s.adjust_clock(who, b.color, float(b.seconds))
    ),
    "correct-move": _Action(MoveCorrection, lambda s, who, b: s.correct_move(who, b.ply, b.move)),
    "position": _Action(PositionSetup, lambda s, who, b: s.set_position(who, b.fen)),
    "count": _Action(SideBody, lambda s, who, b: s.invoke_count(who, b.color)),
    "penalty": _Action(
        Penalty, lambda s, who, b: s.penalty(who, b.color, b.rule, b.severity, b.note)
    ),
    "result": _Action(Result, lambda s, who, b: s.declare_result(who, b.result, b.reason)),
    "next-game": _Action(None, lambda s, who, _: s.next_game(who)),
    # The director's console's (docs/api.md): the players and round the hall seats at a
    # table, a move struck, how a game ended, a new match for a new round.
    "details": _Action(Details, lambda s, who, b: s.set_details(who, _given(b))),
    "void": _Action(Void, lambda s, who, b: s.void_moves(who, b.plies)),
    "end": _Action(
        Ending,
        lambda s, who, b: s.end_game(
            who, b.how, None if b.side is None else Color(b.side), b.reason
        ),
    ),
    "new-match": _Action(None, lambda s, who, _: s.next_game(who, new_match=True)),
}


def _given(details: Details) -> dict[str, str]:
    """The details an action sets (the fields it leaves out stay as they are)."""
    return {key: value for key, value in details.model_dump().items() if value is not None}


def hall_event(event: DomainEvent) -> tuple[str, Json] | None:
    """A session event as the hall's ``events`` message has it, ``(kind, data)`` (docs/hall.md):
    ``game``, ``move``, ``correction``, ``takeback``, ``violation``, ``fault``, ``clock``,
    ``result``, ``referee``; ``None`` for what the hall does not hear of (the cues)."""
    match event:
        case GameOpened():
            return "game", {"start_fen": event.start_fen, "headers": event.headers}
        case MovePlayed():
            move: Json = {"ply": event.ply, "move": event.notation, "fen": event.fen}
            return "move", {**move, "black": event.black, "white": event.white}
        case RecordRewritten():
            return event.kind, {"ply": event.ply, "moves": list(event.moves), "fen": event.fen}
        case ViolationShown():
            return "violation", event.data
        case FaultShown():
            return "fault", event.data
        case ClockNoted():
            return "clock", event.data
        case ResultReached():
            return "result", {"result": event.result, "reason": event.reason}
        case RefereeActed():
            data: Json = {"time": event.time, "actor": event.actor, "action": event.action}
            return "referee", {**data, "data": event.data}
    return None


#: The session events the hall hears of, as :func:`hall_event` names them.
HALL_EVENTS = (
    GameOpened,
    MovePlayed,
    RecordRewritten,
    ViolationShown,
    FaultShown,
    ClockNoted,
    ResultReached,
    RefereeActed,
)


class TablePublisher:
    """Publishes ``session`` as table ``link.table`` to the hall's broker (``start``/``stop``)."""

    def __init__(self, session: Session, link: HallLinkConfig) -> None:
        self.session = session
        self.link = link
        self.table = link.table
        self.boot = secrets.token_hex(6)  # a restarted table starts its seq again: a new boot
        self.seq = 0
        self._events: deque[tuple[int, str, Json]] = deque()  # (game_id, kind, data) to send
        self._newest: Json | None = None  # the state (session.state.BoardState) to send
        self._published: Json | None = None
        self._wake = threading.Condition()
        self._resend_state = False
        self._stopping = False
        self._unsubscribe: list[Callable[[], None]] = []
        self._worker: threading.Thread | None = None
        self._answered: OrderedDict[str, dict[str, object]] = OrderedDict()
        self.connection = self._connection()
        self.client = self.connection.client

    # -- the connection ------------------------------------------------------------------------

    def _connection(self) -> BrokerConnection:
        client = login_client(self.table, self.link, MAX_QUEUED)
        client.will_set(
            self._topic(topics.STATUS),
            self._status("offline", "connection lost"),
            qos=topics.QOS,
            retain=True,
        )
        client.on_message = self._on_message
        return BrokerConnection.to(
            self.link,
            client,
            log=log,
            who=f"table {self.table}",
            meanwhile="recording goes on",
            on_up=self._on_up,
        )

    def _topic(self, suffix: str) -> str:
        return topics.topic(self.table, suffix)

    def _status(self, status: str, reason: str) -> bytes:
        return topics.encode(
            {
                "v": topics.PROTOCOL_VERSION,
                "table": self.table,
                "boot": self.boot,
                "status": status,
                "reason": reason,
                "keepalive": self.link.keepalive,
                "sent": time.time(),
            }
        )

    def start(self) -> None:
        """Connect in the background (retrying while the broker is away) and start publishing."""
        self._worker = threading.Thread(target=self._work, name="hall-publisher", daemon=True)
        self._worker.start()
        events = self.session.events
        with self.session.lock:  # no change between the first state and the first event
            self._unsubscribe = [events.subscribe(kind, self._on_event) for kind in HALL_EVENTS]
            self._unsubscribe.append(events.subscribe(BoardChanged, self._on_board))
            self._on_board(BoardChanged(self.session.board_state()))
        self.connection.start()
        log.info("hall: table %s publishing to %s:%d", self.table, self.link.broker, self.link.port)

    def stop(self) -> None:
        """Say "offline" (a clean goodbye: the broker sends no last will) and disconnect."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        with self._wake:
            self._stopping = True
            self._wake.notify()
        if self._worker is not None:
            self._worker.join(timeout=5)
        if self.client.is_connected():
            info = self.client.publish(
                self._topic(topics.STATUS), self._status("offline", "stopped"), topics.QOS, True
            )
            info.wait_for_publish(timeout=2)
        self.connection.stop()

    def _on_up(self, client: mqtt.Client) -> None:
        """Connected: take actions, say "online" and have the worker publish the whole state."""
        client.subscribe(self._topic(topics.ACTION), qos=topics.QOS)
        client.publish(
            self._topic(topics.STATUS), self._status("online", "connected"), topics.QOS, True
        )
        with self._wake:
            self._resend_state = True
            self._wake.notify()

    # -- publishing ----------------------------------------------------------------------------

    def _on_event(self, event: DomainEvent) -> None:
        """Session thread: queue the event for the worker; never waits."""
        told = hall_event(event)
        if told is not None:
            game_id = getattr(event, "game_id", 0)
            with self._wake:
                self._events.append((game_id, *told))

    def _on_board(self, changed: BoardChanged) -> None:
        """Session thread: keep the newest state and wake the worker; never waits."""
        with self._wake:
            self._newest = changed.json
            self._wake.notify()

    def _work(self) -> None:
        beat = self.link.keepalive / 2
        next_beat = time.monotonic() + beat
        while True:
            with self._wake:
                while self._newest is None and not self._resend_state and not self._stopping:
                    if not self._wake.wait(timeout=max(0.0, next_beat - time.monotonic())):
                        break
                if self._stopping:
                    return
                state, self._newest = self._newest, None
                resend, self._resend_state = self._resend_state, False
                events = list(self._events)
                self._events.clear()
            try:
                self._publish(events, state, resend)
                if time.monotonic() >= next_beat:
                    next_beat = time.monotonic() + beat
                    self._heartbeat()
            except Exception:  # the live view may fail; the session must go on
                log.exception("hall: publishing failed")

    def _heartbeat(self) -> None:
        """ "online" again every keepalive/2: the hall flags a table silent for 1.5 x keepalive
        itself, sooner than the broker's last will, which Mosquitto 2.0 checks only every few
        seconds (docs/hall.md)."""
        if self.client.is_connected():
            self.client.publish(
                self._topic(topics.STATUS), self._status("online", "alive"), topics.QOS, True
            )

    def _publish(
        self, events: list[tuple[int, str, Json]], state: Json | None, resend: bool
    ) -> None:
        now = time.time()
        for game_id, kind, data in events:
            self.seq += 1
            event = {
                "v": topics.PROTOCOL_VERSION,
                "table": self.table,
                "boot": self.boot,
                "seq": self.seq,
                "sent": now,
                "game_id": game_id,
                "kind": kind,
                "data": data,
            }
            self.client.publish(self._topic(topics.EVENTS), topics.encode(event), topics.QOS)
        if state is not None:
            self._published = state
        wanted = self._published is not None and (state is not None or resend)
        if wanted and self.client.is_connected():
            whole = {
                "v": topics.PROTOCOL_VERSION,
                "table": self.table,
                "boot": self.boot,
                "seq": self.seq,
                "sent": time.time(),
                "state": self._published,
            }
            self.client.publish(
                self._topic(topics.STATE), topics.encode(whole), topics.QOS, retain=True
            )

    # -- referee actions from the hall ---------------------------------------------------------

    def _on_message(self, client: mqtt.Client, _: object, message: mqtt.MQTTMessage) -> None:
        if message.retain:  # an old action kept by the broker is never replayed
            log.warning("hall: ignored a retained action on %s", message.topic)
            return
        reply = self.handle_action(bytes(message.payload))
        client.publish(self._topic(topics.REPLY), topics.encode(reply), topics.QOS)

    def handle_action(self, payload: bytes) -> dict[str, object]:
        """Check and apply one action message (docs/hall.md); the reply to publish."""
        reply: dict[str, object] = {"v": topics.PROTOCOL_VERSION, "table": self.table}
        try:
            message = topics.decode(payload, f"{self._topic(topics.ACTION)}")
            action_id, actor, name = (message.get(k) for k in ("id", "actor", "action"))
            if not isinstance(action_id, str) or not action_id:
                raise topics.ProtocolError("action: 'id' must be a non-empty string")
            reply["id"] = action_id
            if action_id in self._answered:
                return self._answered[action_id]  # a QoS 1 duplicate: done once already
            if not isinstance(actor, str) or not 1 <= len(actor) <= 64:
                raise topics.ProtocolError("action: 'actor' must be the director's name")
            if name not in ACTIONS:
                raise topics.ProtocolError(
                    f"action: unknown action {name!r}; expected one of {', '.join(ACTIONS)}"
                )
            expires = message.get("expires")  # the hall's deadline, in this table's clock
            if not isinstance(expires, int | float) or isinstance(expires, bool):
                raise topics.ProtocolError("action: 'expires' must be its deadline (Unix time)")
            if time.time() > expires:
                raise topics.ProtocolError(f"action {name}: past its deadline, not done")
            action = ACTIONS[name]
            args = message.get("args", {})
            body = action.model.model_validate(args) if action.model is not None else None
            if action.model is None and args:
                raise topics.ProtocolError(f"action {name}: takes no arguments")
            action.apply(self.session, f"hall:{actor}", body)
            reply.update(ok=True, error=None)
            log.info("hall: %s by %s", name, actor)
        except RefereeError as error:  # the session's words apart, for the hall's language
            reply.update(ok=False, error=str(error), **error.phrase.to_json())
        except topics.ProtocolError as error:
            reply.update(ok=False, error=str(error))
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "args"
            reply.update(ok=False, error=f"action args {where}: {first['msg']}")
        if not reply["ok"]:
            log.warning("hall: refused an action: %s", reply["error"])
        if isinstance(answered := reply.get("id"), str):  # set only once it is a string
            self._answered[answered] = reply
            while len(self._answered) > ACTIONS_REMEMBERED:
                self._answered.popitem(last=False)
        return reply
