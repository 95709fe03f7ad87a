"""The bridge's wire format, shared by the Pico firmware and the host: COBS frames with a CRC-16.

MicroPython-compatible on purpose (no annotations, no dataclasses, no struct): the host imports
this very module, so the two sides can never disagree on the codec. PROTOCOL.md describes it.
"""

PROTOCOL_VERSION = 3
FIRMWARE_VERSION = (3, 0)

# Board -> host.
HELLO = 0x01
STATE_CHANGE = 0x02
STATE_LEVER = 0x03
STATE_HEARTBEAT = 0x04
ACK = 0x05
ERROR = 0x06  # the firmware failed; it resets after sending this
# Host -> board.
HOST_HELLO = 0x81
LED_SET = 0x83  # some LEDs' colours and blinks (0x82, protocol 2's whole LED frame, is gone)
LAYOUT = 0x84  # where the squares' switches and LEDs sit, from the host's board file

HELLO_BOOT = 0  # sent unasked at power-up or reset
HELLO_REPLY = 1  # the answer to a HOST_HELLO

ACK_OK = 0
ACK_UNKNOWN_TYPE = 1
ACK_BAD_LENGTH = 2
ACK_BAD_VALUE = 3  # e.g. an unknown blink code
ACK_BAD_VERSION = 4  # a HOST_HELLO asking for a protocol version this firmware does not speak

BLINK_SOLID = 0
BLINK_SLOW = 1
BLINK_FAST = 2

SQUARE_LEDS = 32
STATUS_LEDS = 2
LED_SLOTS = SQUARE_LEDS + STATUS_LEDS
LED_ENTRY = 5  # slot, r, g, b, blink
LED_SET_MAX = 8  # entries in one LED_SET: a short frame survives a noisy cable
BLINK_CODES = (BLINK_SOLID, BLINK_SLOW, BLINK_FAST)
STATE_LENGTH = 20
BOOT_ID_LENGTH = 4
NO_BOOT_ID = bytes(BOOT_ID_LENGTH)
MAX_BOARD_ID = 16
HELLO_MIN = 4 + BOOT_ID_LENGTH + 1  # a board id of at least one byte
MAX_ERROR_TEXT = 64
ORIENTATIONS = ("white", "black")  # LAYOUT codes 0, 1; code 2: a square map follows
LAYOUTS = ("in-order", "serpentine")  # LAYOUT codes 0, 1; code 2: the strip indices follow
CUSTOM = 2
MAX_LAYOUT = 3 + 32 + 32
MAX_BODY = 2 + MAX_LAYOUT + 2  # the longest message: a LAYOUT with both tables (71 bytes)
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 1  # its COBS encoding (72 bytes), delimiters aside


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT (poly 0x1021, MSB first, start 0xFFFF, no final xor): the firmware's table.

    Equals ``binascii.crc_hqx(data, 0xFFFF)``, which the host uses; a test holds them together.
    """
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


class FrameError(ValueError):
    """A received frame that is malformed (``reason`` is "cobs", "short" or "crc")."""

    def __init__(self, reason):
        super().__init__("bad frame: " + reason)
        self.reason = reason


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: ``data`` rewritten without any zero byte."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data):
    """Undo :func:`cobs_encode`; ``FrameError("cobs")`` if ``data`` is not a valid encoding."""
    if b"\x00" in data:
        raise FrameError("cobs")
    out = bytearray()
    index = 0
    length = len(data)
    while index < length:
        code = data[index]
        end = index + code
        if end > length:
            raise FrameError("cobs")
        out.extend(data[index + 1 : end])
        index = end
        if code != 255 and index < length:
            out.append(0)
    return bytes(out)


def encode_frame(kind, seq, payload, crc=crc16):
    """One message on the wire: ``00 COBS(kind seq payload crc_hi crc_lo) 00``."""
    body = bytearray((kind, seq & 0xFF))
    body.extend(payload)
    check = crc(body)
    body.append(check >> 8)
    body.append(check & 0xFF)
    return b"\x00" + cobs_encode(body) + b"\x00"


def decode_frame(encoded, crc=crc16):
    """``(kind, seq, payload)`` from one frame's bytes between delimiters; ``FrameError`` if bad."""
    body = cobs_decode(encoded)
    if len(body) < 4:
        raise FrameError("short")
    if crc(body[:-2]) != (body[-2] << 8) | body[-1]:
        raise FrameError("crc")
    return body[0], body[1], body[2:-2]


class Deframer:
    """Splits a byte stream at zero bytes into messages, dropping bad frames and counting them.

    After garbage it resynchronises at the next zero byte: no payload byte can be mistaken for one.
    """

    def __init__(self, crc=crc16):
        self.crc = crc
        self.frames_ok = 0
        self.crc_errors = 0
        self.bad_frames = 0
        self._buffer = bytearray()
        self._overflow = False

    def feed(self, data):
        """The ``(kind, seq, payload)`` messages completed by ``data``, in order."""
        messages = []
        for byte in data:
            if byte != 0:
                if len(self._buffer) < MAX_ENCODED:
                    self._buffer.append(byte)
                else:
                    self._overflow = True
                continue
            if self._overflow:
                self.bad_frames += 1
            elif self._buffer:
                try:
                    messages.append(decode_frame(bytes(self._buffer), self.crc))
                    self.frames_ok += 1
                except FrameError as error:
                    if error.reason == "crc":
                        self.crc_errors += 1
                    else:
                        self.bad_frames += 1
            self._buffer = bytearray()
            self._overflow = False
        return messages


def _u16(value):
    return bytes(((value >> 8) & 0xFF, value & 0xFF))


def _u32(value):
    return bytes(((value >> 24) & 0xFF, (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF))


def _get(data, start, size):
    value = 0
    for byte in data[start : start + size]:
        value = (value << 8) | byte
    return value


def pack_hello(reason, boot_id, board_id):
    """HELLO payload: protocol version, firmware major, minor, reason (boot/reply), the boot id
    (4 bytes drawn at power-up), the board id (1-16 bytes)."""
    major, minor = FIRMWARE_VERSION
    return bytes((PROTOCOL_VERSION, major, minor, reason)) + bytes(boot_id) + bytes(board_id)


def unpack_hello(payload):
    """``(protocol_version, (major, minor), reason, boot_id, board_id)``; ``FrameError`` if a
    field is missing or the board id is not 1-16 bytes. Read byte 0 (the protocol version)
    first: another version's HELLO may be laid out differently."""
    if not HELLO_MIN <= len(payload) <= HELLO_MIN - 1 + MAX_BOARD_ID:
        raise FrameError("short")
    boot_id = bytes(payload[4 : 4 + BOOT_ID_LENGTH])
    return payload[0], (payload[1], payload[2]), payload[3], boot_id, bytes(payload[8:])


def pack_state(mask, black_presses, white_presses, uptime_ms, fault_mask=0, boot_id=NO_BOOT_ID):
    """State payload: occupancy mask (bit n-1 = square n), lever press counters, uptime in ms,
    the squares a diode fault makes doubtful (0: none), and the boot id of the HELLO."""
    return (
        _u32(mask)
        + _u16(black_presses & 0xFFFF)
        + _u16(white_presses & 0xFFFF)
        + _u32(uptime_ms & 0xFFFFFFFF)
        + _u32(fault_mask)
        + bytes(boot_id)
    )


def unpack_state(payload):
    """``(mask, black, white, uptime_ms, fault_mask, boot_id)``; ``FrameError`` if its length
    is off."""
    if len(payload) != STATE_LENGTH:
        raise FrameError("short")
    return (
        _get(payload, 0, 4),
        _get(payload, 4, 2),
        _get(payload, 6, 2),
        _get(payload, 8, 4),
        _get(payload, 12, 4),
        bytes(payload[16:20]),
    )


def pack_error(text):
    """ERROR payload: what went wrong, as UTF-8 text cut to ``MAX_ERROR_TEXT`` bytes."""
    return text.encode()[:MAX_ERROR_TEXT]


def pack_ack(seq, status):
    """ACK payload: the acknowledged sequence number and a status code (``ACK_OK`` ...)."""
    return bytes((seq & 0xFF, status))


def unpack_ack(payload):
    """``(seq, status)`` of an ACK; ``FrameError`` if the length is wrong."""
    if len(payload) != 2:
        raise FrameError("short")
    return payload[0], payload[1]


def pack_led_set(entries):
    """LED_SET payload from ``(slot, (r, g, b, blink))`` pairs: slot 0-31 is square 1-32, 32 and
    33 the status LEDs."""
    out = bytearray()
    for slot, (r, g, b, blink) in entries:
        out.extend((slot, r, g, b, blink))
    return bytes(out)


def led_set_length_ok(payload):
    """Whether an LED_SET payload holds 1 to LED_SET_MAX whole entries."""
    return len(payload) % LED_ENTRY == 0 and 1 <= len(payload) // LED_ENTRY <= LED_SET_MAX


def led_set_values_ok(payload):
    """Whether every slot of an LED_SET exists and every blink code is one the firmware draws."""
    for at in range(0, len(payload), LED_ENTRY):
        if payload[at] >= LED_SLOTS or payload[at + 4] not in BLINK_CODES:
            return False
    return True


class Layout:
    """config.py's ORIENTATION, SQUARE_MAP, LAYOUT, START and SQUARES, as a LAYOUT carries them."""

    def __init__(
        self, orientation="white", square_map=None, layout="in-order", start=1, squares=None
    ):
        self.ORIENTATION = orientation
        self.SQUARE_MAP = square_map
        self.LAYOUT = layout
        self.START = start
        self.SQUARES = squares


def pack_layout(layout):
    """LAYOUT payload: orientation code, strip layout code, start square, then the square map
    (row << 4 | column per square) if the orientation code is 2, the strip index of each square
    if the layout code is 2."""
    square_map, squares = layout.SQUARE_MAP, layout.SQUARES
    out = bytearray(
        (
            CUSTOM if square_map is not None else ORIENTATIONS.index(layout.ORIENTATION),
            CUSTOM if squares is not None else LAYOUTS.index(layout.LAYOUT),
            layout.START,
        )
    )
    if square_map is not None:
        out.extend(row << 4 | column for row, column in square_map)
    if squares is not None:
        out.extend(squares)
    return bytes(out)


def unpack_layout(payload):
    """A :class:`Layout` from a LAYOUT payload; ``FrameError`` if its length does not match its
    codes, ``ValueError`` for an unknown code."""
    if len(payload) < 3:
        raise FrameError("short")
    orientation, strip, start = payload[0], payload[1], payload[2]
    if orientation > CUSTOM or strip > CUSTOM:
        raise ValueError("unknown layout code")
    expected = 3 + (32 if orientation == CUSTOM else 0) + (32 if strip == CUSTOM else 0)
    if len(payload) != expected:
        raise FrameError("short")
    layout = Layout(start=start)
    at = 3
    if orientation == CUSTOM:
        layout.SQUARE_MAP = [(byte >> 4, byte & 15) for byte in payload[at : at + 32]]
        at += 32
    else:
        layout.ORIENTATION = ORIENTATIONS[orientation]
    if strip == CUSTOM:
        layout.SQUARES = list(payload[at : at + 32])
    else:
        layout.LAYOUT = LAYOUTS[strip]
    return layout
