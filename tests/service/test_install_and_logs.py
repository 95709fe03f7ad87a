"""The systemd unit and the rotating sensor logs."""

import getpass
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
            getpass.getuser(),
            "--unit-dir",
            str(tmp_path),
            "--no-start",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    unit = (tmp_path / "poolboard.service").read_text()
    assert f"run --config {config}" in unit and f"User={getpass.getuser()}" in unit
    assert "Restart=on-failure" in unit and "WantedBy=multi-user.target" in unit
    # lgpio (Pi 5) writes a notification file in the working directory: one it may write
    assert "RuntimeDirectory=poolboard" in unit and "WorkingDirectory=/run/poolboard" in unit
    assert "LimitNOFILE=65536" in unit


def test_the_generated_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    """systemd's own checker: every directive known and well-formed, ExecStart runnable."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    config = tmp_path / "board.toml"
    config.write_text("")
    command = [sys.executable, "-m", "poolboard.cli", "install-service", "--config", str(config)]
    unit_text = subprocess.run(
        [*command, "--user", getpass.getuser(), "--print"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    unit = tmp_path / "poolboard.service"
    unit.write_text(unit_text)
    result = subprocess.run(
        [analyze, "verify", "--man=no", str(unit)], capture_output=True, text=True
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr
    broken = tmp_path / "broken.service"  # the check itself is live: a bad value is reported
    broken.write_text(unit_text.replace("LimitNOFILE=65536", "LimitNOFILE=lots"))
    result = subprocess.run(
        [analyze, "verify", "--man=no", str(broken)], capture_output=True, text=True
    )
    assert "LimitNOFILE" in result.stderr or "lots" in result.stderr


def test_install_service_will_not_run_the_service_as_an_unknown_user(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text("")
    result = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "install-service", "--config", str(config)]
        + ["--user", "no-such-user-here", "--print"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "no user 'no-such-user-here'" in result.stderr


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
