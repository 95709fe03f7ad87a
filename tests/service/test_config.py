"""Config files: defaults, every section, and errors that name the bad key."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poolboard.config import Config, ConfigError, config_from_mapping, default_data_dir, load_config


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
        ("[tracker]\nincomplete_jump = 900", "[tracker] incomplete_jump: expected 0-600 seconds"),
        ("web = 3", "[web] must be a table"),
        ("[web\nport = 1", "not valid TOML"),
        ("[web]\nhost = ''", "[web] host: empty would listen on every interface"),
        ("[web]\nhost = '  '", "[web] host: empty would listen on every interface"),
        ('[game]\nevent = "Club\\nnight"', "[game] event: a PDN tag cannot hold a line break"),
        ('[game]\nwhite = "Ann\\tB"', "[game] white: a PDN tag cannot hold a line break, tab"),
        ('[game]\nsite = "a\\u0000b"', "[game] site: a PDN tag cannot hold"),
        ("[referee]\nusername = 'chief:ref'", "[referee] username: cannot hold ':'"),
        ('[referee]\npassword = "pass\\nword"', "[referee] password: cannot hold a line break"),
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


def test_a_non_ascii_password_and_tags_are_fine(tmp_path: Path) -> None:
    config = load_config(
        write(tmp_path, "[referee]\npassword = 'réf-日本'\n[game]\nevent = 'Coupe d’été'\n")
    )
    assert config.referee.password == "réf-日本" and config.game.event == "Coupe d’été"


@pytest.mark.parametrize(
    ("encoding", "byte"),
    [("utf-16", "0xff at offset 0"), ("latin-1", "0xea at offset 17"), ("cp1252", "0xea")],
)
def test_a_file_not_in_utf8_is_one_clear_error(tmp_path: Path, encoding: str, byte: str) -> None:
    path = tmp_path / "board.toml"
    path.write_bytes("[game]\nevent = 'Fête d'été'\n".replace("d'", "d ").encode(encoding))
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    message = str(raised.value)
    assert message.startswith(f"{path}: not UTF-8 text (byte {byte}")
    assert message.endswith("save the config file as UTF-8") and "\n" not in message


def test_a_utf8_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_bytes("[game]\nevent = 'Fête'\n".encode("utf-8-sig"))
    assert load_config(path).game.event == "Fête"


def test_run_needs_the_sensor_named(tmp_path: Path) -> None:
    """A forgotten [sensor] never runs the simulated board by default (poolboard run)."""
    with pytest.raises(ConfigError, match=r"\[sensor\] kind: not set; say which sensor"):
        load_config(write(tmp_path, "[game]\nevent = 'x'\n"), require_sensor=True)
    chosen = load_config(write(tmp_path, "[sensor]\nkind = 'simulated'\n"), require_sensor=True)
    assert chosen.sensor.kind == "simulated"


toml_values = st.recursive(
    st.none().map(lambda _: "")
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(
        ["serial", "gpio", "camera", "simulated", "spi", "apca", "300+5", "B:W21:B1"]
    ),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=6,
)
SECTIONS = {name: list(type(getattr(Config(), name)).model_fields) for name in Config.model_fields}


@st.composite
def config_tables(draw: st.DrawFn) -> dict:
    """Sections and keys the config knows (mostly) with values of any TOML type."""
    sections = {}
    for section in draw(st.lists(st.sampled_from([*SECTIONS, "extra"]), max_size=4)):
        keys = [*SECTIONS.get(section, []), "bogus"]
        sections[section] = {
            key: draw(toml_values) for key in draw(st.lists(st.sampled_from(keys), max_size=4))
        }
    return sections


@settings(max_examples=300, deadline=None)
@given(data=config_tables())
def test_any_mapping_is_a_config_or_a_config_error(data: dict) -> None:
    try:
        config = config_from_mapping(data, "fuzz.toml")
    except ConfigError as error:
        assert str(error).startswith("fuzz.toml: ")
    else:
        assert isinstance(config, Config)


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_file_is_a_config_or_one_config_error(tmp_path_factory, raw: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "board.toml"
    path.write_bytes(raw)
    try:
        load_config(path, require_sensor=True)
    except ConfigError as error:
        assert str(error).startswith(f"{path}: ")
