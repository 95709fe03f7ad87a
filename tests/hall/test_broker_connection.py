"""The hall's connection to a real Mosquitto (poolboard/broker_client.py): a refusal is said
once however often paho retries, and the hall is never up; a broker lost is said, the hall is
down until it is back, and up again then."""

import logging

import pytest

from poolboard.hall.event import EventStore
from poolboard.hall.monitor import HallMonitor
from poolboard.hall.settings import hall_config_from_mapping
from tests.hall.conftest import HALL_PASSWORD, TABLES, needs_mosquitto, refusals
from tests.patience import wait_for

pytestmark = needs_mosquitto


def said(caplog: pytest.LogCaptureFixture, text: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if text in r.getMessage()]


@pytest.fixture
def hall_with(broker, tmp_path):
    """A started HallMonitor for the test broker logging in with ``password``; stopped after."""
    made: list[tuple[HallMonitor, EventStore]] = []

    def start(password: str) -> HallMonitor:
        config = hall_config_from_mapping(
            {
                "broker": {"port": broker.port, "hall_password": password, "keepalive": 5},
                "tables": [{"name": name, "password": pw} for name, pw in TABLES.items()],
            }
        )
        event = EventStore(tmp_path / "hall.sqlite3", config.table_names, 2)
        monitor = HallMonitor(config, event)
        made.append((monitor, event))
        monitor.start()
        return monitor

    yield start
    for monitor, event in made:
        monitor.stop()
        event.close()


def test_a_hall_with_the_wrong_password_says_so_once_and_is_never_up(
    broker, hall_with, caplog
) -> None:
    caplog.set_level(logging.INFO, logger="poolboard.hall")
    hall = hall_with("not-the-hall-password")
    wait_for(lambda: refusals(broker) >= 3, "paho trying three times")
    where = f"127.0.0.1:{broker.port}"
    refused = said(caplog, f"hall: the broker {where} refused the hall: Not authorized;")
    assert len(refused) == 1 and refused[0].levelno == logging.ERROR, refused
    assert not hall.connected.is_set()
    assert not said(caplog, "lost the broker")  # it never had it
    assert not said(caplog, "connected to")


def test_a_hall_that_loses_the_broker_says_so_and_is_up_again_when_it_is_back(
    broker, hall_with, caplog
) -> None:
    caplog.set_level(logging.INFO, logger="poolboard.hall")
    hall = hall_with(HALL_PASSWORD)
    wait_for(hall.connected.is_set, "the hall connecting")
    broker.process.kill()  # SIGKILL: no goodbye
    broker.process.wait()
    wait_for(lambda: not hall.connected.is_set(), "the hall noticing the broker gone")
    where = f"127.0.0.1:{broker.port}"
    lost = said(caplog, f"hall: lost the broker {where} (")
    assert len(lost) == 1 and lost[0].levelno == logging.WARNING, lost
    assert lost[0].getMessage().endswith("; the tables' tiles show what was last heard; retrying")
    broker.start()
    wait_for(hall.connected.is_set, "the hall connecting again")
    assert len(said(caplog, f"hall: connected to {where} as the hall")) == 2
    hall.stop()
    wait_for(lambda: not hall.connected.is_set(), "the hall stopping")
    assert len(said(caplog, "lost the broker")) == 1  # a stop is no loss
