"""The host's protocol and the firmware joined by a simulated wire, in virtual time.

:class:`VirtualLink` steps the firmware (firmware/app.py on hal_sim.SimHal) one scan period at a
time and hands every byte it writes, through a :class:`NoisyWire`, to a :class:`HostLink`, and
the host's bytes back the same way. Nothing waits on a real clock: an hour of a noisy link runs
in about a minute, the same every time for a given seed. Tests and bench/link_noise.py use it;
the pty tests cover the real port, the real thread and MicroPython.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.sensing import LinkHealth, SensorEvent
from firmware_bridge.firmware import config
from firmware_bridge.firmware.app import Firmware
from firmware_bridge.firmware.hal_sim import SimHal
from firmware_bridge.link import HostLink, LinkLost


class NoisyWire:
    """One direction of a cable: each byte is garbled (xor a random non-zero byte) with
    probability ``rate``, as the emulator's ``noise`` does."""

    def __init__(self, rate: float, rng: random.Random) -> None:
        self.rate = rate
        self.garbled = 0
        self._rng = rng

    def carry(self, data: bytes) -> bytes:
        if not self.rate:
            return data
        out = bytearray(data)
        for index in range(len(out)):
            if self._rng.random() < self.rate:
                out[index] ^= self._rng.randrange(1, 256)
                self.garbled += 1
        return bytes(out)


class VirtualLink:
    """A host and a board on a cable, stepped in virtual time; ``events`` is what the host
    reported. ``noise_in`` garbles host -> board bytes, ``noise_out`` board -> host bytes."""

    def __init__(
        self,
        *,
        noise_in: float = 0.0,
        noise_out: float = 0.0,
        seed: int = 0,
        settings: Any = config,
        **host: Any,
    ) -> None:
        rng = random.Random(seed)
        self.t = 0.0
        self.settings = settings
        self.to_board = NoisyWire(noise_in, rng)
        self.to_host = NoisyWire(noise_out, rng)
        self.events: list[SensorEvent] = []
        self.link_downs = 0
        self.stalled = False  # the host holds the port without reading it
        self.host = HostLink(self._emit, **host)
        self.host.opened("virtual")
        self._from_board = bytearray()
        self.hal = SimHal(now=lambda: self.t, output=self._board_wrote)
        self.firmware = Firmware(self.hal, settings)
        self.firmware.boot()

    def _emit(self, event: SensorEvent) -> None:
        if isinstance(event, LinkHealth) and not event.connected:
            self.link_downs += 1
        self.events.append(event)

    def _board_wrote(self, data: bytes) -> None:
        if not self.stalled:  # a stalled host's buffer is full: the board's write is lost
            self._from_board += self.to_host.carry(data)

    def reboot(self) -> None:
        """Restart the firmware (reset button, watchdog): same switches, uptime from 0."""
        switches, levers = self.hal.switches, self.hal.levers
        self.hal = SimHal(now=lambda: self.t, output=self._board_wrote)
        self.hal.switches, self.hal.levers = switches, levers
        self.firmware = Firmware(self.hal, self.settings)
        self.firmware.boot()

    def step(self) -> None:
        """One scan period: the board scans and reports, the host reads and answers."""
        self.firmware.step()
        data = bytes(self._from_board)
        self._from_board.clear()
        host = self.host
        try:
            if data:
                host.receive(data, self.t)
            out = host.poll(self.t)
        except LinkLost as error:
            host.lost(error.phrase, self.t)
            host.opened("virtual")
            out = b""
        if out:
            self.hal.feed(self.to_board.carry(out))
        self.t += self.settings.SCAN_PERIOD_MS / 1000

    def run(self, seconds: float) -> None:
        """Step for ``seconds`` of virtual time."""
        end = self.t + seconds
        while self.t < end:
            self.step()

    def run_until(self, done: Callable[[], bool], seconds: float = 10.0) -> bool:
        """Step until ``done()`` or ``seconds`` of virtual time have passed; whether it did."""
        end = self.t + seconds
        while not done():
            if self.t >= end:
                return False
            self.step()
        return True

    def press_lever(self, side: int) -> None:
        """Press a lever (bit 0 Black's, bit 1 White's) for 60 ms, then leave it up 60 ms."""
        self.hal.levers |= 1 << side
        self.run(0.06)
        self.hal.levers &= ~(1 << side)
        self.run(0.06)
