"""A real ``poolboard run`` table publishing to a real Mosquitto (docs/hall.md)."""

import json
import time
import uuid

from engine.cues import Cues
from poolboard.hall.table import hall_event
from poolboard.session.events import (
    CuesShown,
    GameOpened,
    MovePlayed,
    RecordRewritten,
    ResultReached,
    ViolationShown,
)
from tests.hall.conftest import HALL_PASSWORD, Listener, needs_mosquitto, refusals
from tests.patience import PATIENCE, wait_for

pytestmark = needs_mosquitto


def send_action(
    hall: Listener,
    table: str,
    action: str,
    *,
    expires_in: float | None = 5.0,
    action_id: str = "",
    **args,
) -> dict:
    """Publish a referee action as the hall, due in ``expires_in`` s (None: no deadline);
    the table's reply."""
    action_id = action_id or uuid.uuid4().hex
    payload = {"id": action_id, "actor": "director", "action": action, "args": args}
    if expires_in is not None:
        payload["expires"] = time.time() + expires_in
    hall.client.publish(f"poolboard/table/{table}/action", json.dumps(payload), qos=1)
    while True:
        _, reply = hall.next(f"{table}/reply")
        if reply.get("id") == action_id:
            return reply


def next_status(hall: Listener, table: str, status: str) -> dict:
    """The next status message of ``table`` saying ``status``."""
    while (message := hall.next(f"{table}/status")[1])["status"] != status:
        pass
    return message


def state_with(hall: Listener, table: str, moves: list[str], timeout: float = PATIENCE) -> dict:
    """The first state of ``table`` (retained or live) whose moves are ``moves``."""
    deadline = time.monotonic() + timeout
    while True:
        _, message = hall.next(f"{table}/state", timeout=max(0.01, deadline - time.monotonic()))
        if message["state"]["moves"] == moves:
            return message


def test_moves_events_actions_and_the_last_will(broker, tables) -> None:
    table = tables("t1", broker.port, white="Ann", black="Bob")
    hall = Listener(broker.port, "hall", HALL_PASSWORD, "poolboard/table/#")
    try:
        assert hall.next("t1/status")[1]["status"] == "online"
        table.play("11-15")
        table.play("23-19")
        state = state_with(hall, "t1", ["11-15", "23-19"])["state"]
        assert state["headers"]["White"] == "Ann"
        events = [hall.next("t1/events")[1] for _ in range(2)]
        assert [(e["kind"], e["data"]["move"], e["seq"]) for e in events] == [
            ("move", "11-15", 1),
            ("move", "23-19", 2),
        ]
        # Referee actions from the hall: the console's validation, audited with who sent them.
        reply = send_action(hall, "t1", "pause")
        assert (reply["ok"], reply["error"], reply["table"]) == (True, None, "t1")
        reply = send_action(hall, "t1", "adjust-clock", side="white", seconds="60")
        assert not reply["ok"] and "seconds" in reply["error"]
        reply = send_action(hall, "t1", "correct-move", ply=2, move="22-17")
        assert reply["ok"], reply
        reply = send_action(hall, "t1", "pause")
        assert not reply["ok"] and "paused" in reply["error"]
        # A refusal of the session also says it language-neutrally, for the hall's pages.
        reply = send_action(hall, "t1", "correct-move", ply=9, move="11-16")
        assert (reply["error"], reply["message"], reply["values"]) == (
            "ply 9: the game has moves 1 to 2",
            "ply {ply}: the game has moves 1 to {last}",
            {"ply": 9, "last": 2},
        )
        assert send_action(hall, "t1", "launch")["error"].startswith("action: unknown action")
        # Past its deadline (the hall gave up on it) or without one: refused and not done; its
        # id again (a QoS 1 duplicate, or a replay) gets the same answer and is not done either.
        late = send_action(hall, "t1", "resume", expires_in=-0.5)
        assert (late["ok"], late["error"]) == (False, "action resume: past its deadline, not done")
        assert send_action(hall, "t1", "resume", action_id=late["id"]) == late
        undated = send_action(hall, "t1", "resume", expires_in=None)
        assert "'expires' must be its deadline" in undated["error"]
        audit = table.http.get("/api/referee/audit", auth=("referee", "ref-pw")).json()
        assert [(a["actor"], a["action"]) for a in audit] == [
            ("hall:director", "pause"),
            ("hall:director", "correct"),
        ]
        # The table's own referee cautions a player: the hall hears it from the audit log.
        table.referee(
            "penalty", {"side": "white", "rule": "R-TCH-2", "severity": "caution", "note": ""}
        )
        kinds = []
        while "referee" not in kinds or kinds.count("referee") < 3:
            _, event = hall.next("t1/events")
            kinds.append(event["kind"])
        assert "correction" in kinds
        assert (event["data"]["actor"], event["data"]["action"]) == ("referee", "penalty")
        # SIGKILL: the socket closes, and the broker publishes the table's last will.
        table.kill()
        hall.held.clear()  # the heartbeats ("online" every keepalive/2) before the kill
        while (status := hall.next("t1/status", timeout=30)[1])["status"] == "online":
            pass
        assert (status["status"], status["reason"]) == ("offline", "connection lost")
        table.start()
        assert next_status(hall, "t1", "online")["reason"] == "connected"
        state_with(hall, "t1", ["11-15", "22-17"])
    finally:
        hall.close()


def test_broker_down_costs_nothing(broker, tables) -> None:
    """Moves made while the broker is dead are recorded, and are at the hall once it is back."""
    table = tables("t2", broker.port)
    table.play("11-15")
    broker.process.kill()
    broker.process.wait()
    table.play("23-19")
    table.play("8-11")
    assert table.http.get("/api/state").json()["moves"] == ["11-15", "23-19", "8-11"]
    broker.start()
    hall = Listener(broker.port, "hall", HALL_PASSWORD, "poolboard/table/#")
    try:
        state_with(hall, "t2", ["11-15", "23-19", "8-11"], timeout=15)
    finally:
        hall.close()


def test_a_table_the_broker_refuses_says_so_once_and_records_on(broker, tables) -> None:
    """A table whose name or password the broker does not know: said once in its log however
    often paho retries, and its moves are recorded all the same."""
    table = tables("t9", broker.port)  # no such broker user
    wait_for(lambda: refusals(broker) >= 3, "paho trying three times")
    table.play("11-15")
    assert table.http.get("/api/state").json()["moves"] == ["11-15"]
    log = (table.folder / "stderr.log").read_text().splitlines()
    said = [line for line in log if "refused" in line or "lost the broker" in line]
    assert len(said) == 1, said
    assert said[0].endswith(
        f"hall: the broker 127.0.0.1:{broker.port} refused table t9: Not authorized; "
        "recording goes on; retrying"
    )


def test_hall_events_name_what_happened() -> None:
    moved = MovePlayed(1, 2, "23-19", "f", 10.0, 9.0)
    assert hall_event(moved) == (
        "move",
        {"ply": 2, "move": "23-19", "fen": "f", "black": 10.0, "white": 9.0},
    )
    corrected = RecordRewritten(1, 2, ("22-17",), "f")
    assert hall_event(corrected) == ("correction", {"ply": 2, "moves": ["22-17"], "fen": "f"})
    taken = RecordRewritten(1, 3, (), "f")
    assert hall_event(taken)[0] == "takeback"
    assert hall_event(ViolationShown(1, {"n": 10})) == ("violation", {"n": 10})
    over = ResultReached(1, "0-1", "flag")
    assert hall_event(over) == ("result", {"result": "0-1", "reason": "flag"})
    assert hall_event(GameOpened(2, "x", {}))[0] == "game"
    assert hall_event(CuesShown(Cues.none())) is None
