"""Pin maps and scan timing for a reed-switch board, built from plain mappings (TOML tables).

Nothing here touches hardware: the config is validated up front and every error names the key that
is wrong, e.g. ``matrix.rows[2]: GPIO 40 is not a header GPIO (2-27)``. docs/hardware.md shows a
complete file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
)

from engine.color import Color

#: BCM numbers of the GPIOs on the 40-pin header that a board may use (0 and 1 are the HAT EEPROM).
HEADER_GPIOS = range(2, 28)
HAT_EEPROM_GPIOS = {0: "ID_SD, header pin 27", 1: "ID_SC, header pin 28"}
#: SPI0's pins, which the kernel hands to the SPI controller when SPI is on (dtparam=spi=on).
SPI0 = {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}

#: How the 8x4 matrix lies under the board (see :meth:`MatrixPins.from_mapping`).
ORIENTATIONS = ("white", "black")


def load_toml(path: str | Path) -> dict[str, object]:
    """Read a TOML file; ``ValueError`` names the file and the syntax error."""
    with open(path, "rb") as handle:
        try:
            return tomllib.load(handle)
        except tomllib.TOMLDecodeError as error:
            raise ValueError(f"{path}: {error}") from None


def check_keys(mapping: Mapping[str, object], where: str, allowed: tuple[str, ...]) -> None:
    """Reject keys not in ``allowed``: a typo in a config must not be silently ignored."""
    for key in mapping:
        if key not in allowed:
            raise ValueError(f"{where}: unknown key {key!r} (expected one of {', '.join(allowed)})")


def section(mapping: Mapping[str, object], key: str, where: str) -> Mapping[str, object]:
    """The sub-table ``mapping[key]`` (empty if absent); ``ValueError`` if it is not a table."""
    value = mapping.get(key, {})
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}.{key}: expected a table, got {value!r}")
    return value


def integer(value: object, where: str, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``; ``ValueError`` naming ``where`` otherwise."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{where}: expected a whole number {low}-{high}, got {value!r}")
    return value


def number(value: object, where: str, low: float, high: float) -> float:
    """``value`` as a float in ``low..high``; ``ValueError`` naming ``where`` otherwise."""
    if not isinstance(value, int | float) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{where}: expected a number {low}-{high}, got {value!r}")
    return float(value)


def _gpio_list(value: object) -> list[object]:
    """A non-empty list (each item then checked as a GPIO)."""
    if not isinstance(value, list | tuple) or not value:
        raise ValueError(f"expected a list of BCM GPIO numbers, got {value!r}")
    return list(value)


def _gpio(value: object) -> int:
    """One BCM GPIO number on the header, usable for the matrix (not the HAT EEPROM's 0 and 1)."""
    if value in HAT_EEPROM_GPIOS and not isinstance(value, bool):
        raise ValueError(
            f"GPIO {value} is reserved for the HAT ID EEPROM ({HAT_EEPROM_GPIOS[value]});"
            " use one of GPIO 2-27"
        )
    if not isinstance(value, int) or isinstance(value, bool) or value not in HEADER_GPIOS:
        raise ValueError(f"{value!r} is not a header GPIO (BCM 0-27; use 2-27)")
    return value


def _square_key(key: str) -> str:
    """A ``square_map`` key: a square 1-32 written as TOML writes a key (a string)."""
    if not key.isdigit() or not 1 <= int(key) <= 32:
        raise ValueError(f"key {key!r} is not a square 1-32 (R-BRD-2)")
    return key


def _crossing(cell: object) -> tuple[object, ...]:
    """A ``square_map`` value: ``[row_index, column_index]`` (each index then checked)."""
    if not isinstance(cell, list | tuple) or len(cell) != 2:
        raise ValueError(f"expected [row_index, column_index], got {cell!r}")
    return tuple(cell)


Gpio = Annotated[int, BeforeValidator(_gpio)]
GpioList = Annotated[list[Gpio], BeforeValidator(_gpio_list)]


class LeverPins(BaseModel):
    """The ``[matrix.levers]`` table: each side's clock lever GPIO, if the board has one."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    black: Gpio | None = None
    white: Gpio | None = None


class MatrixTable(BaseModel):
    """The board file's ``[matrix]`` table, typed key by key; :meth:`MatrixPins.from_mapping`
    then checks what spans keys (pins used twice, crossings within the rows and columns)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    rows: GpioList
    columns: GpioList
    orientation: Literal["white", "black"] | None = None
    square_map: (
        dict[
            Annotated[str, AfterValidator(_square_key)],
            Annotated[tuple[int, int], BeforeValidator(_crossing)],
        ]
        | None
    ) = None
    levers: LeverPins = LeverPins()


#: What a key of the wrong type should have been, by pydantic's error type.
_EXPECTED = {
    "int_type": "expected a whole number",
    "dict_type": "expected a table",
    "model_type": "expected a table",
}


def _explain(error: ValidationError, where: str) -> str:
    """The first error of a ``[matrix]`` table as ``matrix.rows[2]: <what was wrong>``."""
    errors = error.errors(include_url=False)
    # A misspelt key also leaves the right one missing: the unknown key is what to report.
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = list(first["loc"])
    if loc[-1:] == ["[key]"]:
        loc = loc[:-2]  # a bad key: named by its table, the message quotes it
    if first["type"] == "extra_forbidden":
        *loc, key = loc
        model: type[BaseModel] = LeverPins if loc == ["levers"] else MatrixTable
        message = f"unknown key {key!r} (expected one of {', '.join(model.model_fields)})"
    elif first["type"] == "missing" and len(loc) == 1:
        return f"{where}: both 'rows' and 'columns' are required"
    elif first["type"] == "literal_error":
        message = f"expected one of {', '.join(ORIENTATIONS)}, got {first['input']!r}"
    elif first["type"] == "value_error":
        message = str(first["ctx"]["error"])
    else:
        expected = _EXPECTED.get(first["type"], first["msg"])
        message = f"{expected}, got {first['input']!r}"
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)
    return f"{where}{path}: {message}"


def busy_gpios(spi_leds: bool, dev: Path = Path("/dev")) -> dict[int, str]:
    """GPIOs a peripheral holds, with what holds them: SPI0 when the board file drives LEDs
    over SPI; I2C-1 and the UART when the kernel has them enabled (their device nodes exist)."""
    busy: dict[int, str] = {}
    if spi_leds:
        busy.update({pin: f"{name}, used by the SPI LEDs ([leds])" for pin, name in SPI0.items()})
    if (dev / "i2c-1").exists():
        busy.update({2: "I2C-1 SDA (enabled: /dev/i2c-1)", 3: "I2C-1 SCL (enabled: /dev/i2c-1)"})
    if (dev / "serial0").exists():
        busy.update({14: "the UART's TXD (enabled: /dev/serial0)", 15: "the UART's RXD"})
    return busy


def default_square_map(orientation: str) -> dict[int, tuple[int, int]]:
    """Square -> (row, column) for an 8-row x 4-column matrix laid along the board's rows.

    ``"white"``: row 0 holds squares 1-4 (the far row seen from White), column 0 the leftmost dark
    square of each row as White sees it. ``"black"``: the same grid turned half a turn (33 - s).
    """
    grid = {s: ((s - 1) // 4, (s - 1) % 4) for s in range(1, 33)}
    if orientation == "black":
        return {s: grid[33 - s] for s in grid}
    return grid


@dataclass(frozen=True, slots=True)
class MatrixPins:
    """Which GPIOs the reed matrix and clock levers use, and which crossing each square is.

    Rows are driven (one at a time, low), columns read with pull-ups; each square's reed switch
    and diode sit at one row/column crossing. Levers are buttons from a GPIO to ground.
    """

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    square_map: Mapping[int, tuple[int, int]]
    levers: Mapping[Color, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "square_map", MappingProxyType(dict(self.square_map)))
        object.__setattr__(self, "levers", MappingProxyType(dict(self.levers)))

    @classmethod
    def from_mapping(
        cls,
        mapping: Mapping[str, object],
        where: str = "matrix",
        busy: Mapping[int, str] = MappingProxyType({}),
    ) -> MatrixPins:
        """Build from ``{"rows": [...], "columns": [...], "orientation" | "square_map", "levers"}``.

        ``busy`` names GPIOs a peripheral holds (:func:`busy_gpios`); a pin among them is refused.

        ``square_map`` maps each square "1"-"32" to ``[row_index, column_index]`` into the lists;
        without it, ``orientation`` ("white", the default, or "black") needs 8 rows x 4 columns.
        """
        try:
            table = MatrixTable.model_validate(dict(mapping))
        except ValidationError as error:
            raise ValueError(_explain(error, where)) from None
        rows, columns = tuple(table.rows), tuple(table.columns)
        levers = {
            side: pin
            for side, pin in (
                (Color.BLACK, table.levers.black),
                (Color.WHITE, table.levers.white),
            )
            if pin is not None
        }
        named = (
            [(f"{where}.rows[{i}]", p) for i, p in enumerate(rows)]
            + [(f"{where}.columns[{i}]", p) for i, p in enumerate(columns)]
            + [(f"{where}.levers.{side.value}", p) for side, p in levers.items()]
        )
        _check_distinct(named)
        for key, pin in named:
            if pin in busy:
                raise ValueError(f"{key}: GPIO {pin} is {busy[pin]}; pick a free GPIO")
        if table.square_map is not None:
            if table.orientation is not None:
                raise ValueError(f"{where}: give either 'orientation' or 'square_map', not both")
            square_map = _square_map(table.square_map, f"{where}.square_map", rows, columns)
        else:
            if (len(rows), len(columns)) != (8, 4):
                raise ValueError(
                    f"{where}: 'orientation' needs 8 rows and 4 columns (got {len(rows)} x"
                    f" {len(columns)}); give {where}.square_map for any other wiring"
                )
            square_map = default_square_map(table.orientation or "white")
        return cls(rows, columns, square_map, levers)


def _check_distinct(pins: list[tuple[str, int]]) -> None:
    seen: dict[int, str] = {}
    for where, pin in pins:
        if pin in seen:
            raise ValueError(f"{where}: GPIO {pin} is already used by {seen[pin]}")
        seen[pin] = where


def _square_map(
    table: Mapping[str, tuple[int, int]],
    where: str,
    rows: tuple[int, ...],
    columns: tuple[int, ...],
) -> dict[int, tuple[int, int]]:
    result: dict[int, tuple[int, int]] = {}
    used: dict[tuple[int, int], int] = {}
    for key, (row, column) in table.items():
        here = f"{where}.{key}"
        crossing = (
            integer(row, f"{here}[0]", 0, len(rows) - 1),
            integer(column, f"{here}[1]", 0, len(columns) - 1),
        )
        if crossing in used:
            raise ValueError(
                f"{here}: crossing {list(crossing)} is already square {used[crossing]}"
            )
        used[crossing] = int(key)
        result[int(key)] = crossing
    missing = sorted(set(range(1, 33)) - set(result))
    if missing:
        raise ValueError(f"{where}: squares {missing} have no crossing")
    return result


class ScanSettings(BaseModel):
    """Timing of the scan loop and thresholds of its debounce and fault checks: the board file's
    ``[scan]`` table, typed (a whole number where a count is meant, unknown keys refused)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    # full scans a second (the goal is at least 200)
    rate_hz: Annotated[float, Field(ge=1, le=5000)] = 250.0
    # wait between driving a row and reading the columns
    settle_us: Annotated[float, Field(ge=0, le=10_000)] = 50.0
    # a square's change must hold this many consecutive scans ...
    debounce_scans: Annotated[int, Field(ge=1, le=1000)] = 3
    # ... and this long before it is reported
    debounce_ms: Annotated[float, Field(ge=0, le=1000)] = 20.0
    # a lever must stay pressed this long to count
    lever_debounce_ms: Annotated[float, Field(ge=0, le=1000)] = 30.0
    # raw changes of one square within flicker_window_s = a fault
    flicker_toggles: Annotated[int, Field(ge=2, le=100_000)] = 20
    flicker_window_s: Annotated[float, Field(ge=0.01, le=3600)] = 2.0
    # a square unchanged while every other changed this often = stuck
    stuck_changes: Annotated[int, Field(ge=1, le=1000)] = 2

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, object], where: str = "scan") -> ScanSettings:
        """Build from a ``[scan]`` table; absent keys keep their defaults. ``ValueError`` names
        the key (``scan.rate_hz: expected a number 1-5000, got 0``)."""
        try:
            return cls.model_validate(dict(mapping))
        except ValidationError as error:
            first = error.errors()[0]
            key = str(first["loc"][0])
            if first["type"] == "extra_forbidden":
                allowed = ", ".join(cls.model_fields)
                raise ValueError(
                    f"{where}: unknown key {key!r} (expected one of {allowed})"
                ) from None
            field = cls.model_fields[key]
            low, high = (
                next(m.ge for m in field.metadata if hasattr(m, "ge")),
                next(m.le for m in field.metadata if hasattr(m, "le")),
            )
            kind = "a whole number" if field.annotation is int else "a number"
            raise ValueError(
                f"{where}.{key}: expected {kind} {low}-{high}, got {first['input']!r}"
            ) from None
