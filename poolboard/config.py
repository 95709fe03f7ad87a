"""The service's configuration: a TOML file, every key optional, validated with clear errors.

``load_config(path)`` returns a :class:`Config`; a wrong key or value raises :class:`ConfigError`
naming the file, the key and why (``board.toml: [web] port: expected an integer 1-65535, got
'http'``). docs/config.md lists every key; ``Config()`` is the demo's configuration.
"""

from __future__ import annotations

import os
import tomllib
import unicodedata
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from engine.board import Board, FenError
from engine.clock import TimeControl
from engine.profiles import PROFILES
from poolboard.hall.link import HallLinkConfig, check_hall_link
from poolboard.remote_settings import RemoteLinkConfig, check_remote_link

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


@dataclass(frozen=True)
class SensorConfig:
    """Where occupancy comes from: ``kind`` and the backend's own argument (``spec``)."""

    kind: str = "simulated"
    spec: str = ""  # serial: a device path or "auto"; gpio: a pin-map TOML; camera: a source


@dataclass(frozen=True)
class LedConfig:
    """How cues are shown on the board: none, through the Pico (``serial``) or SPI WS2812."""

    kind: str = "none"
    brightness: float = 0.25  # SPI LEDs; the Pico sets its own (firmware config.py)
    spec: str = ""  # spi: a board file whose [leds] table gives the strip layout (docs/hardware.md)


@dataclass(frozen=True)
class RulesConfig:
    """The rule profile and, optionally, a start position (a problem or handicap game)."""

    profile: str = "apca"
    fen: str = ""


@dataclass(frozen=True)
class ClockConfig:
    """The time control (docs/clock.md syntax) and what switches the clock."""

    time_control: str = "apca-match"
    switch_on: str = "move"  # "move": when a move is recorded; "lever": the players' levers


@dataclass(frozen=True)
class GameConfig:
    """PDN tags written into every recorded game."""

    event: str = "?"
    site: str = "?"
    round: str = "?"
    black: str = "?"
    white: str = "?"


@dataclass(frozen=True)
class StorageConfig:
    """Where games and sensor logs are kept, and how much sensor log to keep."""

    path: str = ""  # empty: the XDG data directory
    sensor_log_max_bytes: int = 20_000_000
    sensor_logs_kept: int = 20

    @property
    def directory(self) -> Path:
        """The storage folder as a path."""
        return Path(self.path).expanduser() if self.path else default_data_dir()


@dataclass(frozen=True)
class WebConfig:
    """The web UI's address; ``port`` 0 picks a free one."""

    host: str = "127.0.0.1"
    port: int = 8080


@dataclass(frozen=True)
class RefereeConfig:
    """The referee console's credentials (HTTP Basic); no password: the console is closed."""

    username: str = "referee"
    password: str = ""


@dataclass(frozen=True)
class TrackerTimings:
    """Optional overrides of the tracker's timings (seconds; docs/tracker.md)."""

    debounce: float = 0.040
    settle: float = 0.300
    incomplete_jump: float = 60.0  # a capture left standing this long is incomplete (R-CAP-3)


@dataclass(frozen=True)
class OpponentConfig:
    """Who plays the other side off the board (docs/opponents.md): ``kind`` none or engine,
    the ``side`` it plays and, for the engine, its ``level`` 1-10 (engine/levels.py)."""

    kind: str = "none"
    side: str = "white"
    level: int = 5


@dataclass(frozen=True)
class Config:
    """The whole configuration; every section has working defaults (the demo's)."""

    sensor: SensorConfig = field(default_factory=SensorConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    rules: RulesConfig = field(default_factory=RulesConfig)
    clock: ClockConfig = field(default_factory=ClockConfig)
    game: GameConfig = field(default_factory=GameConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    web: WebConfig = field(default_factory=WebConfig)
    referee: RefereeConfig = field(default_factory=RefereeConfig)
    tracker: TrackerTimings = field(default_factory=TrackerTimings)
    hall: HallLinkConfig = field(default_factory=HallLinkConfig)  # docs/hall.md
    opponent: OpponentConfig = field(default_factory=OpponentConfig)  # docs/opponents.md
    remote: RemoteLinkConfig = field(default_factory=RemoteLinkConfig)  # docs/remote.md


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


def config_from_mapping(data: dict[str, Any], name: str = "config") -> Config:
    """Build a :class:`Config` from parsed TOML, checking every section, key and value."""
    defaults = Config()
    sections = {f.name: getattr(defaults, f.name) for f in fields(Config)}
    unknown = sorted(set(data) - set(sections))
    if unknown:
        raise ConfigError(
            f"{name}: unknown section [{unknown[0]}]; the sections are "
            + ", ".join(f"[{s}]" for s in sections)
        )
    built = {}
    for section, default in sections.items():
        value = data.get(section, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{name}: [{section}] must be a table, got {value!r}")
        built[section] = _section(default, value, f"{name}: [{section}]")
    config = Config(**built)
    _check(config, name)
    return config


def _section(defaults: Any, values: dict[str, Any], where: str) -> Any:
    kinds = {f.name: type(getattr(defaults, f.name)) for f in fields(defaults)}
    unknown = sorted(set(values) - set(kinds))
    if unknown:
        raise ConfigError(f"{where} {unknown[0]}: unknown key; expected one of {', '.join(kinds)}")
    checked = {}
    for key, value in values.items():
        kind = kinds[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise ConfigError(f"{where} {key}: expected {_KIND_NAMES[kind]}, got {value!r}")
        checked[key] = value
    return type(defaults)(
        **{**{f.name: getattr(defaults, f.name) for f in fields(defaults)}, **checked}
    )


_KIND_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}


def _check(config: Config, name: str) -> None:
    def fail(where: str, why: str) -> None:
        raise ConfigError(f"{name}: [{where}: {why}")

    if config.sensor.kind not in SENSORS:
        fail("sensor] kind", f"expected one of {', '.join(SENSORS)}, got {config.sensor.kind!r}")
    if config.sensor.kind in ("serial", "gpio", "camera") and not config.sensor.spec:
        fail("sensor] spec", f"a {config.sensor.kind} sensor needs a spec (docs/config.md)")
    if config.leds.kind not in LED_KINDS:
        fail("leds] kind", f"expected one of {', '.join(LED_KINDS)}, got {config.leds.kind!r}")
    if config.leds.kind == "serial" and config.sensor.kind != "serial":
        fail("leds] kind", "serial LEDs are driven by the Pico: [sensor] kind must be serial")
    if not 0.0 <= config.leds.brightness <= 1.0:
        fail("leds] brightness", f"expected 0.0-1.0, got {config.leds.brightness}")
    if config.rules.profile not in PROFILES:
        fail(
            "rules] profile", f"expected one of {', '.join(PROFILES)}, got {config.rules.profile!r}"
        )
    if config.rules.fen:
        try:
            Board(config.rules.fen)
        except FenError as error:
            fail("rules] fen", str(error))
    try:
        TimeControl.from_string(config.clock.time_control)
    except ValueError as error:
        fail("clock] time_control", str(error))
    if config.clock.switch_on not in ("move", "lever"):
        fail("clock] switch_on", f"expected move or lever, got {config.clock.switch_on!r}")
    if not config.web.host.strip():
        fail(
            "web] host",
            'empty would listen on every interface: write "0.0.0.0" (or "::") for that, '
            '"127.0.0.1" for this machine only',
        )
    if not 0 <= config.web.port <= 65535:
        fail("web] port", f"expected an integer 0-65535, got {config.web.port}")
    if config.storage.sensor_log_max_bytes < 10_000:
        fail("storage] sensor_log_max_bytes", "expected at least 10000 bytes per log file")
    if config.storage.sensor_logs_kept < 1:
        fail("storage] sensor_logs_kept", "expected at least 1 log file kept")
    for key in ("event", "site", "round", "black", "white"):
        if _has_control(getattr(config.game, key)):
            fail(f"game] {key}", "a PDN tag cannot hold a line break, tab or control character")
    if ":" in config.referee.username:
        fail("referee] username", "cannot hold ':' (HTTP Basic credentials are name:password)")
    for key in ("username", "password"):
        if _has_control(getattr(config.referee, key)):
            fail(f"referee] {key}", "cannot hold a line break, tab or control character")
    if (hall_problem := check_hall_link(config.hall)) is not None:
        fail(f"hall] {hall_problem[0]}", hall_problem[1])
    opponent = config.opponent
    if opponent.kind not in OPPONENT_KINDS:
        fail(
            "opponent] kind", f"expected one of {', '.join(OPPONENT_KINDS)}, got {opponent.kind!r}"
        )
    if opponent.side not in ("black", "white"):
        fail("opponent] side", f"expected black or white, got {opponent.side!r}")
    if not 1 <= opponent.level <= 10:
        fail("opponent] level", f"expected a level 1-10, got {opponent.level}")
    if (remote_problem := check_remote_link(config.remote)) is not None:
        fail(f"remote] {remote_problem[0]}", remote_problem[1])
    if (opponent.kind == "remote") != config.remote.enabled:
        fail(
            "opponent] kind",
            'kind = "remote" and a [remote] broker go together (docs/remote.md)',
        )
    timings = config.tracker
    for key, most in (("debounce", 30.0), ("settle", 30.0), ("incomplete_jump", 600.0)):
        if not 0.0 <= getattr(timings, key) <= most:
            fail(f"tracker] {key}", f"expected 0-{most:g} seconds, got {getattr(timings, key)}")


def _has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (Unicode category Cc: tab, newline, NUL...)."""
    return any(unicodedata.category(char) == "Cc" for char in text)
