"""The systemd unit and the rotating sensor logs."""

import subprocess
import sys
from pathlib import Path

from engine.sensing import Snapshot
from poolboard.sensor_log import read_sensor_log
from poolboard.sensor_log_files import RotatingSensorLog


def test_install_service_writes_a_unit_that_runs_the_config(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text("")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "poolboard.cli",
            "install-service",
            "--config",
            str(config),
            "--user",
            "pi",
            "--unit-dir",
            str(tmp_path),
            "--no-start",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    unit = (tmp_path / "poolboard.service").read_text()
    assert f"run --config {config}" in unit and "User=pi" in unit
    assert "Restart=on-failure" in unit and "WantedBy=multi-user.target" in unit


def test_install_service_refuses_a_missing_config(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "poolboard.cli",
            "install-service",
            "--config",
            str(tmp_path / "none.toml"),
            "--print",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "no config file" in result.stderr


def test_sensor_logs_rotate_by_size_and_keep_the_newest(tmp_path: Path) -> None:
    log = RotatingSensorLog(tmp_path, max_bytes=2_000, keep=3)
    events = [Snapshot(float(i), frozenset(range(1, 25))) for i in range(200)]
    for event in events:
        log.write(event)
    log.close()
    files = sorted(tmp_path.glob("sensor-*.jsonl"))
    assert len(files) == 3
    kept = [event for path in files for event in read_sensor_log(path)]
    assert kept == events[-len(kept) :]  # the newest events, in order, none damaged
