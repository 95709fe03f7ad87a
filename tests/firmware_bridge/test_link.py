"""The real firmware in the emulator, over a real pty, against the real host driver."""

from __future__ import annotations

import random
import threading
import time

from engine.color import Color
from engine.cues import CueKind, Cues
from engine.geometry import square_set
from engine.phrase import Phrase
from engine.sensing import LeverPress, LinkHealth, Snapshot
from firmware_bridge.firmware import protocol
from firmware_bridge.firmware.protocol import Deframer
from firmware_bridge.host import SerialBoard


def test_occupancy_reaches_the_host_as_snapshots(make_link) -> None:
    link = make_link()
    link.emulator.command("place 1-12 21-32")
    snapshot = link.until(lambda e: isinstance(e, Snapshot) and len(e.occupied) == 24)
    assert snapshot.occupied == frozenset(range(1, 13)) | frozenset(range(21, 33))
    link.emulator.command("lift 11")
    link.until(lambda e: isinstance(e, Snapshot) and 11 not in e.occupied and len(e.occupied) == 23)
    assert link.board.board is not None and link.board.board.board_id == b"EMULATED".hex()


def test_cues_light_the_board_with_cue_styles(make_link) -> None:
    link = make_link()
    link.wait_leds("leds s1=#002800/solid")
    link.board.show(Cues({12: CueKind.REMOVE, 15: CueKind.MOVE_TO, 1: CueKind.ERROR}))
    link.wait_leds("leds 1=#ff0000/fast 12=#ffc800/slow 15=#00a000/solid s1=#002800/solid")
    link.board.show(Cues.none())
    link.wait_leds("leds s1=#002800/solid")


def test_lever_presses_arrive_once_per_press(make_link) -> None:
    link = make_link()
    link.emulator.command("lever white")
    assert link.until(lambda e: isinstance(e, LeverPress)).side is Color.WHITE
    link.emulator.command("lever black")
    assert link.until(lambda e: isinstance(e, LeverPress)).side is Color.BLACK
    assert not [e for e in link.drain(0.3) if isinstance(e, LeverPress)]


def test_one_percent_noise_over_thousands_of_frames_gives_no_false_snapshot(
    make_link, firmware_settings
) -> None:
    link = make_link(firmware_settings(HEARTBEAT_MS=1, SCAN_PERIOD_MS=1))
    emulator, board = link.emulator, link.board
    held = {frozenset()}  # every occupancy the firmware reported, as it left the board
    tap = Deframer()
    forward = emulator.hal.output

    def record(frame: bytes) -> None:
        for kind, _, payload in tap.feed(frame):
            if kind in (protocol.STATE_CHANGE, protocol.STATE_HEARTBEAT):
                held.add(square_set(protocol.unpack_state(payload)[0]))
        forward(frame)

    emulator.hal.output = record
    rng = random.Random(3)
    emulator.command("noise 1")
    stop = threading.Event()

    def shuffle_pieces() -> None:
        while not stop.wait(0.02):
            squares = frozenset(rng.sample(range(1, 33), rng.randrange(0, 25)))
            emulator.set_occupied(squares)

    mover = threading.Thread(target=shuffle_pieces)
    mover.start()
    snapshots = []
    start = emulator.frames_sent
    deadline = time.monotonic() + 20
    while emulator.frames_sent - start < 2500 and time.monotonic() < deadline:
        event = board.read(timeout=0.05)
        if isinstance(event, Snapshot):
            snapshots.append(event.occupied)
    stop.set()
    mover.join()
    counters = board.counters
    assert emulator.frames_sent - start >= 2500
    assert len(snapshots) > 50
    assert all(occupied in held for occupied in snapshots)
    assert counters.crc_errors + counters.bad_frames > 20
    assert counters.connected


def test_unplug_and_replug_restores_the_led_frame(make_link) -> None:
    link = make_link()
    cues = Cues({5: CueKind.CROWN})
    link.board.show(cues)
    link.wait_leds("leds 5=#a000ff/slow s1=#002800/solid")
    unplugged = threading.Thread(target=link.emulator.command, args=("disconnect 0.3",))
    unplugged.start()
    down = link.until_link(connected=False)
    up = link.until_link(timeout=2.5)
    unplugged.join()
    assert up.t - down.t < 2.0
    link.wait_leds("leds 5=#a000ff/slow s1=#002800/solid")
    assert link.board.counters.reconnects == 1


def test_firmware_reset_is_noticed_and_leds_resent(make_link) -> None:
    link = make_link()
    link.board.show(Cues({9: CueKind.MUST_CAPTURE}))
    link.wait_leds("leds 9=#ffc800/fast s1=#002800/solid")
    link.emulator.command("reset")
    event = link.until_link()
    assert event.detail.startswith("board restarted")
    link.wait_leds("leds 9=#ffc800/fast s1=#002800/solid")


def test_lost_led_frames_are_retried(make_link) -> None:
    link = make_link()
    link.wait_leds("leds s1=#002800/solid")
    link.emulator.command("drop 2 in")
    link.board.show(Cues({30: CueKind.CONFIRM}))
    link.wait_leds("leds 30=#00ff00/solid s1=#002800/solid")
    assert link.board.counters.retries == 2


def test_corrupt_bytes_are_counted_and_dropped(make_link) -> None:
    link = make_link()
    link.emulator.command("place 3")
    link.until(lambda e: isinstance(e, Snapshot) and e.occupied == {3})
    link.emulator.command("corrupt 12")  # garbles the change report: the heartbeat repairs it
    link.emulator.command("place 4")
    link.until(lambda e: isinstance(e, Snapshot) and e.occupied == {3, 4}, timeout=3.0)
    assert link.board.counters.crc_errors + link.board.counters.bad_frames >= 1
    assert all(
        e.occupied in ({3}, {3, 4}, frozenset()) for e in link.events if isinstance(e, Snapshot)
    )


def test_a_silent_board_is_reported_down(make_link) -> None:
    link = make_link(heartbeat_timeout=0.5)
    link.emulator.command("drop 1000")
    down = link.until_link(connected=False)
    assert "no message from the board" in down.detail
    # The same words apart, for a page in another language: the port, why, the counters.
    assert down.said is not None and str(down.said) == down.detail
    lost = down.said.values["detail"]
    assert isinstance(lost, Phrase) and lost.message == "lost {path}: {error}"


def test_auto_without_a_board_waits_and_says_so() -> None:
    board = SerialBoard("auto", usb_id=(0x1234, 0xABCD))
    try:
        event = board.read(timeout=2.0)
        assert isinstance(event, LinkHealth) and not event.connected
        assert "1234:ABCD" in event.detail
        assert event.said == Phrase("waiting for a board with USB id {usb}", usb="1234:ABCD")
    finally:
        board.close()
