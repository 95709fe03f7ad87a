"""A simulated RPi.GPIO module and a simulated reed-switch board wired to it, for tests and benches.

:class:`SimGPIO` keeps the real module's contract (BCM numbering; ``setmode`` before ``setup``,
``setup`` before ``input``/``output``; the same ``RuntimeError``/``ValueError`` messages; pulls;
``cleanup``) and works out each pin's level from the circuit wired to it: outputs drive hard,
pull-ups and pull-downs weakly, and current flows only where the parts let it. :class:`SimReedBoard`
is such a circuit: one reed switch and diode per square, plus the two lever buttons. Tests drive it
by hand, like gpiozero's mock pins::

    gpio = SimGPIO()
    board = SimReedBoard(gpio, pins)
    board.place(9, 14)        # pieces on squares 9 and 14
    board.remove_diode(18)    # a diode left out: ghosts appear on rectangles of closed switches
    board.stick(3)            # a welded reed switch, closed whatever sits on it
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from engine.color import Color
from engine.sensing import occupancy
from hardware.config import MatrixPins

GROUND = -1  # the node every button and grounded part connects to

_MODE_NOT_SET = (
    "Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or GPIO.setmode(GPIO.BCM)"
)


class Part(Protocol):
    """Something wired to the simulated pins: lists which way current can flow through it now."""

    def conduction(self) -> Iterable[tuple[int, int]]:
        """Pairs ``(a, b)``: current can flow from node ``a`` to ``b`` (GPIO numbers, GROUND)."""
        ...


@dataclass(slots=True)
class _Pin:
    direction: int
    pull: int
    level: int  # what an output drives


class SimGPIO:
    """A stand-in for ``RPi.GPIO`` (pass it where a device takes ``gpio=``); never the default.

    ``shorts`` lists (output driven high, node driven low) pairs that were ever connected, and
    ``floating_reads`` counts reads of an input nothing pulls either way (its value is random).
    """

    BOARD = 10
    BCM = 11
    OUT = 0
    IN = 1
    LOW = 0
    HIGH = 1
    PUD_OFF = 20
    PUD_DOWN = 21
    PUD_UP = 22

    def __init__(self, seed: int = 0) -> None:
        self._mode: int | None = None
        self._pins: dict[int, _Pin] = {}
        self._parts: list[Part] = []
        self._levels: dict[int, int | None] | None = None
        self._lock = threading.RLock()
        self._random = random.Random(seed)
        self.warnings = True
        self.shorts: set[tuple[int, int]] = set()
        self.floating_reads = 0

    # -- the RPi.GPIO API ---------------------------------------------------------------------

    def setmode(self, mode: int) -> None:
        """Choose the numbering; only BCM is modelled."""
        if self._mode is not None and mode != self._mode:
            raise ValueError("A different mode has already been set!")
        if mode == self.BOARD:
            raise NotImplementedError("SimGPIO models BCM numbering only")
        if mode != self.BCM:
            raise ValueError("An invalid mode was passed to setmode()")
        self._mode = mode

    def getmode(self) -> int | None:
        """The numbering set with :meth:`setmode`, or ``None``."""
        return self._mode

    def setwarnings(self, flag: bool) -> None:
        """Kept for the API; the simulation prints no warnings."""
        self.warnings = bool(flag)

    def setup(
        self,
        channel: int | Iterable[int],
        direction: int,
        pull_up_down: int | None = None,
        initial: int | None = None,
    ) -> None:
        """Make channels inputs (with an optional pull) or outputs (with an optional level)."""
        if direction == self.OUT:
            if pull_up_down is not None:
                raise ValueError("pull_up_down parameter is not valid for outputs")
        elif direction == self.IN:
            if initial is not None:
                raise ValueError("initial parameter is not valid for inputs")
            if pull_up_down is None:
                pull_up_down = self.PUD_OFF
            if pull_up_down not in (self.PUD_OFF, self.PUD_UP, self.PUD_DOWN):
                raise ValueError(
                    "Invalid value for pull_up_down - should be either PUD_OFF, PUD_UP or PUD_DOWN"
                )
        else:
            raise ValueError("An invalid direction was passed to setup()")
        with self._lock:
            for gpio in self._channels(channel):
                held = self._pins.get(gpio)
                if direction == self.OUT:
                    level = held.level if initial is None and held else int(bool(initial))
                    self._pins[gpio] = _Pin(self.OUT, self.PUD_OFF, level)
                else:
                    self._pins[gpio] = _Pin(self.IN, int(pull_up_down or self.PUD_OFF), 0)
            self._levels = None

    def input(self, channel: int) -> int:
        """The level on a set-up channel: 0 or 1 (an output reads back what it drives)."""
        with self._lock:
            (gpio,) = self._channels(channel)
            pin = self._pins.get(gpio)
            if pin is None:
                raise RuntimeError("You must setup() the GPIO channel first")
            if pin.direction == self.OUT:
                return pin.level
            level = self._solve()[gpio]
            if level is None:
                self.floating_reads += 1
                return self._random.randint(0, 1)
            return level

    def output(
        self, channel: int | Iterable[int], value: int | bool | Iterable[int | bool]
    ) -> None:
        """Drive output channels; one value for all, or one value per channel."""
        with self._lock:
            gpios = self._channels(channel)
            values = [int(bool(v)) for v in value] if isinstance(value, Iterable) else [value]
            if len(values) == 1 and len(gpios) > 1:
                values = values * len(gpios)
            if len(values) != len(gpios):
                raise RuntimeError("Number of channels != number of values")
            for gpio, level in zip(gpios, values, strict=True):
                pin = self._pins.get(gpio)
                if pin is None or pin.direction != self.OUT:
                    raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
                pin.level = int(bool(level))
            self._levels = None

    def cleanup(self, chanlist: int | Iterable[int] | None = None) -> None:
        """Unconfigure channels (all, if none given; then the mode is forgotten too)."""
        with self._lock:
            if chanlist is None:
                self._pins.clear()
                self._mode = None
            else:
                for gpio in self._channels(chanlist):
                    self._pins.pop(gpio, None)
            self._levels = None

    # -- the simulation side ------------------------------------------------------------------

    def attach(self, part: Part) -> None:
        """Wire a part (a board, a button) to the pins."""
        with self._lock:
            self._parts.append(part)
            self._levels = None

    def changed(self) -> None:
        """A part changed state (a switch closed): pin levels must be worked out again."""
        with self._lock:
            self._levels = None

    def configured(self, gpio: int) -> tuple[int, int] | None:
        """``(direction, pull)`` of a set-up channel, or ``None``: what a device left it as."""
        with self._lock:
            pin = self._pins.get(gpio)
            return None if pin is None else (pin.direction, pin.pull)

    def _channels(self, channel: int | Iterable[int]) -> list[int]:
        if self._mode is None:
            raise RuntimeError(_MODE_NOT_SET)
        gpios = list(channel) if isinstance(channel, Iterable) else [channel]
        for gpio in gpios:
            if not isinstance(gpio, int) or not 0 <= gpio < 54:
                raise ValueError("The channel sent is invalid on a Raspberry Pi")
        return gpios

    def _solve(self) -> dict[int, int | None]:
        """Every set-up input's level: hard drivers first, then pulls, else floating (None)."""
        if self._levels is not None:
            return self._levels
        forward: dict[int, list[int]] = {}
        backward: dict[int, list[int]] = {}
        for part in self._parts:
            for a, b in part.conduction():
                forward.setdefault(a, []).append(b)
                backward.setdefault(b, []).append(a)
        outputs = {g: p.level for g, p in self._pins.items() if p.direction == self.OUT}
        hard_low = _reach([GROUND, *(g for g, lv in outputs.items() if lv == 0)], backward)
        hard_high = _reach([g for g, lv in outputs.items() if lv == 1], forward)
        for gpio, level in outputs.items():
            if level == 1 and gpio in hard_low:
                self.shorts.add((gpio, _first_low(gpio, forward, outputs)))
        pulled_up = {g for g, p in self._pins.items() if p.pull == self.PUD_UP}
        pulled_down = {g for g, p in self._pins.items() if p.pull == self.PUD_DOWN}
        weak_high = _reach(list(pulled_up), forward)
        weak_low = _reach(list(pulled_down), backward)
        levels: dict[int, int | None] = {}
        for gpio, pin in self._pins.items():
            if pin.direction == self.OUT:
                continue
            if gpio in hard_low:
                levels[gpio] = 0
            elif gpio in hard_high:
                levels[gpio] = 1
            elif pin.pull != self.PUD_OFF:
                levels[gpio] = 1 if pin.pull == self.PUD_UP else 0
            elif gpio in weak_high or gpio in weak_low:
                levels[gpio] = 1 if gpio in weak_high else 0
            else:
                levels[gpio] = None
        self._levels = levels
        return levels


def _reach(starts: list[int], edges: dict[int, list[int]]) -> set[int]:
    seen = set(starts)
    stack = list(starts)
    while stack:
        for nxt in edges.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def _first_low(start: int, forward: dict[int, list[int]], outputs: dict[int, int]) -> int:
    """The low node a high output reaches (for the ``shorts`` record)."""
    for node in sorted(_reach([start], forward)):
        if node == GROUND or outputs.get(node) == 0:
            return node
    return GROUND


class SimReedBoard:
    """A reed-switch board wired to a :class:`SimGPIO` as ``pins`` says.

    Each square has a reed switch in series with a diode between its column (anode side) and its
    row (cathode side); levers are buttons from their GPIO to ground.
    """

    def __init__(self, gpio: SimGPIO, pins: MatrixPins) -> None:
        self.gpio = gpio
        self.pins = pins
        self.pieces: set[int] = set()
        self.missing_diodes: set[int] = set()
        self.stuck: dict[int, bool] = {}
        self.pressed: set[Color] = set()
        gpio.attach(self)

    def place(self, *squares: int) -> None:
        """Put pieces (magnets) on squares."""
        self.pieces |= occupancy(squares)
        self.gpio.changed()

    def lift(self, *squares: int) -> None:
        """Take pieces off squares."""
        self.pieces -= occupancy(squares)
        self.gpio.changed()

    def set_pieces(self, squares: Iterable[int]) -> None:
        """Exactly these squares hold pieces."""
        self.pieces = set(occupancy(squares))
        self.gpio.changed()

    def remove_diode(self, square: int) -> None:
        """Leave a square's diode out (or short it): its switch then conducts both ways."""
        self.missing_diodes |= occupancy([square])
        self.gpio.changed()

    def stick(self, square: int, closed: bool = True) -> None:
        """Weld a square's switch closed (or break it open), whatever stands on the square."""
        self.stuck[min(occupancy([square]))] = closed
        self.gpio.changed()

    def press(self, side: Color) -> None:
        """Hold a clock lever down."""
        self.pressed.add(side)
        self.gpio.changed()

    def release(self, side: Color) -> None:
        """Let a clock lever go."""
        self.pressed.discard(side)
        self.gpio.changed()

    def is_closed(self, square: int) -> bool:
        """Whether a square's reed switch conducts now."""
        return self.stuck.get(square, square in self.pieces)

    def conduction(self) -> Iterable[tuple[int, int]]:
        """Column -> row through each closed switch; also row -> column where a diode is missing."""
        for square, (row, column) in self.pins.square_map.items():
            if self.is_closed(square):
                yield self.pins.columns[column], self.pins.rows[row]
                if square in self.missing_diodes:
                    yield self.pins.rows[row], self.pins.columns[column]
        for side in self.pressed:
            pin = self.pins.levers.get(side)
            if pin is not None:
                yield pin, GROUND
