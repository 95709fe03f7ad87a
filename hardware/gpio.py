"""The seam between devices and the GPIO library: the RPi.GPIO API as a protocol, loaded lazily.

Devices (the matrix scanner, the levers) take an object with the RPi.GPIO API. On a Pi it is the
real module: ``RPi.GPIO`` on a Pi 4 or older, the ``rpi-lgpio`` drop-in on a Pi 5; which one is
installed is chosen at install time (extras ``gpio`` / ``gpio-pi5``), never in code. Tests pass a
:class:`hardware.sim_gpio.SimGPIO` instead; the simulation is never picked by default.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Protocol


class GPIOModule(Protocol):
    """The part of the RPi.GPIO API the devices use (BCM numbering)."""

    BCM: int
    OUT: int
    IN: int
    LOW: int
    PUD_UP: int

    def setmode(self, mode: int) -> None: ...

    def setup(
        self,
        channel: int | Iterable[int],
        direction: int,
        pull_up_down: int | None = ...,
        initial: int | None = ...,
    ) -> None: ...

    def input(self, channel: int) -> int: ...

    def cleanup(self, chanlist: int | Iterable[int] | None = ...) -> None: ...


class GPIOUnavailable(RuntimeError):
    """The GPIO library is missing or refuses to run here; the message says what to install."""


INSTALL_HINT = (
    "install the GPIO extra for this Pi: pip install 'poolboard[gpio]' on a Pi 4 or older,"
    " pip install 'poolboard[gpio-pi5]' on a Pi 5 (never both)"
)


def load_rpi_gpio() -> GPIOModule:
    """Import ``RPi.GPIO`` (the real module or rpi-lgpio's) only now, when a device needs it."""
    try:
        return importlib.import_module("RPi.GPIO")  # type: ignore[return-value]
    except ImportError as error:
        raise GPIOUnavailable(f"RPi.GPIO is not installed ({error}); {INSTALL_HINT}") from None
    except RuntimeError as error:  # raised at import when not on a Pi, or RPi.GPIO on a Pi 5
        raise GPIOUnavailable(f"RPi.GPIO cannot run here: {error}; {INSTALL_HINT}") from None
