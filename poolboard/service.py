"""Build a running session from a configuration: the sensor, the LED display, the session."""

from __future__ import annotations

import dataclasses
import logging
import signal
import threading
import tomllib
from collections.abc import Callable, Sequence

from engine.sensing import CueDisplay, Sensor
from poolboard.config import Config, ConfigError
from poolboard.hall.table import TablePublisher
from poolboard.sensor_spec import open_sensor
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.storage import DataFolderLock
from poolboard.voice import Announcer, VoiceUnavailable, check_program

log = logging.getLogger("poolboard")


def open_configured_sensor(config: Config) -> Sensor:
    """The sensor the ``[sensor]`` section names; the simulated board for ``simulated``."""
    if config.sensor.kind == "simulated":
        return SimulatedBoard()
    return open_sensor(f"{config.sensor.kind}:{config.sensor.spec}")


def open_configured_displays(config: Config, sensor: Sensor) -> list[CueDisplay]:
    """The LED output the ``[leds]`` section names (none, the Pico's chain, or SPI WS2812)."""
    if config.leds.kind == "none":
        return []
    if config.leds.kind == "serial":
        if not isinstance(sensor, CueDisplay):
            raise ConfigError("[leds] kind = serial needs the serial sensor, which drives the LEDs")
        return [sensor]
    from hardware.spi_leds import LedLayout, SpiCueDisplay  # Pi-only extra: imported on demand

    layout = LedLayout()
    if config.leds.spec:
        try:
            with open(config.leds.spec, "rb") as handle:
                table = tomllib.load(handle).get("leds", {})
            layout = LedLayout.from_mapping(table)
        except (OSError, tomllib.TOMLDecodeError, ValueError) as error:
            raise ConfigError(f"[leds] spec {config.leds.spec}: {error}") from None
    layout = dataclasses.replace(layout, brightness=config.leds.brightness)  # one setting: config
    return [SpiCueDisplay(layout)]


def build_session(config: Config, *, resume: bool = True) -> Session:
    """Become the one writer of the data folder (``DataFolderBusy`` naming the PID of the one
    that is), then open the configured sensor, displays and store, resuming any unfinished game
    (unless ``resume`` is false: a new match then). The session holds the folder until it is
    closed or the process ends."""
    folder_lock = DataFolderLock.acquire(config.storage.directory)
    try:
        sensor = open_configured_sensor(config)
    except BaseException:
        folder_lock.release()
        raise
    try:
        displays = open_configured_displays(config, sensor)
        return Session(config, sensor, displays, folder_lock=folder_lock, resume=resume)
    except BaseException:
        sensor.close()
        folder_lock.release()
        raise


def _start_hall_publisher(
    session: Session, announce: Callable[[str], None]
) -> TablePublisher | None:
    """With a ``[hall]`` broker: publish the table to the hall (docs/hall.md); else ``None``."""
    link = session.config.hall
    if not link.enabled:
        return None
    publisher = TablePublisher(session, link)
    publisher.start()
    announce(f"poolboard: table {link.table} publishing to the hall at {link.broker}:{link.port}")
    return publisher


def _start_voice(session: Session, announce: Callable[[str], None]) -> Announcer | None:
    """With ``[voice] enabled``: say the game aloud (docs/voice.md); else, or without
    espeak-ng (one line saying which package to install), ``None``."""
    settings = session.config.voice
    if not settings.enabled:
        return None
    try:
        check_program(settings)
    except VoiceUnavailable as error:
        announce(f"poolboard: {error}")
        return None
    announcer = Announcer(session, settings, session.config.voice_language)
    announcer.start()
    return announcer


def serve(
    session: Session,
    *,
    web: bool,
    announce: Callable[[str], None] = print,
    helpers: Sequence[Callable[[threading.Event], None]] = (),
) -> int:
    """Run the session until SIGTERM or SIGINT, with the web UI unless ``web`` is false;
    ``helpers`` (the demo's autoplayer) run in threads of their own until the same stop.
    Returns the exit status: 1 if the session died, so systemd restarts the service."""
    stop = threading.Event()
    failed: list[BaseException] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())

    def guarded(task: Callable[[threading.Event], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                task(stop)
            except BaseException as error:  # the service must not live on without its session
                log.exception("%s stopped the service", getattr(task, "__qualname__", task))
                failed.append(error)
                stop.set()

        return run

    publisher = _start_hall_publisher(session, announce)
    voice = _start_voice(session, announce)
    workers = [threading.Thread(target=guarded(session.run), name="session", daemon=True)]
    workers += [threading.Thread(target=guarded(h), daemon=True) for h in helpers]
    for worker in workers:
        worker.start()
    try:
        if web:
            from poolboard.web.app import serve_web

            serve_web(session, stop, announce=announce)
        else:
            announce(f"poolboard: recording to {session.store.path} (no web UI)")
            while not stop.wait(0.5):
                pass
    finally:
        stop.set()
        for worker in workers:
            worker.join(timeout=5)
        if publisher is not None:
            publisher.stop()
        if voice is not None:
            voice.stop()
        session.close()
        log.info("stopped")
    return 1 if failed else 0
