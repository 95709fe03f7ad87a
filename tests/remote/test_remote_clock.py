"""The host's clock is the one authority (docs/remote.md): a guest follows its referee's pause,
resume and adjustments, so a guest's clock never runs (or flags) while the host's stands."""

from pathlib import Path

from engine.clock import ClockState
from engine.color import Color
from poolboard.config import ClockConfig, OpponentConfig
from poolboard.remote.inputs import HostClock
from poolboard.remote.link import ClockReading
from poolboard.remote.opponent import RemoteOpponent
from poolboard.remote.protocol import Invite
from poolboard.remote.settings import RemoteLinkConfig
from tests.service.conftest import OpponentTable, ScriptedOpponent


def test_a_guest_pauses_and_resumes_with_the_host(tmp_path: Path) -> None:
    # No broker listens on port 1: the readings are handed to the session as the link would.
    link = RemoteLinkConfig(broker="127.0.0.1", port=1, user="away", invite=str(Invite.new()))
    table = OpponentTable(
        tmp_path,
        RemoteOpponent(Color.BLACK, link),
        opponent=OpponentConfig(kind="remote", side="black"),
        remote=link,
        clock=ClockConfig(time_control="600"),
    )
    session = table.session
    table.set_up()
    assert session.clock.running is Color.BLACK  # Black to move: its time runs here

    paused = ClockReading(ply=0, black_ms=590_000, white_ms=600_000, running=None, state="paused")
    assert session.submit(HostClock(paused))
    assert session.clock.state is ClockState.PAUSED
    table.time.now += 30  # the host's pause lasts: nobody's time runs here either
    assert session.clock.remaining(Color.BLACK) == 590.0

    resumed = ClockReading(
        ply=0, black_ms=589_000, white_ms=600_000, running="black", state="running"
    )
    assert session.submit(HostClock(resumed))
    assert session.clock.running is Color.BLACK
    assert session.clock.remaining(Color.BLACK) == 589.0

    # A reading for another side's time, or another ply, is not this board's: left as it is.
    other = ClockReading(
        ply=0, black_ms=500_000, white_ms=600_000, running="white", state="running"
    )
    assert not session.submit(HostClock(other))
    later = ClockReading(
        ply=1, black_ms=500_000, white_ms=600_000, running="white", state="running"
    )
    assert not session.submit(HostClock(later))
    assert session.clock.running is Color.BLACK and session.clock.remaining(Color.BLACK) == 589.0
    session.close()


def test_the_host_tells_its_opponent_of_every_referee_clock_change(tmp_path: Path) -> None:
    # What a host's remote opponent hears is what it publishes (docs/remote.md "clock").
    opponent = ScriptedOpponent(Color.WHITE)
    table = OpponentTable(tmp_path, opponent, clock=ClockConfig(time_control="600"))
    session = table.session
    table.set_up()
    told = len(opponent.positions)
    session.pause_clock("referee")
    assert len(opponent.positions) == told + 1
    assert opponent.positions[-1].clock["paused"]
    session.adjust_clock("referee", Color.WHITE, 30)
    session.resume_clock("referee")
    assert len(opponent.positions) == told + 3
    session.close()
