"""Two boards over TLS: the hall's test certificates and broker generator; a board that does not
trust the broker's certificate never connects (docs/remote.md)."""

import logging
import shutil

import pytest

from poolboard.hall.broker import Broker, BrokerTls, write_broker_config
from tests.hall.conftest import HALL_PASSWORD, TABLES, free_port, make_certificates, needs_mosquitto
from tests.patience import wait_for
from tests.remote.conftest import Board_

pytestmark = [
    needs_mosquitto,
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl"),
]


def test_two_boards_over_tls_and_one_that_does_not_trust_the_broker(tmp_path, caplog) -> None:
    ca, cert, key = make_certificates(tmp_path)
    port = free_port()
    users = {"hall": HALL_PASSWORD, **TABLES}
    config = write_broker_config(
        tmp_path / "broker",
        host="127.0.0.1",
        port=port,
        users=users,
        tls=BrokerTls(str(cert), str(key)),
    )
    broker = Broker(config, "127.0.0.1", port, tmp_path / "broker.log")
    broker.start()
    boards = []
    try:
        host = Board_(port, "t1", "host", "black", tls=True, ca_file=str(ca)).start()
        guest = Board_(port, "t2", "guest", "white", tls=True, ca_file=str(ca)).start()
        boards += [host, guest]
        host.play("11-15")
        wait_for(lambda: guest.offered, "ply 1 over TLS")
        caplog.set_level(logging.WARNING, logger="poolboard.remote")
        stranger = Board_(port, "t3", "guest", "white", tls=True)  # the system's CAs only
        boards.append(stranger)
        stranger.link.start()
        wait_for(
            lambda: any("cannot reach the broker" in r.getMessage() for r in caplog.records),
            "the stranger's complaint",
        )
        assert not stranger.link.connected.is_set()
    finally:
        for board in boards:
            board.link.stop()
        broker.stop()
