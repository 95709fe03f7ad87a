"""The host's side of the bridge protocol with no I/O of its own: bytes in, bytes out, a clock.

:class:`HostLink` is every rule of PROTOCOL.md's "The host's side of the conversation": the
handshake, sequence and counter checks, restart detection, the silence timer and the LED frames
with their retries. It never reads a port or a clock: the caller hands it the bytes that arrived
(``receive``) and the time, and writes what ``poll`` returns. ``SerialBoard`` (host.py) runs it
on a serial port in a thread; tests and bench/link_noise.py run it against the firmware on a
simulated board in virtual time, so hours of a noisy link take seconds and nothing is timed.
"""

from __future__ import annotations

import binascii
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.color import Color
from engine.geometry import square_set
from engine.phrase import Phrase, Value
from engine.sensing import LeverPress, LinkHealth, SensorEvent, SensorFault, Snapshot
from firmware_bridge.cue_frame import DARK, Entry
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
    LAYOUT,
    LED_ENTRY,
    LED_SET,
    LED_SET_MAX,
    LED_SLOTS,
    PROTOCOL_VERSION,
    STATE_CHANGE,
    STATE_HEARTBEAT,
    STATE_LEVER,
    Deframer,
    FrameError,
    encode_frame,
    pack_led_set,
    unpack_ack,
    unpack_hello,
    unpack_state,
)

_SIDES = (Color.BLACK, Color.WHITE)
_ACK_MEANINGS = {
    ACK_UNKNOWN_TYPE: Phrase("unknown message kind"),
    ACK_BAD_LENGTH: Phrase("wrong length"),
    ACK_BAD_VALUE: Phrase("a value out of range, e.g. an unknown blink code"),
    ACK_BAD_VERSION: Phrase("unsupported protocol version"),
}
_UNKNOWN_STATUS = Phrase("unknown status")
#: A seq at most this far behind the last one is a duplicate or stale frame, not a gap.
SEQ_WINDOW = 128
#: A lever counter that grew by more than this in one report counts this many presses.
MAX_PRESSES = 16


def crc_ccitt(data: bytes) -> int:
    """The protocol's CRC-16/CCITT on the host: the C implementation in ``binascii``."""
    return binascii.crc_hqx(data, 0xFFFF)


class LinkLost(Exception):
    """The link is unusable (a silent board, one speaking another protocol); reconnect.
    ``phrase`` says why, for the link's detail on a page in any language."""

    def __init__(self, phrase: Phrase) -> None:
        super().__init__(str(phrase))
        self.phrase = phrase


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


class HostLink:
    """One host's conversation with one board, across reconnections.

    ``emit`` receives every SensorEvent. Call ``opened`` when a port is open, ``receive`` with
    what it read, write what ``poll`` returns, and call ``lost`` (on ``LinkLost`` or a port
    error) or ``down`` (no port) so LinkHealth is reported. What the host knows of the board
    outlives a reconnection: its lever counters (a press made while the link was down still
    counts, once) and the LEDs it showed. A restart of the board (a boot HELLO, or a HELLO or
    state report with a new boot id) or another board id starts them afresh.
    """

    def __init__(
        self,
        emit: Callable[[SensorEvent], None],
        *,
        ack_timeout: float = 0.1,
        hello_interval: float = 0.5,
        heartbeat_timeout: float = 3.0,
        layout: bytes | None = None,
    ) -> None:
        self._hello_at: float
        self._last_frame_at: float
        self._layout_pending: tuple[int, float] | None
        self.emit = emit
        self.layout = layout  # a LAYOUT payload (pack_layout) sent at every link-up, if any
        self.ack_timeout = ack_timeout
        self.hello_interval = hello_interval
        self.heartbeat_timeout = heartbeat_timeout
        self.board: BoardInfo | None = None
        self.path = ""
        self.linked = False
        self._wanted: list[Entry] = [DARK] * LED_SLOTS
        self._deframer = Deframer(crc_ccitt)
        self._totals = [0, 0, 0]  # frames ok, CRC errors, bad frames of closed connections
        self._frames_lost = 0
        self._stale_frames = 0
        self._retries = 0
        self._links = 0
        self._last_heartbeat: float | None = None
        self._down_reported = False
        # What the host knows of the board: kept across reconnections (see the class docstring).
        self._levers: list[int] | None = None
        self._boot_id = b""
        self._board_view: list[Entry | None] = [None] * LED_SLOTS  # None: not known
        self._host_seq = 0
        self._reset_connection()

    # -- the caller's side ---------------------------------------------------------------------

    def set_picture(self, entries: Sequence[Entry]) -> None:
        """The LEDs to show: ``LED_SLOTS`` entries, squares 1-32 then the status LEDs."""
        self._wanted = list(entries)

    @property
    def shown(self) -> bool:
        """Whether the board has acknowledged every LED of the current picture."""
        return self.linked and self._pending is None and self._board_view == self._wanted

    @property
    def counters(self) -> LinkCounters:
        """Frames received and dropped, retries and reconnects so far."""
        deframer = self._deframer
        return LinkCounters(
            connected=self.linked,
            frames_ok=self._totals[0] + deframer.frames_ok,
            crc_errors=self._totals[1] + deframer.crc_errors,
            bad_frames=self._totals[2] + deframer.bad_frames,
            frames_lost=self._frames_lost,
            retries=self._retries,
            reconnects=max(0, self._links - 1),
            last_heartbeat=self._last_heartbeat,
            stale_frames=self._stale_frames,
        )

    def opened(self, path: str) -> None:
        """A port was opened: a new connection (new deframer, the host's seq from 0)."""
        self.path = path
        self._deframer = Deframer(crc_ccitt)
        self._host_seq = 0
        self._reset_connection()

    def down(self, detail: Value, now: float) -> None:
        """No usable port; reported once until the link comes up again."""
        if not self._down_reported:
            self._down_reported = True
            said = detail if isinstance(detail, Phrase) else None
            self.emit(LinkHealth(now, False, str(detail), said))

    def lost(self, detail: Value, now: float) -> None:
        """The port failed or the link was declared dead: count, then report it down."""
        was_linked = self.linked
        deframer = self._deframer
        for index, count in enumerate(
            (deframer.frames_ok, deframer.crc_errors, deframer.bad_frames)
        ):
            self._totals[index] += count
        self._deframer = Deframer(crc_ccitt)
        self._reset_connection()
        if was_linked:
            self._down_reported = False
        c = self.counters
        counted = Phrase(
            "{detail} ({frames} frames ok, {crc} CRC errors, {retries} retries)",
            detail=detail,
            frames=c.frames_ok,
            crc=c.crc_errors,
            retries=c.retries,
        )
        self.down(counted, now)

    def receive(self, data: bytes, now: float) -> None:
        """Bytes read from the port; ``LinkLost`` if they say the link must go down."""
        for kind, seq, payload in self._deframer.feed(data):
            try:
                self._handle(kind, seq, payload, now)
            except FrameError:
                self._deframer.bad_frames += 1

    def poll(self, now: float) -> bytes:
        """What to write now (a HOST_HELLO, an LED frame, a retry), maybe nothing.

        ``LinkLost`` when the board has been silent for ``heartbeat_timeout``.
        """
        if not self.linked:
            if now - self._hello_at >= self.hello_interval:
                self._hello_at = now
                return self._frame(HOST_HELLO, self._next_seq(), bytes((PROTOCOL_VERSION,)))
            return b""
        silent = now - self._last_frame_at
        if silent > self.heartbeat_timeout:
            quiet = Phrase("no message from the board for {seconds} s", seconds=f"{silent:.1f}")
            raise LinkLost(quiet)
        if not self._layout_taken:
            return self._service_layout(now)
        return self._service_leds(now)

    def _service_layout(self, now: float) -> bytes:
        """The host's LAYOUT, first after every link-up, retried until acknowledged; state
        reports are set aside until then (they may be in the board's old layout)."""
        assert self.layout is not None
        pending = self._layout_pending
        if pending is not None and now - pending[1] < self.ack_timeout:
            return b""
        if pending is None:
            seq = self._next_seq()
        else:
            seq = pending[0]
            self._retries += 1
        self._layout_pending = (seq, now)
        return self._frame(LAYOUT, seq, self.layout)

    # -- the conversation ----------------------------------------------------------------------

    def _reset_connection(self) -> None:
        self.linked = False
        self._hello_at = float("-inf")
        self._last_frame_at = 0.0
        self._board_seq = 0
        self._fault = 0
        self._last_snapshot: frozenset[int] | None = None
        self._pending: tuple[int, bytes, float] | None = None
        self._layout_pending = None  # seq and time of the LAYOUT sent
        self._layout_taken = self.layout is None

    def _frame(self, kind: int, seq: int, payload: bytes) -> bytes:
        return encode_frame(kind, seq, payload, crc_ccitt)

    def _next_seq(self) -> int:
        seq = self._host_seq
        self._host_seq = (seq + 1) & 0xFF
        return seq

    def _service_leds(self, now: float) -> bytes:
        """The next LED_SET, a retry, or nothing.

        An LED_SET carries up to LED_SET_MAX LEDs that differ from what the board is known to
        show. While one is unacknowledged its LEDs count as unknown, so every later frame that
        replaces it carries them again: the board, which applies frames in order, ends up
        showing the picture whatever was lost. A frame is retried every ``ack_timeout`` until
        it is acknowledged or replaced; that never drops the link (the silence timer decides
        whether the board is alive).
        """
        view, wanted = self._board_view, self._wanted
        changed = [slot for slot in range(LED_SLOTS) if view[slot] != wanted[slot]]
        if not changed:
            return b""
        payload = pack_led_set([(slot, wanted[slot]) for slot in changed[:LED_SET_MAX]])
        if self._pending is not None and self._pending[1] == payload:  # still the one to send
            seq, _, sent_at = self._pending
            if now - sent_at < self.ack_timeout:
                return b""
            self._retries += 1
            self._pending = (seq, payload, now)
            return self._frame(LED_SET, seq, payload)
        for slot in changed[:LED_SET_MAX]:
            view[slot] = None  # until acknowledged: the board may or may not show it
        seq = self._next_seq()
        self._pending = (seq, payload, now)
        return self._frame(LED_SET, seq, payload)

    def _handle(self, kind: int, seq: int, payload: bytes, now: float) -> None:
        boot = False
        boot_id = None  # the boot id a HELLO or a state report carries
        if kind == HELLO:
            if payload[:1] != bytes((PROTOCOL_VERSION,)):
                self._wrong_version(payload[0] if payload else 0, now)
                return
            hello = unpack_hello(payload)
            boot, boot_id = hello[2] == HELLO_BOOT, hello[3]
            if boot and seq != 0:
                raise FrameError("boot")  # a board's seq starts at 0: this is no boot HELLO
        elif kind in (STATE_CHANGE, STATE_LEVER, STATE_HEARTBEAT):
            state = unpack_state(payload)
            boot_id = state[5]
        if self.linked:
            # Another boot id comes first: a board that restarted starts its seq again at 0,
            # so its frames would look stale. Only then is the seq checked.
            restarted = boot or (boot_id is not None and boot_id != self._boot_id)
            if not restarted:
                ahead = (seq - self._board_seq) & 0xFF
                if ahead == 0 or ahead > 0xFF - SEQ_WINDOW:
                    self._stale_frames += 1  # a duplicate or an old frame: never acted on
                    return
                self._frames_lost += ahead - 1
            self._board_seq = seq
            self._last_frame_at = now  # only new frames keep the link alive
            if restarted and kind != HELLO:
                assert boot_id is not None
                self._restarted(boot_id, now)
        if kind == HELLO:
            _, firmware, _, boot_id, board_id = hello
            self._hello(seq, firmware, boot, boot_id, board_id, now)
        elif not self.linked:
            return
        elif kind in (STATE_CHANGE, STATE_LEVER, STATE_HEARTBEAT):
            if self._layout_taken:
                self._state(kind, state, now)
        elif kind == ERROR:
            text = payload.decode("utf-8", "replace")
            failed = Phrase("the board's firmware failed ({text}); it resets", text=text)
            self.emit(SensorFault.worded(now, failed))
        elif kind == ACK:
            acked, status = unpack_ack(payload)
            self._ack(acked, status, now)

    def _restarted(self, boot_id: bytes, now: float) -> None:
        """A state report with a new boot id: the board restarted and its boot HELLO was lost."""
        restarted = Phrase("board restarted (its boot id changed)")
        self.emit(LinkHealth(now, True, str(restarted), restarted))
        self._boot_id = boot_id
        self._levers = [0, 0]  # its counters started again at 0
        self._board_view = [None] * LED_SLOTS  # and its LEDs are not what we set
        self._pending = None
        self._layout_pending = None
        self._layout_taken = self.layout is None  # its layout is config.py's again

    def _wrong_version(self, version: int, now: float) -> None:
        """A HELLO of another protocol version: a SensorFault, and the link stays down."""
        message = Phrase(
            "the board on {path} speaks protocol {version}, this host {host}: flash this"
            " release's firmware (see firmware_bridge/README.md)",
            path=self.path,
            version=version,
            host=PROTOCOL_VERSION,
        )
        if self.linked:
            self.emit(SensorFault.worded(now, message))
            raise LinkLost(Phrase("the board now speaks protocol {version}", version=version))
        if not self._down_reported:
            self._down_reported = True
            self.emit(SensorFault.worded(now, message))

    def _ack(self, acked: int, status: int, now: float) -> None:
        if self._layout_pending is not None and acked == self._layout_pending[0]:
            self._layout_pending = None
            self._layout_taken = True  # or refused: the board keeps its own config.py
            if status != ACK_OK:
                refused = Phrase(
                    "the board refused the layout of the host's board file: status {status},"
                    " {meaning}; it keeps the one in its config.py",
                    status=status,
                    meaning=_ACK_MEANINGS.get(status, _UNKNOWN_STATUS),
                )
                self.emit(SensorFault.worded(now, refused))
            return
        if self._pending is None or acked != self._pending[0]:
            return  # an answer to a frame already replaced by a newer one
        payload = self._pending[1]
        self._pending = None
        for at in range(0, len(payload), LED_ENTRY):
            # shown, or refused: a refused frame is not sent again (it would be refused again)
            # until those LEDs change
            slot, *entry = payload[at : at + LED_ENTRY]
            self._board_view[slot] = (entry[0], entry[1], entry[2], entry[3])
        if status != ACK_OK:
            rejected = Phrase(
                "the board rejected an LED frame: status {status}, {meaning}",
                status=status,
                meaning=_ACK_MEANINGS.get(status, _UNKNOWN_STATUS),
            )
            self.emit(SensorFault.worded(now, rejected))

    def _hello(
        self,
        seq: int,
        firmware: tuple[int, int],
        boot: bool,
        boot_id: bytes,
        board_id: bytes,
        now: float,
    ) -> None:
        if self.linked and not boot and boot_id == self._boot_id:
            return  # a second answer to our HOST_HELLO: in sequence, no news
        restarted = self.linked
        if self.board is None or self.board.board_id != board_id.hex():
            self._levers = None  # another board: nothing known of its counters or LEDs
            self._board_view = [None] * LED_SLOTS
        elif boot_id != self._boot_id:  # the same board, booted since we last heard it:
            restarted = True  # its counters began at 0; what it shows is not known
            self._levers = [0, 0]
            self._board_view = [None] * LED_SLOTS
        if boot:  # it has just started: its counters are 0, its LEDs dark
            self._levers = [0, 0]
            self._board_view = [DARK] * LED_SLOTS
        self._boot_id = boot_id
        self._reset_connection()
        self.linked = True
        self._board_seq = seq
        self._last_frame_at = now
        self._links += 1
        self._down_reported = False
        self.board = BoardInfo(board_id.hex(), firmware, PROTOCOL_VERSION, self.path)
        detail = Phrase(
            "board {board} firmware {firmware} on {path}",
            board=self.board.board_id,
            firmware=f"{firmware[0]}.{firmware[1]}",
            path=self.path,
        )
        if restarted:
            detail = Phrase("board restarted: {detail}", detail=detail)
        self.emit(LinkHealth(now, True, str(detail), detail))

    def _state(self, kind: int, state: tuple[int, int, int, int, int, bytes], now: float) -> None:
        mask, black, white, _, fault, _ = state
        if fault & ~self._fault:
            self.emit(_diode_fault(now, fault))
        self._fault = fault
        if kind == STATE_HEARTBEAT:
            self._last_heartbeat = now
        occupied = square_set(mask)
        if occupied != self._last_snapshot:
            self._last_snapshot = occupied
            self.emit(Snapshot(now, occupied))
        counts = [black, white]
        if self._levers is not None:
            for side, count, seen in zip(_SIDES, counts, self._levers, strict=True):
                grown = (count - seen) & 0xFFFF  # 16-bit counters, compared modulo 2**16
                if grown >= 1 << 15:
                    continue  # it went back (a counter reset): no presses; the new base
                for _ in range(min(grown, MAX_PRESSES)):
                    self.emit(LeverPress(now, side))
        self._levers = counts


def _diode_fault(t: float, fault: int) -> SensorFault:
    """The board's report of a missing or shorted diode, naming the squares it touches."""
    squares = square_set(fault)
    said = Phrase(
        "diode missing or shorted in the board's matrix (current flows back through a switch):"
        " squares {squares} may show ghosts and keep their last reading until it is fixed",
        squares=", ".join(map(str, sorted(squares))),
    )
    return SensorFault.worded(t, said, squares)
