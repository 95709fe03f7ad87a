"""``poolboard doctor`` on the demo's config, on the emulated Pico, and on a missing board."""

from pathlib import Path

from tests.service.conftest import doctor


def test_doctor_reads_the_emulated_board_and_lights_its_leds(tmp_path: Path, emulator) -> None:
    emulator.set(frozenset(range(1, 13)) | frozenset(range(21, 33)))
    config = tmp_path / "board.toml"
    config.write_text(
        f'[sensor]\nkind = "serial"\nspec = "{emulator.port}"\n[leds]\nkind = "serial"\n'
        f'[storage]\npath = "{tmp_path / "data"}"\n'
    )
    result = doctor(config)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok    sensor   24 pieces on the board (the start position)" in result.stdout
    assert "ok    leds" in result.stdout and "integrity ok" in result.stdout


def test_doctor_fails_clearly_without_the_board(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text(
        f'[sensor]\nkind = "serial"\nspec = "{tmp_path / "no-such-port"}"\n'
        f'[storage]\npath = "{tmp_path / "data"}"\n'
    )
    result = doctor(config, "--seconds", "1")
    assert result.returncode == 1
    assert "FAIL  sensor" in result.stdout
    assert "Traceback" not in result.stderr


def test_doctor_names_a_bad_config(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text("[web]\nport = 'x'\n")
    result = doctor(config)
    assert (
        result.returncode == 1 and "FAIL  config" in result.stdout and "[web] port" in result.stdout
    )
