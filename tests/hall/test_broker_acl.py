"""The generated Mosquitto config, enforced by the real broker: tables write only their own
topics, only the hall sends actions, nobody gets in without a password."""

import json
import queue

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from poolboard.hall.broker import BrokerError, write_password_file
from tests.hall.conftest import HALL_PASSWORD, TABLES, Listener, needs_mosquitto
from tests.patience import wait_for

pytestmark = needs_mosquitto


def test_a_table_cannot_publish_as_another_table(broker) -> None:
    hall = Listener(broker.port, "hall", HALL_PASSWORD, "poolboard/table/#")
    t2 = Listener(broker.port, "t2", TABLES["t2"])
    try:
        t2.client.publish("poolboard/table/t1/state", b'{"forged": true}', qos=1).wait_for_publish(
            5
        )
        t2.client.publish("poolboard/table/t2/state", b'{"own": true}', qos=1).wait_for_publish(5)
        # Same connection, same QoS: had the broker accepted the forgery it would come first.
        topic, payload = hall.next("/state")
        assert (topic, payload) == ("poolboard/table/t2/state", {"own": True})
        with pytest.raises(queue.Empty):
            hall.next("t1/state", timeout=0.3)
    finally:
        hall.close()
        t2.close()


def test_only_the_hall_can_send_a_table_actions(broker) -> None:
    t1 = Listener(broker.port, "t1", TABLES["t1"], "poolboard/table/t1/action")
    t2 = Listener(broker.port, "t2", TABLES["t2"])
    hall = Listener(broker.port, "hall", HALL_PASSWORD)
    try:
        for sender in (t1, t2):  # the table itself, and a neighbour
            sender.client.publish("poolboard/table/t1/action", b'{"id": "x"}', qos=1)
        hall.client.publish("poolboard/table/t1/action", b'{"id": "from-hall"}', qos=1)
        assert t1.next("/action") == ("poolboard/table/t1/action", {"id": "from-hall"})
        with pytest.raises(queue.Empty):
            t1.next("/action", timeout=0.3)
    finally:
        for client in (t1, t2, hall):
            client.close()


def test_a_table_cannot_read_another_tables_actions(broker) -> None:
    spy = Listener(broker.port, "t2", TABLES["t2"], "poolboard/table/t1/action")
    t1 = Listener(broker.port, "t1", TABLES["t1"], "poolboard/table/t1/action")
    hall = Listener(broker.port, "hall", HALL_PASSWORD)
    try:
        hall.client.publish("poolboard/table/t1/action", json.dumps({"id": "a"}), qos=1)
        assert t1.next("/action")[1] == {"id": "a"}
        with pytest.raises(queue.Empty):
            spy.next("/action", timeout=0.3)
    finally:
        for client in (spy, t1, hall):
            client.close()


@pytest.mark.parametrize(("user", "password"), [("t1", "wrong"), ("nobody", "x"), (None, None)])
def test_wrong_or_missing_credentials_are_refused(broker, user, password) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"intruder-{user}")
    if user is not None:
        client.username_pw_set(user, password)
    reasons: list = []
    client.on_connect = lambda _c, _u, _f, reason, _p: reasons.append(reason)
    client.connect("127.0.0.1", broker.port, keepalive=5)
    client.loop_start()
    try:
        wait_for(lambda: reasons, "the broker answering the login")
    finally:
        client.loop_stop()
    assert reasons[0].is_failure, reasons


def test_password_file_is_hashed_and_private(tmp_path) -> None:
    path = tmp_path / "passwd"
    write_password_file(path, {"hall": "secret-1", "t1": "secret:2"})
    text = path.read_text()
    assert "secret" not in text and text.count("\n") == 2
    assert text.startswith("hall:$")
    assert path.stat().st_mode & 0o077 == 0
    with pytest.raises(BrokerError, match=r"'t9'.*one non-empty line"):
        write_password_file(path, {"t9": ""})


def test_a_broker_that_cannot_start_says_why(broker, tmp_path) -> None:
    from poolboard.hall.broker import Broker

    second = Broker(broker.config, "127.0.0.1", broker.port, tmp_path / "second.log")
    with pytest.raises(BrokerError, match="is taken: is another broker running"):
        second.start()
    bad = tmp_path / "bad.conf"
    bad.write_text("listener 1 127.0.0.1\nno_such_option true\n")
    third = Broker(bad, "127.0.0.1", 1, tmp_path / "third.log")
    with pytest.raises(BrokerError, match=r"mosquitto did not start: .*no_such_option"):
        third.start(timeout=5)


@pytest.mark.parametrize("taken", ["hall", "t1"])
def test_no_user_can_knock_another_off_by_taking_its_client_id(broker, taken) -> None:
    """The broker names every client after its user (use_username_as_clientid): a table that
    connects with the hall's or another table's client id does not close their connection."""
    hall = Listener(broker.port, "hall", HALL_PASSWORD, "poolboard/table/#")
    t1 = Listener(broker.port, "t1", TABLES["t1"])
    dropped = {"hall": hall, "t1": t1}
    lost: list[str] = []
    for name, listener in dropped.items():
        listener.client.on_disconnect = lambda *_args, who=name: lost.append(who)
    intruder = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=taken)
    intruder.username_pw_set("t2", TABLES["t2"])
    in_ = intruder.connect("127.0.0.1", broker.port, keepalive=5)
    intruder.loop_start()
    try:
        assert in_ == mqtt.MQTT_ERR_SUCCESS
        intruder.publish("poolboard/table/t2/state", b'{"intruder": true}', qos=1).wait_for_publish(
            5
        )
        t1.client.publish("poolboard/table/t1/state", b'{"still": true}', qos=1).wait_for_publish(5)
        # Both older connections still work: the hall hears the intruder's and t1's messages.
        assert hall.next("t2/state")[1] == {"intruder": True}
        assert hall.next("t1/state")[1] == {"still": True}
        assert lost == []
    finally:
        intruder.disconnect()
        intruder.loop_stop()
        hall.close()
        t1.close()
