"""A real Mosquitto on a free loopback port, configured by the hall's own generator."""

import json
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from engine.board import Board
from poolboard.hall.broker import Broker, mosquitto_program, write_broker_config
from tests.patience import PATIENCE, wait_for

HALL_PASSWORD = "hall-pw"
TABLES = {"t1": "pw-one", "t2": "pw-two", "t3": "pw-three"}
#: The start position's occupancy: Black on 1-12, White on 21-32.
START = frozenset(range(1, 13)) | frozenset(range(21, 33))
START_FEN = Board().fen()


def table_state(moves=(), *, tracker="to_move", result=None, running="black", link=None) -> dict:
    """A table's whole state (poolboard.session.state.BoardState) as it publishes it."""
    return {
        "game_id": 1,
        "fen": START_FEN,
        "start_fen": START_FEN,
        "sensed": None,
        "turn": "black",
        "moves": list(moves),
        "result": result,
        "result_reason": "r" if result else None,
        "headers": {"White": "W", "Black": "B"},
        "link": link,
        "clock": {
            "black": 60.0,
            "white": 60.0,
            "running": running,
            "state": "running",
            "control": "3600",
            "game": 1,
            "events": [],
        },
        "state": {"name": tracker, "detail": ""},
        "last_move": None,
        "cues": {},
        "result_text": None,
        "winner": None,
        "counts": [],
        "legal": [],
        "pieces": {"black": 12, "white": 12},
        "words": {
            "result": None,
            "time_control": "60 minutes a side",
            "pieces": {"black": "12 pieces", "white": "12 pieces"},
        },
        "violations": [],
        "violation": None,
        "faults": [],
        "details": {},
        "pending": {},
        "match": {"game": 1, "games": 2, "round": "1", "score": [], "results": [], "over": False},
        "storage": None,
        "rules": "casual",
        "opponent": None,
        "hint": None,
        "hints": True,
    }


try:
    mosquitto_program()
    HAVE_MOSQUITTO = True
except Exception:
    HAVE_MOSQUITTO = False
needs_mosquitto = pytest.mark.skipif(
    not HAVE_MOSQUITTO, reason="needs Debian's mosquitto (.ci/run installs it)"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """mosquitto with the hall's ACL and passwords (users hall, t1, t2, t3); ``.stop()``,
    ``.process.kill()`` and ``.start()`` again are the tests' to call."""
    port = free_port()
    users = {"hall": HALL_PASSWORD, **TABLES}
    config = write_broker_config(tmp_path / "broker", host="127.0.0.1", port=port, users=users)
    server = Broker(config, "127.0.0.1", port, tmp_path / "broker" / "mosquitto.log")
    server.start()
    yield server
    server.stop()


class Listener:
    """A paho client that records every message on the topics it subscribed to."""

    def __init__(
        self, port: int, user: str, password: str, *subscriptions: str, ca_file: str = ""
    ) -> None:
        self.messages: queue.Queue[mqtt.MQTTMessage] = queue.Queue()
        self.held: list[mqtt.MQTTMessage] = []
        self.connected = threading.Event()
        # The client id every poolboard client uses: its user name (docs/hall.md).
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=user)
        self.client.username_pw_set(user, password)
        if ca_file:
            self.client.tls_set(ca_certs=ca_file)

        def on_connect(client, _userdata, _flags, reason, _props) -> None:
            if not reason.is_failure:
                for name in subscriptions:
                    client.subscribe(name, qos=1)
                self.connected.set()

        self.client.on_connect = on_connect
        self.client.on_message = lambda _c, _u, message: self.messages.put(message)
        self.client.connect("127.0.0.1", port, keepalive=5)
        self.client.loop_start()
        assert self.connected.wait(PATIENCE), "could not connect to the test broker"

    def next(self, topic_end: str, timeout: float = PATIENCE) -> tuple[str, dict]:
        """The next message whose topic ends with ``topic_end``; the others stay for their
        own ``next`` calls, in order."""
        deadline = time.monotonic() + timeout
        while True:
            for index, message in enumerate(self.held):
                if message.topic.endswith(topic_end):
                    del self.held[index]
                    return message.topic, json.loads(message.payload)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise queue.Empty
            try:
                self.held.append(self.messages.get(timeout=remaining))
            except queue.Empty:
                continue

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


REFEREE_PASSWORD = "ref-pw"


class TableProcess:
    """``poolboard run`` on the simulated board as hall table ``name``; moves are played through
    its virtual board's HTTP API (/api/board), as a hand on a reed board would."""

    def __init__(
        self,
        tmp_path: Path,
        name: str,
        broker_port: int,
        hall_extra: str = "",
        *,
        in_hall: bool = True,
        **game: str,
    ) -> None:
        """``in_hall=False``: the broker's address is left empty (not in a hall), for a board
        whose broker user ``name`` plays a remote game: one user is one connection."""
        self.name = name
        self.folder = tmp_path / f"table-{name}"
        self.folder.mkdir(exist_ok=True)
        self.config = self.folder / "board.toml"
        tags = "".join(f'{key} = "{value}"\n' for key, value in game.items())
        self.config.write_text(
            f'[storage]\npath = "{self.folder}"\n'
            '[sensor]\nkind = "simulated"\n'
            "[web]\nport = 0\n"
            f'[referee]\npassword = "{REFEREE_PASSWORD}"\n'
            "[tracker]\ndebounce = 0.01\nsettle = 0.05\n"
            f"[game]\n{tags}"
            f'[hall]\nbroker = "{"127.0.0.1" if in_hall else ""}"\nport = {broker_port}\n'
            f'table = "{name}"\n'
            f'password = "{TABLES.get(name, "x")}"\nkeepalive = 2\n{hall_extra}'
        )
        self.process: subprocess.Popen | None = None
        self.url = ""
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "poolboard.cli", "run", "--config", str(self.config)],
            stdout=subprocess.PIPE,
            stderr=open(self.folder / "stderr.log", "a"),  # noqa: SIM115 (the child owns it)
            text=True,
        )
        for _ in range(5):
            line = self.process.stdout.readline()
            if "web UI on " in line:
                self.url = line.split("web UI on ", 1)[1].split("/ ", 1)[0]
                break
        assert self.url, (self.folder / "stderr.log").read_text()[-2000:]
        # Changes carry the header the board's own pages send (the request guard's CSRF check).
        self.http = httpx.Client(base_url=self.url, timeout=5, headers={"X-Poolboard": "1"})
        self.show(START)

    def show(self, squares) -> None:
        self.http.post("/api/board", json={"occupied": sorted(squares)}).raise_for_status()
        time.sleep(0.08)  # longer than the tracker's debounce + settle

    def board(self) -> Board:
        state = self.http.get("/api/state").json()
        return Board(state["fen"])

    def play(self, text: str) -> None:
        """Play ``text`` (PDN, e.g. 11-15) by hand on the virtual board; waits until recorded."""
        board = self.board()
        before = len(self.http.get("/api/state").json()["moves"])
        move = board.parse_move(text)
        occupied = set(board.occupied_squares())
        occupied.discard(move.from_square)
        self.show(occupied)
        occupied.add(move.to_square)
        self.show(occupied)
        for square in move.captures:
            occupied.discard(square)
            self.show(occupied)
        wait_for(
            lambda: len(self.http.get("/api/state").json()["moves"]) > before,
            f"{self.name}: {text} being recorded",
        )

    def referee(self, action: str, body: dict | None = None) -> None:
        self.http.post(
            f"/api/referee/{action}", json=body, auth=("referee", REFEREE_PASSWORD)
        ).raise_for_status()

    def kill(self) -> None:
        """SIGKILL: no goodbye, the broker publishes the last will."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self.http.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.http.close()


@pytest.fixture
def tables(tmp_path: Path) -> Iterator:
    """``tables(name, broker_port, **game_tags)`` starts a table process; all stopped after."""
    started: list[TableProcess] = []

    def start(name: str, broker_port: int, hall_extra: str = "", **game: str) -> TableProcess:
        table = TableProcess(tmp_path, name, broker_port, hall_extra, **game)
        started.append(table)
        return table

    yield start
    for table in started:
        table.stop()


DIRECTOR = ("director", "dir-pw")


class HallProcess:
    """``poolboard hall`` with its own Mosquitto on free loopback ports."""

    def __init__(
        self,
        tmp_path: Path,
        tables: dict[str, str],
        broker_port: int = 0,
        manage: bool = True,
        **sections: str,
    ) -> None:
        self.folder = tmp_path / "hall"
        self.folder.mkdir(exist_ok=True)
        self.broker_port = broker_port or free_port()
        self.feed = self.folder / "feed"
        entries = "".join(
            f'[[tables]]\nname = "{name}"\npassword = "{password}"\n'
            for name, password in tables.items()
        )
        self.config = self.folder / "hall.toml"
        self.config.write_text(
            f'[hall]\nevent = "Club Open"\ndata = "{self.folder / "data"}"\nport = 0\n'
            f'[director]\nusername = "{DIRECTOR[0]}"\npassword = "{DIRECTOR[1]}"\n'
            f'[broker]\nport = {self.broker_port}\nhall_password = "{HALL_PASSWORD}"\n'
            f"manage = {str(manage).lower()}\n"
            f'[broadcast]\nfolder = "{self.feed}"\n'
            + "".join(f"[{name}]\n{body}\n" for name, body in sections.items())
            + entries
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "poolboard.cli", "hall", "--config", str(self.config)],
            stdout=subprocess.PIPE,
            stderr=open(self.folder / "stderr.log", "a"),  # noqa: SIM115 (the child owns it)
            text=True,
        )
        self.url = ""
        for _ in range(5):
            line = self.process.stdout.readline()
            if "pages on " in line:
                self.url = line.split("pages on ", 1)[1].split("/ ", 1)[0]
                break
        assert self.url, (self.folder / "stderr.log").read_text()[-2000:]
        # Changes carry the header the hall's own pages send (the request guard's CSRF check).
        self.http = httpx.Client(base_url=self.url, timeout=10, headers={"X-Poolboard": "1"})

    def director(self, path: str, body=None) -> httpx.Response:
        """POST a director action: ``body`` as JSON, or a ``str`` as a CSV upload."""
        if isinstance(body, str):
            return self.http.post(
                f"/api/director/{path}",
                content=body,
                headers={"Content-Type": "text/csv"},
                auth=DIRECTOR,
            )
        return self.http.post(f"/api/director/{path}", json=body, auth=DIRECTOR)

    def get(self, path: str, auth: bool = False):
        response = self.http.get(path, auth=DIRECTOR if auth else None)
        response.raise_for_status()
        return response.json()

    def wait(self, check, what: str, timeout: float = PATIENCE):
        """Poll ``check()`` until it returns something true; that value."""
        return wait_for(check, f"hall: {what}", timeout)

    def tile(self, table: str) -> dict:
        return self.get(f"/api/tables/{table}")["tile"]

    def stop(self) -> None:
        self.http.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[HallProcess]:
    """A running ``poolboard hall`` for tables t1, t2, t3 (stopped after)."""
    process = HallProcess(tmp_path, TABLES)
    yield process
    process.stop()


def refusals(broker: Broker) -> int:
    """How many times the broker has turned a client away (its log says each, unnamed)."""
    lines = broker.log_path.read_text(errors="replace").splitlines()
    return sum("not authorised" in line for line in lines)


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
