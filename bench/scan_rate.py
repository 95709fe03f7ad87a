"""Full scans a second of the reed-matrix scan loop, against the simulated RPi.GPIO.

    .venv/bin/python bench/scan_rate.py [--seconds 3]

Prints, with the start position on the board:
  * the bare loop (scan + debounce/fault logic, no settle time, no pacing) on SimGPIO, and on a
    constant-answer GPIO stub that isolates the loop's own cost from the simulation's;
  * the GPIO calls per scan and what one simulated call costs;
  * the MatrixSensor thread as configured (rate_hz 250, settle 50 us) and unpaced with settle 50 us;
  * the bare loop on a stand-in that charges what rpi-lgpio's calls cost on a Pi 5 (LGPIO_COST_US:
    a setup() is a kernel line request, about 6,000 a second; input()/output() one ioctl each),
    with every scan open-drain (the old way: 16 setup() calls a scan) and as shipped (rows
    driven with output(), an open-drain diagnosis every 25th scan).
The goal is at least 200 full scans a second. On a Pi the real module replaces the simulation.
"""

from __future__ import annotations

import argparse
import platform
import time

from hardware.config import MatrixPins, ScanSettings
from hardware.matrix import MatrixMonitor, MatrixScanner, MatrixSensor
from hardware.sim_gpio import SimGPIO, SimReedBoard

PINS = MatrixPins.from_mapping(
    {
        "rows": [4, 17, 27, 22, 5, 6, 13, 26],
        "columns": [23, 24, 25, 12],
        "levers": {"black": 16, "white": 20},
    }
)
START = set(range(1, 13)) | set(range(21, 33))


class StubGPIO(SimGPIO):
    """Answers every call at once (inputs read high): the scan loop's cost without a circuit."""

    calls = 0

    def setup(self, channel, direction, pull_up_down=None, initial=None) -> None:
        self.calls += 1

    def input(self, channel: int) -> int:
        self.calls += 1
        return 1

    def output(self, channel, value) -> None:
        self.calls += 1


#: Microseconds charged per call by LgpioCostGPIO: setup() from ~6,000 line requests a second
#: on a Pi 5; input()/output() as one GPIO ioctl plus rpi-lgpio's Python wrapper (an estimate).
LGPIO_COST_US = {"setup": 165.0, "input": 4.0, "output": 4.0}


def _spend(microseconds: float) -> None:
    end = time.perf_counter() + microseconds / 1e6
    while time.perf_counter() < end:
        pass


class LgpioCostGPIO(SimGPIO):
    """Answers like StubGPIO, but takes as long as rpi-lgpio's calls do (LGPIO_COST_US)."""

    calls = 0

    def setup(self, channel, direction, pull_up_down=None, initial=None) -> None:
        self.calls += 1
        _spend(LGPIO_COST_US["setup"])

    def input(self, channel: int) -> int:
        self.calls += 1
        _spend(LGPIO_COST_US["input"])
        return 1

    def output(self, channel, value) -> None:
        self.calls += 1
        _spend(LGPIO_COST_US["output"])


class CountingGPIO(SimGPIO):
    """SimGPIO that counts the calls a scan makes."""

    calls = 0

    def setup(self, channel, direction, pull_up_down=None, initial=None) -> None:
        self.calls += 1
        super().setup(channel, direction, pull_up_down, initial)

    def input(self, channel: int) -> int:
        self.calls += 1
        return super().input(channel)

    def output(self, channel, value) -> None:
        self.calls += 1
        super().output(channel, value)


def bare_loop(
    gpio: SimGPIO, seconds: float, diagnose_every: int = 25
) -> tuple[float, float, float]:
    """Scans a second, microseconds per scan, GPIO calls per scan for back-to-back scans."""
    SimReedBoard(gpio, PINS).set_pieces(START)
    scanner = MatrixScanner(gpio, PINS, settle_s=0, diagnose_every=diagnose_every)
    scanner.open()
    monitor = MatrixMonitor(ScanSettings(), scanner.lever_sides)
    gpio.calls = 0
    scans = 0
    started = time.perf_counter()
    while (now := time.perf_counter()) - started < seconds:
        monitor.feed(scanner.scan(), now)
        scans += 1
    elapsed = time.perf_counter() - started
    return scans / elapsed, elapsed / scans * 1e6, gpio.calls / scans


def sim_call_cost(calls: int = 20_000) -> tuple[float, float]:
    """Microseconds per SimGPIO input() with the circuit solved, and per setup()+input() pair."""
    gpio = SimGPIO()
    SimReedBoard(gpio, PINS).set_pieces(START)
    gpio.setmode(gpio.BCM)
    gpio.setup([*PINS.rows, *PINS.columns], gpio.IN, pull_up_down=gpio.PUD_UP)
    started = time.perf_counter()
    for _ in range(calls):
        gpio.input(23)
    cached = (time.perf_counter() - started) / calls * 1e6
    started = time.perf_counter()
    for _ in range(calls // 10):
        gpio.setup(4, gpio.OUT, initial=gpio.LOW)
        gpio.input(23)
    solved = (time.perf_counter() - started) / (calls // 10) * 1e6
    return cached, solved


def threaded(settings: ScanSettings, seconds: float) -> float:
    """Scans a second the MatrixSensor thread achieves."""
    gpio = SimGPIO()
    SimReedBoard(gpio, PINS).set_pieces(START)
    sensor = MatrixSensor(PINS, settings, gpio=gpio)
    time.sleep(0.2)
    before, started = sensor.scans, time.perf_counter()
    time.sleep(seconds)
    rate = (sensor.scans - before) / (time.perf_counter() - started)
    sensor.close()
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    rate, us, calls = bare_loop(CountingGPIO(), args.seconds)
    print(
        f"bare loop, SimGPIO:      {rate:8.0f} scans/s  {us:7.1f} us/scan  {calls:.0f} calls/scan"
    )
    rate, us, calls = bare_loop(StubGPIO(), args.seconds)
    print(
        f"bare loop, stub GPIO:    {rate:8.0f} scans/s  {us:7.1f} us/scan  {calls:.0f} calls/scan"
    )
    cached, solved = sim_call_cost()
    print(f"SimGPIO input(): {cached:.2f} us; setup() + input() with a re-solve: {solved:.1f} us")
    for label, every in (("every scan open-drain", 1), ("as shipped (1 in 25)", 25)):
        rate, us, calls = bare_loop(LgpioCostGPIO(), args.seconds, diagnose_every=every)
        print(
            f"rpi-lgpio costs, {label}: {rate:6.0f} scans/s  {us:7.1f} us/scan"
            f"  {calls:.1f} calls/scan"
        )
    rate = threaded(ScanSettings(), args.seconds)
    print(f"MatrixSensor thread, rate_hz 250, settle 50 us: {rate:6.0f} scans/s")
    rate = threaded(ScanSettings(rate_hz=5000), args.seconds)
    print(f"MatrixSensor thread, unpaced,     settle 50 us: {rate:6.0f} scans/s")


if __name__ == "__main__":
    main()
