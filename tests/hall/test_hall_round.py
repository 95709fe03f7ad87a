"""A whole round in the hall: ``poolboard hall`` with its own Mosquitto and real ``poolboard run``
tables on the simulated board; the standings and the PDN feed equal the tables' own records."""

import io
import os
import signal
import subprocess

from engine.pdn import read_games
from tests.hall.conftest import START, needs_mosquitto

pytestmark = needs_mosquitto


def moves_and_result(pdn_text: str) -> list[tuple[list[str], str]]:
    """Each game of a PDN text as (moves in PDN, result)."""
    games = []
    for record in read_games(io.StringIO(pdn_text)):
        board = record.starting_board()
        moves = []
        for move in record.board().move_stack:
            moves.append(board.notation(move))
            board.push(move)
        games.append((moves, record.result))
    return games


def test_a_whole_round(hall, tables) -> None:
    # The event: players and pairings from CSV; a typo is refused, naming the line.
    assert (
        hall.director("players.csv", "name,club\nAnn,Leeds\nBob,York\nCyd,\nDan,\n").json()[
            "players"
        ]
        == 4
    )
    bad = hall.director("pairings.csv", "1,t1,Ann,Bbo\n")
    assert bad.status_code == 422
    assert "line 1: player 'Bbo' is not registered (did you mean 'Bob'?)" in bad.json()["detail"]
    pairings = "round,table,first,second\n1,t1,Ann,Bob\n1,t2,Cyd,Dan\n"
    assert hall.director("pairings.csv", pairings).status_code == 200
    assert hall.http.post("/api/director/round-robin").status_code == 401  # spectators read

    t1 = tables("t1", hall.broker_port)
    t2 = tables("t2", hall.broker_port)
    hall.wait(lambda: hall.tile("t1")["online"] and hall.tile("t2")["online"], "tables online")
    assert (hall.tile("t1")["black"], hall.tile("t1")["white"]) == ("Ann", "Bob")  # R-TRN-2

    # t1, game 1: three moves, then the table's own referee ends it; game 2 from the hall.
    for move in ("11-15", "23-19", "8-11"):
        t1.play(move)
    hall.wait(lambda: hall.tile("t1")["plies"] == 3, "t1's moves at the hall")
    t1.referee("result", {"result": "1-0", "reason": "White resigned"})  # Black won
    assert hall.director("tables/t1/next-game").json() == {"ok": True}
    hall.wait(lambda: hall.tile("t1")["game"] == 2, "t1's second game")
    assert (hall.tile("t1")["black"], hall.tile("t1")["white"]) == ("Bob", "Ann")
    t1.show(START)  # the players set the pieces up again
    t1.play("11-15")
    refused = hall.director("tables/t1/result", {"result": "2-0"})
    assert refused.status_code == 422 and "result" in refused.json()["detail"]
    ok = hall.director("tables/t1/result", {"result": "1/2-1/2", "reason": "agreed"})
    assert ok.json() == {"ok": True}

    # t2: one game each way, with a move; the table is killed and restarted mid-game.
    t2.play("9-13")
    t2.kill()
    alerts = hall.wait(
        lambda: [a for a in hall.get("/api/director/alerts", auth=True) if a["kind"] == "offline"],
        "the offline alert",
        timeout=8,
    )
    assert alerts[0]["table"] == "t2"
    t2.start()  # the game resumes from the table's own record
    hall.wait(lambda: hall.tile("t2")["online"], "t2 back online")
    assert not [a for a in hall.get("/api/director/alerts", auth=True) if a["kind"] == "offline"]
    t2.play("22-18")
    t2.referee("result", {"result": "0-1", "reason": "Black resigned"})  # White won
    hall.director("tables/t2/next-game").raise_for_status()
    hall.director("tables/t2/result", {"result": "0-1", "reason": "flag"}).raise_for_status()

    # The director confirms the four results; the standings follow R-TRN-3.
    results = hall.wait(
        lambda: len(hall.get("/api/results")) == 4 and hall.get("/api/results"), "four results"
    )
    assert [(r["table"], r["number"], r["result"]) for r in results] == [
        ("t1", 1, "1-0"),
        ("t1", 2, "1/2-1/2"),
        ("t2", 1, "0-1"),
        ("t2", 2, "0-1"),
    ]
    assert all(line["points"] == 0 for line in hall.get("/api/standings")["standings"])
    for r in results:
        body = {"round": 1, "table": r["table"], "game": r["number"]}
        hall.director("confirm", body).raise_for_status()
    standings = {s["name"]: s for s in hall.get("/api/standings")["standings"]}
    # t1: Ann (Black) won game 1, game 2 drawn. t2: Dan (White) won game 1, Cyd (White) game 2.
    assert {name: s["points"] for name, s in standings.items()} == {
        "Ann": 6,
        "Bob": 2,
        "Cyd": 4,
        "Dan": 4,
    }
    assert standings["Ann"]["place"] == 1 and standings["Cyd"]["place"] == standings["Dan"]["place"]

    # The feed equals the tables' own records (moves and results), over HTTP and in the folder.
    for table in (t1, t2):
        own = [
            table.http.get(f"/api/games/{game['id']}.pdn").text
            for game in table.http.get("/api/games").json()
        ]
        expected = [g for text in own for g in moves_and_result(text)]
        served = hall.http.get(f"/broadcast/round-1-{table.name}.pdn").text
        assert moves_and_result(served) == expected
        assert (hall.feed / f"round-1-{table.name}.pdn").read_text() == served
    round_feed = hall.http.get("/broadcast/round-1.pdn").text
    assert len(moves_and_result(round_feed)) == 4
    assert '[White "Bob"]' in round_feed and '[Board "t1"]' in round_feed

    # Every action from the hall is in the table's own audit log, with the director's name.
    audit = t1.http.get("/api/referee/audit", auth=("referee", "ref-pw")).json()
    assert [(a["actor"], a["action"]) for a in audit] == [
        ("referee", "result"),
        ("hall:director", "next-game"),
        ("hall:director", "result"),
    ]
    actions = [a["action"] for a in hall.get("/api/director/audit", auth=True)]
    assert actions.count("confirm") == 4 and "table-result" in actions


def test_the_broker_dies_and_the_hall_restarts_it(hall, tables) -> None:
    t3 = tables("t3", hall.broker_port)
    hall.wait(lambda: hall.tile("t3")["online"], "t3 online")
    t3.play("11-15")
    broker = subprocess.run(
        ["pgrep", "-f", str(hall.folder / "data" / "broker" / "mosquitto.conf")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert len(broker) == 1
    os.kill(int(broker[0]), signal.SIGKILL)
    t3.play("23-19")  # recorded while the broker is dead
    t3.play("8-11")
    assert t3.http.get("/api/state").json()["moves"] == ["11-15", "23-19", "8-11"]
    hall.wait(lambda: hall.tile("t3")["plies"] == 3, "the moves after the restart", timeout=15)
    assert hall.tile("t3")["online"]


def test_a_bad_message_is_an_alert_and_changes_nothing(hall, tables) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from tests.hall.conftest import TABLES

    t1 = tables("t1", hall.broker_port)
    hall.wait(lambda: hall.tile("t1")["online"], "t1 online")
    t1.play("11-15")
    hall.wait(lambda: hall.tile("t1")["plies"] == 1, "the move at the hall")
    # t2's own credentials (a broken table): one broker user is one connection, so it is t2.
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="t2")
    client.username_pw_set("t2", TABLES["t2"])
    client.connect("127.0.0.1", hall.broker_port)
    client.loop_start()
    client.publish("poolboard/table/t2/state", b"{not json", qos=1).wait_for_publish(5)
    client.publish(
        "poolboard/table/t2/state", b'{"v":1,"table":"t2","boot":"x","seq":1,"state":[]}', qos=1
    ).wait_for_publish(5)
    client.disconnect()
    client.loop_stop()

    def t2_protocol_alerts() -> set[str]:
        alerts = hall.get("/api/director/alerts", auth=True)
        found = {a["message"] for a in alerts if (a["table"], a["kind"]) == ("t2", "protocol")}
        return found if len(found) >= 2 else set()

    messages = hall.wait(t2_protocol_alerts, "both protocol alerts")
    assert any(m.startswith("poolboard/table/t2/state: not valid JSON") for m in messages)
    wrong_type = "poolboard/table/t2/state: state: Input should be a valid dictionary"
    assert any(m.startswith(wrong_type) for m in messages)
    assert hall.tile("t1")["plies"] == 1
    assert t1.http.get("/api/state").json()["moves"] == ["11-15"]


def test_a_silent_table_is_flagged_and_heard_again(hall, tables) -> None:
    """A table that stops answering without closing its socket (a pulled cable, a frozen Pi):
    the hall flags it as silent, and un-flags it when it speaks again. (That it is flagged
    after 1.5 x keepalive, not before, is tested on a driven clock in test_monitor.py.)"""
    t1 = tables("t1", hall.broker_port)
    hall.wait(lambda: hall.tile("t1")["online"] and hall.tile("t1")["fen"], "t1 online")
    t1.process.send_signal(signal.SIGSTOP)
    try:
        hall.wait(lambda: hall.tile("t1")["online"] is False, "t1 flagged")
        assert hall.tile("t1")["status"].startswith("silent for")
    finally:
        t1.process.send_signal(signal.SIGCONT)
    hall.wait(lambda: hall.tile("t1")["online"], "t1 heard again")


def test_a_restarted_hall_sees_every_table_at_once(tmp_path, tables) -> None:
    """The broker keeps each table's state retained, on disk: a hall that restarts (or a
    display that joins late) has every table at once, even one that is switched off."""
    from tests.hall.conftest import TABLES, HallProcess

    hall = HallProcess(tmp_path, TABLES)
    port = hall.broker_port
    try:
        t1 = tables("t1", port)
        hall.wait(lambda: hall.tile("t1")["online"], "t1 online")
        t1.play("11-15")
        t1.play("23-19")
        hall.wait(lambda: hall.tile("t1")["plies"] == 2, "the moves at the hall")
        t1.stop()  # switched off cleanly: "offline", retained
    finally:
        hall.stop()  # and its broker
    hall = HallProcess(tmp_path, TABLES, port)  # same data folder, same broker port
    try:
        tile = hall.wait(lambda: hall.tile("t1")["plies"] == 2 and hall.tile("t1"), "the state")
        assert (tile["last"], tile["online"], tile["status"]) == ("23-19", False, "stopped")
        t1.start()  # resumes its game from its own record
        t1.play("8-11")
        tile = hall.wait(lambda: hall.tile("t1")["plies"] == 3 and hall.tile("t1"), "the move")
        assert tile["online"]
    finally:
        hall.stop()


def test_a_hall_on_an_existing_broker(broker, tmp_path, tables) -> None:
    """``[broker] manage = false``: the hall uses a broker run apart (here with the files
    --write-broker-config would write) and starts none of its own."""
    from tests.hall.conftest import TABLES, HallProcess

    hall = HallProcess(tmp_path, TABLES, broker.port, manage=False)
    try:
        assert not (hall.folder / "data" / "broker").exists()
        t2 = tables("t2", broker.port)
        t2.play("10-14")
        assert hall.wait(lambda: hall.tile("t2")["last"] == "10-14", "the move at the hall")
    finally:
        hall.stop()
