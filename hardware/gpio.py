"""The seam between devices and the GPIO library: the RPi.GPIO API as a protocol, loaded lazily.

Devices (the matrix scanner, the levers) take an object with the RPi.GPIO API. On a Pi it is the
real module: ``RPi.GPIO`` on a Pi 4 or older, the ``rpi-lgpio`` drop-in on a Pi 5; which one is
installed is chosen at install time (extras ``gpio`` / ``gpio-pi5``), never in code. Tests pass a
:class:`hardware.sim_gpio.SimGPIO` instead; the simulation is never picked by default.
"""

from __future__ import annotations

import fcntl
import importlib
import os
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Protocol


class GPIOModule(Protocol):
    """The part of the RPi.GPIO API the devices use (BCM numbering)."""

    BCM: int
    OUT: int
    IN: int
    LOW: int
    HIGH: int
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

    def output(self, channel: int, value: int) -> None: ...

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
    except OSError as error:  # lgpio makes its notification pipe (.lgd-nfy*) in the cwd
        raise GPIOUnavailable(
            f"the GPIO library failed at import in {os.getcwd()}: {error}. On a Pi 5, lgpio"
            " (rpi-lgpio) creates a notification file in the current directory, which must be"
            " writable: start poolboard from a writable folder (poolboard install-service"
            " gives its unit a WorkingDirectory)"
        ) from None


#: GPIO_GET_CHIPINFO_IOCTL: _IOR(0xB4, 0x01, struct gpiochip_info {char name[32], label[32]; u32})
_CHIPINFO_IOCTL = 0x8044B401


def gpio_chips(dev: Path = Path("/dev")) -> list[tuple[str, str, int]]:
    """``(path, label, lines)`` of each GPIO character device, e.g. the Pi 5's ``pinctrl-rp1``."""
    chips = []
    for path in sorted(dev.glob("gpiochip*")):
        try:
            with open(path, "rb") as chip:
                info = fcntl.ioctl(chip, _CHIPINFO_IOCTL, bytes(68))
        except OSError:
            continue
        label = info[32:64].split(b"\0")[0].decode(errors="replace")
        chips.append((str(path), label, int.from_bytes(info[64:68], "little")))
    return chips


def describe_gpio() -> str:
    """Which GPIO library provides ``RPi.GPIO`` here, and the GPIO chips the kernel offers."""
    library = "no RPi.GPIO library installed"
    for distribution in ("rpi-lgpio", "RPi.GPIO"):
        try:
            library = f"{distribution} {metadata.version(distribution)}"
            break
        except metadata.PackageNotFoundError:
            continue
    chips = ", ".join(f"{path} ({label}, {lines} lines)" for path, label, lines in gpio_chips())
    return f"library {library}; chips: {chips or 'none found'}"
