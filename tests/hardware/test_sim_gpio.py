"""The simulated RPi.GPIO keeps the real module's contract and wiring physics."""

from __future__ import annotations

import pytest

from engine.color import Color
from hardware.config import MatrixPins
from hardware.sim_gpio import SimGPIO, SimReedBoard


def test_setmode_is_required_before_setup() -> None:
    gpio = SimGPIO()
    with pytest.raises(RuntimeError, match="set pin numbering mode"):
        gpio.setup(4, gpio.IN)


def test_setup_is_required_before_input_and_output() -> None:
    gpio = SimGPIO()
    gpio.setmode(gpio.BCM)
    with pytest.raises(RuntimeError, match="You must setup"):
        gpio.input(4)
    gpio.setup(4, gpio.IN, pull_up_down=gpio.PUD_UP)
    with pytest.raises(RuntimeError, match="not been set up as an OUTPUT"):
        gpio.output(4, gpio.LOW)


def test_argument_checks_match_the_real_module() -> None:
    gpio = SimGPIO()
    gpio.setmode(gpio.BCM)
    with pytest.raises(ValueError, match="A different mode"):
        gpio.setmode(gpio.BOARD)
    with pytest.raises(ValueError, match="pull_up_down parameter is not valid for outputs"):
        gpio.setup(4, gpio.OUT, pull_up_down=gpio.PUD_UP)
    with pytest.raises(ValueError, match="initial parameter is not valid for inputs"):
        gpio.setup(4, gpio.IN, initial=gpio.HIGH)
    with pytest.raises(ValueError, match="invalid on a Raspberry Pi"):
        gpio.setup(99, gpio.IN)


def test_pulls_outputs_and_floating_inputs() -> None:
    gpio = SimGPIO()
    gpio.setmode(gpio.BCM)
    gpio.setup([5, 6], gpio.IN, pull_up_down=gpio.PUD_UP)
    gpio.setup(7, gpio.IN, pull_up_down=gpio.PUD_DOWN)
    gpio.setup(8, gpio.OUT, initial=gpio.HIGH)
    assert (gpio.input(5), gpio.input(6), gpio.input(7), gpio.input(8)) == (1, 1, 0, 1)
    gpio.output(8, 0)
    assert gpio.input(8) == 0
    assert gpio.floating_reads == 0
    gpio.setup(9, gpio.IN)
    gpio.input(9)
    assert gpio.floating_reads == 1


def test_cleanup_unconfigures_and_forgets_the_mode() -> None:
    gpio = SimGPIO()
    gpio.setmode(gpio.BCM)
    gpio.setup([5, 6], gpio.IN, pull_up_down=gpio.PUD_UP)
    gpio.cleanup(5)
    assert gpio.configured(5) is None
    assert gpio.input(6) == 1
    gpio.cleanup()
    assert gpio.getmode() is None
    with pytest.raises(RuntimeError):
        gpio.input(6)


def test_switch_and_diode_conduct_one_way_only(pin_table) -> None:
    pins = MatrixPins.from_mapping(pin_table)
    gpio = SimGPIO()
    board = SimReedBoard(gpio, pins)
    gpio.setmode(gpio.BCM)
    row, column = pins.rows[0], pins.columns[0]  # square 1
    gpio.setup(column, gpio.IN, pull_up_down=gpio.PUD_UP)
    gpio.setup(row, gpio.IN, pull_up_down=gpio.PUD_UP)
    gpio.setup(pins.rows[1], gpio.OUT, initial=gpio.LOW)
    board.place(1)
    assert gpio.input(column) == 1  # its own row is not driven
    gpio.setup(row, gpio.OUT, initial=gpio.LOW)
    assert gpio.input(column) == 0  # column -> diode -> driven row
    board.place(5)
    gpio.setup(row, gpio.IN, pull_up_down=gpio.PUD_UP)
    assert gpio.input(row) == 1  # the diode at square 1 blocks row -> column
    board.remove_diode(1)
    assert gpio.input(row) == 0  # ... until it is missing: row 0 -> column 0 -> square 5 -> row 1


def test_lever_button_grounds_its_pin(pin_table) -> None:
    pins = MatrixPins.from_mapping(pin_table)
    gpio = SimGPIO()
    board = SimReedBoard(gpio, pins)
    gpio.setmode(gpio.BCM)
    pin = pins.levers[Color.WHITE]
    gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_UP)
    board.press(Color.WHITE)
    assert gpio.input(pin) == 0
    board.release(Color.WHITE)
    assert gpio.input(pin) == 1
