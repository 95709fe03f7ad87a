"""A real web server on loopback over a real session on the simulated board."""

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from engine.phrase import Phrase
from engine.sensing import LinkHealth, Sensor
from poolboard.config import Config, RefereeConfig, StorageConfig, TrackerTimings
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.web.app import WebServer
from tests.patience import wait_for

#: Debian's browser, driven through Playwright (never a browser Playwright downloads).
CHROMIUM = Path("/usr/bin/chromium")
PASSWORD = "s3cret-Ref"
#: The header the pages send with every change (poolboard/web/guard.py).
CHANGE = {"X-Poolboard": "1"}

#: The start position's occupancy: Black on 1-12, White on 21-32.
START = frozenset(range(1, 13)) | frozenset(range(21, 33))


def post(url: str, **kwargs) -> httpx.Response:
    """A POST as the board's own pages make it (with the X-Poolboard header)."""
    return httpx.post(url, headers={**CHANGE, **kwargs.pop("headers", {})}, **kwargs)


class Live:
    """A session running in its thread and the web UI on a free port of 127.0.0.1."""

    def __init__(
        self,
        tmp_path: Path,
        sensor: Sensor | None = None,
        password: str = PASSWORD,
        app_host: str | None = None,
        **sections: object,
    ):
        """``sections``: more config sections (``rules=``, ``opponent=``...)."""
        config = Config(
            storage=StorageConfig(path=str(tmp_path)),
            referee=RefereeConfig(password=password),
            tracker=TrackerTimings(debounce=0.01, settle=0.05),
            **sections,  # type: ignore[arg-type]
        )
        self.session = Session(config, sensor or SimulatedBoard())
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.session.run, args=(self.stop,), daemon=True)
        self.thread.start()
        self.server = WebServer(self.session, app_host=app_host)
        self.url = self.server.start()
        self.ws_url = self.url.replace("http://", "ws://") + "/ws"

    def close(self) -> None:
        self.server.stop()
        self.stop.set()
        self.thread.join(timeout=5)
        self.session.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    server = Live(tmp_path)
    yield server
    server.close()


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """Headless Chromium; launch() gives it a fresh, temporary --user-data-dir of its own."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield chromium
        chromium.close()


class LinkedBoard(SimulatedBoard):
    """The simulated board, whose sensor link can be lost and found again (a camera knocked
    away from the board, or unplugged, and put back)."""

    def link(self, connected: bool, detail: str | Phrase) -> None:
        """The link up or down: ``detail`` a text, or words (LinkHealth's said) as well."""
        said = detail if isinstance(detail, Phrase) else None
        self._events.put(LinkHealth(self._now(), connected, str(detail), said))


AUTH = ("referee", PASSWORD)


def referee(live: Live, action: str, body: dict | None = None, auth=AUTH) -> httpx.Response:
    return post(f"{live.url}/api/referee/{action}", json=body, auth=auth)


def start_game(live: Live) -> None:
    """Set the position up on the simulated board; the clock starts."""
    live.session.sensor.set_occupied(START)
    wait_for(lambda: live.session.clock.state.value == "running", "the game starting")


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    client.settimeout(5)
    return client


def closed_now(client: socket.socket) -> bool:
    """Whether the server has closed the connection already."""
    client.setblocking(False)
    try:
        return client.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except ConnectionResetError:
        return True
    finally:
        client.setblocking(True)


def settled(clients: list[socket.socket], expected: int, within: float = 2) -> list[socket.socket]:
    """The clients still connected, once as few as ``expected`` are (or after ``within`` s)."""
    deadline = time.monotonic() + within
    while True:
        still = [client for client in clients if not closed_now(client)]
        if len(still) <= expected or time.monotonic() > deadline:
            return still
        time.sleep(0.05)
