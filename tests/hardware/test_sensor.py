"""MatrixSensor end to end: the scan thread, the Sensor protocol, the gpio: spec and the CLI."""

from __future__ import annotations

import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

import hardware
from engine.color import Color
from engine.sensing import LeverPress, Sensor, Snapshot
from hardware.config import MatrixPins, ScanSettings
from hardware.gpio import GPIOUnavailable, load_rpi_gpio
from hardware.matrix import MatrixSensor, sensor_from_spec
from hardware.sim_gpio import SimGPIO, SimReedBoard
from hardware.spi_leds import LedLayout
from poolboard.sensor_spec import SensorSpecError

BOARD_FILE = """\
[matrix]
rows = [4, 17, 27, 22, 5, 6, 13, 26]
columns = [23, 24, 25, 12]
levers = { black = 16, white = 20 }

[scan]
rate_hz = 250
"""


def next_of(sensor: Sensor, kind: type, timeout: float = 2.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = sensor.read(timeout=0.05)
        if isinstance(event, kind):
            return event
    raise AssertionError(f"no {kind.__name__} within {timeout} s")


def test_the_scan_thread_reports_through_read(pin_table) -> None:
    pins = MatrixPins.from_mapping(pin_table)
    gpio = SimGPIO()
    board = SimReedBoard(gpio, pins)
    board.set_pieces({1, 2, 3})
    with MatrixSensor(pins, ScanSettings(settle_us=0), gpio=gpio) as sensor:
        assert isinstance(sensor, Sensor)
        assert next_of(sensor, Snapshot).occupied == {1, 2, 3}
        board.place(18)
        assert next_of(sensor, Snapshot).occupied == {1, 2, 3, 18}
        board.press(Color.WHITE)
        assert next_of(sensor, LeverPress).side is Color.WHITE
        assert sensor.read(timeout=0.05) is None
    assert all(gpio.configured(pin) is None for pin in [*pins.rows, *pins.columns])


def test_from_mapping_reads_a_board_file() -> None:
    gpio = SimGPIO()
    sensor = MatrixSensor.from_mapping(tomllib.loads(BOARD_FILE), gpio=gpio)
    try:
        assert sensor.settings.rate_hz == 250
        assert isinstance(next_of(sensor, Snapshot), Snapshot)
    finally:
        sensor.close()
    with pytest.raises(ValueError, match="board file: unknown key 'matrx'"):
        MatrixSensor.from_mapping({"matrx": {}}, gpio=gpio)


def test_gpio_spec_without_rpi_gpio_says_what_to_install(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text(BOARD_FILE)
    with pytest.raises(SensorSpecError, match=r"poolboard\[gpio\].*poolboard\[gpio-pi5\]"):
        sensor_from_spec(str(path))


def test_gpio_spec_errors_name_the_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text(BOARD_FILE.replace("[4, 17,", "[4, 99,"))
    with pytest.raises(SensorSpecError, match=r"board\.toml: matrix\.rows\[1\]"):
        sensor_from_spec(str(path))
    path.write_text("[matrix\n")
    with pytest.raises(SensorSpecError, match=r"board\.toml"):
        sensor_from_spec(str(path))
    with pytest.raises(SensorSpecError, match="needs a board file"):
        sensor_from_spec("")
    with pytest.raises(OSError):
        sensor_from_spec(str(tmp_path / "absent.toml"))


def test_monitor_cli_reports_a_bad_board_file_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text(BOARD_FILE.replace("columns", "colums"))
    result = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "monitor", "--sensor", f"gpio:{path}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "unknown key 'colums'" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_example_board_file_is_valid() -> None:
    table = tomllib.loads((Path(hardware.__file__).parent / "board.example.toml").read_text())
    with MatrixSensor.from_mapping(table, gpio=SimGPIO()) as sensor:
        assert sensor.settings == ScanSettings()
    assert LedLayout.from_mapping(table["leds"]).count == 35


def test_a_gpio_library_failing_in_an_unwritable_cwd_is_explained(tmp_path, monkeypatch) -> None:
    """lgpio (rpi-lgpio, Pi 5) opens a notification file in the cwd at import; under systemd
    without a WorkingDirectory that is /, and the import dies with FileNotFoundError. This
    stand-in module fails the same way (the real one needs a Pi's GPIO chip)."""
    package = tmp_path / "lib" / "RPi"
    (package / "GPIO").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "GPIO" / "__init__.py").write_text('open(".lgd-nfy-3", "rb")\n')
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    monkeypatch.delitem(sys.modules, "RPi", raising=False)
    monkeypatch.delitem(sys.modules, "RPi.GPIO", raising=False)
    empty = tmp_path / "run"
    empty.mkdir()
    monkeypatch.chdir(empty)
    with pytest.raises(GPIOUnavailable, match=r"must be writable.*WorkingDirectory"):
        load_rpi_gpio()
