"""``poolboard emulate-board`` as a user runs it, and the ``serial:`` sensor spec."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.sensing import LinkHealth, Snapshot
from poolboard.sensor_spec import SensorSpecError, open_sensor
from tests.patience import wait_for


def test_emulate_board_serves_a_host_and_answers_commands() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "poolboard.cli", "emulate-board", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None

    def ask(line: str) -> str:
        process.stdin.write(line + "\n")
        process.stdin.flush()
        return process.stdout.readline().strip()

    try:
        path = process.stdout.readline().strip()
        assert os.path.islink(path)
        sensor = open_sensor(f"serial:{path}")
        try:
            event = sensor.read(timeout=3)
            assert isinstance(event, LinkHealth) and event.connected
            assert ask("place 21-32") == "ok"
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                event = sensor.read(timeout=0.1)
                if isinstance(event, Snapshot) and len(event.occupied) == 12:
                    break
            assert isinstance(event, Snapshot) and event.occupied == set(range(21, 33))
            assert ask("leds") == "leds s1=#000a00"  # dim green, brightness 64/255 applied
            assert ask("place 33") == "error: square 33 is not a dark square 1-32 (R-BRD-2)"
            assert ask("lever grey") == "error: lever needs a side: lever black | lever white"
            assert ask("disconnect soon") == "error: 'soon' is not a number of seconds"
            assert ask("disconnect 0.2") == "ok"
            assert os.path.islink(path)
        finally:
            sensor.close()
        process.stdin.write("quit\n")
        process.stdin.flush()
        assert process.wait(timeout=5) == 0
        assert not os.path.lexists(path)
    finally:
        process.kill()
        process.wait()


def test_help_lists_the_commands() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "emulate-board", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    for command in ("place", "lift", "set", "lever", "corrupt", "drop", "disconnect", "reset"):
        assert f"\n  {command} " in result.stdout


@pytest.mark.parametrize(
    ("spec", "message"),
    [("serial:", "needs a device path or auto"), ("serial:auto:xyz", "must be VID:PID in hex")],
)
def test_bad_serial_specs_are_named(spec: str, message: str) -> None:
    with pytest.raises(SensorSpecError, match=message):
        open_sensor(spec)


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def test_a_terminated_or_killed_emulator_leaves_no_folder_and_no_firmware_behind() -> None:
    command = [sys.executable, "-m", "poolboard.cli", "emulate-board"]

    def launch() -> tuple[subprocess.Popen[str], Path]:
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert process.stdout is not None
        return process, Path(process.stdout.readline().strip()).parent

    process, folder = launch()
    process.send_signal(signal.SIGTERM)  # a polite stop cleans up at once
    assert process.wait(timeout=10) == 128 + signal.SIGTERM
    assert not folder.exists()

    process, folder = launch()
    firmware = _children(process.pid)  # the micropython process, if that interpreter runs
    process.kill()  # kill -9: nothing can run in the emulator
    process.wait(timeout=10)
    assert folder.exists()
    # Its pipes closed: the board powers off.
    wait_for(lambda: not any(_alive(pid) for pid in firmware), "the firmware ending with it")
    process, _ = launch()  # the next emulator sweeps the dead one's folder away
    try:
        assert not folder.exists()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)


def test_a_board_id_longer_than_the_protocol_allows_is_refused() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "emulate-board", "--board-id", "X" * 17],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2
    assert "1-16 bytes" in result.stderr
