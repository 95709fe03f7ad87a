"""A Pico on a pseudo-terminal: the real firmware on the simulated HAL, with faults on demand.

The port's path is a symlink the emulator owns (like /dev/serial/by-id/...). ``disconnect``
removes it and closes the pty, as an unplug does; the board (USB-powered) stops. On replug a new
pty appears behind the same link and the firmware boots afresh, so the host must re-handshake and
re-send its LED frame. Faults (``corrupt``, ``drop``, ``noise``) are applied on the wire.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Any

from engine.sensing import occupancy
from firmware_bridge.firmware import config
from firmware_bridge.firmware.app import Firmware
from firmware_bridge.firmware.hal_sim import SimHal
from firmware_bridge.firmware.protocol import LED_SLOTS, SQUARE_LEDS

BLINK_NAMES = ("solid", "slow", "fast")
LEVER_BITS = {"black": 1, "white": 2}
LEVER_HOLD_S = 0.06

COMMANDS = """\
commands (one per line on stdin; each answers one line on stdout):
  place SQUARES         put pieces on squares, e.g. "place 1 2 3" or "place 21-32"
  lift SQUARES          take pieces off squares
  set [SQUARES]         the whole occupancy at once ("set" alone empties the board)
  lever black|white     press and release a clock lever
  corrupt N [in|out]    garble the next N bytes (out: board -> host, the default)
  drop N [in|out]       lose the next N frames
  noise PERCENT         garble every byte the board sends with this probability
  disconnect [SECONDS]  unplug for SECONDS (default 1): link removed, board off, then replugged
  reset                 restart the firmware (the port stays)
  leds                  print the LED picture the host sent: SQUARE=#rrggbb/blink, s1 s2 status
  quit                  stop the emulator"""


def parse_squares(words: list[str]) -> frozenset[int]:
    """Squares from words like ``1 2 3``, ``1,2`` or ``21-32``; ``ValueError`` names a bad one."""
    squares: list[int] = []
    for word in " ".join(words).replace(",", " ").split():
        low, dash, high = word.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise ValueError(f"{word!r} is not a square number or range like 21-32") from None
        if last < first:
            raise ValueError(f"range {word!r} runs backwards")
        squares.extend(range(first, last + 1))
    return occupancy(squares)


def _count(word: str) -> int:
    try:
        value = int(word)
    except ValueError:
        raise ValueError(f"{word!r} is not a whole number") from None
    if value < 0:
        raise ValueError(f"{word!r} must not be negative")
    return value


class Emulator:
    """The emulated board. ``start()`` plugs it in; ``command(line)`` drives it; ``stop()``.

    Example::

        emulator = Emulator(seed=1)
        emulator.start()
        board = SerialBoard(str(emulator.link))
        emulator.command("place 1-12")
    """

    def __init__(
        self,
        link: str | Path | None = None,
        *,
        board_id: bytes = b"EMULATED",
        seed: int | None = None,
        settings: Any = config,
    ) -> None:
        if link is None:
            self._tempdir: str | None = tempfile.mkdtemp(prefix="poolboard-pico-")
            link = Path(self._tempdir) / "ttyACM-pico"
        else:
            self._tempdir = None
        self.link = Path(link)
        self.settings = settings
        self.hal = SimHal(board_id=board_id, output=self._outgoing)
        self.firmware: Firmware | None = None
        self.corrupt_out = self.corrupt_in = self.drop_out = self.drop_in = 0
        self.noise = 0.0
        self.frames_sent = 0
        self._rng = random.Random(seed)
        self._io = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._in_body = False
        self._running = False
        self._threads: list[threading.Thread] = []

    # -- power and cable ------------------------------------------------------------------------

    def start(self) -> None:
        """Plug in: a new pty behind the link, then the firmware boots."""
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        with self._io:
            self._master, self._slave = master, slave
        target = os.ttyname(slave)
        if self.link.is_symlink():
            self.link.unlink()
        elif self.link.exists():
            raise FileExistsError(f"{self.link} exists and is not a link the emulator made")
        self.link.symlink_to(target)
        self._boot()

    def stop(self) -> None:
        """Unplug: the firmware stops, the link disappears, the pty closes."""
        self._halt()
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        with self._io:
            fds = (self._master, self._slave)
            self._master = self._slave = None
        for fd in fds:
            if fd is not None:
                os.close(fd)
        self.firmware = None

    def close(self) -> None:
        """Stop and remove the temporary folder of the default link."""
        self.stop()
        if self._tempdir is not None:
            with contextlib.suppress(OSError):
                os.rmdir(self._tempdir)

    def disconnect(self, seconds: float) -> None:
        """Unplug for ``seconds``, then plug in again (the board reboots)."""
        self.stop()
        time.sleep(seconds)
        self.start()

    def reset(self) -> None:
        """Restart the firmware on the same port, as a watchdog or reset button would."""
        self._halt()
        self._boot()

    def _boot(self) -> None:
        self.hal.read()  # bytes the old firmware never read are gone with it
        self._running = True
        self.firmware = Firmware(self.hal, self.settings)
        self._threads = [
            threading.Thread(target=self.firmware.run, args=(self._is_running,), daemon=True),
            threading.Thread(target=self._read_host, args=(self._master,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _halt(self) -> None:
        self._running = False
        for thread in self._threads:
            thread.join()
        self._threads = []

    def _is_running(self) -> bool:
        return self._running

    # -- the wire ---------------------------------------------------------------------------------

    def _garble(self, byte: int) -> int:
        return byte ^ self._rng.randrange(1, 256)

    def _outgoing(self, frame: bytes) -> None:
        """Firmware -> host, one whole frame per call, through the fault injectors."""
        if self.drop_out:
            self.drop_out -= 1
            return
        data = bytearray(frame)
        for index, byte in enumerate(data):
            if self.corrupt_out:
                self.corrupt_out -= 1
                data[index] = self._garble(byte)
            elif self.noise and self._rng.random() < self.noise:
                data[index] = self._garble(byte)
        with self._io:
            if self._master is None:
                return
            with contextlib.suppress(BlockingIOError):  # no host reading: lost, as on USB
                os.write(self._master, data)
                self.frames_sent += 1

    def _read_host(self, master: int | None) -> None:
        """Host -> firmware, through the fault injectors, until this pty is unplugged."""
        while self._running and self._master == master:
            ready, _, _ = select.select([master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:
                continue
            self.hal.feed(self._incoming(data))

    def _incoming(self, data: bytes) -> bytes:
        kept = bytearray()
        for byte in data:
            if self.drop_in:
                if byte == 0 and self._in_body:
                    self.drop_in -= 1
                    self._in_body = False
                elif byte != 0:
                    self._in_body = True
                    continue
            elif self.corrupt_in:
                self.corrupt_in -= 1
                byte = self._garble(byte)
            kept.append(byte)
        return bytes(kept)

    # -- the board --------------------------------------------------------------------------------

    @property
    def occupied(self) -> frozenset[int]:
        """The squares with a piece (closed switch) now."""
        return frozenset(n for n in range(1, 33) if self.hal.switches >> (n - 1) & 1)

    def set_occupied(self, squares: frozenset[int]) -> None:
        """Set every switch at once."""
        mask = 0
        for square in occupancy(squares):
            mask |= 1 << (square - 1)
        self.hal.switches = mask

    def press_lever(self, side: str) -> None:
        """Press a lever and release it ``LEVER_HOLD_S`` later."""
        bit = LEVER_BITS[side]
        self.hal.levers |= bit
        timer = threading.Timer(LEVER_HOLD_S, self._release_lever, args=(bit,))
        timer.daemon = True
        timer.start()

    def _release_lever(self, bit: int) -> None:
        self.hal.levers &= ~bit

    def describe_leds(self) -> str:
        """The picture the host last sent, e.g. ``leds 12=#ffc800/slow s1=#002800/solid``."""
        firmware = self.firmware
        if firmware is None:
            return "leds off (unplugged)"
        lit = []
        for index, (r, g, b, blink) in enumerate(firmware.picture.entries[:LED_SLOTS]):
            if r or g or b:
                name = str(index + 1) if index < SQUARE_LEDS else f"s{index - SQUARE_LEDS + 1}"
                lit.append(f"{name}=#{r:02x}{g:02x}{b:02x}/{BLINK_NAMES[blink]}")
        if not firmware.picture.linked:
            lit.append("(waiting for a host)")
        return "leds " + (" ".join(lit) if lit else "dark")

    def command(self, line: str) -> str:
        """Carry out one command line (see ``COMMANDS``); returns the answer line.

        ``ValueError`` says what was wrong with the line.
        """
        words = line.split()
        if not words:
            raise ValueError("empty command")
        name, args = words[0].lower(), words[1:]
        if name == "place":
            self.set_occupied(self.occupied | parse_squares(args))
        elif name == "lift":
            self.set_occupied(self.occupied - parse_squares(args))
        elif name == "set":
            self.set_occupied(parse_squares(args))
        elif name == "lever":
            if len(args) != 1 or args[0].lower() not in LEVER_BITS:
                raise ValueError("lever needs a side: lever black | lever white")
            self.press_lever(args[0].lower())
        elif name in ("corrupt", "drop"):
            if not 1 <= len(args) <= 2 or (len(args) == 2 and args[1] not in ("in", "out")):
                raise ValueError(f"usage: {name} N [in|out]")
            direction = args[1] if len(args) == 2 else "out"
            attribute = f"{name}_{direction}"
            setattr(self, attribute, getattr(self, attribute) + _count(args[0]))
        elif name == "noise":
            if len(args) != 1:
                raise ValueError("usage: noise PERCENT")
            try:
                percent = float(args[0])
            except ValueError:
                raise ValueError(f"{args[0]!r} is not a percentage") from None
            if not 0 <= percent <= 100:
                raise ValueError(f"noise {percent} must be between 0 and 100 percent")
            self.noise = percent / 100
        elif name == "disconnect":
            if len(args) > 1:
                raise ValueError("usage: disconnect [SECONDS]")
            try:
                seconds = float(args[0]) if args else 1.0
            except ValueError:
                raise ValueError(f"{args[0]!r} is not a number of seconds") from None
            if not 0 <= seconds <= 3600:
                raise ValueError(f"disconnect {seconds} s: give 0-3600 seconds")
            self.disconnect(seconds)
        elif name == "reset":
            self.reset()
        elif name == "leds":
            return self.describe_leds()
        else:
            raise ValueError(f"unknown command {name!r}; try place, lift, set, lever, leds, quit")
        return "ok"
