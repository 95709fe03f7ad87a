"""Remote games run over the hall's real Mosquitto (users t1, t2, t3; the hall's ACL)."""

import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from engine.board import Board
from engine.color import Color
from poolboard.remote.link import ClockReading, GameTerms, PeerMove, RemoteLink
from poolboard.remote.protocol import Invite
from poolboard.remote.settings import RemoteLinkConfig
from tests.hall.conftest import (
    TABLES,
    broker,  # noqa: F401 (a fixture, used by name)
)

INVITE = Invite("game42abc", "s3cret-s3cret-s3cret")
TERMS = GameTerms(Board().fen(), "apca-match", "apca")


class Board_:
    """One board's end: its link, its record and what the link handed it."""

    def __init__(
        self, port: int, user: str, role: str, side: str, invite: Invite = INVITE, **settings
    ):
        self.moves: list[str] = []
        self.offered: list[PeerMove] = []
        self.clocks: list[ClockReading] = []
        self.problems: list[str | None] = []  # in English
        self.results: list[tuple[str, str]] = []
        self.links: list[bool] = []  # whether the link was up, at each on_link
        config = loopback_link(port, user, role, invite, **settings)
        self.link = RemoteLink(
            config,
            TERMS,
            Color(side),
            on_move=lambda move: self._note(self.offered, move),
            on_clock=lambda reading: self._note(self.clocks, reading),
            on_problem=lambda said: self._note(self.problems, None if said is None else str(said)),
            on_result=lambda result, reason: self._note(self.results, (result, reason)),
            on_link=lambda: self._note(self.links, self.link.connected.is_set()),
        )

    def _note(self, where: list, item) -> None:
        where.append(item)

    def start(self) -> "Board_":
        self.link.start()
        assert self.link.connected.wait(5), "the link did not connect"
        return self

    def play(self, text: str) -> None:
        """This board records ``text`` (its player's move, or the other's executed here)."""
        self.moves.append(text)
        self.link.update(list(self.moves))


def loopback_link(port: int, user: str, role: str, invite: Invite, **settings) -> RemoteLinkConfig:
    """Board ``user``'s link to the test broker on loopback (keepalive 2 s: drops seen fast),
    with its password unless ``settings`` give another."""
    settings.setdefault("password", TABLES[user])
    return RemoteLinkConfig(
        broker="127.0.0.1",
        port=port,
        user=user,
        keepalive=2,
        invite=str(invite),
        role=role,
        **settings,
    )


def raw_client(port: int, user: str, password: str) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"raw-{user}-{time.time_ns()}")
    client.username_pw_set(user, password)
    client.connect("127.0.0.1", port, keepalive=5)
    client.loop_start()
    return client


def settle_logs(seconds: float = 0.5) -> None:
    time.sleep(seconds)  # messages cross the broker in milliseconds on loopback
