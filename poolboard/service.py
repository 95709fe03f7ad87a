"""Build a running session from a configuration: the sensor, the LED display, the session."""

from __future__ import annotations

import dataclasses
import logging
import signal
import threading
import tomllib
from collections.abc import Callable

from engine.sensing import CueDisplay, Sensor
from poolboard.config import Config, ConfigError
from poolboard.sensor_spec import open_sensor
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard


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
    layout = dataclasses.replace(layout, brightness=config.leds.brightness)
    return [SpiCueDisplay(layout)]


def build_session(config: Config) -> Session:
    """Open the configured sensor and displays and the store, resuming any unfinished game."""
    sensor = open_configured_sensor(config)
    try:
        displays = open_configured_displays(config, sensor)
    except BaseException:
        sensor.close()
        raise
    return Session(config, sensor, displays)


def serve(session: Session, *, web: bool, announce: Callable[[str], None] = print) -> None:
    """Run the session until SIGTERM or SIGINT, with the web UI unless ``web`` is false."""
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    worker = threading.Thread(target=session.run, args=(stop,), name="session", daemon=True)
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
        worker.join(timeout=5)
        session.close()
        logging.getLogger("poolboard").info("stopped")
