"""The host's protocol rules (firmware_bridge/link.py), each on a clock the test moves by hand:
against hand-written frames, or against the firmware on a simulated board (VirtualLink)."""

from __future__ import annotations

import pytest

from engine.color import Color
from engine.sensing import LeverPress, LinkHealth, SensorEvent, SensorFault, Snapshot
from firmware_bridge.firmware import protocol
from firmware_bridge.firmware.protocol import encode_frame
from firmware_bridge.link import HostLink, LinkLost
from firmware_bridge.virtual_link import VirtualLink


class HandBoard:
    """A board written by hand: each frame goes straight into a HostLink at time ``t``."""

    def __init__(self) -> None:
        self.events: list[SensorEvent] = []
        self.host = HostLink(self.events.append)
        self.host.opened("test")
        self.seq = 0
        self.t = 0.0

    def send(self, kind: int, payload: bytes, seq: int | None = None) -> None:
        if seq is None:
            seq, self.seq = self.seq, (self.seq + 1) & 0xFF
        self.host.receive(encode_frame(kind, seq, payload), self.t)

    def hello(self, reason: int = protocol.HELLO_BOOT, version: int = 0, **kw: int) -> None:
        payload = bytearray(protocol.pack_hello(reason, b"BOOT", b"HANDMADE"))
        payload[0] = version or protocol.PROTOCOL_VERSION
        self.send(protocol.HELLO, bytes(payload), **kw)

    def state(self, mask: int = 0, levers: tuple[int, int] = (0, 0), uptime: int = 1000) -> None:
        payload = protocol.pack_state(mask, levers[0], levers[1], uptime)
        self.send(protocol.STATE_HEARTBEAT, payload)

    def of(self, kind: type) -> list[SensorEvent]:
        return [e for e in self.events if isinstance(e, kind)]


def presses(events: list[SensorEvent]) -> list[Color]:
    return [e.side for e in events if isinstance(e, LeverPress)]


def test_a_lever_pressed_while_the_link_is_down_counts_once() -> None:
    """The host holds the port unread for 5 s: the link goes down (3 s of silence), a lever is
    pressed, the link comes back: the press counts, once (counters are not re-based on a link-up
    with a board that did not restart)."""
    link = VirtualLink()
    assert link.run_until(lambda: link.host.linked)
    link.press_lever(1)
    link.run(0.5)
    assert presses(link.events) == [Color.WHITE]
    link.stalled = True
    assert link.run_until(lambda: not link.host.linked)
    link.press_lever(0)
    link.run(2.0)
    link.stalled = False
    assert link.run_until(lambda: link.host.linked)
    link.run(2.0)
    assert presses(link.events) == [Color.WHITE, Color.BLACK]
    assert link.link_downs == 1


def test_a_restart_re_bases_the_lever_counters_at_zero() -> None:
    """A board that restarts starts its counters at 0: the first press after it counts once,
    whether the host learns of the restart by the boot HELLO or by the uptime going back. (With
    the boot HELLO lost, the board's restarted seq looks stale until the silence timer has the
    host say HELLO again: the stale check comes first, so an old frame never fakes a restart.)"""
    link = VirtualLink()
    assert link.run_until(lambda: link.host.linked)
    for _ in range(3):
        link.press_lever(0)
    link.run(0.5)
    assert len(presses(link.events)) == 3
    link.stalled = True  # the boot HELLO is lost: only the uptime tells
    link.reboot()
    link.run(0.1)
    link.stalled = False
    link.press_lever(0)
    link.run(4.5)
    assert len(presses(link.events)) == 4
    restarts = [e for e in link.events if isinstance(e, LinkHealth) and "restarted" in e.detail]
    assert len(restarts) == 1
    link.reboot()  # this time the boot HELLO arrives
    link.run(0.1)  # (a lever already down at power-up is no press)
    link.press_lever(0)
    link.run(1.5)
    assert len(presses(link.events)) == 5


def test_a_wrong_version_hello_while_linked_drops_the_link() -> None:
    board = HandBoard()
    board.hello()
    assert board.host.linked
    with pytest.raises(LinkLost, match="protocol 9"):
        board.hello(reason=protocol.HELLO_REPLY, version=9)
    (fault,) = board.of(SensorFault)
    assert "speaks protocol 9" in fault.message and "flash" in fault.message
    board.host.lost("lost test", board.t)
    board.host.opened("test")
    board.seq = 0
    board.hello(version=9)  # still the wrong version: the link stays down, said once
    assert not board.host.linked
    assert len(board.of(SensorFault)) == 1
    assert [e.connected for e in board.of(LinkHealth)] == [True, False]


def test_a_replayed_reply_hello_while_linked_is_stale_and_lets_nothing_older_through() -> None:
    board = HandBoard()
    board.hello()  # seq 0
    for mask in (1, 3, 7):  # seq 1, 2, 3
        board.state(mask=mask)
    board.hello(reason=protocol.HELLO_REPLY, seq=1)  # replayed: 2 behind
    board.send(protocol.STATE_CHANGE, protocol.pack_state(1, 0, 0, 900), seq=2)  # older
    assert [e.occupied for e in board.of(Snapshot)] == [{1}, {1, 2}, {1, 2, 3}]
    assert board.host.counters.stale_frames == 2
    board.state(mask=15)  # seq 4: in sequence, acted on
    assert board.of(Snapshot)[-1].occupied == {1, 2, 3, 4}
