"""The service's configuration: a TOML file, every key optional, validated with clear errors.

One pydantic model per section (:class:`Section`): ``load_config(path)`` returns a
:class:`Config`; a wrong key or value raises :class:`ConfigError` naming the file, the key and
why (``board.toml: [web] port: expected an integer, got 'http'``). docs/config.md lists every
key; ``Config()`` is the demo's configuration.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

from pydantic import ValidationError, field_validator
from pydantic_core import ErrorDetails

from engine.board import Board, FenError
from engine.clock import TimeControl
from engine.profiles import PROFILES
from poolboard.hall.link import HallLinkConfig, check_hall_link
from poolboard.locale import LANGUAGES
from poolboard.remote.settings import RemoteLinkConfig, check_remote_link
from poolboard.section import Section, between, no_control, one_of

SENSORS = ("simulated", "serial", "gpio", "camera")
LED_KINDS = ("none", "serial", "spi")
#: Who plays the other side (docs/opponents.md): nobody (two players at the board) or the engine;
#: or a board far away (docs/remote.md).
OPPONENT_KINDS = ("none", "engine", "remote")


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the key and why."""


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/poolboard``, i.e. ``~/.local/share/poolboard`` by default."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "poolboard"


_TAG = Annotated[str, no_control("a PDN tag cannot hold a line break, tab or control character")]
_CREDENTIAL = Annotated[str, no_control("cannot hold a line break, tab or control character")]
_SECONDS = Annotated[float, between(0.0, 30.0, "0-30 seconds")]


class SensorConfig(Section):
    """Where occupancy comes from: ``kind`` and the backend's own argument (``spec``)."""

    kind: Annotated[str, one_of(*SENSORS)] = "simulated"
    spec: str = ""  # serial: a device path or "auto"; gpio: a pin-map TOML; camera: a source


class LedConfig(Section):
    """How cues are shown on the board: none, through the Pico (``serial``) or SPI WS2812."""

    kind: Annotated[str, one_of(*LED_KINDS)] = "none"
    # SPI LEDs; the Pico sets its own (firmware config.py)
    brightness: Annotated[float, between(0.0, 1.0, "0.0-1.0")] = 0.25
    spec: str = ""  # spi: a board file whose [leds] table gives the strip layout (docs/hardware.md)


class RulesConfig(Section):
    """The rule profile and, optionally, a start position (a problem or handicap game)."""

    profile: Annotated[str, one_of(*PROFILES)] = "apca"
    fen: str = ""

    @field_validator("fen")
    @classmethod
    def _fen(cls, fen: str) -> str:
        if fen:
            try:
                Board(fen)
            except FenError as error:
                raise ValueError(str(error)) from None
        return fen


class ClockConfig(Section):
    """The time control (docs/clock.md syntax) and what switches the clock."""

    time_control: str = "apca-match"
    # "move": when a move is recorded; "lever": the players' levers
    switch_on: Annotated[str, one_of("move", "lever")] = "move"

    @field_validator("time_control")
    @classmethod
    def _time_control(cls, text: str) -> str:
        TimeControl.from_string(text)  # its ValueError names what is wrong
        return text


class GameConfig(Section):
    """PDN tags written into every recorded game."""

    event: _TAG = "?"
    site: _TAG = "?"
    round: _TAG = "?"
    black: _TAG = "?"
    white: _TAG = "?"


class StorageConfig(Section):
    """Where games and sensor logs are kept, and how much sensor log to keep."""

    path: str = ""  # empty: the XDG data directory
    sensor_log_max_bytes: Annotated[
        int, between(10_000, float("inf"), "at least 10000 bytes per log file")
    ] = 20_000_000
    sensor_logs_kept: Annotated[int, between(1, float("inf"), "at least 1 log file kept")] = 20

    @property
    def directory(self) -> Path:
        """The storage folder as a path."""
        return Path(self.path).expanduser() if self.path else default_data_dir()


class WebConfig(Section):
    """The web UI's address; ``port`` 0 picks a free one."""

    host: str = "127.0.0.1"
    port: Annotated[int, between(0, 65535, "an integer 0-65535")] = 8080

    @field_validator("host")
    @classmethod
    def _host(cls, host: str) -> str:
        if not host.strip():
            raise ValueError(
                'empty would listen on every interface: write "0.0.0.0" (or "::") for that, '
                '"127.0.0.1" for this machine only'
            )
        return host


class RefereeConfig(Section):
    """The referee console's credentials (HTTP Basic); no password: the console is closed."""

    username: _CREDENTIAL = "referee"
    password: _CREDENTIAL = ""

    @field_validator("username")
    @classmethod
    def _username(cls, username: str) -> str:
        if ":" in username:
            raise ValueError("cannot hold ':' (HTTP Basic credentials are name:password)")
        return username


class TrackerTimings(Section):
    """Optional overrides of the tracker's timings (seconds; docs/tracker.md)."""

    debounce: _SECONDS = 0.040
    settle: _SECONDS = 0.300
    #: A capture left standing this long is incomplete (R-CAP-3); a reminder comes first.
    incomplete_jump: Annotated[float, between(0.0, 600.0, "0-600 seconds")] = 60.0


class OpponentConfig(Section):
    """Who plays the other side off the board (docs/opponents.md): ``kind`` none or engine,
    the ``side`` it plays and, for the engine, its ``level`` 1-10 (engine/levels.py)."""

    kind: Annotated[str, one_of(*OPPONENT_KINDS)] = "none"
    side: Annotated[str, one_of("black", "white")] = "white"
    level: Annotated[int, between(1, 10, "a level 1-10")] = 5


class DisplayConfig(Section):
    """The language of the pages, the messages and the voice (docs/voice.md)."""

    language: Annotated[str, one_of(*LANGUAGES)] = "en"


class VoiceConfig(Section):
    """The board's voice (docs/voice.md): espeak-ng to the default audio output, saying the
    game as it goes; each kind of announcement can be turned off."""

    enabled: bool = False
    #: The voice's language; empty: the one ``[display] language`` sets.
    language: str = ""
    volume: Annotated[int, between(0, 200, "0-200 (espeak-ng's amplitude; 100 is normal)")] = 100
    rate: Annotated[int, between(80, 450, "80-450 words a minute")] = 160
    program: str = "espeak-ng"
    moves: bool = True
    crownings: bool = True
    turns: bool = True
    violations: bool = True
    clock: bool = True
    pauses: bool = True
    results: bool = True
    opponent: bool = True

    @field_validator("language")
    @classmethod
    def _language(cls, language: str) -> str:
        if language and language not in LANGUAGES:
            raise ValueError(
                f"expected {' or '.join(LANGUAGES)} (or leave it out: the [display] language), "
                f"got {language!r}"
            )
        return language

    @field_validator("program")
    @classmethod
    def _program(cls, program: str) -> str:
        if not program.strip():
            raise ValueError('empty: leave it out for "espeak-ng", or give the program to run')
        return program


class Config(Section):
    """The whole configuration; every section has working defaults (the demo's)."""

    sensor: SensorConfig = SensorConfig()
    leds: LedConfig = LedConfig()
    rules: RulesConfig = RulesConfig()
    clock: ClockConfig = ClockConfig()
    game: GameConfig = GameConfig()
    storage: StorageConfig = StorageConfig()
    web: WebConfig = WebConfig()
    referee: RefereeConfig = RefereeConfig()
    tracker: TrackerTimings = TrackerTimings()
    hall: HallLinkConfig = HallLinkConfig()  # docs/hall.md
    opponent: OpponentConfig = OpponentConfig()  # docs/opponents.md
    remote: RemoteLinkConfig = RemoteLinkConfig()  # docs/remote.md
    display: DisplayConfig = DisplayConfig()  # docs/voice.md
    voice: VoiceConfig = VoiceConfig()  # docs/voice.md

    @property
    def voice_language(self) -> str:
        """The language the board speaks: ``[voice] language``, else ``[display]``'s."""
        return self.voice.language or self.display.language


def load_config(path: str | Path | None, *, require_sensor: bool = False) -> Config:
    """Read and validate a config file; ``None`` gives the defaults. ``require_sensor``: the
    file must say which sensor reads the board (``poolboard run``: never the simulated board
    by default)."""
    if path is None:
        return Config()
    name = str(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as error:
        raise ConfigError(f"{name}: cannot read the config file: {error.strerror}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))  # a BOM is allowed, as Notepad writes one
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"{name}: not UTF-8 text (byte {raw[error.start]:#04x} at offset {error.start}): "
            "save the config file as UTF-8"
        ) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{name}: not valid TOML: {error}") from None
    config = config_from_mapping(data, name)
    if require_sensor and "kind" not in data.get("sensor", {}):
        real = ", ".join(kind for kind in SENSORS if kind != "simulated")
        raise ConfigError(
            f"{name}: [sensor] kind: not set; say which sensor reads the board ({real}), "
            'or kind = "simulated" to run without one'
        )
    return config


def config_from_mapping(data: Mapping[str, object], name: str = "config") -> Config:
    """Build a :class:`Config` from parsed TOML, checking every section, key and value."""
    try:
        config = Config.model_validate(data)
    except ValidationError as error:
        raise ConfigError(f"{name}: {_explain(error.errors()[0])}") from None
    _check(config, name)
    return config


_KIND_NAMES = {
    "string_type": "a string",
    "int_type": "an integer",
    "float_type": "a number",
    "bool_type": "true or false",
}


def _explain(error: ErrorDetails) -> str:
    """One pydantic error as ``[section] key: why``."""
    location = [str(part) for part in error["loc"]]
    kind = error["type"]
    if len(location) == 1:
        section = location[0]
        if kind == "extra_forbidden":
            return f"unknown section [{section}]; the sections are " + ", ".join(
                f"[{s}]" for s in Config.model_fields
            )
        return f"[{section}] must be a table, got {error['input']!r}"
    where = f"[{location[0]}] {' '.join(location[1:])}"
    if kind == "extra_forbidden":
        keys = getattr(Config.model_fields[location[0]].annotation, "model_fields", {})
        return f"{where}: unknown key; expected one of {', '.join(keys)}"
    if kind in _KIND_NAMES:
        return f"{where}: expected {_KIND_NAMES[kind]}, got {error['input']!r}"
    return f"{where}: {error['msg'].removeprefix('Value error, ')}"


def _check(config: Config, name: str) -> None:
    """The rules between keys and sections, once every value is of its type and range."""

    def fail(where: str, why: str) -> None:
        raise ConfigError(f"{name}: [{where}: {why}")

    if config.sensor.kind in ("serial", "gpio", "camera") and not config.sensor.spec:
        fail("sensor] spec", f"a {config.sensor.kind} sensor needs a spec (docs/config.md)")
    if config.leds.kind == "serial" and config.sensor.kind != "serial":
        fail("leds] kind", "serial LEDs are driven by the Pico: [sensor] kind must be serial")
    if (hall_problem := check_hall_link(config.hall)) is not None:
        fail(f"hall] {hall_problem[0]}", hall_problem[1])
    if (remote_problem := check_remote_link(config.remote)) is not None:
        fail(f"remote] {remote_problem[0]}", remote_problem[1])
    if (config.opponent.kind == "remote") != config.remote.enabled:
        fail(
            "opponent] kind",
            'kind = "remote" and a [remote] broker go together (docs/remote.md)',
        )
