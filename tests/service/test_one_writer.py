"""One writer per data folder: a second service stops with the PID of the first; readers go on.

Real processes throughout: ``poolboard run`` and ``poolboard demo`` as the operator starts them,
the lock is the kernel's ``flock``, and ``kill -9`` is how the first one ends.
"""

from pathlib import Path

import pytest

from tests.poolboard_cli import poolboard


def test_a_second_service_on_one_folder_stops_naming_the_first(tmp_path: Path, services) -> None:
    data = tmp_path / "data"
    config = tmp_path / "board.toml"
    config.write_text(f'[sensor]\nkind = "simulated"\n[storage]\npath = "{data}"\n')
    first = services("run", "--no-web", "--config", str(config))
    assert "recording to" in first.lines[-1], first.log.read_text()

    second = poolboard("run", "--no-web", "--config", str(config))
    assert second.returncode == 2
    assert f"{data} is in use by another poolboard process (PID {first.pid})" in second.stderr
    assert "Traceback" not in second.stderr and len(second.stderr.splitlines()) == 1

    # Readers open the file read-only and work alongside the writer.
    listed = poolboard("games", "--config", str(config), "--json")
    assert listed.returncode == 0 and '"id": 1' in listed.stdout, listed.stderr
    exported = poolboard("export", "--config", str(config))
    assert exported.returncode == 0 and '[Result "*"]' in exported.stdout, exported.stderr
    doctor = poolboard("doctor", "--config", str(config), "--seconds", "0")
    assert "ok    storage" in doctor.stdout and "1 games (0 damaged)" in doctor.stdout

    first.kill()  # SIGKILL: the kernel releases the lock
    third = services("run", "--no-web", "--config", str(config))
    assert "recording to" in third.lines[-1], third.log.read_text()


def test_a_second_demo_stops_too(tmp_path: Path, services, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first = services("demo", "--port", "0")
    assert first.url, first.log.read_text()
    second = poolboard("demo", "--port", "0")
    folder = tmp_path / "poolboard" / "demo"
    assert second.returncode == 2
    assert f"{folder} is in use by another poolboard process (PID {first.pid})" in second.stderr
    assert "Traceback" not in second.stderr
