"""``poolboard doctor`` on a table in a hall: the real broker reached, the table's credentials
and ACL accepted or refused by name; the web port free or taken."""

import json
import socket
from pathlib import Path

from tests.hall.conftest import HALL_PASSWORD, TABLES, Listener, free_port, needs_mosquitto
from tests.service.conftest import doctor

pytestmark = needs_mosquitto


def table_config(tmp_path: Path, broker_port: int, password: str, web_port: int = 0) -> Path:
    config = tmp_path / "board.toml"
    config.write_text(
        f'[sensor]\nkind = "simulated"\n[storage]\npath = "{tmp_path / "data"}"\n'
        f"[web]\nport = {web_port}\n"
        f'[hall]\nbroker = "127.0.0.1"\nport = {broker_port}\ntable = "t1"\n'
        f'password = "{password}"\n'
    )
    return config


def test_doctor_logs_in_to_the_hall_as_the_table(tmp_path: Path, broker) -> None:
    result = doctor(table_config(tmp_path, broker.port, TABLES["t1"]))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"ok    hall     127.0.0.1:{broker.port}: table 't1' logged in" in result.stdout
    assert "the ACL lets it write its topics" in result.stdout
    assert "ok    web      127.0.0.1: any free port" in result.stdout


def test_doctor_never_knocks_a_running_table_off_the_broker(tmp_path: Path, broker, tables) -> None:
    """The broker names a connection after its user, so logging in as a running table would
    close the table's own connection: doctor leaves a table that records here alone."""
    hall = Listener(broker.port, "hall", HALL_PASSWORD, "poolboard/table/t1/#")
    t1 = tables("t1", broker.port)
    assert hall.next("t1/status")[1]["reason"] == "connected"
    result = doctor(t1.config, "--seconds", "0")
    assert "Traceback" not in result.stderr
    pid = t1.process.pid
    assert f"ok    hall     not logging in as table 't1': it is running here (PID {pid})" in (
        result.stdout
    )
    t1.play("11-15")  # a state published after doctor ran: every status before it is at hand
    while len(hall.next("t1/state")[1]["state"]["moves"]) != 1:
        pass
    statuses = [json.loads(m.payload) for m in hall.held if m.topic.endswith("/status")]
    assert [s["reason"] for s in statuses if s["reason"] != "alive"] == []
    hall.close()


def test_doctor_names_a_wrong_password_and_a_broker_not_there(tmp_path: Path, broker) -> None:
    wrong = doctor(table_config(tmp_path, broker.port, "not-the-password"))
    assert wrong.returncode == 1
    assert f"FAIL  hall     127.0.0.1:{broker.port} refused table 't1'" in wrong.stdout
    assert "check [hall] table and password" in wrong.stdout
    nobody = doctor(table_config(tmp_path, free_port(), TABLES["t1"]))
    assert nobody.returncode == 1 and "FAIL  hall" in nobody.stdout
    assert "Traceback" not in wrong.stderr + nobody.stderr


def test_doctor_refuses_an_acl_that_hides_the_tables_actions(tmp_path: Path, broker) -> None:
    acl = broker.config.parent / "acl"
    acl.write_text("user hall\ntopic readwrite poolboard/table/#\n")  # no table patterns
    broker.stop()
    broker.start()
    result = doctor(table_config(tmp_path, broker.port, TABLES["t1"]))
    assert result.returncode == 1
    assert "the broker's ACL does not let 't1' write its topics" in result.stdout


def test_doctor_names_a_web_port_in_use(tmp_path: Path, broker) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = doctor(table_config(tmp_path, broker.port, TABLES["t1"], web_port=port))
    assert result.returncode == 1
    assert f"FAIL  web      127.0.0.1:{port} is not free" in result.stdout
