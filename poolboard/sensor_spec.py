"""Open any sensor backend from a one-line spec such as ``serial:/dev/ttyACM0``.

The scheme picks the backend; the rest of the spec is the backend's own argument. Backends are
imported only when asked for, so a Pi without OpenCV can still use a reed board; a backend whose
optional extra is not installed is a :class:`SensorSpecError` saying what to install.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from engine.sensing import Sensor, SensorSpecError

__all__ = ["BACKENDS", "EXTRAS", "SensorSpecError", "open_sensor"]

#: scheme -> "module:function"; the function takes the text after the colon and returns a Sensor.
BACKENDS: dict[str, str] = {
    "serial": "firmware_bridge.host:sensor_from_spec",
    "gpio": "hardware.matrix:sensor_from_spec",
    "camera": "vision.sensor:sensor_from_spec",
}

#: scheme -> (the modules of its optional extra, the extra's name in pyproject.toml).
EXTRAS: dict[str, tuple[frozenset[str], str]] = {"camera": (frozenset({"cv2", "numpy"}), "camera")}


def open_sensor(spec: str) -> Sensor:
    """Open the sensor a spec describes, e.g. ``open_sensor("serial:auto")``."""
    scheme, _, argument = spec.partition(":")
    target = BACKENDS.get(scheme)
    if target is None:
        known = ", ".join(f"{name}:..." for name in sorted(BACKENDS))
        raise SensorSpecError(f"unknown sensor {spec!r}: expected one of {known}")
    module_name, _, function_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        modules, extra = EXTRAS.get(scheme, (frozenset(), ""))
        if (error.name or "").partition(".")[0] not in modules:
            raise
        raise SensorSpecError(
            f"the {scheme} sensor needs the Python module {error.name!r}, which is not "
            f"installed: pip install 'poolboard[{extra}]'"
        ) from None
    # Each backend's function is declared by BACKENDS to take the spec's argument, give a Sensor.
    factory: Callable[[str], Sensor] = getattr(module, function_name)
    return factory(argument)
