"""The firmware itself on the simulated HAL, stepped by hand on a fake clock."""

from __future__ import annotations

from firmware_bridge.firmware import config, protocol
from firmware_bridge.firmware.app import Firmware
from firmware_bridge.firmware.hal_sim import SimHal


class Bench:
    """Firmware + SimHal with a fake clock; ``run`` steps it and collects what it sent."""

    def __init__(self, levers: int = 0) -> None:
        self.t = 0.0
        self.hal = SimHal(now=lambda: self.t)
        self.hal.levers = levers
        self.firmware = Firmware(self.hal)
        self.deframer = protocol.Deframer()
        self.firmware.boot()

    def run(self, ms: int) -> list[tuple[int, int, bytes]]:
        for _ in range(ms // config.SCAN_PERIOD_MS):
            self.firmware.step()
            self.t += config.SCAN_PERIOD_MS / 1000
        return self.sent()

    def sent(self) -> list[tuple[int, int, bytes]]:
        messages = self.deframer.feed(self.hal.written)
        self.hal.written.clear()
        return messages

    def host_sends(self, kind: int, payload: bytes, seq: int = 0) -> list[tuple[int, int, bytes]]:
        self.hal.feed(protocol.encode_frame(kind, seq, payload))
        self.firmware.step()
        return self.sent()


def states(messages: list[tuple[int, int, bytes]]) -> list[tuple[int, tuple[int, ...]]]:
    kinds = (protocol.STATE_CHANGE, protocol.STATE_LEVER, protocol.STATE_HEARTBEAT)
    return [(k, protocol.unpack_state(p)) for k, _, p in messages if k in kinds]


def test_boot_says_hello_then_reports_the_settled_board() -> None:
    bench = Bench()
    bench.hal.switches = 0b1011
    (hello,) = bench.sent()
    assert hello[0] == protocol.HELLO
    version, firmware, reason, boot_id, board_id = protocol.unpack_hello(hello[2])
    assert (version, firmware, reason, board_id) == (3, (3, 0), protocol.HELLO_BOOT, b"EMULATED")
    assert boot_id == bench.firmware.boot_id and len(boot_id) == 4
    [(kind, (mask, *_))] = states(bench.run(20))
    assert (kind, mask) == (protocol.STATE_CHANGE, 0b1011)


def test_a_square_changes_only_after_three_equal_scans() -> None:
    bench = Bench()
    bench.run(20)
    bench.hal.switches = 1 << 31  # square 32 bounces: closed for two scans only
    bench.firmware.step()
    bench.firmware.step()
    bench.hal.switches = 0
    assert states(bench.run(20)) == []
    bench.hal.switches = 1 << 31
    [(kind, (mask, *_))] = states(bench.run(15))
    assert (kind, mask) == (protocol.STATE_CHANGE, 1 << 31)


def test_heartbeat_every_quarter_second_with_sequence_numbers() -> None:
    bench = Bench()
    messages = bench.run(3000)
    beats = [m for m in messages if m[0] == protocol.STATE_HEARTBEAT]
    assert len(beats) == 11  # after the first report, at 15 ms
    assert [seq for _, seq, _ in messages] == list(range(len(messages)))  # HELLO is 0


def test_lever_presses_are_counted_and_one_held_at_boot_is_not() -> None:
    bench = Bench(levers=0b01)  # Black's lever held at power-up
    bench.run(30)
    bench.hal.levers = 0
    assert states(bench.run(30)) == []
    bench.hal.levers = 0b10
    [(kind, (_, black, white, _, _, _))] = states(bench.run(30))
    assert (kind, black, white) == (protocol.STATE_LEVER, 0, 1)


def test_an_led_set_is_acknowledged_drawn_scaled_and_blinks() -> None:
    bench = Bench()
    assert bench.hal.pixels[protocol.SQUARE_LEDS] == (0, 0, config.BRIGHTNESS)  # waiting: blue
    entries = [(11, (255, 200, 0, protocol.BLINK_SLOW)), (32, (0, 255, 0, protocol.BLINK_SOLID))]
    bench.sent()
    answer = bench.host_sends(protocol.LED_SET, protocol.pack_led_set(entries), seq=42)
    assert answer == [(protocol.ACK, 1, protocol.pack_ack(42, protocol.ACK_OK))]
    pixels = bench.hal.pixels
    assert pixels[11] == (config.BRIGHTNESS, 200 * config.BRIGHTNESS // 255, 0)
    assert pixels[32] == (0, config.BRIGHTNESS, 0)
    bench.t = 0.6  # the slow blink's off half
    bench.run(25)
    assert bench.hal.pixels[11] == (0, 0, 0)
    assert bench.hal.pixels[32] == (0, config.BRIGHTNESS, 0)


def test_bad_commands_get_a_negative_ack() -> None:
    bench = Bench()
    bench.sent()
    assert bench.host_sends(protocol.LED_SET, b"\x01\x02", seq=5) == [
        (protocol.ACK, 1, protocol.pack_ack(5, protocol.ACK_BAD_LENGTH))
    ]
    assert bench.host_sends(0x99, b"", seq=6) == [
        (protocol.ACK, 2, protocol.pack_ack(6, protocol.ACK_UNKNOWN_TYPE))
    ]


def test_a_retried_led_set_is_applied_again_and_acknowledged_again() -> None:
    """LED_SET values are absolute: the board never drops a retry, and a retry changes nothing."""
    bench = Bench()
    bench.sent()
    payload = protocol.pack_led_set([(4, (255, 0, 0, protocol.BLINK_SOLID))])
    for _ in range(2):
        answer = bench.host_sends(protocol.LED_SET, payload, seq=7)
        assert answer == [(protocol.ACK, answer[0][1], protocol.pack_ack(7, protocol.ACK_OK))]
        assert bench.firmware.picture.entries[4] == (255, 0, 0, protocol.BLINK_SOLID)
    assert bench.firmware.picture.entries[5] == (0, 0, 0, 0)


def test_a_frame_over_the_length_limit_gets_silence_and_a_shorter_bad_one_a_nak() -> None:
    """Past MAX_ENCODED the receiver stops buffering: a framing error, like a CRC error, with no
    trustworthy seq to answer. A frame that is whole but wrong gets a NAK."""
    bench = Bench()
    bench.sent()
    too_long = protocol.encode_frame(protocol.LED_SET, 8, bytes(14 * protocol.LED_ENTRY))
    assert len(too_long) - 2 > protocol.MAX_ENCODED
    bench.hal.feed(too_long)
    bench.firmware.step()
    assert bench.sent() == []
    assert bench.firmware.deframer.bad_frames == 1
    nine = bytes(9 * protocol.LED_ENTRY)
    assert bench.host_sends(protocol.LED_SET, nine, seq=9) == [
        (protocol.ACK, 1, protocol.pack_ack(9, protocol.ACK_BAD_LENGTH))
    ]


def test_host_hello_gets_a_reply_and_the_state() -> None:
    bench = Bench()
    bench.hal.switches = 0b100
    bench.run(20)
    answer = bench.host_sends(protocol.HOST_HELLO, bytes((protocol.PROTOCOL_VERSION,)))
    assert [kind for kind, _, _ in answer] == [protocol.HELLO, protocol.STATE_HEARTBEAT]
    assert protocol.unpack_hello(answer[0][2])[2] == protocol.HELLO_REPLY
    assert protocol.unpack_state(answer[1][2])[0] == 0b100


def test_a_layout_from_the_host_is_checked_then_taken_and_reported_at_once() -> None:
    """The board NAKs a bad LAYOUT and keeps its own; a good one translates what it has read
    (a piece on crossing 31 is square 32 in config.py's layout, square 1 wired from Black's
    side) and reports it at once."""
    bench = Bench()
    bench.hal.switches = 1 << 31
    bench.run(30)
    bad = protocol.pack_layout(protocol.Layout(start=4))
    assert bench.host_sends(protocol.LAYOUT, bad, seq=1) == [
        (protocol.ACK, bench.firmware.seq - 1, protocol.pack_ack(1, protocol.ACK_BAD_VALUE))
    ]
    assert bench.host_sends(protocol.LAYOUT, b"\x02\x00\x01", seq=2)[0][2] == protocol.pack_ack(
        2, protocol.ACK_BAD_LENGTH
    )
    good = protocol.pack_layout(protocol.Layout(orientation="black", layout="serpentine"))
    answer = bench.host_sends(protocol.LAYOUT, good, seq=3)
    assert [kind for kind, _, _ in answer] == [protocol.ACK, protocol.STATE_CHANGE]
    assert protocol.unpack_state(answer[1][2])[0] == 1  # square 1
    assert bench.firmware.picture.leds[4] == 7  # square 5: the second row runs backwards
