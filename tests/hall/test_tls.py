"""A table reaching the broker over TLS: certificates made here with openssl, the broker
configured by the hall's generator, the table's [hall] tls and ca_file."""

import shutil
import subprocess
from pathlib import Path

import pytest

from poolboard.hall.broker import Broker, BrokerTls, write_broker_config
from tests.hall.conftest import HALL_PASSWORD, TABLES, Listener, free_port, needs_mosquitto

pytestmark = [
    needs_mosquitto,
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl"),
]


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A CA, and a certificate it signed for 127.0.0.1: (ca.pem, server.pem, server.key)."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=poolboard test CA",
    )
    openssl(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=127.0.0.1",
    )
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl(
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "2",
        "-extfile",
        "san.ext",
    )
    return folder / "ca.pem", folder / "server.pem", folder / "server.key"


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
