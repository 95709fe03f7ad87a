"""Remote play's link: how long a move takes from one board to the other, and to come back after
the broker dies.

    .venv/bin/python bench/remote.py [--plies 300] [--kills 5]

A Mosquitto on a free loopback port, configured by the hall's generator (passwords, the ACL);
two real :class:`~poolboard.remote.link.RemoteLink` ends (host and guest) in this process
play random legal games (a new invite each game) until ``--plies`` moves have crossed.

Measured: a board's ``update`` with its player's new move -> the other board's ``on_move`` (the
message signed, through the broker, verified, its legality and position checked): p50/p95/max.
Then ``--kills`` times: the broker is SIGKILLed, a move is made while it is away, the broker is
restarted: the time from the restart until the other board has the move (paho reconnects every
1-4 s). Everything is bounded in time; the broker is stopped at the end.
"""

from __future__ import annotations

import argparse
import random
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

from engine.board import Board
from engine.color import Color
from poolboard.hall.broker import Broker, write_broker_config
from poolboard.remote.link import GameTerms, PeerMove, RemoteLink
from poolboard.remote.protocol import Invite
from poolboard.remote.settings import RemoteLinkConfig

USERS = {"hall": "bench-hall", "host": "bench-host", "guest": "bench-guest"}
TERMS = GameTerms(Board().fen(), "apca-match", "apca")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class End:
    """One board: its link and the time each far move arrived."""

    def __init__(self, port: int, role: str, side: Color, invite: Invite) -> None:
        self.arrived: dict[int, float] = {}
        self.event = threading.Event()
        config = RemoteLinkConfig(
            broker="127.0.0.1",
            port=port,
            user=role,
            password=USERS[role],
            keepalive=5,
            invite=str(invite),
            role=role,
        )
        self.link = RemoteLink(config, TERMS, side, on_move=self._arrived)
        self.moves: list[str] = []

    def _arrived(self, move: PeerMove) -> None:
        self.arrived[move.ply] = time.perf_counter()
        self.event.set()

    def start(self) -> End:
        self.link.start()
        if not self.link.connected.wait(10):
            raise SystemExit("the link did not connect")
        return self


def wait(event: threading.Event, seconds: float) -> None:
    if not event.wait(seconds):
        raise SystemExit(f"a move did not arrive within {seconds} s")
    event.clear()


def play_games(port: int, plies: int, chooser: random.Random) -> list[float]:
    """Random games until ``plies`` moves crossed; each move's latency in ms."""
    latencies: list[float] = []
    while len(latencies) < plies:
        invite = Invite.new()
        host = End(port, "host", Color.BLACK, invite).start()
        guest = End(port, "guest", Color.WHITE, invite).start()
        board = Board()
        try:
            while len(latencies) < plies and (legal := board.generate_legal_moves()):
                mover, far = (host, guest) if board.turn is Color.BLACK else (guest, host)
                move = chooser.choice(legal)
                text = board.notation(move)
                board.push(move)
                mover.moves.append(text)
                sent = time.perf_counter()
                mover.link.update(list(mover.moves))
                wait(far.event, 10)
                latencies.append((far.arrived[len(mover.moves)] - sent) * 1000)
                far.moves.append(text)
                far.link.update(list(far.moves))  # executed there: its acknowledgement
        finally:
            host.link.stop()
            guest.link.stop()
    return latencies


def broker_kills(broker: Broker, port: int, kills: int) -> list[float]:
    """Seconds from each broker restart until the move made while it was away arrived."""
    invite = Invite.new()
    host = End(port, "host", Color.BLACK, invite).start()
    guest = End(port, "guest", Color.WHITE, invite).start()
    board = Board()
    resumed = []
    try:
        for _ in range(kills):
            for mover, far in ((host, guest), (guest, host)):
                assert broker.process is not None
                broker.process.kill()
                broker.process.wait()
                move = board.generate_legal_moves()[0]
                text = board.notation(move)
                board.push(move)
                mover.moves.append(text)
                mover.link.update(list(mover.moves))
                time.sleep(0.2)
                broker.start()
                restarted = time.perf_counter()
                wait(far.event, 30)
                resumed.append(far.arrived[len(mover.moves)] - restarted)
                far.moves.append(text)
                far.link.update(list(far.moves))
    finally:
        host.link.stop()
        guest.link.stop()
    return resumed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=300)
    parser.add_argument("--kills", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        config = write_broker_config(Path(folder), host="127.0.0.1", port=port, users=USERS)
        broker = Broker(config, "127.0.0.1", port, Path(folder) / "mosquitto.log")
        broker.start()
        try:
            latencies = sorted(play_games(port, args.plies, random.Random(1)))
            resumed = sorted(broker_kills(broker, port, args.kills))
        finally:
            broker.stop()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(
        f"move board -> board: {len(latencies)} moves, p50 {statistics.median(latencies):.1f} ms, "
        f"p95 {p95:.1f} ms, max {latencies[-1]:.1f} ms"
    )
    print(
        f"after a broker SIGKILL: {len(resumed)} restarts, the move made meanwhile arrived "
        f"{statistics.median(resumed):.2f} s (median), {resumed[-1]:.2f} s (max) after the restart"
    )


if __name__ == "__main__":
    main()
