"""Config files: defaults, every section, and errors that name the bad key."""

from pathlib import Path

import pytest

from poolboard.config import Config, ConfigError, default_data_dir, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(text)
    return path


def test_no_file_gives_the_demo_defaults() -> None:
    config = load_config(None)
    assert config == Config()
    assert config.sensor.kind == "simulated" and config.rules.profile == "apca"


def test_storage_defaults_to_the_xdg_data_directory(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / "poolboard"
    assert Config().storage.directory == tmp_path / "poolboard"


def test_a_full_file_is_read(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path,
            """
[sensor]
kind = "serial"
spec = "auto"
[leds]
kind = "serial"
brightness = 0.2
[rules]
profile = "casual"
fen = "B:W21-32:B1-12"
[clock]
time_control = "300+5"
switch_on = "lever"
[game]
event = "Club night"
black = "Ann"
white = "Bob"
[storage]
path = "~/games"
[web]
host = "0.0.0.0"
port = 8000
[referee]
password = "s3cret"
[tracker]
settle = 0.25
""",
        )
    )
    assert config.sensor.spec == "auto" and config.leds.brightness == 0.2
    assert config.rules.profile == "casual" and config.clock.switch_on == "lever"
    assert config.game.black == "Ann" and config.web.port == 8000
    assert config.storage.directory == Path("~/games").expanduser()
    assert config.tracker.settle == 0.25


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[web]\nport = 'http'", "[web] port: expected an integer, got 'http'"),
        ("[web]\nport = 70000", "[web] port: expected an integer 0-65535"),
        ("[websocket]\nport = 1", "unknown section [websocket]"),
        ("[rules]\nprofil = 'apca'", "[rules] profil: unknown key"),
        ("[rules]\nprofile = 'fide'", "[rules] profile: expected one of apca, classic, casual"),
        ("[rules]\nfen = 'X:1'", "[rules] fen: FEN 'X:1'"),
        ("[sensor]\nkind = 'serial'", "[sensor] spec: a serial sensor needs a spec"),
        ("[sensor]\nkind = 'laser'", "[sensor] kind: expected one of simulated"),
        ("[leds]\nkind = 'serial'", "[leds] kind: serial LEDs are driven by the Pico"),
        ("[leds]\nbrightness = 2", "[leds] brightness: expected 0.0-1.0"),
        ("[clock]\nswitch_on = 'voice'", "[clock] switch_on: expected move or lever"),
        ("[clock]\ntime_control = '5 minutes'", "[clock] time_control: time control '5 minutes'"),
        ("[tracker]\nsettle = true", "[tracker] settle: expected a number, got True"),
        ("web = 3", "[web] must be a table"),
        ("[web\nport = 1", "not valid TOML"),
    ],
)
def test_errors_name_the_key_and_why(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(write(tmp_path, text))
    assert message in str(raised.value)
    assert str(raised.value).startswith(str(tmp_path / "board.toml"))


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the config file"):
        load_config(tmp_path / "nope.toml")
