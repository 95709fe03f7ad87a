"""The hall's view of every table, kept from the broker, and the alerts for the director.

One paho client (broker user ``hall``) subscribes to every table's topics. Each message updates
that table's view; anything wrong with a message (bad JSON, an unknown table, a gap in the
sequence numbers) becomes an alert naming it and never touches a recorded game. A checker
thread raises the alerts that time brings: no move for N minutes, a board out of sync for N s.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import NotRequired

import paho.mqtt.client as mqtt
from pydantic import JsonValue
from typing_extensions import TypedDict

from engine.refusal import Refusal, Value
from poolboard.broker_client import BrokerConnection, new_client
from poolboard.hall import messages, topics
from poolboard.hall.event import EventStore, result_words, result_words_by_language
from poolboard.hall.settings import HallConfig
from poolboard.listeners import Listeners
from poolboard.session.state import BoardState, Json

log = logging.getLogger("poolboard.hall")

#: Alerts kept for the console (the oldest dismissed first).
ALERTS_KEPT = 500


class ActionError(Refusal):
    """A referee action that could not reach a table or was not answered, worded as a refusal
    (the console says it in its language); ``action_id`` is its id if it was sent (the table
    will refuse it once its deadline is past)."""

    def __init__(self, message: str, action_id: str | None = None, **values: Value) -> None:
        super().__init__(message, **values)
        self.action_id = action_id


@dataclass
class Alert:
    """Something the director should look at; ``active`` until resolved or dismissed."""

    id: int
    time: float  # wall clock (seconds since 1970)
    table: str
    kind: str  # offline, link, fault, sync, flag, violation, penalty, idle, result, protocol...
    message: str
    active: bool = True
    ref: str = ""  # what handling it means (a result to confirm): resolve(ref) clears it
    said: Json | None = None  # message as words a page says in its language


class TileClock(TypedDict):
    """A tile's clocks: seconds left, who runs, the clock's state (None before any state)."""

    black: float | None
    white: float | None
    running: str | None
    state: str | None


class Tile(TypedDict):
    """The compact picture of one table the hall page shows; :meth:`HallMonitor.summary` adds
    the round and the pairing's names and game."""

    table: str
    online: bool | None
    status: str
    game_id: int | None
    fen: str | None
    turn: str | None
    plies: int
    last: str | None
    clock: TileClock
    result: str | None
    reason: str | None
    waiting: str | None
    waiting_detail: str | None
    waiting_said: dict[str, object] | None
    link: bool | None
    headers: dict[str, str]
    updated: float
    round: NotRequired[int]
    black: NotRequired[str]
    white: NotRequired[str]
    game: NotRequired[int]
    words: NotRequired[str]
    result_words: NotRequired[dict[str, str]]


@dataclass
class TableView:
    """What the hall knows of one table."""

    name: str
    online: bool | None = None  # None: not heard from yet
    status_reason: str = "not heard from yet"
    boot: str = ""
    seq: int = 0
    state: BoardState | None = None  # the last the table published
    updated: float = 0.0  # wall clock of the last message
    heard: float | None = None  # monotonic time of the last message
    keepalive: float = 10.0  # the table's, from its status messages
    clock_offset: float = 0.0  # the table's wall clock minus the hall's, from live heartbeats
    last_move_at: float | None = None  # monotonic
    out_of_sync_since: float | None = None  # monotonic
    clocks: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)
    # (game id, result) already reported: a result corrected later is reported again
    reported: set[tuple[int, str]] = field(default_factory=set)

    def summary(self) -> Tile:
        """The compact picture the hall page tiles show."""
        state = self.state
        moves = [] if state is None else state.moves
        clock = None if state is None else state.clock
        tracker = None if state is None else state.state
        link = None if state is None else state.link
        return {
            "table": self.name,
            "online": self.online,
            "status": self.status_reason,
            "game_id": None if state is None else state.game_id,
            "fen": None if state is None else state.fen,
            "turn": None if state is None else state.turn,
            "plies": len(moves),
            "last": moves[-1] if moves else None,
            "clock": {
                "black": None if clock is None else clock.black,
                "white": None if clock is None else clock.white,
                "running": None if clock is None else clock.running,
                "state": None if clock is None else clock.state,
            },
            "result": None if state is None else state.result,
            "reason": None if state is None else state.result_reason,
            "waiting": None if tracker is None else tracker.name,
            "waiting_detail": None if tracker is None else tracker.detail,
            "waiting_said": None
            if tracker is None or tracker.said is None
            else tracker.said.model_dump(mode="json"),
            "link": None if link is None else link.connected,
            "headers": {} if state is None else state.headers,
            "updated": self.updated,
        }


class HallMonitor:
    """Keeps :class:`TableView` s and alerts from the broker; sends referee actions."""

    def __init__(
        self,
        config: HallConfig,
        event: EventStore,
        *,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.event = event
        self.now = now
        self.lock = threading.RLock()
        self.tables = {name: TableView(name) for name in config.table_names}
        self.alerts: deque[Alert] = deque(maxlen=ALERTS_KEPT)
        self._conditions: dict[tuple[str, str], Alert] = {}
        self._alert_ids = itertools.count(1)
        self._listeners: Listeners[str] = Listeners("hall")
        self._replies: dict[str, Future[messages.ReplyMessage]] = {}
        self._stop = threading.Event()
        self._checker: threading.Thread | None = None
        self.connection = self._connection()
        self.client = self.connection.client

    # -- the connection ------------------------------------------------------------------------

    def _connection(self) -> BrokerConnection:
        broker = self.config.broker
        client = new_client(
            topics.HALL_USER,
            broker.hall_password,
            tls=broker.tls,
            ca_file=broker.ca_file,
            clean_session=False,  # the broker keeps the hall's QoS 1 events while it is away
        )
        client.on_message = self._on_message
        return BrokerConnection(
            client,
            broker.host,
            broker.port,
            broker.keepalive,
            log=log,
            who="the hall",
            meanwhile="the tables' tiles show what was last heard",
            on_up=self._on_up,
        )

    @property
    def connected(self) -> threading.Event:
        """Set while the hall is connected to the broker."""
        return self.connection.connected

    def start(self) -> None:
        """Connect (retrying in the background) and start the alert checker."""
        self.connection.start()
        self._checker = threading.Thread(target=self._check_loop, name="hall-alerts", daemon=True)
        self._checker.start()

    def stop(self) -> None:
        """Disconnect and stop the checker."""
        self._stop.set()
        self.connection.stop()
        if self._checker is not None:
            self._checker.join(timeout=5)

    def _on_up(self, client: mqtt.Client) -> None:
        """Connected: hear every table; the silence while the hall was away is not theirs."""
        client.subscribe(f"{topics.ROOT}/+/+", qos=topics.QOS)
        with self.lock:
            for view in self.tables.values():
                if view.heard is not None:
                    view.heard = self.now()

    # -- listeners -----------------------------------------------------------------------------

    def subscribe(self, listener: Callable[[str], None]) -> Callable[[], None]:
        """Call ``listener(table)`` after every change to that table's view."""
        return self._listeners.add(listener)

    def _changed(self, table: str) -> None:
        self._listeners.notify(table)

    # -- alerts --------------------------------------------------------------------------------

    def alert(
        self, table: str, kind: str, message: str, ref: str = "", said: Json | None = None
    ) -> Alert:
        """Record a one-off alert; ``ref``: the thing whose handling clears it (resolve);
        ``said``: ``message`` as words a page says in its language (``Phrase.to_json``), when
        the table sent them."""
        with self.lock:
            raised = Alert(
                next(self._alert_ids), time.time(), table, kind, message, ref=ref, said=said
            )
            self.alerts.append(raised)
        log.warning("hall alert: %s %s: %s", table, kind, message)
        return raised

    def condition(self, table: str, kind: str, message: str | None) -> None:
        """Raise (``message``) or resolve (``None``) the standing alert ``kind`` of ``table``."""
        with self.lock:
            current = self._conditions.get((table, kind))
            if message is None:
                if current is not None:
                    current.active = False
                    del self._conditions[(table, kind)]
            elif current is None or not current.active:
                self._conditions[(table, kind)] = self.alert(table, kind, message)

    def dismiss(self, alert_id: int) -> bool:
        """The director has seen alert ``alert_id``; whether it existed."""
        with self.lock:
            for alert in self.alerts:
                if alert.id == alert_id:
                    alert.active = False
                    return True
        return False

    def resolve(self, ref: str) -> None:
        """What alerts with ``ref`` asked for is done (a result confirmed): they clear."""
        with self.lock:
            for alert in self.alerts:
                if alert.ref == ref:
                    alert.active = False

    def active_alerts(self) -> list[Alert]:
        """The alerts not resolved nor dismissed, newest first."""
        with self.lock:
            return [a for a in reversed(self.alerts) if a.active]

    # -- messages ------------------------------------------------------------------------------

    def _on_message(self, _: mqtt.Client, __: object, message: mqtt.MQTTMessage) -> None:
        """paho's network thread: nothing may escape it, or the hall stops hearing every table
        and the unacknowledged message comes back at every start (docs/hall.md)."""
        try:
            self._receive(message.topic, bytes(message.payload), retained=message.retain)
        except Exception as error:  # a bug of ours, not the table's: say so, keep listening
            log.exception("hall: %s: the message could not be handled", message.topic)
            with contextlib.suppress(Exception):
                self.alert("?", "protocol", f"{message.topic}: not handled ({error!r:.200})")

    def _receive(self, topic: str, payload: bytes, *, retained: bool) -> None:
        try:
            table, suffix = topics.split_topic(topic)
        except topics.ProtocolError as error:
            self.alert("?", "protocol", str(error))
            return
        if table not in self.tables:
            self.condition(table, "unknown", f"unknown table {table!r} publishes on the broker")
            return
        if suffix == topics.ACTION:
            return  # our own actions
        try:
            self.handle(table, suffix, topics.decode(payload, topic), retained=retained)
        except topics.ProtocolError as error:
            self.alert(table, "protocol", str(error))

    def handle(
        self, table: str, suffix: str, data: dict[str, JsonValue], *, retained: bool = False
    ) -> None:
        """Apply one decoded message from ``table`` once it passes the schema (docs/hall.md);
        ProtocolError naming the topic and field if not (the MQTT thread; tests call it too).
        ``retained``: the broker kept it (not sent just now)."""
        message = messages.validate(table, suffix, data)
        with self.lock:
            view = self.tables[table]
            view.updated = time.time()
            if isinstance(message, messages.StatusMessage) and message.sent and not retained:
                view.clock_offset = message.sent - view.updated
            view.heard = self.now()
            if (
                suffix != topics.STATUS
                and view.online is False
                and view.status_reason.startswith("silent")
            ):
                view.online, view.status_reason = True, "heard again"
                self.condition(table, "offline", None)
            if isinstance(message, messages.StatusMessage):
                self._on_status(view, message)
            elif isinstance(message, messages.StateMessage):
                self._on_state(view, message)
            elif isinstance(message, messages.EventMessage):
                self._on_event(view, message)
            else:
                future = self._replies.pop(message.id, None)
                if future is not None:
                    future.set_result(message)
        self._changed(table)

    def _on_status(self, view: TableView, message: messages.StatusMessage) -> None:
        view.online = message.status == "online"
        view.status_reason = message.reason
        view.keepalive = message.keepalive
        why = None if view.online else f"table {view.name} is offline ({view.status_reason})"
        self.condition(view.name, "offline", why)

    def _on_state(self, view: TableView, message: messages.StateMessage) -> None:
        state = message.state
        if message.boot != view.boot:
            view.boot, view.seq = message.boot, message.seq
        else:
            view.seq = max(view.seq, message.seq)
        previous = view.state
        if previous is None or previous.moves != state.moves:
            view.last_move_at = self.now()
        view.state = state
        link = state.link
        self.condition(
            view.name,
            "link",
            None if link is None or link.connected else f"sensor link down: {link.detail or ''}",
        )
        if state.state is not None and state.state.name == "restore" and state.result is None:
            if view.out_of_sync_since is None:
                view.out_of_sync_since = self.now()
        else:
            view.out_of_sync_since = None
            self.condition(view.name, "sync", None)
        if state.result is not None:
            self._report(view, state.game_id, state.result, state.result_reason or "")

    def _on_event(self, view: TableView, message: messages.EventMessage) -> None:
        seq, kind, payload = message.seq, message.kind, message.data
        if message.boot == view.boot:
            if seq <= view.seq:
                return  # a QoS 1 duplicate, or already covered by a state
            if seq > view.seq + 1:
                self.alert(
                    view.name, "gap", f"events {view.seq + 1}-{seq - 1} missed; the state has them"
                )
        view.boot, view.seq = message.boot, seq
        game_id = message.game_id
        if kind == "move":
            move = messages.MoveData.model_validate(payload)
            view.last_move_at = self.now()
            if move.black is not None and move.white is not None:
                view.clocks[(game_id, move.ply)] = (move.black, move.white)
        elif kind == "violation":
            violation = messages.ViolationData.model_validate(payload)
            said = None if violation.said is None else violation.said.model_dump(mode="json")
            text = f"{violation.rule} {violation.message}".strip()
            self.alert(view.name, "violation", text, said=said)
        elif kind == "fault":
            fault = messages.FaultData.model_validate(payload)
            said = None if fault.said is None else fault.said.model_dump(mode="json")
            self.alert(view.name, "fault", fault.message, said=said)
        elif kind == "clock":
            clock = messages.ClockData.model_validate(payload)
            if clock.event in ("FlagFell", "MoveTimeForfeit"):
                what = "flag fell" if clock.event == "FlagFell" else "move time forfeit"
                who = self._player(view.name, game_id, clock.side)
                self.alert(view.name, "flag", f"{who}: {what} ({clock.rule})")
        elif kind == "result":
            result = messages.ResultData.model_validate(payload)
            self._report(view, game_id, result.result, result.reason or "")
        elif kind == "referee":
            referee = messages.RefereeData.model_validate(payload)
            if referee.action == "penalty":
                penalty = messages.PenaltyData.model_validate(referee.data)
                who = self._player(view.name, game_id, penalty.side)
                self.alert(
                    view.name,
                    "penalty",
                    f"{penalty.severity} for {who} ({penalty.rule}) "
                    f"by {referee.actor}: {penalty.note or ''}".rstrip(": "),
                )

    def _report(self, view: TableView, game_id: int, result: str, reason: str) -> None:
        if (game_id, result) in view.reported:
            return
        view.reported.add((game_id, result))
        reported = self.event.report_result(
            self.event.current_round, view.name, game_id, result, reason or ""
        )
        if reported is not None:
            words = self.event.described(reported)["words"]
            self.alert(
                view.name,
                "result",
                f"game {reported.number}: {words}; confirm it",
                ref=reported.ref,
            )

    # -- time-driven alerts --------------------------------------------------------------------

    def check(self) -> None:
        """Raise or resolve the alerts time brings (silent or idle tables, boards out of
        sync)."""
        alerts = self.config.alerts
        now = self.now()
        silent = []
        hearing = self.connected.is_set()  # else the hall is the one cut off
        with self.lock:
            for view in self.tables.values():
                quiet = None if view.heard is None else now - view.heard
                if hearing and view.online and quiet is not None and quiet > 1.5 * view.keepalive:
                    view.online = False
                    view.status_reason = f"silent for {quiet:.1f} s"
                    self.condition(view.name, "offline", f"table {view.name} is silent")
                    silent.append(view.name)
                state = view.state
                since = view.out_of_sync_since
                if since is not None and now - since >= alerts.out_of_sync_seconds:
                    self.condition(view.name, "sync", f"board out of sync for {now - since:.0f} s")
                running = state is not None and state.clock.running is not None
                idle = view.last_move_at is not None and now - view.last_move_at
                if running and state is not None and state.result is None and idle:
                    minutes = idle / 60
                    self.condition(
                        view.name,
                        "idle",
                        f"no move for {minutes:.0f} min"
                        if minutes >= alerts.no_move_minutes
                        else None,
                    )
                else:
                    self.condition(view.name, "idle", None)
        for name in silent:
            self._changed(name)

    def _check_loop(self) -> None:
        while not self._stop.wait(0.25):
            try:
                self.check()
            except Exception:
                log.exception("hall: the alert check failed")

    # -- referee actions -----------------------------------------------------------------------

    def send_action(
        self, table: str, actor: str, action: str, args: Mapping[str, object], timeout: float = 5.0
    ) -> messages.ReplyMessage:
        """Send a referee action to ``table`` and wait for its reply (docs/hall.md). The
        action carries its deadline in the table's clock (``expires``): the table refuses it
        after that, so an action the hall gave up on is never done later (docs/hall.md)."""
        if table not in self.tables:
            raise ActionError("unknown table {table}", table=repr(table))
        if not self.tables[table].online:
            raise ActionError("table {table} is offline", table=table)
        if not self.connected.is_set():
            raise ActionError("the hall is not connected to the broker")
        action_id = uuid.uuid4().hex
        future: Future[messages.ReplyMessage] = Future()
        with self.lock:
            self._replies[action_id] = future
            expires = time.time() + self.tables[table].clock_offset + timeout
        payload = {
            "id": action_id,
            "actor": actor,
            "action": action,
            "args": args,
            "expires": round(expires, 3),
        }
        self.client.publish(topics.topic(table, topics.ACTION), topics.encode(payload), topics.QOS)
        try:
            return future.result(timeout=timeout)
        except TimeoutError:
            raise ActionError(
                "table {table} did not answer within {seconds} s; it will not do it later",
                action_id,
                table=table,
                seconds=round(timeout),
            ) from None
        finally:
            with self.lock:
                self._replies.pop(action_id, None)

    # -- what the pages show -------------------------------------------------------------------

    def summary(self, table: str) -> Tile:
        """One table's tile, with the names and colours of the hall's pairing (R-TRN-2)."""
        with self.lock:
            view = self.tables[table]
            tile = view.summary()
        round_number = self.event.current_round
        pairing = self.event.pairing(round_number, table)
        tile["round"] = round_number
        if pairing is not None:
            number = self.game_number(table, tile["game_id"])
            black, white = pairing.colours(number)
        else:
            headers = tile["headers"]
            number, black, white = 1, headers.get("Black", "?"), headers.get("White", "?")
        tile["black"], tile["white"], tile["game"] = black, white, number
        # The audience's words: no rule IDs (the director's console has them).
        reason = tile["reason"] or ""
        tile["words"] = result_words(tile["result"], reason, black, white, codes=False)
        tile["result_words"] = result_words_by_language(
            tile["result"], reason, black, white, codes=False
        )
        return tile

    def _player(self, table: str, game_id: int, side: str | None) -> str:
        """``"Ann Lee (Black)"``: who plays ``side`` in game ``game_id`` at ``table``."""
        colour = (side or "").lower()
        if colour not in ("black", "white"):
            return side or "?"
        pairing = self.event.pairing(self.event.current_round, table)
        if pairing is None:
            return colour.capitalize()
        black, white = pairing.colours(self.game_number(table, game_id))
        return f"{black if colour == 'black' else white} ({colour.capitalize()})"

    def game_number(self, table: str, game_id: int | None) -> int:
        """Which game of the match ``game_id`` at ``table`` is (reported ones keep theirs)."""
        results = self.event.results(self.event.current_round, table)
        for result in results:
            if result.table_game_id == game_id:
                return result.number
        return len(results) + 1
