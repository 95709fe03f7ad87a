"""The host's protocol rules (firmware_bridge/link.py), each on a clock the test moves by hand:
against hand-written frames, or against the firmware on a simulated board (VirtualLink)."""

from __future__ import annotations

import random

import pytest

from engine.color import Color
from engine.cues import CueKind, Cues
from engine.sensing import LeverPress, LinkHealth, SensorEvent, SensorFault, Snapshot
from firmware_bridge.cue_frame import frame_entries
from firmware_bridge.firmware import protocol
from firmware_bridge.firmware.protocol import Deframer, encode_frame
from firmware_bridge.link import HostLink, LinkLost
from firmware_bridge.virtual_link import VirtualLink
from poolboard.words import said


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

    def state(
        self,
        mask: int = 0,
        levers: tuple[int, int] = (0, 0),
        uptime: int = 1000,
        boot_id: bytes = b"BOOT",
    ) -> None:
        payload = protocol.pack_state(mask, levers[0], levers[1], uptime, 0, boot_id)
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
    whether the host learns of the restart by the boot HELLO or, that one lost, by the new boot
    id in the state reports (the board's seq starts again at 0: without the boot id they would
    look stale, and an uptime past the old one would hide the restart)."""
    link = VirtualLink()
    assert link.run_until(lambda: link.host.linked)
    for _ in range(3):
        link.press_lever(0)
    link.run(0.5)
    assert len(presses(link.events)) == 3
    link.run(2.0)  # the new uptime will soon be past the old one
    link.stalled = True  # the boot HELLO is lost
    link.reboot()
    link.run(0.1)
    link.stalled = False
    link.press_lever(0)
    link.run(1.0)
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
    assert fault.said is not None and "habla el protocolo 9" in said(fault.said, "es")
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
    board.send(protocol.STATE_CHANGE, protocol.pack_state(1, 0, 0, 900, 0, b"BOOT"), seq=2)
    assert [e.occupied for e in board.of(Snapshot)] == [{1}, {1, 2}, {1, 2, 3}]
    assert board.host.counters.stale_frames == 2
    board.state(mask=15)  # seq 4: in sequence, acted on
    assert board.of(Snapshot)[-1].occupied == {1, 2, 3, 4}


def test_a_restart_is_told_by_the_boot_id_and_never_by_the_uptime() -> None:
    """The uptime is not compared (so its wrap at 49.7 days or a step of exactly 2**31 ms mean
    nothing); a new boot id is a restart even when its seq looks stale, checked before the seq."""
    board = HandBoard()
    board.hello()
    board.state(levers=(2, 0), uptime=2**32 - 500)
    board.state(levers=(2, 0), uptime=500)  # past the wrap
    board.state(levers=(2, 0), uptime=500 + 2**31)
    board.state(levers=(2, 0), uptime=3)  # back: still the same boot
    assert [e.connected for e in board.of(LinkHealth)] == [True]
    assert len(board.of(LeverPress)) == 2
    board.seq = 1  # restarted, its boot HELLO lost: seq 1 is 4 behind
    board.state(levers=(1, 0), uptime=40, boot_id=b"NEW!")
    assert board.of(LinkHealth)[-1].detail == "board restarted (its boot id changed)"
    assert len(board.of(LeverPress)) == 3  # its counter started at 0 again


def _random_picture(rng: random.Random) -> list[tuple[int, int, int, int]]:
    squares = rng.sample(range(1, 33), rng.randint(1, 4))
    return frame_entries(Cues({s: rng.choice(list(CueKind)) for s in squares}))


@pytest.mark.system  # a long run (seconds of simulated scanning)
def test_one_percent_noise_both_ways_with_an_led_change_a_second_keeps_the_link_up() -> None:
    """Ten minutes of a cable that garbles 1 % of the bytes each way: every picture reaches
    the LEDs within a second, and the link never goes down (bench/link_noise.py: per hour)."""
    rng = random.Random(5)
    link = VirtualLink(noise_in=0.01, noise_out=0.01, seed=5)
    assert link.run_until(lambda: link.host.linked)
    for _ in range(600):
        wanted = _random_picture(rng)
        link.host.set_picture(wanted)
        start = link.t
        assert link.run_until(lambda w=wanted: link.firmware.picture.entries == w, 1.0)
        link.run(1.0 - (link.t - start))
    assert link.link_downs == 0
    assert link.host.counters.retries > 50  # the noise did hit the LED frames
    assert link.to_board.garbled > 150 and link.to_host.garbled > 150


def test_lost_led_frames_leave_no_stale_led_behind() -> None:
    """Square 5 lit, then dark again, while every frame to the board is garbled: the host must
    not assume the board still shows what it last acknowledged."""
    link = VirtualLink()
    assert link.run_until(lambda: link.host.shown)
    lit = frame_entries(Cues({5: CueKind.ERROR}))
    link.host.set_picture(lit)
    link.to_board.rate = 1.0
    link.run(0.3)
    link.to_board.rate = 0.0
    link.host.set_picture(frame_entries(Cues.none()))
    assert link.run_until(lambda: link.host.shown)
    assert link.firmware.picture.entries == frame_entries(Cues.none())


def test_a_picture_of_many_changes_goes_in_frames_of_eight() -> None:
    link = VirtualLink()
    assert link.run_until(lambda: link.host.shown)
    frames = []
    feed = link.hal.feed
    link.hal.feed = lambda data: (frames.append(data), feed(data))  # type: ignore[method-assign]
    wanted = frame_entries(Cues({s: CueKind.MOVE_TO for s in range(1, 33)}))
    link.host.set_picture(wanted)
    assert link.run_until(lambda: link.host.shown)
    assert link.firmware.picture.entries == wanted
    # 33 LEDs (32 squares and the link LED) in frames of at most eight: 47 bytes on the wire
    assert len(frames) == 5 and all(len(frame) <= 47 for frame in frames)


def test_duplicates_and_stale_frames_do_not_keep_a_silent_link_alive() -> None:
    board = HandBoard()
    board.hello()
    board.state(mask=1)  # seq 1
    for _ in range(40):  # 4 s of the same frame again and again
        board.t += 0.1
        board.send(protocol.STATE_HEARTBEAT, protocol.pack_state(1, 0, 0, 5, 0, b"BOOT"), seq=1)
        if board.t <= 3.0:
            board.host.poll(board.t)
    assert board.host.counters.stale_frames == 40
    with pytest.raises(LinkLost, match="no message from the board"):
        board.host.poll(board.t)


def test_the_host_numbers_its_frames_from_0_at_every_open() -> None:
    board = HandBoard()
    first = Deframer().feed(board.host.poll(0.0))
    assert [(kind, seq) for kind, seq, _ in first] == [(protocol.HOST_HELLO, 0)]
    board.host.poll(0.6)  # seq 1
    board.hello()  # linked: the numbering runs on
    board.host.set_picture(frame_entries(Cues({1: CueKind.ERROR})))
    [(kind, seq, _)] = Deframer().feed(board.host.poll(0.65))
    assert (kind, seq) == (protocol.LED_SET, 2)
    board.host.lost("unplugged", 0.7)
    board.host.opened("test")
    again = Deframer().feed(board.host.poll(0.8))
    assert [(kind, seq) for kind, seq, _ in again] == [(protocol.HOST_HELLO, 0)]


def test_a_refused_led_frame_is_reported_and_not_sent_again() -> None:
    board = HandBoard()
    board.hello()
    board.host.set_picture(frame_entries(Cues({7: CueKind.ERROR})))
    [(kind, seq, _)] = Deframer().feed(board.host.poll(0.0))
    assert kind == protocol.LED_SET
    board.send(protocol.ACK, protocol.pack_ack(seq, protocol.ACK_BAD_VALUE))
    (fault,) = board.of(SensorFault)
    assert "rejected an LED frame: status 3" in fault.message
    assert fault.said is not None and said(fault.said, "es") == (
        "el tablero rechazó una trama de LED: estado 3, un valor fuera de rango, p. ej. un "
        "código de parpadeo desconocido"
    )
    board.state()  # the board is alive
    assert board.host.poll(1.0) == b""  # not retried: it would be refused again


@pytest.mark.parametrize("board_id", [b"", bytes(17)])
def test_a_hello_with_a_board_id_of_no_or_more_than_16_bytes_is_a_bad_frame(
    board_id: bytes,
) -> None:
    board = HandBoard()
    payload = protocol.pack_hello(protocol.HELLO_BOOT, b"BOOT", board_id)
    board.send(protocol.HELLO, payload)
    assert not board.host.linked
    assert board.host.counters.bad_frames == 1


def test_the_hosts_layout_is_sent_again_after_a_restart_and_nothing_is_read_before_it() -> None:
    black = protocol.pack_layout(protocol.Layout(orientation="black"))
    link = VirtualLink(layout=black)
    link.hal.switches = 1 << 31  # a piece on square 1, wired from Black's side
    link.run(1.0)
    link.reboot()  # config.py's layout again until the host sends its own
    link.run(1.0)
    link.stalled = True
    link.reboot()  # and once with the boot HELLO lost
    link.run(0.1)
    link.stalled = False
    link.run(1.0)
    snapshots = [e.occupied for e in link.events if isinstance(e, Snapshot)]
    assert snapshots and all(occupied == {1} for occupied in snapshots)
    assert len([e for e in link.events if isinstance(e, LinkHealth) and e.connected]) == 3
