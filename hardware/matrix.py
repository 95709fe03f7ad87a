"""The reed-switch matrix on the Pi's GPIO as a :class:`engine.sensing.Sensor`.

Three layers, gpiozero-style: :class:`MatrixScanner` drives the pins for one full scan and says
what it read; :class:`MatrixMonitor` turns scans into events (debounce, ghosts, stuck and
flickering squares, lever presses) and touches no hardware; :class:`MatrixSensor` runs both in a
thread at ``ScanSettings.rate_hz`` and queues the events. ``sensor_from_spec("board.toml")`` is
what ``--sensor gpio:board.toml`` opens.

Rows are claimed as outputs once and idle driven high; a scan drives one row low at a time with
``output()``, which the diodes make safe (a closed switch in an idle row is reverse-biased). That
costs two cheap calls a row instead of re-requesting the line with ``setup()``, a kernel line
request on a Pi 5's rpi-lgpio. Every ``diagnose_every`` scans, on the scan after any change, and
on every scan while a diode fault is known, the scan is open-drain instead: the row being read is
driven low, every other row an input with its pull-up. A row that then reads low can only be
current flowing backwards through a switch: its diode is missing or shorted. A missing diode
found that way switches the scanner to open-drain scans until it has gone unseen for a while, so
an output driven high never stays connected to one driven low.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.color import Color
from engine.geometry import square_set
from engine.phrase import Phrase
from engine.sensing import LeverPress, SensorEvent, SensorFault, SensorSpecError, Snapshot
from hardware.config import (
    MatrixPins,
    ScanSettings,
    busy_gpios,
    check_keys,
    load_toml,
    section,
)
from hardware.debounce import Debouncer
from hardware.faults import FaultLatch, FlickerWatch, StuckWatch
from hardware.gpio import GPIOModule, GPIOUnavailable, load_rpi_gpio


@dataclass(frozen=True, slots=True)
class Leak:
    """Row ``source`` read low while row ``driven`` was driven: a diode in ``source`` is missing.

    ``suspects`` are the closed switches whose diode may be the missing one; ``doubtful`` the
    readings in the driven row that the leak could fake (ghosts).
    """

    driven: int
    source: int
    suspects: int  # square mask
    doubtful: int  # square mask


@dataclass(frozen=True, slots=True)
class Reading:
    """One full scan: squares that read closed (bit s-1 for square s), levers held, leaks seen."""

    occupied: int
    levers: int  # bit i: the i-th side of MatrixPins.levers is pressed
    leaks: tuple[Leak, ...] = ()


class MatrixScanner:
    """Reads every crossing of the matrix once per :meth:`scan`.

    Wiring: each square is a reed switch in series with a 1N4148 (band toward the row) from a
    column GPIO to a row GPIO; columns and levers use the Pi's pull-ups; a lever shorts its GPIO
    to ground. Example::

        scanner = MatrixScanner(gpio, pins)
        scanner.open()
        reading = scanner.scan()
    """

    def __init__(
        self,
        gpio: GPIOModule,
        pins: MatrixPins,
        settle_s: float = 50e-6,
        sleep: Callable[[float], object] = time.sleep,
        diagnose_every: int = 25,
        leak_hold_scans: int = 500,
    ) -> None:
        self.gpio = gpio
        self.pins = pins
        self.settle_s = settle_s
        self.diagnose_every = diagnose_every
        self.leak_hold_scans = leak_hold_scans
        self._sleep = sleep
        self.scans = 0
        self.diagnostic_scans = 0
        self._last_occupied: int | None = None
        self._open_drain_until = 0  # scan count up to which every scan is open-drain
        self.lever_sides: tuple[Color, ...] = tuple(pins.levers)
        self._cells: list[list[int]] = [[0] * len(pins.columns) for _ in pins.rows]
        for square, (row, column) in pins.square_map.items():
            self._cells[row][column] = 1 << (square - 1)
        self._row_bits = [0] * len(pins.rows)  # last reading of each row, as a column mask

    @property
    def all_pins(self) -> list[int]:
        """Every GPIO this scanner uses."""
        return [*self.pins.rows, *self.pins.columns, *self.pins.levers.values()]

    def open(self) -> None:
        """Claim the pins: BCM numbering, columns and levers inputs with pull-ups, rows outputs
        driven high (idle)."""
        gpio = self.gpio
        gpio.setmode(gpio.BCM)
        inputs = [*self.pins.columns, *self.pins.levers.values()]
        gpio.setup(inputs, gpio.IN, pull_up_down=gpio.PUD_UP)
        gpio.setup(list(self.pins.rows), gpio.OUT, initial=gpio.HIGH)

    def close(self) -> None:
        """Release this scanner's pins (and only them)."""
        self.gpio.cleanup(self.all_pins)

    def scan(self) -> Reading:
        """Drive each row low in turn and read the columns; open-drain, checking the other rows
        for leaks, when a diagnosis is due (see the module docstring)."""
        self.scans += 1
        diagnose = (
            self.scans % self.diagnose_every == 1 % self.diagnose_every
            or self.scans <= self._open_drain_until
        )
        reading = self._scan_open_drain() if diagnose else self._scan_driven()
        if not diagnose and reading.occupied != self._last_occupied:
            reading = self._scan_open_drain()  # a change: is it real, or a ghost of a leak?
        if reading.leaks:
            self._open_drain_until = self.scans + self.leak_hold_scans
        self._last_occupied = reading.occupied
        return reading

    def _scan_driven(self) -> Reading:
        """Idle rows driven high; two ``output()`` calls a row, no line re-requested."""
        gpio = self.gpio
        occupied = 0
        for r, row in enumerate(self.pins.rows):
            gpio.output(row, gpio.LOW)
            bits = self._closed_columns()
            gpio.output(row, gpio.HIGH)
            self._row_bits[r] = bits
            occupied |= self._row_squares(r, bits)
        return Reading(occupied, self._read_levers())

    def _scan_open_drain(self) -> Reading:
        """Idle rows pulled-up inputs, read back: an idle row reading low is a leak."""
        self.diagnostic_scans += 1
        gpio = self.gpio
        read = gpio.input
        rows = list(self.pins.rows)
        row_bits = self._row_bits
        occupied = 0
        leaks: list[Leak] = []
        gpio.setup(rows, gpio.IN, pull_up_down=gpio.PUD_UP)
        for r, row in enumerate(rows):
            gpio.setup(row, gpio.OUT, initial=gpio.LOW)
            bits = self._closed_columns()
            row_bits[r] = bits
            if bits:
                for other_index, other in enumerate(rows):
                    if other_index != r and row_bits[other_index] & bits and not read(other):
                        leaks.append(self._leak(r, other_index))
            gpio.setup(row, gpio.IN, pull_up_down=gpio.PUD_UP)
            occupied |= self._row_squares(r, bits)
        gpio.setup(rows, gpio.OUT, initial=gpio.HIGH)
        return Reading(occupied, self._read_levers(), tuple(leaks))

    def _closed_columns(self) -> int:
        """With one row driven low, after the settle time: the columns reading low (a closed
        reed between them and that row), as bits."""
        if self.settle_s:
            self._sleep(self.settle_s)
        read = self.gpio.input
        bits = 0
        for c, column in enumerate(self.pins.columns):
            if not read(column):
                bits |= 1 << c
        return bits

    def _row_squares(self, row: int, bits: int) -> int:
        cells = self._cells[row]
        occupied = 0
        while bits:
            low = bits & -bits
            bits ^= low
            occupied |= cells[low.bit_length() - 1]
        return occupied

    def _read_levers(self) -> int:
        levers = 0
        for i, side in enumerate(self.lever_sides):
            if not self.gpio.input(self.pins.levers[side]):
                levers |= 1 << i
        return levers

    def _leak(self, driven: int, source: int) -> Leak:
        shared = self._row_bits[driven] & self._row_bits[source]
        suspects = self._squares(source, shared)
        doubtful_columns = self._row_bits[source]
        if shared & (shared - 1) == 0:  # one shared column: its own reading made the leak
            doubtful_columns &= ~shared
        return Leak(driven, source, suspects, self._squares(driven, doubtful_columns))

    def _squares(self, row: int, columns: int) -> int:
        cells = self._cells[row]
        return sum(cells[c] for c in range(len(cells)) if columns >> c & 1)


class MatrixMonitor:
    """Turns readings into sensor events; pure logic, fed by hand in tests.

    Snapshots carry settled occupancy only; a square whose reading a leak could fake keeps its
    last settled value, so a ghost never reaches a Snapshot.
    """

    def __init__(self, settings: ScanSettings, lever_sides: tuple[Color, ...] = ()) -> None:
        self.settings = settings
        self.lever_sides = lever_sides
        self.squares = Debouncer(32, settings.debounce_scans, settings.debounce_ms / 1000)
        self.levers = Debouncer(
            len(lever_sides), settings.debounce_scans, settings.lever_debounce_ms / 1000
        )
        self.stuck = StuckWatch(settings.stuck_changes)
        self.flicker = FlickerWatch(settings.flicker_toggles, settings.flicker_window_s)
        self.leaks = FaultLatch(hold=settings.flicker_window_s)
        self._reported: int | None = None
        self._raw: int | None = None

    def feed(self, reading: Reading, t: float) -> list[SensorEvent]:
        """Events caused by one reading taken at ``t`` (seconds, monotonic)."""
        events: list[SensorEvent] = []
        doubtful = 0
        suspects = 0
        for leak in reading.leaks:
            doubtful |= leak.doubtful
            suspects |= leak.suspects
        if self.leaks.update(square_set(suspects | doubtful), t):
            events.append(_diode_fault(t, suspects, doubtful))
        if self._raw is not None:
            flickering = self.flicker.update((reading.occupied ^ self._raw) & ~doubtful, t)
            if flickering:
                said = Phrase(
                    "{squares} keep flickering: a piece off-centre, a weak magnet or a loose wire",
                    squares=_names(flickering),
                )
                events.append(SensorFault.worded(t, said, square_set(flickering)))
        self._raw = reading.occupied
        before = self.squares.stable
        if self.squares.update(reading.occupied, t, trusted=~doubtful & self.squares.full):
            events.extend(self._settled(before, t))
        events.extend(self._lever_presses(reading.levers, t))
        return events

    def _settled(self, before: int, t: float) -> list[SensorEvent]:
        stable = self.squares.stable
        if not self.squares.settled or stable == self._reported:
            return []
        events: list[SensorEvent] = [Snapshot(t, square_set(stable))]
        if self._reported is not None:
            stuck = self.stuck.update(stable ^ before)
            for square in square_set(stuck):
                said = (
                    Phrase(
                        "square {square} always reads occupied while every other square has "
                        "changed: its reed switch is stuck or its wiring broken",
                        square=square,
                    )
                    if stable >> (square - 1) & 1
                    else Phrase(
                        "square {square} always reads empty while every other square has "
                        "changed: its reed switch is stuck or its wiring broken",
                        square=square,
                    )
                )
                events.append(SensorFault.worded(t, said, frozenset({square})))
        self._reported = stable
        return events

    def _lever_presses(self, raw: int, t: float) -> list[SensorEvent]:
        if not self.lever_sides:
            return []
        was_known, was_down = self.levers.known, self.levers.stable
        if not self.levers.update(raw, t):
            return []
        pressed = self.levers.stable & ~was_down & was_known
        return [LeverPress(t, side) for i, side in enumerate(self.lever_sides) if pressed >> i & 1]


def _names(mask: int) -> Phrase:
    """The squares of ``mask`` named: "square 5", "squares 5, 9"."""
    squares = ", ".join(map(str, sorted(square_set(mask))))
    if mask & (mask - 1) == 0:
        return Phrase("square {square}", square=squares)
    return Phrase("squares {squares}", squares=squares)


def _diode_fault(t: float, suspects: int, doubtful: int) -> SensorFault:
    where = (
        _names(suspects)
        if suspects & (suspects - 1) == 0
        else Phrase("one of {squares}", squares=_names(suspects))
    )
    said = Phrase(
        "diode missing or shorted at {where} (current flows back through it)", where=where
    )
    if doubtful:
        said = Phrase(
            "{fault}; {squares} may show ghosts and are not trusted until it is fixed",
            fault=said,
            squares=_names(doubtful),
        )
    return SensorFault.worded(t, said, square_set(suspects | doubtful))


class MatrixSensor:
    """A reed-switch board on the Pi's own GPIO, scanned in a background thread.

    ``gpio`` is the RPi.GPIO module to use; by default the installed ``RPi.GPIO`` (or rpi-lgpio)
    is imported now. Example::

        sensor = MatrixSensor(MatrixPins.from_mapping(table["matrix"]))
        event = sensor.read(timeout=1.0)
        sensor.close()
    """

    def __init__(
        self,
        pins: MatrixPins,
        settings: ScanSettings | None = None,
        gpio: GPIOModule | None = None,
    ) -> None:
        self.settings = settings or ScanSettings()
        self.gpio = gpio if gpio is not None else load_rpi_gpio()
        self.scanner = MatrixScanner(self.gpio, pins, self.settings.settle_us / 1e6)
        self.monitor = MatrixMonitor(self.settings, self.scanner.lever_sides)
        self.scans = 0
        self._events: queue.Queue[SensorEvent] = queue.Queue()
        self._stop = threading.Event()
        try:
            self.scanner.open()
        except RuntimeError as error:  # not a Pi, no access to /dev/gpiomem, pins busy
            with contextlib.suppress(RuntimeError):
                self.scanner.close()
            raise GPIOUnavailable(f"cannot claim the matrix GPIOs: {error}") from None
        self._thread = threading.Thread(target=self._run, name="reed-matrix", daemon=True)
        self._thread.start()

    @classmethod
    def from_mapping(
        cls, config: Mapping[str, object], gpio: GPIOModule | None = None
    ) -> MatrixSensor:
        """Build from a board file's tables: ``[matrix]`` (pins), optional ``[scan]`` (timing).

        A ``[leds]`` table may sit in the same file; :mod:`hardware.spi_leds` reads it.
        """
        check_keys(config, "board file", ("matrix", "scan", "leds"))
        busy = busy_gpios(spi_leds="leds" in config)
        pins = MatrixPins.from_mapping(section(config, "matrix", "board file"), busy=busy)
        settings = ScanSettings.from_mapping(section(config, "scan", "board file"))
        return cls(pins, settings, gpio)

    def _run(self) -> None:
        period = 1.0 / self.settings.rate_hz
        due = time.monotonic()
        try:
            while not self._stop.is_set():
                t = time.monotonic()
                for event in self.monitor.feed(self.scanner.scan(), t):
                    self._events.put(event)
                self.scans += 1
                due += period
                delay = due - time.monotonic()
                if delay > 0:
                    self._stop.wait(delay)
                else:
                    due = time.monotonic()  # fell behind: do not try to catch up in a burst
        except Exception as error:  # report, never die silently: the tracker must know
            self._events.put(SensorFault(time.monotonic(), f"GPIO scanning stopped: {error}"))

    def read(self, timeout: float | None = None) -> SensorEvent | None:
        """The next event, waiting up to ``timeout`` seconds; ``None`` if nothing happened."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """Stop scanning and release the pins."""
        if not self._stop.is_set():
            self._stop.set()
            self._thread.join()
            self.scanner.close()

    def __enter__(self) -> MatrixSensor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def sensor_from_spec(argument: str) -> MatrixSensor:
    """Open the board described by the TOML file at ``argument`` (the ``gpio:PATH`` sensor spec)."""

    if not argument:
        raise SensorSpecError("gpio: needs a board file, e.g. gpio:/etc/poolboard/board.toml")
    try:
        return MatrixSensor.from_mapping(load_toml(argument))
    except GPIOUnavailable as error:
        raise SensorSpecError(f"gpio:{argument}: {error}") from None
    except ValueError as error:
        raise SensorSpecError(f"gpio:{argument}: {error}") from None
