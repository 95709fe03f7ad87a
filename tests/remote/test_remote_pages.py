"""The pages hear of the remote link's state when it changes, not at the next move
(docs/remote.md): a board with a real Mosquitto, the broker killed and started again."""

from pathlib import Path

from engine.color import Color
from poolboard.config import OpponentConfig
from poolboard.remote.opponent import RemoteOpponent
from poolboard.remote.protocol import Invite
from tests.hall.conftest import needs_mosquitto
from tests.patience import wait_for
from tests.remote.conftest import loopback_link
from tests.service.conftest import OpponentTable

pytestmark = needs_mosquitto


def test_the_pages_hear_the_link_go_down_and_come_back(tmp_path: Path, broker) -> None:
    link = loopback_link(broker.port, "t1", "host", Invite.new())
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
    wait_for(lambda: heard and heard[-1], "the link said up")  # announced when the link came up
    moves = len(session.game.board.move_stack)
    broker.process.kill()
    # and when it went down, with no move made
    wait_for(lambda: not heard[-1], "the link said down")
    broker.start()
    wait_for(lambda: heard[-1], "the link said up again")
    assert len(session.game.board.move_stack) == moves
    session.close()
