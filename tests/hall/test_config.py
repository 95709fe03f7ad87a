"""hall.toml and a table's [hall] section: one clear error naming the key; the command too."""

import subprocess
import sys

import pytest

from poolboard.config import ConfigError, config_from_mapping
from poolboard.hall.settings import HallConfigError, hall_config_from_mapping
from tests.hall.conftest import needs_mosquitto

GOOD = {
    "broker": {"hall_password": "h"},
    "tables": [{"name": "t1", "password": "a"}, {"name": "t2", "password": "b"}],
}


def test_a_good_hall_config() -> None:
    config = hall_config_from_mapping(GOOD)
    assert config.table_names == ["t1", "t2"]
    assert config.broker.manage and config.event.games_per_match == 2
    assert config.display.language == "en"
    spanish = hall_config_from_mapping({**GOOD, "display": {"language": "es"}})
    assert spanish.display.language == "es"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"event": {"games_per_match": 3}}, r"\[event\] games_per_match: .*multiple of 2"),
        ({"broker": {"hall_password": "h", "port": 0}}, r"\[broker\] port: .*greater than"),
        ({"broker": {"hall_password": "h", "prot": 1}}, r"\[broker\] prot: unknown key"),
        ({"broker": {}}, r"\[broker\] hall_password: Field required"),
        ({"tables": [{"name": "a/b", "password": "x"}]}, r"\[\[tables\]\] #1 name: .*'a/b'"),
        ({"tables": [{"name": "hall", "password": "x"}]}, r"#1 name: .*the hall's own"),
        ({"tables": [{"name": "t1", "password": "x"}] * 2}, r"'t1' is listed twice"),
        ({"tables": []}, r"\[\[tables\]\]: List should have at least 1"),
        ({"broker": {"hall_password": "h", "certfile": "c.pem"}}, r"certfile and keyfile go"),
        ({"display": {"language": "fr"}}, r"\[display\] language: .*'fr'"),
    ],
)
def test_bad_hall_configs_name_the_key(change, message) -> None:
    with pytest.raises(HallConfigError, match=message):
        hall_config_from_mapping({**GOOD, **change}, "hall.toml")


@pytest.mark.parametrize(
    ("hall", "message"),
    [
        ({"broker": "h"}, r"\[hall\] table: a table in a hall needs a name"),
        ({"broker": "h", "table": "t 1"}, r"\[hall\] table: table name 't 1'"),
        ({"broker": "h", "table": "t1", "port": 0}, r"\[hall\] port: expected an integer"),
        ({"broker": "h", "table": "t1", "keepalive": 1}, r"\[hall\] keepalive: expected 2-600"),
        ({"broker": "h", "table": "t1", "ca_file": "/no/ca.pem"}, r"\[hall\] ca_file: no such"),
        ({"broker": "h", "table": "t1", "port": "1883"}, r"\[hall\] port: expected an integer"),
    ],
)
def test_bad_table_hall_sections_name_the_key(hall, message) -> None:
    with pytest.raises(ConfigError, match=message):
        config_from_mapping({"hall": hall}, "board.toml")


def test_no_broker_means_no_hall() -> None:
    assert not config_from_mapping({"hall": {"table": "t1"}}).hall.enabled


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "hall", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_command_says_what_is_wrong(tmp_path) -> None:
    bad = tmp_path / "hall.toml"
    bad.write_text('[broker]\nhall_password = "h"\n[[tables]]\nname = "t1"\n')
    done = run("--config", str(bad))
    assert done.returncode == 2
    assert done.stderr.strip() == (f"poolboard hall: {bad}: [[tables]] #1 password: Field required")
    assert "Traceback" not in done.stderr


@needs_mosquitto
def test_broker_files_for_an_existing_broker(tmp_path) -> None:
    config = tmp_path / "hall.toml"
    config.write_text(
        '[broker]\nmanage = false\nhall_password = "h"\n[[tables]]\nname = "t1"\npassword = "p"\n'
    )
    done = run("--config", str(config), "--write-broker-config", str(tmp_path / "broker"))
    assert done.returncode == 0, done.stderr
    conf = (tmp_path / "broker" / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in conf and "acl_file" in conf
    assert (tmp_path / "broker" / "passwd").read_text().startswith("hall:$")
    assert "pattern read poolboard/table/%u/action" in (tmp_path / "broker" / "acl").read_text()


@needs_mosquitto
def test_a_taken_web_port_stops_the_broker_it_started(tmp_path) -> None:
    import socket

    from tests.hall.conftest import free_port

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        config = tmp_path / "hall.toml"
        config.write_text(
            f'[hall]\ndata = "{tmp_path / "data"}"\nport = {taken.getsockname()[1]}\n'
            f'[broker]\nport = {free_port()}\nhall_password = "h"\n'
            '[[tables]]\nname = "t1"\npassword = "p"\n'
        )
        done = run("--config", str(config))
    assert done.returncode == 2
    assert "poolboard hall: web UI: cannot listen on 127.0.0.1:" in done.stderr
    left = subprocess.run(
        ["pgrep", "-f", str(tmp_path / "data" / "broker" / "mosquitto.conf")],
        capture_output=True,
        check=False,
    )
    assert left.returncode == 1  # no mosquitto left behind
