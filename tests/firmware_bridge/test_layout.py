"""The Pico's ORIENTATION / SQUARE_MAP and LAYOUT / START / SQUARES: the GPIO route's options
under the same names, with the same meaning, end to end through the emulator."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from engine.cues import CueKind, Cues
from engine.sensing import SensorSpecError, Snapshot
from firmware_bridge.firmware.layout import crossings, strip
from firmware_bridge.host import sensor_from_spec
from firmware_bridge.micropython_board import interpreters
from hardware.config import MatrixPins, default_square_map
from hardware.spi_leds import square_order


@pytest.mark.parametrize("orientation", ["white", "black"])
def test_orientation_means_what_it_means_on_the_gpio_route(orientation: str) -> None:
    gpio = default_square_map(orientation)  # square -> (row, column), 8 x 4
    pico = crossings(SimpleNamespace(ORIENTATION=orientation), 8, 4)
    assert pico == [gpio[s][0] * 4 + gpio[s][1] for s in range(1, 33)]


@pytest.mark.parametrize("layout", ["in-order", "serpentine"])
@pytest.mark.parametrize("start", [1, 32])
def test_layout_and_start_mean_what_they_mean_on_the_gpio_route(layout: str, start: int) -> None:
    assert strip(SimpleNamespace(LAYOUT=layout, START=start)) == square_order(layout, start)


def test_a_square_map_is_read_as_the_gpio_route_reads_it() -> None:
    table = {str(s): [(s - 1) % 4, (s - 1) // 4] for s in range(1, 33)}  # a 4 x 8 grid
    pins = MatrixPins.from_mapping(
        {"rows": [4, 17, 27, 22], "columns": [5, 6, 13, 26, 23, 24, 25, 12], "square_map": table}
    )
    pairs = [pins.square_map[s] for s in range(1, 33)]
    assert crossings(SimpleNamespace(SQUARE_MAP=pairs), 4, 8) == [r * 8 + c for r, c in pairs]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"ORIENTATION": "north"}, "config.ORIENTATION: 'white' or 'black', not 'north'"),
        ({"SQUARE_MAP": [(0, 0)] * 32}, "square 2: crossing (0, 0) is already square 1"),
        ({"SQUARE_MAP": [(9, 0)] + [(0, 0)] * 31}, "square 1: no crossing (9, 0) in 8 rows"),
        ({"SQUARE_MAP": [(0, 0)]}, "32 (row, column) pairs"),
    ],
)
def test_a_bad_square_setting_is_named(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        crossings(SimpleNamespace(**settings), 8, 4)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"LAYOUT": "zigzag"}, "config.LAYOUT: 'in-order' or 'serpentine'"),
        ({"START": 4}, "config.START: 1 or 32"),
        ({"SQUARES": list(range(31)) + [30]}, "config.SQUARES"),
    ],
)
def test_a_bad_strip_setting_is_named(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        strip(SimpleNamespace(**settings))


BUILT = SimpleNamespace(ORIENTATION="black", LAYOUT="serpentine", START=1)
BUILD = {"wiring": crossings(BUILT, 8, 4), "strip": strip(BUILT)}


@pytest.mark.parametrize("interpreter", interpreters())
def test_a_board_wired_from_blacks_side_with_a_serpentine_strip(
    make_link, firmware_settings, interpreter: str
) -> None:
    """The matrix wired from Black's side, the strip laid serpentine: with ORIENTATION and
    LAYOUT set to match, the host sees the squares the pieces are on and each cue lights the
    LED under its own square (read back from the emulated strip)."""
    settings = firmware_settings(ORIENTATION="black", LAYOUT="serpentine")
    link = make_link(settings, interpreter=interpreter, build=BUILD)
    link.emulator.command("place 1 5 30")
    link.until(lambda e: isinstance(e, Snapshot) and e.occupied == {1, 5, 30})
    link.board.show(Cues({5: CueKind.CONFIRM, 30: CueKind.CONFIRM}))
    if interpreter == "micropython":
        link.wait_leds("leds 5=#004000 30=#004000 s1=#000a00")
    else:
        link.wait_leds("leds 5=#00ff00/solid 30=#00ff00/solid s1=#002800/solid")


def test_the_same_board_with_the_default_config_shows_the_wrong_squares(make_link) -> None:
    """What the options fix (and what `poolboard monitor --check` finds): a piece on 1 reads
    as 32, square 5's cue lights the LED under 8."""
    link = make_link(build=BUILD)
    link.emulator.command("place 1")
    link.until(lambda e: isinstance(e, Snapshot) and e.occupied == {32})
    link.board.show(Cues({5: CueKind.CONFIRM}))
    link.wait_leds("leds 8=#00ff00/solid s1=#002800/solid")


BOARD_FILE = """
[matrix]
orientation = "black"
[leds]
layout = "serpentine"
"""


@pytest.mark.parametrize("interpreter", interpreters())
def test_the_hosts_board_file_sets_the_layout(make_link, tmp_path, interpreter: str) -> None:
    """The same board, the firmware left at its defaults: ``serial:PATH?board=FILE`` sends the
    board file's orientation and strip layout at link-up, and the board reads and lights right."""
    board_file = tmp_path / "pico.toml"
    board_file.write_text(BOARD_FILE)
    link = make_link(interpreter=interpreter, build=BUILD)
    link.board.close()
    link.board = sensor_from_spec(f"{link.emulator.link}?board={board_file}")
    link.until_link()
    link.emulator.command("place 1 5 30")
    link.until(lambda e: isinstance(e, Snapshot) and e.occupied == {1, 5, 30})
    link.board.show(Cues({5: CueKind.CONFIRM}))
    expected = "5=#004000 s1=#000a00" if interpreter == "micropython" else "5=#00ff00/solid"
    link.wait_leds(
        "leds " + expected + ("" if interpreter == "micropython" else " s1=#002800/solid")
    )
    assert not [e for e in link.events if isinstance(e, Snapshot) and 32 in e.occupied]
    link.board.close()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[matrix]\norientation = "north"', "matrix.orientation: 'white' or 'black'"),
        ("[matrix]\nrows = [2, 3]", "matrix: unknown key 'rows'"),
        ('[leds]\nlayout = "zigzag"', "leds.layout: 'in-order' or 'serpentine'"),
        ("[leds]\nstart = 5", "leds.start: 1 or 32"),
        ('[matrix]\nsquare_map = { "1" = [0, 0] }', "matrix.square_map: a table of all 32"),
        ("[scan]\nrate_hz = 1", "unknown table [scan]"),
    ],
)
def test_a_bad_board_file_is_named(tmp_path, text: str, message: str) -> None:
    board_file = tmp_path / "pico.toml"
    board_file.write_text(text)
    with pytest.raises(SensorSpecError, match=re.escape(f"{board_file}: {message}")):
        sensor_from_spec(f"/dev/null?board={board_file}")
