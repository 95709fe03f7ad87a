"""The protocol's edges, each over a real pty: malformed host frames NAKed by the firmware (under
MicroPython and CPython), and the host driver facing a hand-written board (stale and duplicate
frames, a counter that goes back, the uptime wrap) on a port it must make raw itself."""

from __future__ import annotations

import os
import select
import termios
import time
import tracemalloc
from collections.abc import Iterator

import pytest

from engine.sensing import LeverPress, LinkHealth, SensorEvent, Snapshot
from firmware_bridge.emulator import Emulator, parse_squares, remove_stale_folders
from firmware_bridge.firmware import protocol
from firmware_bridge.firmware.protocol import Deframer, encode_frame
from firmware_bridge.host import SerialBoard, make_raw
from firmware_bridge.micropython_board import interpreters
from tests.patience import PATIENCE, wait_for


class RawPort:
    """The test as the host, byte by byte, on the emulator's pty (made raw, as PROTOCOL.md says)."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        make_raw(self.fd)
        self.deframer = Deframer()
        self.received: list[tuple[int, int, bytes]] = []
        self.seq = 0

    def send(self, kind: int, payload: bytes) -> int:
        seq, self.seq = self.seq, self.seq + 1
        os.write(self.fd, encode_frame(kind, seq, payload))
        return seq

    def answer(self, kind: int, timeout: float = PATIENCE) -> tuple[int, int, bytes]:
        """The next message of this kind (others are passed over)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            while self.received:
                message = self.received.pop(0)
                if message[0] == kind:
                    return message
            if select.select([self.fd], [], [], left)[0]:
                self.received += self.deframer.feed(os.read(self.fd, 4096))
        raise AssertionError(f"no message of kind {kind:#x} within {timeout} s")


@pytest.fixture(params=interpreters())
def raw_board(request: pytest.FixtureRequest) -> Iterator[tuple[Emulator, RawPort]]:
    emulator = Emulator(interpreter=request.param)
    emulator.start()
    port = RawPort(str(emulator.link))
    try:
        yield emulator, port
    finally:
        os.close(port.fd)
        emulator.close()


BAD_FRAMES = [
    ("an LED entry one byte short", protocol.LED_SET, bytes(4), protocol.ACK_BAD_LENGTH),
    ("an LED_SET of no entry", protocol.LED_SET, b"", protocol.ACK_BAD_LENGTH),
    ("an LED_SET of nine entries", protocol.LED_SET, bytes(45), protocol.ACK_BAD_LENGTH),
    ("blink code 7", protocol.LED_SET, bytes(4) + b"\x07", protocol.ACK_BAD_VALUE),
    ("LED slot 34", protocol.LED_SET, b"\x22" + bytes(4), protocol.ACK_BAD_VALUE),
    ("HOST_HELLO version 9", protocol.HOST_HELLO, b"\x09", protocol.ACK_BAD_VERSION),
    ("HOST_HELLO without a version", protocol.HOST_HELLO, b"", protocol.ACK_BAD_LENGTH),
    ("an unknown kind", 0x99, b"", protocol.ACK_UNKNOWN_TYPE),
]


@pytest.mark.parametrize(
    ("what", "kind", "payload", "status"), BAD_FRAMES, ids=[b[0] for b in BAD_FRAMES]
)
def test_each_malformed_host_frame_gets_a_nak_and_the_board_lives_on(
    raw_board: tuple[Emulator, RawPort], what: str, kind: int, payload: bytes, status: int
) -> None:
    emulator, port = raw_board
    port.send(protocol.HOST_HELLO, bytes((protocol.PROTOCOL_VERSION,)))
    port.answer(protocol.HELLO)  # (bytes sent before the port was raw may be mangled)
    seq = port.send(kind, payload)
    _, _, ack = port.answer(protocol.ACK)
    assert protocol.unpack_ack(ack) == (seq, status), what
    good = [(4, (255, 0, 0, protocol.BLINK_SOLID))]
    seq = port.send(protocol.LED_SET, protocol.pack_led_set(good))
    assert protocol.unpack_ack(port.answer(protocol.ACK)[2]) == (seq, protocol.ACK_OK)
    # Alive, and draws the good frame.
    wait_for(lambda: emulator.command("leds").startswith("leds 5=#"), "the good frame drawn")


class FakeBoard:
    """A hand-written board on the master side of a pty; the host opens the slave."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        self._slave = slave  # kept open, cooked and echoing as the kernel made it
        self.seq = 0

    def send(self, kind: int, payload: bytes, seq: int | None = None) -> None:
        if seq is None:
            seq, self.seq = self.seq, (self.seq + 1) & 0xFF
        os.write(self.master, encode_frame(kind, seq, payload))

    def await_host_hello(self) -> None:
        """Wait for the host's HOST_HELLO: by then the host has made the port raw."""
        deframer = Deframer()
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            if select.select([self.master], [], [], 0.1)[0]:
                messages = deframer.feed(os.read(self.master, 4096))
                if any(kind == protocol.HOST_HELLO for kind, _, _ in messages):
                    return
        raise AssertionError("the host sent no HOST_HELLO")

    def state(self, levers: tuple[int, int] = (0, 0), uptime: int = 1000, mask: int = 0) -> None:
        payload = protocol.pack_state(mask, levers[0], levers[1], uptime, 0, b"BOOT")
        self.send(protocol.STATE_HEARTBEAT, payload)

    def close(self) -> None:
        os.close(self.master)
        os.close(self._slave)


@pytest.fixture
def fake() -> Iterator[tuple[FakeBoard, SerialBoard]]:
    board = FakeBoard()
    host = SerialBoard(board.path)
    try:
        board.await_host_hello()
        board.send(protocol.HELLO, protocol.pack_hello(protocol.HELLO_BOOT, b"BOOT", b"FAKEFAKE"))
        event = host.read(timeout=3)
        assert isinstance(event, LinkHealth) and event.connected
        yield board, host
    finally:
        host.close()
        board.close()


def _events(host: SerialBoard, seconds: float = 0.3) -> list[SensorEvent]:
    events = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        event = host.read(timeout=left)
        if event is not None:
            events.append(event)
    return events


def test_the_host_makes_the_port_raw(fake: tuple[FakeBoard, SerialBoard]) -> None:
    board, _ = fake
    iflag, oflag, _, lflag, *_ = termios.tcgetattr(board._slave)
    assert not lflag & (termios.ECHO | termios.ICANON | termios.ISIG | termios.IEXTEN)
    assert not oflag & termios.OPOST
    assert not iflag & (termios.ICRNL | termios.INLCR | termios.IGNCR | termios.IXON)


def test_a_lever_counter_going_back_is_no_press(fake: tuple[FakeBoard, SerialBoard]) -> None:
    board, host = fake
    board.state(levers=(5, 0))  # five presses since the boot HELLO: its counters started at 0
    assert len([e for e in _events(host) if isinstance(e, LeverPress)]) == 5
    board.state(levers=(4, 0), uptime=1010)  # back by one: not 65,535 (capped 16) presses
    assert not [e for e in _events(host) if isinstance(e, LeverPress)]
    board.state(levers=(6, 0), uptime=1020)  # two presses since the new base
    assert len([e for e in _events(host) if isinstance(e, LeverPress)]) == 2


def test_stale_and_duplicate_frames_are_not_acted_on(fake: tuple[FakeBoard, SerialBoard]) -> None:
    board, host = fake
    board.state(mask=0b1)  # seq 1
    board.state(mask=0b11)  # seq 2
    board.send(
        protocol.STATE_CHANGE, protocol.pack_state(0b1, 0, 0, 900, 0, b"BOOT"), seq=1
    )  # stale
    board.send(protocol.STATE_LEVER, protocol.pack_state(0b11, 1, 0, 1000, 0, b"BOOT"), seq=2)
    events = _events(host)
    assert [e.occupied for e in events if isinstance(e, Snapshot)] == [{1}, {1, 2}]
    assert not [e for e in events if isinstance(e, LeverPress)]
    counters = host.counters
    assert (counters.stale_frames, counters.frames_lost) == (2, 0)
    board.seq = 10  # seq 3-9 lost on the wire
    board.state(mask=0b111)
    _events(host, 0.2)
    assert host.counters.frames_lost == 7


def test_a_huge_square_range_is_refused_before_it_is_expanded() -> None:
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="square 50000000 is not a dark square 1-32"):
            parse_squares(["1-50000000"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # expanded, the range would take hundreds of MB


def test_a_killed_emulators_folder_is_removed_by_the_next(tmp_path) -> None:
    dead = tmp_path / "poolboard-pico-dead"
    dead.mkdir()
    (dead / "owner.pid").write_text("999999999")  # no such process
    (dead / "ttyACM-pico").symlink_to("/dev/pts/999")
    alive = tmp_path / "poolboard-pico-alive"
    alive.mkdir()
    (alive / "owner.pid").write_text(str(os.getppid()))
    assert remove_stale_folders(str(tmp_path)) == [dead]
    assert not dead.exists() and alive.exists()
