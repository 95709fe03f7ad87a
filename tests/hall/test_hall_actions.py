"""A referee action to a frozen table (a hung Pi: SIGSTOP): the hall answers 409 and the table,
woken, never does it; the director's retry is done once; the hall's audit has both calls with
their outcome (docs/hall.md, "action (hall -> table) and reply"); a refusal in words the hall
cannot say is given as the table's sentence."""

import json
import os
import signal
import threading

import httpx

from tests.hall.conftest import (
    REFEREE_PASSWORD,
    TABLES,
    HallProcess,
    Listener,
    needs_mosquitto,
)

pytestmark = needs_mosquitto


def test_an_action_the_hall_gave_up_on_is_never_done(hall, tables) -> None:
    t1 = tables("t1", hall.broker_port)
    hall.wait(lambda: hall.tile("t1")["online"], "t1 online")
    white = t1.http.get("/api/state").json()["clock"]["white"]  # Black moves first: not running
    os.kill(t1.process.pid, signal.SIGSTOP)
    try:
        frozen = hall.director("tables/t1/adjust-clock", {"side": "white", "seconds": 60})
    finally:
        os.kill(t1.process.pid, signal.SIGCONT)
    assert frozen.status_code == 409
    answer = frozen.json()
    assert answer["detail"] == "table t1 did not answer within 5 s; it will not do it later"
    # Said apart as well, for the console's language (docs/api.md).
    assert (
        answer["message"]
        == "table {table} did not answer within {seconds} s; it will not do it later"
    )
    assert answer["values"] == {"table": "t1", "seconds": 5}
    # Woken, the table reads the action from its socket and refuses it: past its deadline.
    log = t1.folder / "stderr.log"
    hall.wait(
        lambda: "action adjust-clock: past its deadline, not done" in log.read_text(),
        "the woken table's refusal of the stale action",
    )
    assert t1.http.get("/api/state").json()["clock"]["white"] == white
    # The director tries again: done, once.
    hall.wait(lambda: hall.tile("t1")["online"], "t1 back online")
    again = hall.director("tables/t1/adjust-clock", {"side": "white", "seconds": 60})
    assert again.status_code == 200, again.text
    assert t1.http.get("/api/state").json()["clock"]["white"] == white + 60
    table_audit = t1.http.get("/api/referee/audit", auth=("referee", REFEREE_PASSWORD)).json()
    assert [a["action"] for a in table_audit] == ["adjust"]
    calls = [
        a["data"]
        for a in hall.get("/api/director/audit", auth=True)
        if a["action"] == "table-adjust-clock"
    ]
    assert [(call["status"], call["ok"]) for call in calls] == [(409, False), (200, True)]
    assert calls[0]["id"] and calls[0]["id"] != calls[1]["id"]
    assert "did not answer" in calls[0]["error"] and calls[1]["error"] is None
    assert calls[0]["values"] == answer["values"] and "message" not in calls[1]


def test_a_refusal_in_words_the_hall_cannot_say_is_given_as_its_sentence(broker, tmp_path) -> None:
    """A table (another version, or a broken one) refusing an action in words whose places its
    values do not fill: the director gets the table's sentence, in English, as its words."""
    table = Listener(broker.port, "t1", TABLES["t1"], "poolboard/table/t1/action")
    hall = HallProcess(tmp_path, TABLES, broker_port=broker.port, manage=False)
    try:
        online = {"v": 1, "table": "t1", "status": "online", "keepalive": 3600}
        table.client.publish("poolboard/table/t1/status", json.dumps(online), 1, retain=True)
        hall.wait(lambda: hall.tile("t1")["online"], "t1 online")
        answer: list[httpx.Response] = []
        asking = threading.Thread(target=lambda: answer.append(hall.director("tables/t1/pause")))
        asking.start()
        _, action = table.next("/action")
        sentence = "cannot pause: the clock is not running"
        reply = {
            "v": 1,
            "table": "t1",
            "id": action["id"],
            "ok": False,
            "error": sentence,
            "message": "cannot pause: {why}",
            "values": {"reason": "the clock is not running"},
        }
        table.client.publish("poolboard/table/t1/reply", json.dumps(reply), 1)
        asking.join()
        (refused,) = answer
        assert refused.status_code == 422
        assert refused.json() == {"detail": sentence, "message": sentence, "values": {}}
        (call,) = [
            a["data"]
            for a in hall.get("/api/director/audit", auth=True)
            if a["action"] == "table-pause"
        ]
        assert (call["status"], call["message"], call["values"]) == (422, sentence, {})
    finally:
        hall.stop()
        table.close()
