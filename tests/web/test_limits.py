"""Exhaustion against real servers on loopback: big bodies, slow clients, connection caps, logs.

The body and memory checks run ``poolboard demo`` as its own process (its peak memory is read
from /proc); the timing checks run the same server in-process with short deadlines
(``WebLimits``), so they take a second, not ten. Other client addresses are other loopback
addresses (127.0.0.2, ...), as Linux routes all of 127/8 to this machine.
"""

import asyncio
import contextlib
import json
import logging
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from poolboard.config import Config, StorageConfig
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.web.app import WebServer
from poolboard.web.guard import MAX_BODY
from poolboard.web.limits import WebLimits
from tests.patience import wait_for
from tests.web.conftest import connect, settled

MIB = 1 << 20


def peak_memory(pid: int) -> int:
    """The process's peak resident memory in bytes (VmHWM)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status)[1]) * 1024


def answer(client: socket.socket) -> str:
    """Everything the server says until it closes the connection."""
    received = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := client.recv(4096):
            received += chunk
    return received.decode()


def closed_by_server(client: socket.socket, within: float) -> bool:
    """Whether the server closes the connection within ``within`` seconds."""
    client.settimeout(within)
    try:
        while client.recv(4096):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[tuple[subprocess.Popen, str]]:
    """``poolboard demo`` on a free port of 127.0.0.1, with its default limits; its log goes
    to ``process.log`` (a path)."""
    home = tmp_path_factory.mktemp("demo")
    log = home / "stderr.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "poolboard.cli", "demo", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=log.open("w"),
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(home)},
    )
    process.log = log
    url = None
    for _ in range(5):
        line = process.stdout.readline()
        if "web UI on " in line:
            url = line.split("web UI on ")[1].split("/ ")[0]
            break
    assert url, "the demo did not start"
    yield process, url
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=15)


def test_a_huge_body_is_refused_from_its_length_before_it_is_read(demo) -> None:
    _, url = demo
    port = int(url.rsplit(":", 1)[1])
    for path in ("/api/referee/pause", "/api/board", "/api/state"):  # before any password
        client = connect(port)
        client.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Poolboard: 1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {300 * MIB}\r\n\r\n".encode()
            + b"[" * 65536
        )
        said = answer(client)  # and the server closes the connection
        assert said.startswith("HTTP/1.1 413") and f"at most {MAX_BODY} bytes" in said
        client.close()


def test_a_chunked_flood_is_cut_off_and_memory_stays_bounded(demo) -> None:
    process, url = demo
    port = int(url.rsplit(":", 1)[1])
    before = peak_memory(process.pid)
    chunk = b"%x\r\n%s\r\n" % (MIB, b" " * MIB)
    statuses = []
    sent = 0
    for _ in range(4):  # four at once took the unguarded service to 3.3 GB
        client = connect(port)
        client.sendall(
            b"POST /api/board HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Poolboard: 1\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        with contextlib.suppress(BrokenPipeError, ConnectionResetError, TimeoutError):
            for _ in range(300):  # up to 300 MiB each, unless the server stops reading
                client.sendall(chunk)
                sent += len(chunk)
        statuses.append(client.recv(4096)[:12])
        client.close()
    assert statuses == [b"HTTP/1.1 413"] * 4
    assert sent < 4 * 50 * MIB  # the server hung up long before
    assert peak_memory(process.pid) - before < 20 * MIB
    assert httpx.get(f"{url}/api/state").status_code == 200


def test_a_thousand_idle_sockets_from_one_address_leave_the_service_reachable(demo) -> None:
    """1,100 idle sockets once made the service unreachable and wrote 160,000 log lines."""
    process, url = demo
    port = int(url.rsplit(":", 1)[1])
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1400:
        pytest.skip(f"needs 1,400 file descriptors, the hard limit is {hard}")
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1400), hard))
    lines_before = len(process.log.read_text().splitlines())
    idle = []
    try:
        for _ in range(1100):
            with contextlib.suppress(OSError):  # refused at once, or reset while connecting
                idle.append(connect(port, "127.0.0.3"))
        assert httpx.get(f"{url}/api/state", timeout=30).status_code == 200
        assert len(settled(idle, 32, within=8)) == 32  # the per-address cap
        assert len(os.listdir(f"/proc/{process.pid}/fd")) < 150
        new_lines = process.log.read_text().splitlines()[lines_before:]
        assert 1 <= len(new_lines) <= 6, new_lines
    finally:
        for client in idle:
            client.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


class Server:
    """The web server in this process with short deadlines and small caps."""

    def __init__(self, tmp_path: Path, limits: WebLimits) -> None:
        self.session = Session(Config(storage=StorageConfig(path=str(tmp_path))), SimulatedBoard())
        self.web = WebServer(self.session, limits=limits)
        self.url = self.web.start()
        self.port = self.web.port

    def close(self) -> None:
        self.web.stop()
        self.session.close()


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Server]:
    server = Server(
        tmp_path,
        WebLimits(max_connections=40, per_client=8, head_seconds=1.0, body_seconds=1.0),
    )
    yield server
    server.close()


def test_silent_and_slow_clients_are_dropped(quick: Server) -> None:
    silent = connect(quick.port)
    trickle = connect(quick.port)
    trickle.sendall(b"GET /api/state HTTP/1.1\r\n")
    # The slowness is what is tested: a header line whenever 0.2 s pass without the server
    # hanging up, never a whole request head, until the head deadline (1 s) drops it.
    deadline = time.monotonic() + 10
    while not closed_by_server(trickle, 0.2):
        assert time.monotonic() < deadline, "a client trickling its head was never dropped"
        with contextlib.suppress(OSError):
            trickle.sendall(b"X-Slow: 1\r\n")
    assert closed_by_server(silent, 10)
    slow_body = connect(quick.port)
    slow_body.sendall(
        b"POST /api/board HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Poolboard: 1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    )
    assert slow_body.recv(4096).startswith(b"HTTP/1.1 408")
    for client in (silent, trickle, slow_body):
        client.close()
    assert httpx.get(f"{quick.url}/api/state").status_code == 200


def test_an_unfinished_request_head_beyond_8_kib_is_refused(quick: Server) -> None:
    client = connect(quick.port)
    client.sendall(b"GET /api/state HTTP/1.1\r\nX-Big: " + b"x" * 10_000)  # and no end
    assert answer(client).startswith("HTTP/1.1 400")
    client.close()
    assert httpx.get(f"{quick.url}/api/state").status_code == 200


def test_connection_caps_hold_and_the_service_stays_reachable(tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.WARNING, logger="poolboard.web")
    server = Server(tmp_path, WebLimits(max_connections=40, per_client=8, head_seconds=3.0))
    try:
        flood = [connect(server.port, "127.0.0.2") for _ in range(30)]
        assert len(settled(flood, 8)) == 8  # per client address
        # Many addresses: the cap in all holds too, shared between the addresses.
        crowd = [connect(server.port, f"127.0.1.{n}") for n in range(1, 9) for _ in range(8)]
        kept = settled(flood + crowd, 40)
        assert len(kept) == 40  # in all
        refused = len(flood) + len(crowd) - len(kept)
        # Someone else gets in at once, in the place of a silent connection of the busiest.
        assert httpx.get(f"{server.url}/api/state").status_code == 200
        lines = [r for r in caplog.records if r.getMessage().startswith("refused a connection")]
        assert refused > 20 and len(lines) <= 5  # a line per refusal would be a flood of its own
        for client in flood + crowd:
            client.close()
    finally:
        server.close()


def test_many_addresses_of_one_machine_cannot_lock_others_out(tmp_path: Path) -> None:
    """#33: idle connections from 12 addresses fill the cap in all; each normal request from
    another address still gets in, in the place of a silent connection of the busiest."""
    server = Server(tmp_path, WebLimits(max_connections=24, per_client=4, head_seconds=30.0))
    try:
        idle = [connect(server.port, f"127.0.2.{n}") for n in range(1, 13) for _ in range(4)]
        assert len(settled(idle, 24)) == 24
        for _ in range(5):
            assert httpx.get(f"{server.url}/api/state").status_code == 200
        for client in idle:
            client.close()
    finally:
        server.close()


def test_a_served_request_is_not_cut_by_the_head_deadline(quick: Server) -> None:
    """Keep-alive: a connection that keeps asking is served for as long as it asks. The time
    between requests is what is tested: three requests 0.6 s apart keep one connection open
    past the 1 s head deadline counted from when it connected."""
    with httpx.Client() as client:
        for pause in (0.6, 0.6, 0.0):
            assert client.get(f"{quick.url}/api/state").status_code == 200
            time.sleep(pause)


def test_many_spectators_fit_within_the_default_caps(tmp_path: Path) -> None:
    """The defaults leave room for a club: 30 sockets from one address, all open at once, are
    each served (one the caps refused would be closed unanswered)."""
    server = Server(tmp_path, WebLimits())
    try:
        clients = [connect(server.port) for _ in range(30)]
        request = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        for client in clients:
            client.sendall(request)
        assert [answer(client)[:12] for client in clients] == ["HTTP/1.1 200"] * 30
        for client in clients:
            client.close()
    finally:
        server.close()


def test_wrong_passwords_lock_the_address_out_for_longer_and_longer(tmp_path: Path) -> None:
    from tests.web.conftest import PASSWORD, Live, post

    live = Live(tmp_path)
    try:
        pause = f"{live.url}/api/referee/pause"
        statuses = [post(pause, auth=("referee", f"guess{n}")).status_code for n in range(6)]
        assert statuses == [401] * 6
        locked = post(pause, auth=("referee", PASSWORD))  # even the right one, for now
        assert locked.status_code == 429 and int(locked.headers["retry-after"]) >= 1
        other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        ok = other.post(pause, auth=("referee", PASSWORD), headers={"X-Poolboard": "1"})
        assert ok.status_code in (200, 422)  # another address is not locked out
        status = wait_for(  # the lockout is a second or so
            lambda: (code := post(pause, auth=("referee", PASSWORD)).status_code) != 429 and code,
            "the address's lockout ending",
        )
        assert status in (200, 422)
    finally:
        live.close()


def test_a_spectators_websocket_outlives_the_head_deadline(quick: Server) -> None:
    async def watch() -> None:
        ws_url = quick.url.replace("http://", "ws://") + "/ws"
        async with websockets.connect(ws_url) as spectator:
            assert json.loads(await spectator.recv())["fen"]  # the whole state
            # A silent connection opened after the spectator's is dropped at its head
            # deadline: the spectator's own deadline, had it one, has passed by then.
            later = connect(quick.port)
            assert await asyncio.to_thread(closed_by_server, later, 10)
            later.close()
            await asyncio.wait_for(await spectator.ping(), 2)  # still connected

    asyncio.run(watch())
