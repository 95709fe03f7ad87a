"""A Pico on a pseudo-terminal: the real firmware on a simulated board, with faults on demand.

The firmware runs either under MicroPython's own unix port (``interpreter="micropython"``:
firmware/main.py unchanged, on the stand-in ``machine`` of pico_standin/, see
micropython_board.py) or in a thread on CPython (``"cpython"``: firmware/app.py on
hal_sim.SimHal). The port's path is a symlink the emulator owns (like /dev/serial/by-id/...).
``disconnect`` removes it and closes the pty, as an unplug does; the board (USB-powered) stops.
On replug a new pty appears behind the same link and the firmware boots afresh, so the host must
re-handshake and re-send its LED frame. Faults (``corrupt``, ``drop``, ``noise``) are applied on
the wire. The pty is left as the kernel makes it (cooked, echoing): the host must make it raw.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from engine.sensing import occupancy
from firmware_bridge.firmware import config
from firmware_bridge.firmware.app import Firmware
from firmware_bridge.firmware.hal_sim import SimHal
from firmware_bridge.firmware.protocol import LED_SLOTS, MAX_BOARD_ID, SQUARE_LEDS
from firmware_bridge.micropython_board import MicroPythonBoard, find_micropython

BLINK_NAMES = ("solid", "slow", "fast")
LEVER_BITS = {"black": 1, "white": 2}
LEVER_HOLD_S = 0.06
INTERPRETERS = ("micropython", "cpython")
TEMP_PREFIX = "poolboard-pico-"
OWNER_FILE = "owner.pid"
NEEDS_MICROPYTHON = "{} needs the firmware under MicroPython (--interpreter micropython)"

COMMANDS = """\
commands (one per line on stdin; each answers one line on stdout):
  place SQUARES         put pieces on squares, e.g. "place 1 2 3" or "place 21-32"
  lift SQUARES          take pieces off squares
  set [SQUARES]         the whole occupancy at once ("set" alone empties the board)
  lever black|white     press and release a clock lever
  corrupt N [in|out]    garble the next N bytes (out: board -> host, the default)
  drop N [in|out]       lose the next N frames
  noise PERCENT [in|out|both]
                        garble each byte with this probability (out: board -> host,
                        the default; in: host -> board)
  disconnect [SECONDS]  unplug for SECONDS (default 1): link removed, board off, then replugged
  reset                 restart the firmware (the port stays)
  diode [SQUARES]       take out (or short) these squares' diodes; "diode" alone puts all back
  crash                 the firmware's next matrix read raises (micropython: reports, resets)
  hang                  the firmware's next matrix read never returns (micropython: watchdog)
  stall SECONDS         stop reading the board's output, as a host holding the port unread
  leds                  print the LEDs: SQUARE=#rrggbb/blink as the host sent them (cpython),
                        or as the strip shows them now, brightness applied (micropython)
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
        for end in (first, last):  # before expanding: "1-50000000" must not fill the memory
            if not 1 <= end <= 32:
                raise ValueError(f"square {end} is not a dark square 1-32 (R-BRD-2)")
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


def _seconds(word: str, usage: str) -> float:
    try:
        seconds = float(word)
    except ValueError:
        raise ValueError(f"{word!r} is not a number of seconds") from None
    if not 0 <= seconds <= 3600:
        raise ValueError(f"{usage} {seconds} s: give 0-3600 seconds")
    return seconds


#: Names the LED at a strip index for ``leds``: (sort key, label), or None if it is dead.
LedLabel = Callable[[int], tuple[int, str] | None]


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_folders(parent: str | None = None) -> list[Path]:
    """Remove the temporary folders of emulators that were killed (their owner PID is gone).

    A killed process cannot clean up after itself; the next emulator does it.
    """
    removed = []
    for folder in Path(parent or tempfile.gettempdir()).glob(TEMP_PREFIX + "*"):
        try:
            pid = int((folder / OWNER_FILE).read_text())
        except (OSError, ValueError):
            continue
        if pid != os.getpid() and not _process_alive(pid):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


class EmulatedBoard(Protocol):
    """What the emulator needs of a running firmware (a thread or a MicroPython process)."""

    interpreter: str
    stalled: bool

    @property
    def switches(self) -> int: ...
    @property
    def levers(self) -> int: ...
    @property
    def missing_diodes(self) -> int: ...

    def boot(self) -> None: ...
    def halt(self) -> None: ...
    def feed(self, data: bytes) -> None: ...
    def set_switches(self, mask: int) -> None: ...
    def set_levers(self, mask: int) -> None: ...
    def set_missing_diodes(self, mask: int) -> None: ...
    def inject(self, fault: str) -> None: ...
    def describe_leds(self, label: LedLabel) -> str: ...


class ThreadBoard:
    """The firmware code (firmware/app.py) on CPython, in a thread, on :class:`SimHal`."""

    interpreter = "cpython"

    def __init__(self, board_id: bytes, settings: Any, output: Any) -> None:
        self.settings = settings
        self.hal = SimHal(board_id=board_id, output=output)
        self.firmware: Firmware | None = None
        self.stalled = False
        self._running = False
        self._thread: threading.Thread | None = None

    @property
    def switches(self) -> int:
        return int(self.hal.switches)

    @property
    def levers(self) -> int:
        return int(self.hal.levers)

    @property
    def missing_diodes(self) -> int:
        return int(self.hal.missing_diodes)

    def boot(self) -> None:
        self.hal.read()  # bytes the old firmware never read are gone with it
        self._running = True
        self.firmware = Firmware(self.hal, self.settings)
        self._thread = threading.Thread(
            target=self.firmware.run, args=(lambda: self._running,), daemon=True
        )
        self._thread.start()

    def halt(self) -> None:
        self._running = False
        if self._thread is not None:
            self._thread.join()
        self._thread = None
        self.firmware = None

    def feed(self, data: bytes) -> None:
        self.hal.feed(data)

    def set_switches(self, mask: int) -> None:
        self.hal.switches = mask

    def set_levers(self, mask: int) -> None:
        self.hal.levers = mask

    def set_missing_diodes(self, mask: int) -> None:
        self.hal.missing_diodes = mask

    def inject(self, fault: str) -> None:
        raise ValueError(NEEDS_MICROPYTHON.format(fault))

    def describe_leds(self, label: LedLabel) -> str:
        """The picture the host last set, where the strip shows it, e.g.
        ``leds 12=#ffc800/slow s1=#002800/solid``."""
        firmware = self.firmware
        if firmware is None:
            return "leds off (unplugged)"
        picture = firmware.picture
        lit = []
        for slot, (r, g, b, blink) in enumerate(picture.entries[:LED_SLOTS]):
            named = label(picture.leds[slot])
            if named is not None and (r or g or b):
                lit.append((named[0], f"{named[1]}=#{r:02x}{g:02x}{b:02x}/{BLINK_NAMES[blink]}"))
        texts = [text for _, text in sorted(lit)]
        if not picture.linked:
            texts.append("(waiting for a host)")
        return "leds " + (" ".join(texts) if texts else "dark")


class Emulator:
    """The emulated board. ``start()`` plugs it in; ``command(line)`` drives it; ``stop()``.

    ``interpreter`` is ``"cpython"`` (the default here: in-process, quick) or ``"micropython"``
    (the firmware itself under MicroPython's unix port; ``MicroPythonMissing`` if not
    installed). Example::

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
        interpreter: str = "cpython",
        wiring: Sequence[int] | None = None,
        strip: Sequence[int] | None = None,
    ) -> None:
        if interpreter not in INTERPRETERS:
            raise ValueError(f"interpreter {interpreter!r}: choose {' or '.join(INTERPRETERS)}")
        if not 1 <= len(board_id) <= MAX_BOARD_ID:
            raise ValueError(f"board id {board_id!r}: 1-{MAX_BOARD_ID} bytes (PROTOCOL.md)")
        self.board: EmulatedBoard
        if interpreter == "micropython":
            self.board = MicroPythonBoard(board_id, settings, self._outgoing, find_micropython())
            self.hal: SimHal | None = None
        else:
            thread_board = ThreadBoard(board_id, settings, self._outgoing)
            self.board, self.hal = thread_board, thread_board.hal
        if link is None:
            remove_stale_folders()
            self._tempdir: str | None = tempfile.mkdtemp(prefix=TEMP_PREFIX)
            (Path(self._tempdir) / OWNER_FILE).write_text(str(os.getpid()))
            link = Path(self._tempdir) / "ttyACM-pico"
        else:
            self._tempdir = None
        self.link = Path(link)
        self.settings = settings
        # The board as built: the crossing of each square's reed switch and the strip index of
        # its LED (square 1 first; firmware/layout.py computes both from config-style names),
        # and the squares whose LED is dead. The firmware's config must match the build.
        self.wiring = list(wiring) if wiring is not None else list(range(SQUARE_LEDS))
        self.strip = list(strip) if strip is not None else list(range(SQUARE_LEDS))
        self.dead_leds: frozenset[int] = frozenset()
        self.corrupt_out = self.corrupt_in = self.drop_out = self.drop_in = 0
        self.noise = 0.0  # board -> host
        self.noise_in = 0.0  # host -> board
        self.frames_sent = 0
        self._rng = random.Random(seed)
        self._io = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._in_body = False
        self._running = False
        self._reader: threading.Thread | None = None

    @property
    def interpreter(self) -> str:
        """``"micropython"`` or ``"cpython"``: what runs the firmware."""
        return self.board.interpreter

    # -- power and cable ------------------------------------------------------------------------

    def start(self) -> None:
        """Plug in: a new pty behind the link, then the firmware boots."""
        master, slave = os.openpty()
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

    def close(self) -> None:
        """Stop and remove the temporary folder of the default link."""
        self.stop()
        if self._tempdir is not None:
            shutil.rmtree(self._tempdir, ignore_errors=True)

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
        self._running = True
        self.board.boot()
        self._reader = threading.Thread(target=self._read_host, args=(self._master,), daemon=True)
        self._reader.start()

    def _halt(self) -> None:
        self._running = False
        self.board.halt()
        if self._reader is not None:
            self._reader.join()
        self._reader = None

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
        if master is None:
            return
        while self._running and self._master == master:
            ready, _, _ = select.select([master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:
                continue
            self.board.feed(self._incoming(data))

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
            elif self.noise_in and self._rng.random() < self.noise_in:
                byte = self._garble(byte)
            kept.append(byte)
        return bytes(kept)

    # -- the board --------------------------------------------------------------------------------

    @property
    def occupied(self) -> frozenset[int]:
        """The squares with a piece (closed switch) now."""
        switches = self.board.switches
        return frozenset(n for n in range(1, 33) if switches >> self.wiring[n - 1] & 1)

    def set_occupied(self, squares: frozenset[int]) -> None:
        """Set every switch at once."""
        self.board.set_switches(self._crossings(occupancy(squares)))

    def _crossings(self, squares: frozenset[int]) -> int:
        """The crossing mask of these squares' reed switches, as the board is wired."""
        return sum(1 << self.wiring[square - 1] for square in squares)

    def _led_label(self, index: int) -> tuple[int, str] | None:
        """The LED at strip index ``index``: its square as the strip is laid, or status LED."""
        if index >= SQUARE_LEDS:
            return index, f"s{index - SQUARE_LEDS + 1}"
        square = self.strip.index(index) + 1
        return None if square in self.dead_leds else (square, str(square))

    def press_lever(self, side: str) -> None:
        """Press a lever and release it ``LEVER_HOLD_S`` later."""
        bit = LEVER_BITS[side]
        self.board.set_levers(self.board.levers | bit)
        timer = threading.Timer(LEVER_HOLD_S, self._release_lever, args=(bit,))
        timer.daemon = True
        timer.start()

    def _release_lever(self, bit: int) -> None:
        self.board.set_levers(self.board.levers & ~bit)

    def stall(self, seconds: float) -> None:
        """Stop reading the board's output for ``seconds``: a host holding the port unread."""
        if self.board.interpreter != "micropython":
            raise ValueError(NEEDS_MICROPYTHON.format("stall"))
        self.board.stalled = True
        timer = threading.Timer(seconds, setattr, args=(self.board, "stalled", False))
        timer.daemon = True
        timer.start()

    def describe_leds(self) -> str:
        """The LEDs: as the host sent them (cpython) or as the strip shows them (micropython)."""
        return self.board.describe_leds(self._led_label)

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
            if not 1 <= len(args) <= 2 or args[1:] not in ([], ["in"], ["out"], ["both"]):
                raise ValueError("usage: noise PERCENT [in|out|both]")
            try:
                percent = float(args[0])
            except ValueError:
                raise ValueError(f"{args[0]!r} is not a percentage") from None
            if not 0 <= percent <= 100:
                raise ValueError(f"noise {percent} must be between 0 and 100 percent")
            direction = args[1] if len(args) == 2 else "out"
            if direction in ("out", "both"):
                self.noise = percent / 100
            if direction in ("in", "both"):
                self.noise_in = percent / 100
        elif name == "disconnect":
            if len(args) > 1:
                raise ValueError("usage: disconnect [SECONDS]")
            self.disconnect(_seconds(args[0], name) if args else 1.0)
        elif name == "stall":
            if len(args) != 1:
                raise ValueError("usage: stall SECONDS")
            self.stall(_seconds(args[0], name))
        elif name == "diode":
            self.board.set_missing_diodes(self._crossings(parse_squares(args)))
        elif name in ("crash", "hang"):
            if args:
                raise ValueError(f"usage: {name}")
            self.board.inject(name)
        elif name == "reset":
            self.reset()
        elif name == "leds":
            return self.describe_leds()
        else:
            raise ValueError(f"unknown command {name!r}; try place, lift, set, lever, leds, quit")
        return "ok"
