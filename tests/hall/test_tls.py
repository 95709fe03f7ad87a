"""A table reaching the broker over TLS: certificates made here with openssl, the broker
configured by the hall's generator, the table's [hall] tls and ca_file."""

import shutil

import pytest

from poolboard.hall.broker import Broker, BrokerTls, write_broker_config
from tests.hall.conftest import (
    HALL_PASSWORD,
    TABLES,
    Listener,
    free_port,
    make_certificates,
    needs_mosquitto,
)

pytestmark = [
    needs_mosquitto,
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl"),
]


def test_a_table_over_tls(tmp_path, tables) -> None:
    ca, cert, key = make_certificates(tmp_path)
    port = free_port()
    config = write_broker_config(
        tmp_path / "broker",
        host="127.0.0.1",
        port=port,
        users={"hall": HALL_PASSWORD, **TABLES},
        tls=BrokerTls(str(cert), str(key)),
    )
    broker = Broker(config, "127.0.0.1", port, tmp_path / "broker.log")
    broker.start()
    try:
        hall = Listener(port, "hall", HALL_PASSWORD, "poolboard/table/#", ca_file=str(ca))
        table = tables("t1", port, f'tls = true\nca_file = "{ca}"\n')
        table.play("11-15")
        while (message := hall.next("t1/state")[1])["state"]["moves"] != ["11-15"]:
            pass
        assert message["table"] == "t1"
        hall.close()
    finally:
        broker.stop()
