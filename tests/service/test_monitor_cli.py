"""``poolboard monitor`` prints a real sensor's events as JSON lines (here: the emulated Pico)."""

import json
import subprocess
import sys
from pathlib import Path


def test_monitor_prints_snapshots_and_lever_presses(tmp_path: Path, emulator) -> None:
    emulator.set(frozenset({1, 2, 3}))
    monitor = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "poolboard.cli",
            "monitor",
            "--sensor",
            f"serial:{emulator.port}",
            "--seconds",
            "4",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen = []  # until the board as it stands is reported: the monitor is reading
    while not seen or seen[-1].get("occupied") != [1, 2, 3]:
        line = monitor.stdout.readline()
        assert line, monitor.stderr.read()
        seen.append(json.loads(line))
    emulator.set(frozenset({1, 2, 3, 17}))
    emulator.process.stdin.write("lever white\n")
    emulator.process.stdin.flush()
    emulator.process.stdout.readline()
    out, err = monitor.communicate(timeout=30)
    assert monitor.returncode == 0, err
    lines = seen + [json.loads(line) for line in out.splitlines()]
    snapshots = [line["occupied"] for line in lines if "occupied" in line]
    assert [1, 2, 3] in snapshots and snapshots[-1] == [1, 2, 3, 17]
    assert {"lever": "white"}.items() <= next(x for x in lines if "lever" in x).items()
    assert any(line.get("link") == "up" for line in lines)


def test_monitor_names_an_unknown_sensor() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "monitor", "--sensor", "radar:1"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "unknown sensor 'radar:1'" in result.stderr
