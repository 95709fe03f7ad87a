"""The host side of the bridge: the Pico board as a Sensor and a CueDisplay over USB serial.

A background thread owns the port. It finds the board (by path, or ``auto`` by USB id), does the
HELLO handshake, turns state reports into Snapshot and LeverPress events, sends LED frames until
they are acknowledged, and reconnects after an unplug, a firmware reset or a silent link.
PROTOCOL.md describes the wire format.
"""

from __future__ import annotations

import binascii
import contextlib
import queue
import termios
import threading
import time
import tty
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.color import Color
from engine.cues import Blink, Cues
from engine.geometry import square_set
from engine.sensing import (
    LeverPress,
    LinkHealth,
    SensorEvent,
    SensorFault,
    SensorSpecError,
    Snapshot,
)
from firmware_bridge.cue_frame import DARK, LINKED, Entry, entry, frame_entries
from firmware_bridge.firmware.protocol import (
    ACK,
    ACK_BAD_LENGTH,
    ACK_BAD_VALUE,
    ACK_BAD_VERSION,
    ACK_OK,
    ACK_UNKNOWN_TYPE,
    ERROR,
    HELLO,
    HELLO_BOOT,
    HOST_HELLO,
    LED_FRAME,
    PROTOCOL_VERSION,
    STATE_CHANGE,
    STATE_HEARTBEAT,
    STATE_LEVER,
    Deframer,
    FrameError,
    encode_frame,
    pack_leds,
    unpack_ack,
    unpack_hello,
    unpack_state,
)

if TYPE_CHECKING:
    import serial

#: The Raspberry Pi Pico's USB vendor and product id under MicroPython.
PICO_USB_ID = (0x2E8A, 0x0005)
_SIDES = (Color.BLACK, Color.WHITE)
_ACK_MEANINGS = {
    ACK_UNKNOWN_TYPE: "unknown message kind",
    ACK_BAD_LENGTH: "wrong length",
    ACK_BAD_VALUE: "a value out of range, e.g. an unknown blink code",
    ACK_BAD_VERSION: "unsupported protocol version",
}
#: A seq at most this far behind the last one is a duplicate or stale frame, not a gap.
_SEQ_WINDOW = 128


def make_raw(fd: int) -> None:
    """Put a serial port's line discipline in raw mode: no echo, no CR/LF translation, no
    signals, 8-bit clean (PROTOCOL.md: the port must be raw; the host sets it, whatever the
    port was before)."""
    tty.setraw(fd, termios.TCSANOW)


def crc_ccitt(data: bytes) -> int:
    """The protocol's CRC-16/CCITT on the host: the C implementation in ``binascii``."""
    return binascii.crc_hqx(data, 0xFFFF)


def parse_usb_id(text: str) -> tuple[int, int]:
    """``"2E8A:0005"`` -> ``(0x2E8A, 0x0005)``; ``ValueError`` names the bad text."""
    vid, sep, pid = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(vid, 16), int(pid, 16)
    except ValueError:
        raise ValueError(f"USB id {text!r} must be VID:PID in hex, e.g. 2E8A:0005") from None


def find_board(usb_id: tuple[int, int] = PICO_USB_ID) -> str | None:
    """The device path of the first serial port with this USB vendor:product id, if any."""
    from serial.tools import list_ports

    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        if (port.vid, port.pid) == usb_id:
            return port.device
    return None


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """What the board said in its HELLO, and where it was found."""

    board_id: str
    firmware: tuple[int, int]
    protocol: int
    port: str


@dataclass(frozen=True, slots=True)
class LinkCounters:
    """Link health since the driver started (all connections added up)."""

    connected: bool
    frames_ok: int
    crc_errors: int
    bad_frames: int
    frames_lost: int
    retries: int
    reconnects: int
    last_heartbeat: float | None
    stale_frames: int = 0


class _LinkLost(Exception):
    """The link is unusable (silent board, unacknowledged frames); reconnect."""


class SerialBoard:
    """A Pico running firmware_bridge/firmware, as a Sensor and a CueDisplay.

    ``port`` is a device path (``/dev/ttyACM0``, a /dev/serial/by-id link) or ``"auto"`` to look
    for ``usb_id``. Example::

        board = SerialBoard("auto")
        event = board.read(timeout=1.0)
        board.show(cues)
        board.close()
    """

    def __init__(
        self,
        port: str = "auto",
        *,
        usb_id: tuple[int, int] = PICO_USB_ID,
        baudrate: int = 115200,
        ack_timeout: float = 0.1,
        max_tries: int = 5,
        hello_interval: float = 0.5,
        heartbeat_timeout: float = 3.0,
        reconnect_interval: float = 0.2,
    ) -> None:
        if not port:
            raise ValueError("no serial port given: a device path or 'auto'")
        self.port = port
        self.usb_id = usb_id
        self.baudrate = baudrate
        self.ack_timeout = ack_timeout
        self.max_tries = max_tries
        self.hello_interval = hello_interval
        self.heartbeat_timeout = heartbeat_timeout
        self.reconnect_interval = reconnect_interval
        self.board: BoardInfo | None = None
        self._events: queue.Queue[SensorEvent] = queue.Queue()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._cues = Cues.none()
        self._status: list[Entry] = [LINKED, DARK]
        self._led_payload = pack_leds(frame_entries(self._cues, self._status))
        self._leds_dirty = True
        self._serial: serial.Serial | None = None
        self._path = ""
        self._deframer = Deframer(crc_ccitt)
        self._totals = [0, 0, 0]  # frames ok, CRC errors, bad frames of closed connections
        self._frames_lost = 0
        self._stale_frames = 0
        self._retries = 0
        self._links = 0
        self._last_heartbeat: float | None = None
        self._down_reported = False
        self._reset_connection()
        self._thread = threading.Thread(target=self._run, name="serial-board", daemon=True)
        self._thread.start()

    # -- public API ---------------------------------------------------------------------------

    def read(self, timeout: float | None = None) -> SensorEvent | None:
        """The next event, waiting up to ``timeout`` seconds; ``None`` if nothing happened."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def show(self, cues: Cues) -> None:
        """Light the squares as ``cues`` says (CUE_STYLES colours and blinks); sent at once."""
        with self._lock:
            self._cues = cues
            self._set_payload()

    def set_status(self, index: int, rgb: tuple[int, int, int], blink: Blink = Blink.SOLID) -> None:
        """Set status LED ``index`` (0 = link, dim green by default; 1 = free for the service)."""
        if index not in range(len(self._status)):
            raise ValueError(f"status LED {index} does not exist: 0 or 1")
        with self._lock:
            self._status[index] = entry(rgb, blink)
            self._set_payload()

    @property
    def counters(self) -> LinkCounters:
        """Frames received and dropped, retries and reconnects so far."""
        deframer = self._deframer
        return LinkCounters(
            connected=self._linked,
            frames_ok=self._totals[0] + deframer.frames_ok,
            crc_errors=self._totals[1] + deframer.crc_errors,
            bad_frames=self._totals[2] + deframer.bad_frames,
            frames_lost=self._frames_lost,
            retries=self._retries,
            reconnects=max(0, self._links - 1),
            last_heartbeat=self._last_heartbeat,
            stale_frames=self._stale_frames,
        )

    def close(self) -> None:
        """Stop the link thread and close the port."""
        if not self._stop.is_set():
            self._stop.set()
            self._thread.join()
            self._close_port()

    def __enter__(self) -> SerialBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- link thread ----------------------------------------------------------------------------

    def _set_payload(self) -> None:
        payload = pack_leds(frame_entries(self._cues, self._status))
        if payload != self._led_payload:
            self._led_payload = payload
            self._leds_dirty = True

    def _reset_connection(self) -> None:
        self._linked = False
        self._hello_at = float("-inf")
        self._last_frame_at = 0.0
        self._board_seq: int | None = None
        self._levers: list[int] | None = None
        self._uptime: int | None = None
        self._fault = 0
        self._last_snapshot: frozenset[int] | None = None
        self._pending: tuple[int, bytes, float, int] | None = None
        self._host_seq = 0

    def _run(self) -> None:
        from serial import SerialException

        while not self._stop.is_set():
            if self._serial is None and not self._open():
                self._stop.wait(self.reconnect_interval)
                continue
            try:
                self._pump()
            except (SerialException, OSError, _LinkLost) as error:
                self._lost(f"lost {self._path}: {error}")

    def _open(self) -> bool:
        import serial

        path = self.port if self.port != "auto" else find_board(self.usb_id)
        if path is None:
            vid, pid = self.usb_id
            self._down(f"waiting for a board with USB id {vid:04X}:{pid:04X}")
            return False
        try:
            port = serial.Serial(
                path, self.baudrate, timeout=0.01, write_timeout=1.0, exclusive=True
            )
        except (serial.SerialException, OSError, ValueError) as error:
            self._down(f"waiting for {path}: {error}")
            return False
        try:
            make_raw(port.fileno())
        except (termios.error, OSError) as error:
            port.close()
            self._down(f"cannot make {path} a raw port: {error}")
            return False
        self._serial = port
        self._path = path
        self._deframer = Deframer(crc_ccitt)
        self._reset_connection()
        return True

    def _down(self, detail: str) -> None:
        if not self._down_reported:
            self._down_reported = True
            self._events.put(LinkHealth(time.monotonic(), False, detail))

    def _close_port(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            with contextlib.suppress(Exception):
                port.close()

    def _lost(self, detail: str) -> None:
        was_linked = self._linked
        self._close_port()
        deframer = self._deframer
        for index, count in enumerate(
            (deframer.frames_ok, deframer.crc_errors, deframer.bad_frames)
        ):
            self._totals[index] += count
        self._deframer = Deframer(crc_ccitt)
        self._reset_connection()
        self._leds_dirty = True
        if was_linked:
            self._down_reported = False
        c = self.counters
        self._down(
            f"{detail} ({c.frames_ok} frames ok, {c.crc_errors} CRC errors, {c.retries} retries)"
        )

    def _write(self, kind: int, seq: int, payload: bytes) -> None:
        assert self._serial is not None
        self._serial.write(encode_frame(kind, seq, payload, crc_ccitt))

    def _next_seq(self) -> int:
        seq = self._host_seq
        self._host_seq = (seq + 1) & 0xFF
        return seq

    def _pump(self) -> None:
        port = self._serial
        assert port is not None
        data = port.read(1)
        if data:
            waiting = port.in_waiting
            if waiting:
                data += port.read(waiting)
            for kind, seq, payload in self._deframer.feed(data):
                try:
                    self._handle(kind, seq, payload, time.monotonic())
                except FrameError:
                    self._deframer.bad_frames += 1
        now = time.monotonic()
        if not self._linked:
            if now - self._hello_at >= self.hello_interval:
                self._write(HOST_HELLO, self._next_seq(), bytes((PROTOCOL_VERSION,)))
                self._hello_at = now
            return
        silent = now - self._last_frame_at
        if silent > self.heartbeat_timeout:
            raise _LinkLost(f"no message from the board for {silent:.1f} s")
        self._service_leds(now)

    def _service_leds(self, now: float) -> None:
        if self._leds_dirty:
            with self._lock:
                payload = self._led_payload
                self._leds_dirty = False
            seq = self._next_seq()
            self._write(LED_FRAME, seq, payload)
            self._pending = (seq, payload, now, 1)
        elif self._pending is not None:
            seq, payload, sent_at, tries = self._pending
            if now - sent_at < self.ack_timeout:
                return
            if tries >= self.max_tries:
                raise _LinkLost(f"an LED frame was not acknowledged after {tries} tries")
            self._write(LED_FRAME, seq, payload)
            self._retries += 1
            self._pending = (seq, payload, now, tries + 1)

    def _handle(self, kind: int, seq: int, payload: bytes, now: float) -> None:
        if self._linked and self._board_seq is not None:
            ahead = (seq - self._board_seq) & 0xFF
            old = ahead > 0xFF - _SEQ_WINDOW and not self._is_boot_hello(kind, payload)
            if ahead == 0 or old:
                self._stale_frames += 1  # a duplicate or an old frame: never acted on twice
                return
            if kind != HELLO:
                self._frames_lost += ahead - 1
        if kind == HELLO:
            self._hello(seq, payload, now)
            return
        if not self._linked:
            return
        self._board_seq = seq
        self._last_frame_at = now
        if kind in (STATE_CHANGE, STATE_LEVER, STATE_HEARTBEAT):
            self._state(kind, payload, now)
        elif kind == ERROR:
            text = payload.decode("utf-8", "replace")
            self._events.put(SensorFault(now, f"the board's firmware failed ({text}); it resets"))
        elif kind == ACK:
            acked, status = unpack_ack(payload)
            if self._pending is not None and acked == self._pending[0]:
                self._pending = None
                if status != ACK_OK:
                    meaning = _ACK_MEANINGS.get(status, "unknown status")
                    message = f"the board rejected an LED frame: status {status}, {meaning}"
                    self._events.put(SensorFault(now, message))

    @staticmethod
    def _is_boot_hello(kind: int, payload: bytes) -> bool:
        """A boot HELLO restarts the board's seq at 0: never stale, whatever came before."""
        return kind == HELLO and len(payload) >= 4 and payload[3] == HELLO_BOOT

    def _hello(self, seq: int, payload: bytes, now: float) -> None:
        version, firmware, reason, board_id = unpack_hello(payload)
        if version != PROTOCOL_VERSION:
            if not self._down_reported or self._linked:
                self._down_reported = True
                message = (
                    f"the board on {self._path} speaks protocol {version}, this host"
                    f" {PROTOCOL_VERSION}: flash"
                    " this release's firmware (see firmware_bridge/README.md)"
                )
                self._events.put(SensorFault(now, message))
            return
        if self._linked and reason != HELLO_BOOT:
            self._board_seq = seq  # a second answer to our HOST_HELLO: in sequence, no news
            return
        restarted = self._linked
        self._reset_connection()
        self._linked = True
        self._board_seq = seq
        self._last_frame_at = now
        self._leds_dirty = True
        self._links += 1
        self._down_reported = False
        self.board = BoardInfo(board_id.hex(), firmware, version, self._path)
        detail = f"board {self.board.board_id} firmware {firmware[0]}.{firmware[1]} on {self._path}"
        self._events.put(LinkHealth(now, True, ("board restarted: " if restarted else "") + detail))

    def _state(self, kind: int, payload: bytes, now: float) -> None:
        mask, black, white, uptime, fault = unpack_state(payload)
        # Uptime is 32-bit ms, compared modulo 2**32: the wrap at 49.7 days is a step forward.
        if self._uptime is not None and (uptime - self._uptime) & 0xFFFFFFFF >= 1 << 31:
            self._events.put(LinkHealth(now, True, "board restarted (its uptime went back)"))
            self._levers = None
            self._leds_dirty = True
        self._uptime = uptime
        if fault & ~self._fault:
            self._events.put(_diode_fault(now, fault))
        self._fault = fault
        if kind == STATE_HEARTBEAT:
            self._last_heartbeat = now
        occupied = square_set(mask)
        if occupied != self._last_snapshot:
            self._last_snapshot = occupied
            self._events.put(Snapshot(now, occupied))
        counts = [black, white]
        if self._levers is not None:
            for side, count, seen in zip(_SIDES, counts, self._levers, strict=True):
                grown = (count - seen) & 0xFFFF  # 16-bit counters, compared modulo 2**16
                if grown >= 1 << 15:
                    continue  # it went back (a counter reset): no presses; the new base
                for _ in range(min(grown, 16)):
                    self._events.put(LeverPress(now, side))
        self._levers = counts


def _diode_fault(t: float, fault: int) -> SensorFault:
    """The board's report of a missing or shorted diode, naming the squares it touches."""
    squares = square_set(fault)
    names = ", ".join(map(str, sorted(squares)))
    return SensorFault(
        t,
        f"diode missing or shorted in the board's matrix (current flows back through a switch):"
        f" squares {names} may show ghosts and keep their last reading until it is fixed",
        squares,
    )


def sensor_from_spec(argument: str) -> SerialBoard:
    """The ``serial:`` sensor: ``serial:/dev/ttyACM0``, ``serial:auto``, ``serial:auto:VID:PID``."""

    if not argument:
        raise SensorSpecError("serial: needs a device path or auto, e.g. serial:/dev/ttyACM0")
    if argument == "auto":
        return SerialBoard("auto")
    if argument.startswith("auto:"):
        try:
            return SerialBoard("auto", usb_id=parse_usb_id(argument[len("auto:") :]))
        except ValueError as error:
            raise SensorSpecError(f"serial:{argument}: {error}") from None
    return SerialBoard(argument)


__all__: Sequence[str] = (
    "PICO_USB_ID",
    "BoardInfo",
    "LinkCounters",
    "SerialBoard",
    "find_board",
    "parse_usb_id",
    "sensor_from_spec",
)
