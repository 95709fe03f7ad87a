"""``poolboard doctor``: check a board before play: sensor, LEDs, storage and clock."""

from __future__ import annotations

import argparse
import shutil
import socket
import sqlite3
import time

from engine.board import Board
from engine.clock import TimeControl
from engine.cues import CueKind, Cues
from engine.pdn import write_game
from engine.sensing import LinkHealth, Sensor, SensorFault, Snapshot
from poolboard.commands.demo import demo_data_dir
from poolboard.config import Config, ConfigError, StorageConfig, load_config
from poolboard.sensor_spec import SensorSpecError
from poolboard.service import open_configured_displays, open_configured_sensor
from poolboard.storage import (
    DamagedGame,
    DataFolderBusy,
    DataFolderLock,
    GameStore,
    StorageError,
    StoredGame,
)
from poolboard.voice import VoiceUnavailable, check_program
from poolboard.voice.phrases import Phrasebook
from poolboard.voice.speaker import Speaker


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check the sensor, LEDs, storage, clock, web port and hall a config describes",
        description="Check everything a board needs; exit 1 if anything fails.",
    )
    parser.add_argument(
        "--config", default=None, help="config file (default: the demo's, and its games folder)"
    )
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="how long to wait for the sensor (default 5)"
    )
    parser.set_defaults(handler=run)


def _report(ok: bool, what: str, detail: str) -> bool:
    print(f"{'ok  ' if ok else 'FAIL'}  {what:8s} {detail}", flush=True)
    return ok


def check_storage(config: Config) -> bool:
    """The store opens, SQLite finds the file intact, and every game replays and writes as PDN
    (what ``export`` needs); each damaged game is named with the reason."""
    directory = config.storage.directory
    path = directory / "games.sqlite3"
    try:
        if not path.exists():
            GameStore(path).close()  # a new folder: show it can hold the database
        store = GameStore(path, read_only=True)
        integrity = store.integrity()
        games = store.games()
        store.close()
        damaged = [game for game in games if isinstance(game, DamagedGame)]
        for game in games:
            if isinstance(game, StoredGame):
                write_game(game.record())
    except StorageError as error:  # it names the file
        return _report(False, "storage", str(error))
    except (OSError, sqlite3.Error, ValueError) as error:
        return _report(False, "storage", f"{directory}: {error}")
    for game in damaged:
        _report(False, "storage", f"game {game.id} is damaged: {game.reason}")
    free = shutil.disk_usage(directory).free / 1e9
    ok = integrity == "ok" and free > 0.1 and not damaged
    return _report(
        ok,
        "storage",
        f"{path}: {len(games)} games ({len(damaged)} damaged), integrity {integrity}, "
        f"{free:.1f} GB free",
    )


def check_clock(config: Config) -> bool:
    control = TimeControl.from_string(config.clock.time_control)
    return _report(True, "clock", f"{control} (switched on each {config.clock.switch_on})")


def check_voice(config: Config) -> bool:
    """With ``[voice] enabled``: espeak-ng is installed and says a sentence on the audio
    output (docs/voice.md)."""
    settings = config.voice
    try:
        program = check_program(settings)
    except VoiceUnavailable as error:
        return _report(False, "voice", str(error).removeprefix("voice: "))
    speaker = Speaker(settings, config.voice_language)
    if not speaker.say(Phrasebook(config.voice_language).move("11-15", None) + "."):
        return _report(False, "voice", speaker.problem)
    return _report(True, "voice", f"{program} said 11-15 ({config.voice_language})")


def check_sensor_and_leds(config: Config, seconds: float) -> bool:
    try:
        sensor = open_configured_sensor(config)
    except (SensorSpecError, OSError, ValueError) as error:
        return _report(False, "sensor", str(error))
    try:
        if config.sensor.kind == "simulated":
            ok = _report(True, "sensor", "simulated board (the demo's): nothing to read")
        else:
            ok = _read_sensor(sensor, seconds)
        try:
            displays = open_configured_displays(config, sensor)
        except (ConfigError, OSError, ValueError) as error:
            return _report(False, "leds", str(error))
        if not displays:
            return _report(True, "leds", "none configured") and ok
        every_square = Cues({square: CueKind.CONFIRM for square in range(1, 33)})
        for display in displays:
            display.show(every_square)
        time.sleep(1.0)
        for display in displays:
            display.show(Cues.none())
        return (
            _report(True, "leds", "lit every square green for a second: did all 32 light?") and ok
        )
    finally:
        sensor.close()


def _read_sensor(sensor: Sensor, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    snapshot = None
    faults = []
    while time.monotonic() < deadline and snapshot is None:
        event = sensor.read(timeout=0.2)
        if isinstance(event, Snapshot):
            snapshot = event
        elif isinstance(event, SensorFault):
            faults.append(event.message)
        elif isinstance(event, LinkHealth) and not event.connected:
            faults.append(f"link down: {event.detail}")
    if snapshot is None:
        return _report(False, "sensor", f"no reading in {seconds:g} s; " + "; ".join(faults))
    start = Board().occupied_squares()
    where = "the start position" if snapshot.occupied == start else "not the start position"
    _report(True, "sensor", f"{len(snapshot.occupied)} pieces on the board ({where})")
    for fault in faults:
        _report(False, "sensor", fault)
    return not faults


def check_hall(config: Config) -> bool:
    """With a ``[hall]`` broker: it answers, takes the table's credentials and its ACL lets the
    table read its actions (docs/hall.md). Not while this table records here: the broker names
    a connection after its user, so logging in as the table would close the table's own."""
    if not config.hall.enabled:
        return _report(True, "hall", "not in a hall ([hall] broker is empty)")
    try:
        DataFolderLock.acquire(config.storage.directory).release()
    except DataFolderBusy as busy:
        return _report(
            True,
            "hall",
            f"not logging in as table {config.hall.table!r}: it is running here (PID "
            f"{busy.holder}) and would lose the broker for a moment; the hall's page shows "
            "whether it is online",
        )
    except StorageError:
        pass  # the storage check names what is wrong with the folder
    from poolboard.hall.probe import probe_hall

    ok, detail = probe_hall(config.hall)
    return _report(ok, "hall", detail)


def check_web(config: Config) -> bool:
    """The pages' port is free (or 0: any free port)."""
    host, port = config.web.host, config.web.port
    if port == 0:
        return _report(True, "web", f"{host}: any free port (port = 0)")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        try:
            probe.bind((host, port))
        except OSError as error:
            return _report(
                False,
                "web",
                f"{host}:{port} is not free ({error.strerror}): is poolboard already running, "
                "or another program on that port? Set [web] port",
            )
    return _report(True, "web", f"{host}:{port} is free")


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as error:
        _report(False, "config", str(error))
        return 1
    if args.config is None:  # the demo's settings, so the folder its games are kept in
        config = config.model_copy(update={"storage": StorageConfig(path=str(demo_data_dir()))})
    _report(True, "config", args.config or "defaults (the demo's)")
    results = [
        check_storage(config),
        check_clock(config),
        check_sensor_and_leds(config, args.seconds),
        check_web(config),
        check_hall(config),
    ]
    if config.voice.enabled:
        results.append(check_voice(config))
    if config.sensor.kind == "gpio":  # on a Pi 5: rpi-lgpio on pinctrl-rp1
        from hardware.gpio import describe_gpio

        _report(True, "gpio", describe_gpio())
    return 0 if all(results) else 1
