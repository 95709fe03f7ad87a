"""The pages hear of the remote link's state when it changes, not at the next move
(docs/remote.md): a board with a real Mosquitto, the broker killed and started again."""

from pathlib import Path

from engine.color import Color
from poolboard.config import OpponentConfig
from poolboard.opponents.remote_opponent import RemoteOpponent
from poolboard.remote_protocol import Invite
from poolboard.remote_settings import RemoteLinkConfig
from tests.hall.conftest import TABLES, needs_mosquitto
from tests.service.test_opponent import OpponentTable, wait_for

pytestmark = needs_mosquitto


def test_the_pages_hear_the_link_go_down_and_come_back(tmp_path: Path, broker) -> None:
    link = RemoteLinkConfig(
        broker="127.0.0.1",
        port=broker.port,
        user="t1",
        password=TABLES["t1"],
        keepalive=2,
        invite=str(Invite.new()),
        role="host",
    )
    table = OpponentTable(
        tmp_path / "board",
        RemoteOpponent(Color.WHITE, link),
        opponent=OpponentConfig(kind="remote", side="white"),
        remote=link,
    )
    session = table.session
    heard: list[bool] = []
    session.subscribe(lambda state: heard.append(state["opponent"]["connected"]))
    table.set_up()
    wait_for(lambda: heard and heard[-1], 10.0)  # announced when the link came up
    moves = len(session.game.board.move_stack)
    broker.process.kill()
    wait_for(lambda: not heard[-1], 10.0)  # and when it went down, with no move made
    broker.start()
    wait_for(lambda: heard[-1], 15.0)
    assert len(session.game.board.move_stack) == moves
    session.close()
