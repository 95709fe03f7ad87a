"""The table's side of the hall: publish the session to the broker, take referee actions from it.

Runs beside the web server inside ``poolboard run`` when the config has a ``[hall]`` broker. The
session is never made to wait: its listener only drops the newest state in a slot, and a worker
thread turns states into MQTT messages (docs/hall.md). The broker being down costs only the live
view: paho keeps reconnecting, queues the events (bounded), and on every (re)connect the table
says "online" and re-publishes its whole state. The SQLite record stays the truth.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from pydantic import BaseModel, ValidationError

from poolboard.broker_client import new_client
from poolboard.hall import topics
from poolboard.hall.link import HallLinkConfig
from poolboard.session import RefereeError, Session
from poolboard.web.models import (
    ClockAdjustment,
    MoveCorrection,
    Penalty,
    Position,
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
    "position": _Action(Position, lambda s, who, b: s.set_position(who, b.fen)),
    "count": _Action(SideBody, lambda s, who, b: s.invoke_count(who, b.color)),
    "penalty": _Action(
        Penalty, lambda s, who, b: s.penalty(who, b.color, b.rule, b.severity, b.note)
    ),
    "result": _Action(Result, lambda s, who, b: s.declare_result(who, b.result, b.reason)),
    "next-game": _Action(None, lambda s, who, _: s.next_game(who)),
}


def _appended(old: list[Any], new: list[Any]) -> list[Any]:
    """The items at the end of ``new`` that ``old`` did not have, where both are the last few
    items of one growing list (the session keeps the last 10 violations, 5 faults...)."""
    for overlap in range(min(len(old), len(new)), 0, -1):
        if old[-overlap:] == new[:overlap]:
            return new[overlap:]
    return list(new)


def state_changes(old: dict[str, Any] | None, new: dict[str, Any]) -> list[tuple[str, Any]]:
    """What happened between two session states, as ``(kind, data)`` events (docs/hall.md):
    ``game``, ``move``, ``correction``, ``takeback``, ``violation``, ``fault``, ``clock``,
    ``result``. The first state announces nothing (the retained state carries it)."""
    if old is None:
        return []
    events: list[tuple[str, Any]] = []
    if new["game_id"] != old["game_id"]:
        events.append(("game", {"start_fen": new["start_fen"], "headers": new["headers"]}))
        old = {**old, "moves": [], "violations": [], "faults": [], "result": None}
        old["clock"] = {**old["clock"], "events": []}
    before, after = old["moves"], new["moves"]
    common = 0
    while common < min(len(before), len(after)) and before[common] == after[common]:
        common += 1
    if common < len(before):
        kind = "takeback" if common == len(after) else "correction"
        events.append((kind, {"ply": common + 1, "moves": after[common:], "fen": new["fen"]}))
    else:
        clock = new["clock"]
        for ply in range(common + 1, len(after) + 1):
            move: dict[str, Any] = {"ply": ply, "move": after[ply - 1]}
            if ply == len(after):
                move.update(fen=new["fen"], black=clock["black"], white=clock["white"])
            events.append(("move", move))
    for kind, old_list, new_list in (
        ("violation", old["violations"], new["violations"]),
        ("fault", old["faults"], new["faults"]),
        ("clock", old["clock"]["events"], new["clock"]["events"]),
    ):
        events += [(kind, item) for item in _appended(old_list, new_list)]
    if new["result"] is not None and new["result"] != old["result"]:
        events.append(("result", {"result": new["result"], "reason": new["result_reason"]}))
    return events


class TablePublisher:
    """Publishes ``session`` as table ``link.table`` to the hall's broker (``start``/``stop``)."""

    def __init__(self, session: Session, link: HallLinkConfig) -> None:
        self.session = session
        self.link = link
        self.table = link.table
        self.boot = secrets.token_hex(6)  # a restarted table starts its seq again: a new boot
        self.seq = 0
        self._newest: dict[str, Any] | None = None
        self._published: dict[str, Any] | None = None
        self._wake = threading.Condition()
        self._resend_state = False
        self._stopping = False
        self._unreachable_said = False
        self._audited = len(session.store.audit_log())  # earlier actions are not news
        self._unsubscribe: Callable[[], None] | None = None
        self._worker: threading.Thread | None = None
        self._answered: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.client = self._client()

    # -- the connection ------------------------------------------------------------------------

    def _client(self) -> mqtt.Client:
        client = new_client(
            self.table,
            self.link.password,
            tls=self.link.tls,
            ca_file=self.link.ca_file,
            max_queued=MAX_QUEUED,
        )
        client.will_set(
            self._topic(topics.STATUS),
            self._status("offline", "connection lost"),
            qos=topics.QOS,
            retain=True,
        )
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_message = self._on_message
        return client

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
        self._unsubscribe = self.session.subscribe(self._on_state)
        self._on_state(self.session.state())
        self.client.connect_async(self.link.broker, self.link.port, keepalive=self.link.keepalive)
        self.client.loop_start()
        log.info("hall: table %s publishing to %s:%d", self.table, self.link.broker, self.link.port)

    def stop(self) -> None:
        """Say "offline" (a clean goodbye: the broker sends no last will) and disconnect."""
        if self._unsubscribe is not None:
            self._unsubscribe()
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
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, _: Any, __: Any, reason: Any, ___: Any) -> None:
        if reason.is_failure:
            log.warning(
                "hall: broker %s refused table %s: %s", self.link.broker, self.table, reason
            )
            return
        log.info("hall: connected to %s:%d", self.link.broker, self.link.port)
        self._unreachable_said = False
        client.subscribe(self._topic(topics.ACTION), qos=topics.QOS)
        client.publish(
            self._topic(topics.STATUS), self._status("online", "connected"), topics.QOS, True
        )
        with self._wake:
            self._resend_state = True
            self._wake.notify()

    def _on_connect_fail(self, _: mqtt.Client, __: Any) -> None:
        if not self._unreachable_said:  # once until it works: the log is for people
            self._unreachable_said = True
            log.warning(
                "hall: cannot reach the broker %s:%d; recording goes on, retrying",
                self.link.broker,
                self.link.port,
            )

    def _on_disconnect(self, _: mqtt.Client, __: Any, ___: Any, reason: Any, ____: Any) -> None:
        if not self._stopping:
            log.warning("hall: lost the broker (%s); recording goes on, retrying", reason)

    # -- publishing ----------------------------------------------------------------------------

    def _on_state(self, state: dict[str, Any]) -> None:
        """Session thread: keep the newest state and wake the worker; never waits."""
        with self._wake:
            self._newest = state
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
            try:
                self._publish(state, resend)
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

    def _referee_actions(self) -> list[tuple[str, Any]]:
        """``referee`` events for the audit log's new rows (the table's console or the hall):
        how cautions and penalties given at the table reach the director."""
        log_rows = self.session.store.audit_log()
        new, self._audited = log_rows[self._audited :], len(log_rows)
        return [
            ("referee", {"time": at, "actor": actor, "action": action, "data": data})
            for at, actor, action, data in new
        ]

    def _publish(self, state: dict[str, Any] | None, resend: bool) -> None:
        if state is not None:
            now = time.time()
            changes = state_changes(self._published, state) + self._referee_actions()
            for kind, data in changes:
                self.seq += 1
                event = {
                    "v": topics.PROTOCOL_VERSION,
                    "table": self.table,
                    "boot": self.boot,
                    "seq": self.seq,
                    "sent": now,
                    "game_id": state["game_id"],
                    "kind": kind,
                    "data": data,
                }
                self.client.publish(self._topic(topics.EVENTS), topics.encode(event), topics.QOS)
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

    def _on_message(self, client: mqtt.Client, _: Any, message: mqtt.MQTTMessage) -> None:
        if message.retain:  # an old action kept by the broker is never replayed
            log.warning("hall: ignored a retained action on %s", message.topic)
            return
        reply = self.handle_action(bytes(message.payload))
        client.publish(self._topic(topics.REPLY), topics.encode(reply), topics.QOS)

    def handle_action(self, payload: bytes) -> dict[str, Any]:
        """Check and apply one action message (docs/hall.md); the reply to publish."""
        reply: dict[str, Any] = {"v": topics.PROTOCOL_VERSION, "table": self.table}
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
        except (topics.ProtocolError, RefereeError) as error:
            reply.update(ok=False, error=str(error))
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "args"
            reply.update(ok=False, error=f"action args {where}: {first['msg']}")
        if not reply["ok"]:
            log.warning("hall: refused an action: %s", reply["error"])
        if "id" in reply:
            self._answered[reply["id"]] = reply
            while len(self._answered) > ACTIONS_REMEMBERED:
                self._answered.popitem(last=False)
        return reply
