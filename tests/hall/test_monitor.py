"""The hall's alerts and feed from messages as the tables send them (docs/hall.md), on a fake
clock; the event in a real SQLite file. The broker itself is exercised in the other tests."""

import time

import paho.mqtt.client as mqtt
import pytest

from poolboard.hall.broadcast import Broadcast
from poolboard.hall.event import EventStore
from poolboard.hall.monitor import HallMonitor
from poolboard.hall.settings import hall_config_from_mapping
from poolboard.hall.topics import encode
from tests.hall.conftest import table_state as state


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def monitor(tmp_path):
    config = hall_config_from_mapping(
        {
            "broker": {"hall_password": "h"},
            "alerts": {"out_of_sync_seconds": 20, "no_move_minutes": 5},
            "tables": [{"name": "t1", "password": "p"}],
        }
    )
    event = EventStore(tmp_path / "hall.sqlite3", config.table_names, 2)
    hall = HallMonitor(config, event, now=Clock())
    hall.connected.set()  # as if the broker were there
    yield hall
    event.close()


def send(hall, suffix, seq=0, **data) -> None:
    hall.handle("t1", suffix, {"v": 1, "table": "t1", "boot": "b1", "seq": seq, **data})


def kinds(hall) -> list[str]:
    return [alert.kind for alert in hall.active_alerts()]


def test_alerts_from_messages_and_from_time(monitor) -> None:
    clock = monitor.now
    send(monitor, "status", status="online", reason="connected", keepalive=4)
    send(monitor, "state", state=state())
    assert kinds(monitor) == []
    # A violation, a fault, a flag; a sequence gap.
    send(
        monitor,
        "events",
        1,
        game_id=1,
        kind="violation",
        data={"rule": "R-TCH-2", "message": "touched"},
    )
    send(
        monitor,
        "events",
        4,
        game_id=1,
        kind="clock",
        data={"event": "FlagFell", "side": "white", "rule": "R-END-3"},
    )
    send(monitor, "events", 4, game_id=1, kind="fault", data={"message": "dup"})  # duplicate
    assert kinds(monitor) == ["flag", "gap", "violation"]
    assert "events 2-3 missed" in monitor.active_alerts()[1].message
    send(
        monitor,
        "events",
        5,
        game_id=1,
        kind="referee",
        data={
            "actor": "referee",
            "action": "penalty",
            "data": {"side": "white", "rule": "R-TCH-2", "severity": "caution", "note": ""},
        },
    )
    assert monitor.active_alerts()[0].message == "caution for White (R-TCH-2) by referee"
    # The board out of sync for 20 s; the sensor link down.
    send(monitor, "state", 5, state=state(tracker="restore"))
    clock.now += 19
    monitor.check()
    assert "sync" not in kinds(monitor)
    clock.now += 2
    monitor.check()
    assert "sync" in kinds(monitor)
    send(monitor, "state", 5, state=state(["11-15"], link={"connected": False, "detail": "usb"}))
    assert "sync" not in kinds(monitor) and "link" in kinds(monitor)
    # No move for 5 minutes while the clock runs (the heartbeats keep the table online).
    for _ in range(6):
        clock.now += 55
        send(monitor, "status", status="online", reason="alive", keepalive=4)
        monitor.check()
    assert "idle" in kinds(monitor)
    # Silent for 1.5 x keepalive (4 s): offline, not before; heard again: back.
    clock.now += 6.0
    monitor.check()
    assert monitor.tables["t1"].online and "offline" not in kinds(monitor)
    clock.now += 0.1
    monitor.check()
    assert monitor.tables["t1"].online is False and "offline" in kinds(monitor)
    assert monitor.tables["t1"].status_reason == "silent for 6.1 s"
    send(monitor, "state", 5, state=state(["11-15", "23-19"]))
    assert monitor.tables["t1"].online and "offline" not in kinds(monitor)
    monitor.check()
    assert "idle" not in kinds(monitor)  # a move came


def test_bad_messages_become_alerts(monitor) -> None:
    def deliver(topic: str, payload: bytes) -> None:
        message = mqtt.MQTTMessage(topic=topic.encode())
        message.payload = payload
        monitor._on_message(monitor.client, None, message)

    deliver("poolboard/table/t1/state", b"\xff\xfe")
    deliver("poolboard/table/t1/status", encode({"v": 1, "table": "t1", "status": "sleepy"}))
    deliver("poolboard/table/t1/events", encode({"v": 1, "table": "t1", "boot": "b"}))
    deliver("poolboard/table/t9/state", b"{}")
    deliver("poolboard/table/t1/extra", b"{}")
    messages = [a.message for a in monitor.active_alerts()]
    assert "poolboard/table/t1/state: not UTF-8 (" in messages[-1]
    assert "poolboard/table/t1/status: status: Input should be 'online' or 'offline'" in messages
    assert "poolboard/table/t1/events: seq: Field required (and 3 more)" in messages
    assert any("unknown table 't9'" in m for m in messages)
    assert any("is not poolboard/table/<table>" in m for m in messages)
    assert monitor.tables["t1"].state is None


def test_the_feed_runs_behind_by_the_delay(monitor) -> None:
    monitor.event.import_players("Ann\nBob\n")
    monitor.event.import_pairings("1,t1,Ann,Bob\n")
    feed = Broadcast(monitor, delay=60, now=monitor.now)
    feed.start()
    send(monitor, "state", state=state(["11-15"]))
    assert feed.text("round-1-t1.pdn", delayed=False).endswith("1. 11-15 *\n")
    assert feed.text("round-1-t1.pdn") == ""  # nothing is a minute old yet
    monitor.now.now += 30
    send(monitor, "state", state=state(["11-15", "23-19"]))
    monitor.now.now += 31
    delayed = feed.text("round-1-t1.pdn")
    assert delayed.endswith("1. 11-15 *\n") and '[Black "Ann"]' in delayed
    monitor.now.now += 30
    assert feed.text("round-1.pdn").endswith("1. 11-15 23-19 *\n")
    # Round 2: the game still on the board belongs to round 1's feed, not to round 2's.
    monitor.event.set_round(2)
    send(monitor, "state", state=state(["11-15", "23-19"]))
    assert feed.text("round-2-t1.pdn", delayed=False) == ""
    feed.stop()


def test_the_table_clock_offset_comes_from_live_heartbeats_only(monitor) -> None:
    """An action's deadline is set in the table's clock (docs/hall.md): the offset is taken
    from heartbeats sent just now, never from a retained one of long ago."""
    ahead = time.time() + 100.0
    send(monitor, "status", status="online", reason="alive", sent=ahead)
    assert 99 < monitor.tables["t1"].clock_offset <= 100
    monitor.handle(
        "t1",
        "status",
        {"v": 1, "table": "t1", "status": "online", "sent": time.time() - 3600},
        retained=True,
    )
    assert 99 < monitor.tables["t1"].clock_offset <= 100


def test_the_feed_writes_clocks_to_the_tenth_as_export_does(monitor) -> None:
    """``[%clk h:mm:ss.t]``: the mover's time after the move, tenths at most, never below 0."""
    feed = Broadcast(monitor)
    feed.start()
    for seq, (ply, move, black, white) in enumerate(
        [(1, "11-15", 1790.2345, 1800.0), (2, "23-19", 1790.2345, -0.37)], start=1
    ):
        send(
            monitor,
            "events",
            seq,
            game_id=1,
            kind="move",
            data={"ply": ply, "move": move, "black": black, "white": white},
        )
    send(monitor, "state", 2, state=state(["11-15", "23-19"]))
    text = feed.text("round-1-t1.pdn", delayed=False)
    assert "1. 11-15 {[%clk 0:29:50.2]} 1... 23-19 {[%clk 0:00:00]} *" in text
    feed.stop()


def test_a_tile_words_a_result_for_the_audience(monitor) -> None:
    """The hall's tiles (its pages, /big) say a result as the board's own pages do, in each
    language and without rule IDs; the director's alert keeps the rule."""
    monitor.event.import_players("Ann Lee\nBob Ray\n")
    monitor.event.set_pairing(1, "t1", "Ann Lee", "Bob Ray")
    monitor.event.set_round(1)
    ended = state(["11-15"], result="1-0")
    ended["result_reason"] = "White has no pieces left (R-END-1)"
    send(monitor, "state", state=ended)
    tile = monitor.summary("t1")
    assert tile["words"] == "Ann Lee (Black) wins — White has no pieces left"
    assert tile["result_words"]["es"] == "Gana Ann Lee (Negras) — Blancas no tienen piezas"
    assert [a.message for a in monitor.active_alerts() if a.kind == "result"] == [
        "game 1: Ann Lee (Black) wins — White has no pieces left (R-END-1); confirm it"
    ]


def test_the_feed_writes_a_table_s_tags_on_one_line_and_refuses_what_pdn_cannot_hold(
    monitor,
) -> None:
    """A table's tag holding a form feed, which many readers end a line at, is written on one
    line; a tag name PDN cannot hold is an alert naming the table, not a dead feed."""
    feed = Broadcast(monitor)
    feed.start()
    odd = state(["11-15"])
    odd["headers"] = {"Site": "Club\x0c% hall", "White": "W", "Black": "B"}
    send(monitor, "state", 1, state=odd)
    text = feed.text("round-1-t1.pdn", delayed=False)
    assert '[Site "Club % hall"]' in text and "1. 11-15 *" in text
    assert kinds(monitor) == []
    odd["headers"] = {"Bad name": "x", "White": "W", "Black": "B"}
    send(monitor, "state", 2, state=odd)
    assert "protocol" in kinds(monitor)
    assert any(
        "the game cannot be written: tag name 'Bad name'" in alert.message
        for alert in monitor.active_alerts()
    )
    feed.stop()


def test_an_alert_keeps_the_words_the_table_sent(monitor) -> None:
    """A sensor fault and a violation come with their words (``said``, docs/hall.md): the
    alert keeps them, so the hall page says it in its own language; a table that sends only
    English is quoted."""
    send(monitor, "status", status="online", reason="connected", keepalive=4)
    send(monitor, "state", state=state())
    said = {"message": "square {square} is quiet again", "values": {"square": "13"}}
    message = "square 13 is quiet again"
    send(monitor, "events", 1, game_id=1, kind="fault", data={"message": message, "said": said})
    send(monitor, "events", 2, game_id=1, kind="fault", data={"message": "LED frame rejected"})
    illegal = {"message": "{move} is not a legal move (R-ILL-1)", "values": {"move": "10-17"}}
    data = {"rule": "R-ILL-1", "message": "10-17 is not a legal move (R-ILL-1)", "said": illegal}
    send(monitor, "events", 3, game_id=1, kind="violation", data=data)
    violation, newer, older = monitor.active_alerts()[:3]
    assert (older.kind, older.message, older.said) == ("fault", message, said)
    assert (newer.message, newer.said) == ("LED frame rejected", None)
    assert (violation.kind, violation.said) == ("violation", illegal)
