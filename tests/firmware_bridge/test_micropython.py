"""The unmodified firmware (main.py) under MicroPython's own unix port, behind a real pty.

The stand-in ``machine`` (firmware_bridge/pico_standin) models the switch matrix with its diodes;
everything else is the real thing: MicroPython, the firmware, the pty, the project's host driver.
"""

from __future__ import annotations

import time

import pytest

from engine.color import Color
from engine.cues import CueKind, Cues
from engine.sensing import LeverPress, LinkHealth, SensorFault, Snapshot
from firmware_bridge.micropython_board import (
    MicroPythonMissing,
    find_micropython,
    measure_allocations,
)
from poolboard.words import said

try:
    find_micropython()
except MicroPythonMissing as missing:  # the dev extra installs it; say why this is skipped
    pytest.skip(str(missing), allow_module_level=True)


def test_the_firmware_under_micropython_serves_the_host(make_link) -> None:
    link = make_link(interpreter="micropython")
    assert link.emulator.interpreter == "micropython"
    link.emulator.command("place 1-12 21-32")
    snapshot = link.until(lambda e: isinstance(e, Snapshot) and len(e.occupied) == 24)
    assert snapshot.occupied == frozenset(range(1, 13)) | frozenset(range(21, 33))
    link.emulator.command("lever white")
    assert link.until(lambda e: isinstance(e, LeverPress)).side is Color.WHITE
    link.board.show(Cues({12: CueKind.REMOVE, 15: CueKind.MOVE_TO}))
    # CUE_STYLES colours at the firmware's BRIGHTNESS (64/255); a slow blink may be off just now
    link.wait_leds(lambda shown: "12=#403200 15=#002800" in shown)
    assert link.emulator.board.resets == []


@pytest.mark.parametrize("interpreter", ["micropython", "cpython"])
def test_a_missing_diode_is_reported_and_its_ghost_never_shown(make_link, interpreter) -> None:
    link = make_link(interpreter=interpreter)
    link.emulator.command("diode 1")  # pieces on 1, 2 and 5 then fake one on 6
    link.emulator.command("place 1 2 5")
    fault = link.until(lambda e: isinstance(e, SensorFault))
    assert isinstance(fault, SensorFault)
    assert "diode missing or shorted" in fault.message
    assert {1, 6} <= fault.squares
    assert fault.said is not None and str(fault.said) == fault.message  # for any language
    assert said(fault.said, "es").startswith("diodo ausente o en cortocircuito en la matriz")
    link.emulator.command("place 32")  # far from the fault: once it shows, so has all before
    link.until(lambda e: isinstance(e, Snapshot) and 32 in e.occupied)
    shown = [e.occupied for e in link.events if isinstance(e, Snapshot)]
    assert all(6 not in occupied for occupied in shown)
    link.emulator.command("diode")
    link.emulator.command("lift 1 2 5 32")
    link.until(lambda e: isinstance(e, Snapshot) and not e.occupied)


def test_an_exception_is_reported_then_the_board_resets(make_link) -> None:
    link = make_link(interpreter="micropython")
    link.emulator.command("crash")
    fault = link.until(lambda e: isinstance(e, SensorFault))
    assert isinstance(fault, SensorFault)
    assert "firmware failed (OSError: injected fault" in fault.message
    restarted = link.until_link()
    assert restarted.detail.startswith("board restarted")
    assert link.emulator.board.resets == ["reset by the firmware"]


def test_a_hung_firmware_is_reset_by_its_watchdog(make_link, firmware_settings) -> None:
    link = make_link(firmware_settings(WATCHDOG_MS=400), interpreter="micropython")
    link.emulator.command("hang")
    restarted = link.until_link(timeout=4)
    assert restarted.detail.startswith("board restarted")
    assert link.emulator.board.resets == ["watchdog"]
    link.emulator.command("place 9")
    link.until(lambda e: isinstance(e, Snapshot) and e.occupied == {9})


def test_a_host_holding_the_port_unread_does_not_stall_the_scan(
    make_link, firmware_settings
) -> None:
    """A report every scan fills the 8 KB output pipe within a second; the stall lasts 2 s,
    five watchdog periods: a firmware that blocked on its write would be reset."""
    settings = firmware_settings(WATCHDOG_MS=400, HEARTBEAT_MS=1, SCAN_PERIOD_MS=1)
    link = make_link(settings, interpreter="micropython", heartbeat_timeout=5.0)
    link.wait_leds("leds s1=#000a00")  # the host's LED frame is in and acknowledged
    link.emulator.command("stall 2")
    deadline = time.monotonic() + 2
    while not link.emulator.board.output_full():  # the firmware now drops what it writes
        assert time.monotonic() < deadline, "the firmware's output never filled its pipe"
        time.sleep(0.01)
    link.emulator.command("lever black")  # pressed while nothing is read
    link.emulator.command("place 30")
    assert link.until(lambda e: isinstance(e, LeverPress)).side is Color.BLACK
    assert [e.occupied for e in link.events if isinstance(e, Snapshot)][-1] == {30}
    assert link.emulator.board.resets == []
    assert not [e for e in link.events if isinstance(e, LinkHealth) and "restarted" in e.detail]


def test_a_lever_pressed_while_the_link_is_down_counts_once(make_link) -> None:
    """The host holds the port unread until its silence timer takes the link down; a lever
    pressed then counts, once, when the link is back (the host keeps the board's counters
    across a link-down: it re-bases them only when the board restarted)."""
    link = make_link(interpreter="micropython")
    link.wait_leds("leds s1=#000a00")
    link.emulator.command("stall 6")
    link.until_link(connected=False, timeout=6)
    link.emulator.command("lever white")
    link.until_link(timeout=8)
    link.emulator.command("lever black")
    link.until(lambda e: isinstance(e, LeverPress) and e.side is Color.BLACK)
    assert [e.side for e in link.events if isinstance(e, LeverPress)] == [Color.WHITE, Color.BLACK]
    assert link.emulator.board.resets == []


def test_led_changes_reach_the_strip_through_noise_both_ways(make_link) -> None:
    """1 % of the bytes garbled each way on the pty: each picture is drawn, the link stays up."""
    link = make_link(interpreter="micropython")
    link.wait_leds("leds s1=#000a00")
    assert link.emulator.command("noise 1 both") == "ok"
    for square in (3, 14, 22, 31, 8):
        link.board.show(Cues({square: CueKind.CONFIRM}))  # solid green: no blink phase to meet
        link.wait_leds(f"leds {square}=#004000 s1=#000a00", timeout=5)
    downs = [e for e in link.events if isinstance(e, LinkHealth) and not e.connected]
    assert not downs and link.board.counters.connected


def test_a_scan_allocates_nothing_and_the_loop_little() -> None:
    """gc.mem_alloc deltas under MicroPython (gc off): no heap churn per scan, so no GC pause
    is caused by scanning; reports and LED redraws allocate a few KB a second."""
    figures = measure_allocations(200)
    assert figures["scan_bytes"] == 0
    assert figures["per_second"] < 20_000
