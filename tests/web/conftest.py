"""A real web server on loopback over a real session on the simulated board."""

import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from engine.sensing import Sensor
from poolboard.config import Config, RefereeConfig, StorageConfig, TrackerTimings
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.web.app import WebServer

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
