"""``poolboard hall --demo N``: a whole hall on one machine, with nothing to wire.

The real hall (its own Mosquitto on a free loopback port, the monitor, the pages) and N tables,
each a real session on the simulated board with the real publisher, played by simulated hands
(poolboard/autoplay.py). Players are registered, a round robin is drawn and round 1 is started
through the director's own API, so the names reach the tables as at a real event. A table plays
its match's games one after the other, then waits for the director to start the next round.
Everything lives in a temporary folder, gone when the demo stops.
"""

from __future__ import annotations

import logging
import secrets
import socket
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from engine.board import Board
from poolboard.autoplay import AutoPlayer
from poolboard.config import Config, StorageConfig
from poolboard.hall.link import HallLinkConfig
from poolboard.hall.settings import HallConfig, hall_config_from_mapping
from poolboard.hall.table import TablePublisher
from poolboard.session import RefereeError, Session
from poolboard.session.games import known
from poolboard.simulated_board import SimulatedBoard

log = logging.getLogger("poolboard.hall")

#: The console's login in the demo: director / demo.
DEMO_PASSWORD = "demo"
#: The most tables a demo runs (each is a session and a publisher in this process).
MAX_TABLES = 16
#: Players for the demo, two per table.
NAMES = (
    "Ann Lee",
    "Bob Ray",
    "Cyd Moss",
    "Dee Hart",
    "Eli Stone",
    "Fay Wynn",
    "Gus Pike",
    "Hal Ford",
    "Ida Cole",
    "Jon Park",
    "Kit Lowe",
    "Lou Finch",
    "Max Dunn",
    "Nia Rhodes",
    "Ola Quinn",
    "Pat Vance",
    "Quin Ames",
    "Rae Holt",
    "Sam Tate",
    "Tia Voss",
    "Uma Reed",
    "Vic Lane",
    "Wes Kerr",
    "Xia Bloom",
    "Yan Cross",
    "Zoe Marsh",
    "Abe Nolan",
    "Bea Frost",
    "Cal Drake",
    "Dot Ellis",
    "Ned Gray",
    "Ora Hale",
)
#: How much faster than a person the simulated hands play.
SPEED = 1.0


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def port_or_any(port: int, host: str = "127.0.0.1") -> int:
    """``port`` if it is free on ``host``, else 0 (any free one)."""
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return 0
    return port


def demo_config(folder: Path, tables: int, *, port: int = 8090) -> HallConfig:
    """A hall of ``tables`` tables in ``folder``: loopback only, a free broker port, the
    console open as director / demo."""
    if not 1 <= tables <= MAX_TABLES:
        raise ValueError(f"--demo {tables}: expected 1 to {MAX_TABLES} tables")
    return hall_config_from_mapping(
        {
            "hall": {
                "event": "poolboard demo hall",
                "data": str(folder / "hall"),
                "host": "127.0.0.1",
                "port": port_or_any(port),
            },
            "director": {"username": "director", "password": DEMO_PASSWORD},
            "broker": {
                "host": "127.0.0.1",
                "port": free_port(),
                "hall_password": secrets.token_urlsafe(12),
            },
            "tables": [
                {"name": f"t{n}", "password": secrets.token_urlsafe(12)}
                for n in range(1, tables + 1)
            ],
        },
        "demo",
    )


class DemoTable:
    """One simulated table: a session on the simulated board, its publisher, its hands."""

    def __init__(self, folder: Path, config: HallConfig, name: str, password: str) -> None:
        link = HallLinkConfig(
            broker=config.broker.host,
            port=config.broker.port,
            table=name,
            password=password,
            keepalive=5,
        )
        table_config = Config(storage=StorageConfig(path=str(folder / name)), hall=link)
        self.board = SimulatedBoard()
        self.session = Session(table_config, self.board)
        self.publisher = TablePublisher(self.session, link)
        self.player = AutoPlayer(
            self.session,
            self.board,
            speed=SPEED,
            max_plies=90,
            seed=int(name[1:]),
            between_games=self._next_game,
        )

    def _next_game(self, stop: threading.Event) -> None:
        """After a game: the match's next one (colours swap, R-TRN-2); after the match, wait
        until the director starts the next round (the hall sends a new match). A game the
        hands left unfinished (the most moves they play) is agreed drawn."""
        session = self.session
        try:
            with session.lock:
                if not session.game.is_over() and not session.game.board.move_stack:
                    return  # a new game the director started meanwhile: play it
                if not session.game.is_over():
                    session.end_game("demo", "agree-draw")  # the hands stopped: a draw
                if session.game_number < session.match_games:
                    session.next_game("demo")
                    return
        except RefereeError as error:  # the director acted on this game meanwhile
            log.info("demo table %s: %s", self.publisher.table, error)
            return
        while not stop.wait(1.0):
            with session.lock:
                if not session.game.is_over():
                    return

    def run(self, stop: threading.Event) -> None:
        """Record and publish until ``stop``; the hands play once the table is seated."""
        recorder = threading.Thread(target=self.session.run, args=(stop,), daemon=True)
        recorder.start()
        self.publisher.start()
        while not known(self.session.details["black"]):  # seated by the round's start
            if stop.wait(0.5):
                break
        self.board.set_occupied(Board().occupied_squares())  # then the pieces are set up
        try:
            self.player.run(stop)
        finally:
            stop.wait()
            self.publisher.stop()
            recorder.join(timeout=5)
            self.session.close()


def _director(url: str) -> httpx.Client:
    return httpx.Client(
        base_url=url,
        auth=("director", DEMO_PASSWORD),
        headers={"X-Poolboard": "1"},
        timeout=30,
    )


def open_the_event(url: str, tables: int, stop: threading.Event) -> None:
    """What a director does first, through the console's API: register the players, draw a
    round robin, and start round 1 once every table is online (so each is sent its names)."""
    players = "".join(f"{name},Demo club\n" for name in NAMES[: 2 * tables])
    with _director(url) as director:
        director.post("/api/director/players.csv", content=players).raise_for_status()
        director.post("/api/director/round-robin").raise_for_status()
        while not stop.wait(0.2):
            tiles = director.get("/api/hall").json()["tables"]
            if all(tile["online"] for tile in tiles):
                break
        if not stop.is_set():
            director.post("/api/director/round", json={"round": 1}).raise_for_status()


@contextmanager
def demo_folder() -> Iterator[Path]:
    """A temporary folder for the demo's hall and tables."""
    with tempfile.TemporaryDirectory(prefix="poolboard-hall-demo-") as folder:
        yield Path(folder)


def demo_helpers(folder: Path, config: HallConfig) -> list[Callable[[str, threading.Event], None]]:
    """The demo's tables and its director's first steps, each run with the pages' address
    until the hall stops."""
    tables = [DemoTable(folder, config, t.name, t.password) for t in config.tables]

    def table_runner(table: DemoTable) -> Callable[[str, threading.Event], None]:
        return lambda _url, stop: table.run(stop)

    def director(url: str, stop: threading.Event) -> None:
        open_the_event(url, len(tables), stop)

    return [*(table_runner(table) for table in tables), director]
