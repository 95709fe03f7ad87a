"""Pin maps and scan settings: valid tables build, bad ones name the key that is wrong."""

from __future__ import annotations

import pytest

from engine.color import Color
from hardware.config import MatrixPins, ScanSettings, busy_gpios


def test_default_orientation_follows_the_square_numbering(pin_table) -> None:
    pins = MatrixPins.from_mapping(pin_table)
    assert pins.square_map[1] == (0, 0)  # far row, leftmost, seen from White
    assert pins.square_map[29] == (7, 0)  # White's near-left corner
    assert pins.square_map[32] == (7, 3)
    assert pins.levers == {Color.BLACK: 16, Color.WHITE: 20}


def test_black_orientation_turns_the_grid(pin_table) -> None:
    pin_table["orientation"] = "black"
    pins = MatrixPins.from_mapping(pin_table)
    assert pins.square_map[1] == (7, 3)
    assert pins.square_map[32] == (0, 0)


def test_explicit_square_map_for_a_4_by_8_wiring() -> None:
    table = {
        "rows": [4, 17, 27, 22],
        "columns": [5, 6, 13, 26, 23, 24, 25, 12],
        "square_map": {str(s): [(s - 1) // 8, (s - 1) % 8] for s in range(1, 33)},
    }
    pins = MatrixPins.from_mapping(table)
    assert pins.square_map[9] == (1, 0)
    assert pins.levers == {}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"rows": [4, 17, 40, 22, 5, 6, 13, 26]},
            r"matrix\.rows\[2\]: 40 is not a header GPIO \(BCM 0-27; use 2-27\)",
        ),
        ({"rows": [4, 17, True, 22, 5, 6, 13, 26]}, r"matrix\.rows\[2\]"),
        ({"columns": "23,24"}, r"matrix\.columns: expected a list"),
        (
            {"columns": [23, 24, 25, 4]},
            r"matrix\.columns\[3\]: GPIO 4 is already used by matrix\.rows\[0\]",
        ),
        ({"levers": {"black": 23}}, r"matrix\.levers\.black: GPIO 23 is already used"),
        ({"levers": {"red": 7}}, r"matrix\.levers: unknown key 'red'"),
        ({"levers": 5}, r"matrix\.levers: expected a table, got 5"),
        ({"square_map": {"1": [0, "x"]}}, r"matrix\.square_map\.1\[1\]: expected a whole number"),
        (
            {"square_map": {"1": [0]}},
            r"matrix\.square_map\.1: expected \[row_index, column_index\]",
        ),
        ({"colums": [1]}, r"matrix: unknown key 'colums'"),
        ({"orientation": "sideways"}, r"matrix\.orientation: expected one of white, black"),
        ({"columns": [23, 24, 25]}, r"needs 8 rows and 4 columns .* give matrix\.square_map"),
        ({"square_map": {"1": [0, 0]}, "orientation": "white"}, r"either 'orientation' or"),
        ({"square_map": {"1": [0, 0]}}, r"matrix\.square_map: squares \[2, .*\] have no crossing"),
        ({"square_map": {"33": [0, 0]}}, r"matrix\.square_map: key '33' is not a square 1-32"),
        ({"square_map": {"1": [0, 9]}}, r"matrix\.square_map\.1\[1\]: expected a whole number 0-3"),
        (
            {"square_map": {"1": [0, 0], "2": [0, 0]}},
            r"matrix\.square_map\.2: crossing \[0, 0\] is already square 1",
        ),
    ],
)
def test_bad_pin_tables_name_the_key(pin_table, change, message) -> None:
    pin_table.update(change)
    with pytest.raises(ValueError, match=message):
        MatrixPins.from_mapping(pin_table)


def test_a_misspelt_key_is_named_not_the_key_it_leaves_missing(pin_table) -> None:
    pin_table["colums"] = pin_table.pop("columns")
    with pytest.raises(ValueError, match=r"matrix: unknown key 'colums' \(expected one of rows"):
        MatrixPins.from_mapping(pin_table)


def test_missing_rows_are_named() -> None:
    with pytest.raises(ValueError, match="matrix: both 'rows' and 'columns' are required"):
        MatrixPins.from_mapping({"columns": [5]})


def test_scan_settings_defaults_and_overrides() -> None:
    assert ScanSettings.from_mapping({}) == ScanSettings()
    settings = ScanSettings.from_mapping({"rate_hz": 400, "debounce_scans": 4})
    assert (settings.rate_hz, settings.debounce_scans) == (400.0, 4)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"rate_hz": 0}, r"scan\.rate_hz: expected a number 1-5000, got 0"),
        ({"debounce_scans": 2.5}, r"scan\.debounce_scans: expected a whole number"),
        ({"settle": 10}, r"scan: unknown key 'settle'"),
    ],
)
def test_bad_scan_settings_name_the_key(table, message) -> None:
    with pytest.raises(ValueError, match=message):
        ScanSettings.from_mapping(table)


@pytest.mark.parametrize(
    ("pin", "dev_nodes", "spi_leds", "message"),
    [
        (10, [], True, r"matrix\.rows\[0\]: GPIO 10 is SPI0 MOSI, used by the SPI LEDs"),
        (11, [], True, r"matrix\.rows\[0\]: GPIO 11 is SPI0 SCLK, used by the SPI LEDs"),
        (2, ["i2c-1"], False, r"matrix\.rows\[0\]: GPIO 2 is I2C-1 SDA \(enabled: /dev/i2c-1\)"),
        (15, ["serial0"], False, r"matrix\.rows\[0\]: GPIO 15 is the UART's RXD"),
        (0, [], False, r"matrix\.rows\[0\]: GPIO 0 is reserved for the HAT ID EEPROM \(ID_SD"),
        (1, [], False, r"matrix\.rows\[0\]: GPIO 1 is reserved for the HAT ID EEPROM \(ID_SC"),
    ],
)
def test_a_pin_a_peripheral_holds_is_refused_naming_it(
    pin_table, tmp_path, pin: int, dev_nodes: list[str], spi_leds: bool, message: str
) -> None:
    for node in dev_nodes:
        (tmp_path / node).touch()
    pin_table["rows"][0] = pin
    with pytest.raises(ValueError, match=message):
        MatrixPins.from_mapping(pin_table, busy=busy_gpios(spi_leds, dev=tmp_path))


def test_i2c_and_uart_pins_are_free_while_those_are_off(pin_table, tmp_path) -> None:
    pin_table["rows"][0] = 2
    pin_table["rows"][1] = 14
    pins = MatrixPins.from_mapping(pin_table, busy=busy_gpios(True, dev=tmp_path))
    assert pins.rows[:2] == (2, 14)
