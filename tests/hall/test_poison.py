"""Poison: payloads of every wrong shape on every topic the hall reads, published by a table
with valid credentials through the real Mosquitto, the hall restarted in between so that the
retained or queued poison is handed over again at its start. Each one is an alert naming the
table and topic, and the hall goes on following every table (docs/hall.md, "Topics")."""

import json
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poolboard.hall.event import EventStore
from poolboard.hall.monitor import HallMonitor
from poolboard.hall.settings import hall_config_from_mapping
from tests.hall.conftest import (
    HALL_PASSWORD,
    TABLES,
    HallProcess,
    Listener,
    needs_mosquitto,
    table_state,
)
from tests.patience import wait_for

pytestmark = needs_mosquitto

SUFFIXES = ("state", "status", "events", "reply")


def good_state(table: str, moves: list[str], seq: int = 1) -> dict:
    """A state message as a table sends it (its state a whole BoardState)."""
    return {
        "v": 1,
        "table": table,
        "boot": "b1",
        "seq": seq,
        "sent": 1795430000.5,
        "state": table_state(moves, link={"connected": True, "detail": ""}),
    }


#: For each field the hall reads, values it must refuse.
WRONG_STATE = {
    "link": st.one_of(
        st.text(), st.integers(), st.lists(st.integers(), max_size=3), st.just({"connected": "x"})
    ),
    "state": st.one_of(st.text(), st.integers(), st.lists(st.none(), max_size=2)),
    "clock": st.one_of(
        st.text(), st.integers(), st.fixed_dictionaries({"black": st.text(), "white": st.just(1)})
    ),
    "moves": st.one_of(st.integers(), st.text(), st.lists(st.integers(), min_size=1, max_size=3)),
    "game_id": st.one_of(
        st.integers(min_value=2**63),
        st.integers(max_value=-1),
        st.floats(allow_nan=False),
        st.text(),
    ),
    "result": st.one_of(st.integers(), st.sampled_from(["1-1", "white", ""])),
    "headers": st.one_of(st.text(), st.lists(st.text(), max_size=2), st.just({"Round": 1})),
}
WRONG_ENVELOPE = {
    "v": st.integers().filter(lambda v: v != 1),
    "seq": st.one_of(st.integers(min_value=2**63), st.integers(max_value=-1), st.text()),
    "state": st.one_of(st.text(), st.integers(), st.lists(st.integers(), max_size=2)),
    "table": st.just("t2"),
}


def _with(message: dict, path: tuple[str, ...], value: object) -> bytes:
    copy = json.loads(json.dumps(message))
    inner = copy
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return json.dumps(copy).encode()


def _raw_number(token: bytes) -> bytes:
    return json.dumps(good_state("t1", [])).encode().replace(b'"seq": 1', b'"seq": ' + token)


poison = st.one_of(
    st.one_of(
        *(
            st.builds(_with, st.just(good_state("t1", [])), st.just(("state", k)), v)
            for k, v in WRONG_STATE.items()
        ),
        *(
            st.builds(_with, st.just(good_state("t1", [])), st.just((k,)), v)
            for k, v in WRONG_ENVELOPE.items()
        ),
    ),
    st.binary(max_size=40).map(lambda raw: b"\xff" + raw),  # not UTF-8
    st.text(max_size=40).map(lambda text: ("{" + text).encode()),  # not JSON, or no message
    st.integers(33, 200_000).map(lambda n: b'{"v": 1, "state": ' + b"[" * n + b"]" * n + b"}"),
    st.sampled_from([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"9" * 5000]).map(_raw_number),
)


def moves_of(hall: HallMonitor, table: str) -> list[str] | None:
    """The moves in the last state the hall took from ``table`` (None before any)."""
    state = hall.tables[table].state
    return None if state is None else state.moves


@pytest.fixture
def room(broker, tmp_path):
    """A hall config for the test broker, the event store, and tables t1 (the poisoner) and t2."""
    config = hall_config_from_mapping(
        {
            "broker": {"port": broker.port, "hall_password": HALL_PASSWORD, "keepalive": 5},
            "tables": [{"name": name, "password": pw} for name, pw in TABLES.items()],
        }
    )
    event = EventStore(tmp_path / "hall.sqlite3", config.table_names, 2)
    first = HallMonitor(config, event)  # the hall's session: the broker queues for it from now
    first.start()
    assert first.connected.wait(5)
    first.stop()
    t1 = Listener(broker.port, "t1", TABLES["t1"])
    t2 = Listener(broker.port, "t2", TABLES["t2"])
    yield config, event, t1, t2
    t1.close()
    t2.close()
    event.close()


def publish(table: Listener, name: str, suffix: str, payload: bytes) -> None:
    """``payload`` from table ``name``, retained where a table's would be."""
    retained = suffix in ("state", "status")
    topic = f"poolboard/table/{name}/{suffix}"
    table.client.publish(topic, payload, qos=1, retain=retained).wait_for_publish(5)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(suffix=st.sampled_from(SUFFIXES), payload=poison)
def test_no_payload_on_any_topic_blinds_the_hall(room, suffix, payload) -> None:
    config, event, t1, t2 = room
    # The poison waits for the hall: retained (state, status) or queued for its session.
    publish(t1, "t1", suffix, payload)
    hall = HallMonitor(config, event)
    hall.start()
    try:
        topic = f"poolboard/table/t1/{suffix}"
        alert = wait_for(
            lambda: [a for a in hall.active_alerts() if a.message.startswith(topic)],
            f"an alert for {topic}",
        )[0]
        assert alert.table == "t1" and alert.kind == "protocol"
        # Still following every table, the poisoner too, and every tile is JSON.
        moves = ["11-15", "23-19"]
        publish(t2, "t2", "state", json.dumps(good_state("t2", moves)).encode())
        publish(t1, "t1", "state", json.dumps(good_state("t1", moves[:1], seq=2)).encode())
        wait_for(lambda: moves_of(hall, "t2") == moves, "t2's state")
        wait_for(lambda: moves_of(hall, "t1") == moves[:1], "t1's state")
        json.dumps([hall.summary(table) for table in hall.tables], allow_nan=False)
    finally:
        hall.stop()


#: The payloads that blinded the hall in issue #33.
BLINDING = [
    _with(good_state("t1", []), ("state", "link"), "down"),
    _with(good_state("t1", []), ("state",), "playing"),
    b'{"v": 1, "table": "t1", "state": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    _with(good_state("t1", []), ("state", "clock"), "x"),
    _with(good_state("t1", []), ("state", "moves"), 5),
]


def alerted(hall: HallProcess, table: str, suffix: str) -> bool:
    """Whether the director's console shows an alert naming ``table`` and its topic."""
    topic = f"poolboard/table/{table}/{suffix}"
    alerts = hall.get("/api/director/alerts", auth=True)
    return any(a["table"] == table and a["message"].startswith(topic) for a in alerts)


def test_the_hall_restarted_on_retained_poison_still_answers(broker, tmp_path) -> None:
    """``poolboard hall`` itself: /api/hall answers 200 with every poison retained, across
    restarts, with an alert naming the table, and follows the other tables."""
    t1 = Listener(broker.port, "t1", TABLES["t1"])
    t2 = Listener(broker.port, "t2", TABLES["t2"])
    try:
        for number, payload in enumerate(BLINDING):
            publish(t1, "t1", "state", payload)
            moves = ["11-15", "23-19", "8-11"][: number % 3 + 1]
            publish(t2, "t2", "state", json.dumps(good_state("t2", moves)).encode())
            hall = HallProcess(tmp_path, TABLES, broker.port, manage=False)
            try:
                hall.wait(partial(alerted, hall, "t1", "state"), "an alert for t1's state")
                tiles = {tile["table"]: tile for tile in hall.get("/api/hall")["tables"]}
                assert tiles["t2"]["plies"] == len(moves)
                assert tiles["t1"]["plies"] == 0
                assert hall.http.get("/api/tables/t1").status_code == 200
            finally:
                hall.stop()
    finally:
        t1.close()
        t2.close()
