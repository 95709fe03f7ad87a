"""The host side of the bridge: the Pico board as a Sensor and a CueDisplay over USB serial.

A background thread owns the port. It finds the board (by path, or ``auto`` by USB id), does the
HELLO handshake, turns state reports into Snapshot and LeverPress events, sends LED frames until
they are acknowledged, and reconnects after an unplug, a firmware reset or a silent link.
PROTOCOL.md describes the wire format.
"""

from __future__ import annotations

import contextlib
import queue
import termios
import threading
import time
import tty
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.cues import Blink, Cues
from engine.phrase import Phrase
from engine.sensing import SensorEvent, SensorSpecError
from firmware_bridge.board_file import read_layout
from firmware_bridge.cue_frame import DARK, LINKED, Entry, entry, frame_entries
from firmware_bridge.link import BoardInfo, HostLink, LinkCounters, LinkLost

if TYPE_CHECKING:
    import serial

#: The Raspberry Pi Pico's USB vendor and product id under MicroPython.
PICO_USB_ID = (0x2E8A, 0x0005)


def make_raw(fd: int) -> None:
    """Put a serial port's line discipline in raw mode: no echo, no CR/LF translation, no
    signals, 8-bit clean (PROTOCOL.md: the port must be raw; the host sets it, whatever the
    port was before)."""
    tty.setraw(fd, termios.TCSANOW)


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


class SerialBoard:
    """A Pico running firmware_bridge/firmware, as a Sensor and a CueDisplay.

    ``port`` is a device path (``/dev/ttyACM0``, a /dev/serial/by-id link) or ``"auto"`` to look
    for ``usb_id``; ``layout`` a LAYOUT payload (board_file.read_layout) sent at every link-up. A
    thread owns the port and runs the protocol (:class:`HostLink`) on it.
    Example::

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
        hello_interval: float = 0.5,
        heartbeat_timeout: float = 3.0,
        reconnect_interval: float = 0.2,
        layout: bytes | None = None,
    ) -> None:
        if not port:
            raise ValueError("no serial port given: a device path or 'auto'")
        self.port = port
        self.usb_id = usb_id
        self.baudrate = baudrate
        self.reconnect_interval = reconnect_interval
        self._events: queue.Queue[SensorEvent] = queue.Queue()
        self._stop = threading.Event()
        self._lock = threading.Lock()  # the link is used by the port thread and by show()
        self._shown = threading.Event()
        self._cues = Cues.none()
        self._status: list[Entry] = [LINKED, DARK]
        self._link = HostLink(
            self._events.put,
            ack_timeout=ack_timeout,
            hello_interval=hello_interval,
            heartbeat_timeout=heartbeat_timeout,
            layout=layout,
        )
        self._link.set_picture(frame_entries(self._cues, self._status))
        self._serial: serial.Serial | None = None
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
            self._set_picture()

    def set_status(self, index: int, rgb: tuple[int, int, int], blink: Blink = Blink.SOLID) -> None:
        """Set status LED ``index`` (0 = link, dim green by default; 1 = free for the service)."""
        if index not in range(len(self._status)):
            raise ValueError(f"status LED {index} does not exist: 0 or 1")
        with self._lock:
            self._status[index] = entry(rgb, blink)
            self._set_picture()

    def wait_shown(self, timeout: float | None = None) -> bool:
        """Wait until the board has acknowledged the picture last set; False on timeout."""
        return self._shown.wait(timeout)

    @property
    def board(self) -> BoardInfo | None:
        """What the board said in its last HELLO (None before the first link)."""
        return self._link.board

    @property
    def counters(self) -> LinkCounters:
        """Frames received and dropped, retries and reconnects so far."""
        return self._link.counters

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

    def _set_picture(self) -> None:
        self._link.set_picture(frame_entries(self._cues, self._status))
        if not self._link.shown:
            self._shown.clear()

    def _run(self) -> None:
        from serial import SerialException

        while not self._stop.is_set():
            if self._serial is None and not self._open():
                self._stop.wait(self.reconnect_interval)
                continue
            try:
                self._pump()
            except (SerialException, OSError, LinkLost) as error:
                self._close_port()
                with self._lock:
                    why = error.phrase if isinstance(error, LinkLost) else str(error)
                    lost = Phrase("lost {path}: {error}", path=self._link.path, error=why)
                    self._link.lost(lost, time.monotonic())

    def _open(self) -> bool:
        import serial

        path = self.port if self.port != "auto" else find_board(self.usb_id)
        if path is None:
            vid, pid = self.usb_id
            detail = Phrase("waiting for a board with USB id {usb}", usb=f"{vid:04X}:{pid:04X}")
            self._link.down(detail, time.monotonic())
            return False
        try:
            port = serial.Serial(
                path, self.baudrate, timeout=0.01, write_timeout=1.0, exclusive=True
            )
        except (serial.SerialException, OSError, ValueError) as error:
            waiting = Phrase("waiting for {path}: {error}", path=path, error=str(error))
            self._link.down(waiting, time.monotonic())
            return False
        try:
            make_raw(port.fileno())
        except (termios.error, OSError) as error:
            port.close()
            raw = Phrase("cannot make {path} a raw port: {error}", path=path, error=str(error))
            self._link.down(raw, time.monotonic())
            return False
        self._serial = port
        with self._lock:
            self._link.opened(path)
        return True

    def _close_port(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            with contextlib.suppress(Exception):
                port.close()

    def _pump(self) -> None:
        port = self._serial
        assert port is not None
        data = port.read(1)
        if data:
            waiting = port.in_waiting
            if waiting:
                data += port.read(waiting)
        with self._lock:
            if data:
                self._link.receive(data, time.monotonic())
            out = self._link.poll(time.monotonic())
            if self._link.shown:
                self._shown.set()
        if out:
            port.write(out)


def sensor_from_spec(argument: str) -> SerialBoard:
    """The ``serial:`` sensor: ``serial:/dev/ttyACM0``, ``serial:auto``, ``serial:auto:VID:PID``,
    each optionally with ``?board=FILE``: where the squares sit (board_file.py)."""

    if not argument:
        raise SensorSpecError("serial: needs a device path or auto, e.g. serial:/dev/ttyACM0")
    argument, _, query = argument.partition("?")
    if not argument:
        raise SensorSpecError("serial: needs a device path or auto, e.g. serial:/dev/ttyACM0")
    layout = None
    if query:
        name, _, path = query.partition("=")
        if name != "board" or not path:
            raise SensorSpecError(f"serial:{argument}?{query}: expected ?board=FILE")
        try:
            layout = read_layout(path)
        except (OSError, ValueError) as error:
            raise SensorSpecError(f"serial: the board file {error}") from None
    usb_id = PICO_USB_ID
    if argument.startswith("auto:"):
        try:
            usb_id = parse_usb_id(argument[len("auto:") :])
        except ValueError as error:
            raise SensorSpecError(f"serial:{argument}: {error}") from None
        argument = "auto"
    return SerialBoard(argument, usb_id=usb_id, layout=layout)


__all__: Sequence[str] = (
    "PICO_USB_ID",
    "BoardInfo",
    "LinkCounters",
    "SerialBoard",
    "find_board",
    "parse_usb_id",
    "sensor_from_spec",
)
