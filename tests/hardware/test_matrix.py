"""The matrix scanner and monitor against the simulated RPi.GPIO and a simulated reed board."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.color import Color
from engine.geometry import square_set
from engine.sensing import LeverPress
from hardware.config import ScanSettings
from hardware.sim_gpio import SimGPIO, SimReedBoard
from poolboard.words import said

START = frozenset(range(1, 13)) | frozenset(range(21, 33))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sets(st.integers(1, 32)))
def test_a_scan_reads_exactly_the_closed_switches(make_rig, pieces: set[int]) -> None:
    rig = make_rig()
    rig.board.set_pieces(pieces)
    reading = rig.scanner.scan()
    assert square_set(reading.occupied) == pieces
    assert reading.leaks == ()
    assert rig.gpio.floating_reads == 0


def test_rows_stay_claimed_and_are_driven_without_setup_between_diagnoses(rig) -> None:
    """On rpi-lgpio every setup() is a kernel line request: a steady scan makes none."""
    rig.board.set_pieces(START)
    rig.scanner.scan()  # the first scan is a diagnostic (open-drain) one
    setups = []
    real_setup = rig.gpio.setup
    rig.gpio.setup = lambda *a, **k: (setups.append(a), real_setup(*a, **k))  # type: ignore
    for _ in range(rig.scanner.diagnose_every - 1):
        assert square_set(rig.scanner.scan().occupied) == START
    assert setups == []
    for row in rig.board.pins.rows:
        assert rig.gpio.configured(row) == (rig.gpio.OUT, rig.gpio.PUD_OFF)  # idle: driven high
    rig.scanner.scan()  # a diagnosis is due again
    assert rig.scanner.diagnostic_scans == 2
    assert rig.gpio.shorts == set()


def test_start_position_then_a_move_gives_clean_snapshots(rig) -> None:
    rig.board.set_pieces(START)
    assert rig.snapshots(rig.run(0.1)) == [START]
    rig.board.lift(11)
    rig.run(0.2)
    rig.board.place(15)
    events = rig.run(0.2)
    assert rig.snapshots(events) == [START - {11} | {15}]
    assert rig.faults(events) == []


def test_no_snapshot_before_every_square_has_settled(rig) -> None:
    rig.board.set_pieces(START)
    first = rig.scan() + rig.scan()
    assert rig.snapshots(first) == []


def test_chatter_shorter_than_the_debounce_is_ignored(rig) -> None:
    rig.board.set_pieces(START)
    rig.run(0.1)
    events = []
    for _ in range(3):  # a piece bounces on square 9's switch: 8 ms off, 8 ms on
        rig.board.lift(9)
        events += rig.run(0.008)
        rig.board.place(9)
        events += rig.run(0.008)
    events += rig.run(0.2)
    assert rig.snapshots(events) == []


def test_a_bouncing_arrival_is_reported_once(rig) -> None:
    rig.board.set_pieces(START)
    rig.run(0.1)
    events = []
    for _ in range(3):
        rig.board.place(17)
        events += rig.run(0.004)
        rig.board.lift(17)
        events += rig.run(0.004)
    rig.board.place(17)
    events += rig.run(0.2)
    assert rig.snapshots(events) == [START | {17}]


def test_debounce_needs_both_scans_and_time(make_rig) -> None:
    rig = make_rig(ScanSettings(debounce_scans=5, debounce_ms=0), rate_hz=250)
    rig.run(0.1)
    rig.board.place(14)
    scans = 1
    while not rig.snapshots(rig.scan()):
        scans += 1
    assert scans == 5
    rig = make_rig(ScanSettings(debounce_scans=1, debounce_ms=30), rate_hz=250)
    rig.run(0.1)
    rig.board.place(14)
    start = rig.t
    while not rig.snapshots(rig.scan()):
        pass
    assert 0.03 <= rig.t - start <= 0.03 + 2 * rig.period


def test_missing_diode_reports_a_ghost_and_never_snapshots_it(rig) -> None:
    # Square 5 (row 1, column 0) has no diode. With 1 (row 0, column 0) and 6 (row 1, column 1)
    # also closed, driving row 0 pulls column 1 low through 6 -> row 1 -> 5 -> column 0 -> 1:
    # square 2 reads occupied without a piece.
    rig.board.remove_diode(5)
    rig.run(0.1)
    events = []
    for square in (1, 5, 6):
        rig.board.place(square)
        events += rig.run(0.1)
    assert 2 in square_set(rig.scanner.scan().occupied)  # the ghost is really there
    assert all(2 not in snap for snap in rig.snapshots(events))
    assert rig.snapshots(events)[-1] == {1, 5, 6}
    first, ghost = rig.faults(events)
    assert first.squares == {5}  # found as soon as 1 and 5 close, before any ghost can appear
    assert "diode missing or shorted at square 5 " in first.message
    assert {2, 5} <= ghost.squares and "squares 1, 2 may show ghosts" in ghost.message
    assert ghost.said is not None and str(ghost.said) == ghost.message  # and in Spanish:
    assert "casillas 1, 2 pueden mostrar fantasmas" in said(ghost.said, "es")
    shorts = set(rig.gpio.shorts)  # rows driven high met the missing diode before it was found
    rig.run(0.5)  # found: open-drain scans only, never two outputs against each other
    assert rig.gpio.shorts == shorts


def test_a_missing_diode_alone_gives_no_ghost_and_no_false_alarm_before_it_matters(rig) -> None:
    rig.board.remove_diode(5)
    rig.board.set_pieces({5, 6, 7})  # nothing closed in any other row of columns 0-2
    events = rig.run(0.2)
    assert rig.snapshots(events) == [{5, 6, 7}]
    assert rig.faults(events) == []


def test_stuck_switch_is_reported_once_everything_else_has_moved(rig) -> None:
    rig.board.stick(3)
    rig.run(0.1)
    events = []
    others = [s for s in range(1, 33) if s != 3]
    for _ in range(2):
        for square in others:
            rig.board.place(square)
            events += rig.run(0.04)
        for square in others:
            rig.board.lift(square)
            events += rig.run(0.04)
    (fault,) = rig.faults(events)
    assert fault.squares == {3}
    assert "always reads occupied" in fault.message
    assert fault.said is not None and said(fault.said, "es").startswith(
        "la casilla 3 siempre se lee ocupada mientras todas las demás han cambiado"
    )
    assert all(3 in snap for snap in rig.snapshots(events))


def test_a_piece_that_simply_stays_put_is_not_called_stuck(rig) -> None:
    rig.board.set_pieces(START)
    rig.run(0.1)
    events = []
    for frm, to in [(11, 15), (22, 18), (9, 13), (24, 20), (10, 14), (23, 19)]:
        rig.board.lift(frm)
        events += rig.run(0.05)
        rig.board.place(to)
        events += rig.run(0.05)
    assert rig.faults(events) == []
    assert len(rig.snapshots(events)) == 12


def test_endless_flicker_is_a_fault_reported_once(rig) -> None:
    rig.run(0.1)
    events = []
    for _ in range(100):  # a magnet at the edge of the reed's range: toggles every 12 ms
        rig.board.place(20)
        events += rig.run(0.012)
        rig.board.lift(20)
        events += rig.run(0.012)
    (fault,) = rig.faults(events)
    assert fault.squares == {20}
    assert "flickering" in fault.message
    assert rig.snapshots(events) == []


def test_lever_press_is_debounced_and_reported_on_press(rig) -> None:
    rig.run(0.1)
    rig.board.press(Color.BLACK)
    events = rig.run(0.008)  # a blip shorter than lever_debounce_ms
    rig.board.release(Color.BLACK)
    events += rig.run(0.1)
    assert [e for e in events if isinstance(e, LeverPress)] == []
    rig.board.press(Color.WHITE)
    events = rig.run(0.1)
    rig.board.release(Color.WHITE)
    events += rig.run(0.1)
    presses = [e for e in events if isinstance(e, LeverPress)]
    assert [p.side for p in presses] == [Color.WHITE]


def test_a_lever_held_at_start_is_not_a_press(make_rig) -> None:
    rig = make_rig()
    rig.board.press(Color.BLACK)
    events = rig.run(0.2)
    rig.board.release(Color.BLACK)
    events += rig.run(0.2)
    assert [e for e in events if isinstance(e, LeverPress)] == []


def test_other_wirings_scan_the_same(pin_table) -> None:
    from hardware.config import MatrixPins
    from hardware.matrix import MatrixScanner

    pin_table["orientation"] = "black"
    pins = MatrixPins.from_mapping(pin_table)
    gpio = SimGPIO()
    board = SimReedBoard(gpio, pins)
    scanner = MatrixScanner(gpio, pins, settle_s=0)
    scanner.open()
    board.set_pieces({1, 2, 29})
    assert square_set(scanner.scan().occupied) == {1, 2, 29}
    assert gpio.input(pins.columns[3]) == 1 and pins.square_map[1] == (7, 3)
