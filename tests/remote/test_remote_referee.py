"""One invite is one game (docs/remote.md): the referee cannot start another game on it."""

from pathlib import Path

import pytest

from engine.color import Color
from poolboard.config import OpponentConfig
from poolboard.remote.opponent import RemoteOpponent
from poolboard.remote.protocol import Invite
from poolboard.remote.settings import RemoteLinkConfig
from poolboard.session import RefereeError
from tests.service.conftest import OpponentTable


def test_a_new_position_or_next_game_is_refused_in_a_remote_game(tmp_path: Path) -> None:
    # No broker listens on port 1: the link retries in the background, play goes on here.
    link = RemoteLinkConfig(broker="127.0.0.1", port=1, user="home", invite=str(Invite.new()))
    opponent = RemoteOpponent(Color.WHITE, link)
    table = OpponentTable(
        tmp_path, opponent, opponent=OpponentConfig(kind="remote", side="white"), remote=link
    )
    session = table.session
    game_id = session.game_id
    with pytest.raises(RefereeError, match="one invite is one game"):
        session.set_position("referee", "B:W27,28:B14,15")
    session.end_game("referee", "resign", Color.WHITE)
    with pytest.raises(RefereeError, match="one invite is one game"):
        session.next_game("referee")
    assert session.game_id == game_id
    session.close()
