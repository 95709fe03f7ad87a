"""The camera as a board sensor (``engine.sensing.Sensor``), and its one-line spec.

Spec (the text after ``camera:`` in ``--sensor camera:...``)::

    SOURCE?calibration=CAL.json[&width=640&height=480][&still=3][&fps=15][&hold=5]

    picamera2 | picamera2:N     a Raspberry Pi camera through Picamera2 (N: camera number)
    usb:N | usb:/dev/videoN     a USB webcam through OpenCV
    file:PATH                   a video file, one picture, or a folder of pictures (in name order)

``calibration`` is required (``poolboard vision calibrate`` writes it); ``width``/``height`` set
the camera's frame size; ``still`` is how many identical frames make a snapshot; ``fps`` paces a
video file at camera speed; ``hold`` is how many frames each picture of a folder lasts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from urllib.parse import parse_qsl

import numpy as np

from engine.sensing import LinkHealth, SensorEvent, SensorSpecError
from vision.calibration import Calibration, CalibrationError
from vision.colour import BLANK, blank
from vision.pipeline import BoardWatcher, WatchConfig
from vision.sources import (
    IMAGE_SUFFIXES,
    FrameSource,
    ImageFiles,
    Picamera2Source,
    SourceError,
    VideoCaptureSource,
)

_OPTIONS = ("calibration", "width", "height", "still", "fps", "hold")


class CameraSensor:
    """A board sensor that watches the board through a camera.

    >>> sensor = CameraSensor(VideoCaptureSource(0), Calibration.load("cal.json"))  # doctest: +SKIP
    >>> sensor.read(timeout=0.5)  # doctest: +SKIP
    Snapshot(t=..., occupied=frozenset({1, 2, ...}), pieces=((1, 'b'), ...))
    """

    def __init__(
        self,
        source: FrameSource,
        calibration: Calibration,
        config: WatchConfig | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.source = source
        self.watcher = BoardWatcher(calibration, config)
        self._clock = clock
        self._down = False

    @property
    def kinds(self) -> tuple[str, ...] | None:
        """The last snapshot with colours: "b" | "w" | "B" | "W" | "empty" for squares 1-32."""
        return self.watcher.kinds

    def confirm(self, position: Mapping[int, str]) -> bool:
        """The game recorded ``position`` (square -> "b" | "w" | "B" | "W") from the last
        snapshot: learn its colours from it (see ``BoardWatcher.confirm``)."""
        return self.watcher.confirm(position)

    def read(self, timeout: float | None = None) -> SensorEvent | None:
        """Run frames through the pipeline until an event, or ``None`` after ``timeout``."""
        deadline = None if timeout is None else self._clock() + timeout
        while True:
            remaining = None if deadline is None else max(0.0, deadline - self._clock())
            try:
                frame = None if self._down else self.source.grab(remaining)
            except SourceError as error:
                self._down = True
                return LinkHealth(self._clock(), False, str(error))
            if frame is not None:
                event = self.watcher.feed(frame, self._clock())
                if event is not None:
                    return event
            elif self._down:  # a source that has ended gives nothing more: just wait
                time.sleep(min(remaining if remaining is not None else 0.1, 0.1))
            if deadline is not None and self._clock() >= deadline:
                return None

    def close(self) -> None:
        """Release the camera."""
        self.source.close()


def _number(options: dict[str, str], name: str, default: float) -> float:
    try:
        value = float(options.get(name, default))
    except ValueError:
        raise SensorSpecError(f"camera option {name}={options[name]!r} is not a number") from None
    if value <= 0:
        raise SensorSpecError(f"camera option {name} must be positive")
    return value


def open_source(source: str, options: dict[str, str]) -> FrameSource:
    """The frame source a spec's SOURCE part names (see the module docstring)."""
    size = (int(_number(options, "width", 640)), int(_number(options, "height", 480)))
    kind, _, target = source.partition(":")
    if kind == "picamera2":
        if target and not target.isdigit():
            raise SensorSpecError(f"picamera2:{target}: the camera number must be 0, 1, ...")
        return Picamera2Source(int(target or 0), size)
    if kind == "usb":
        if not target:
            raise SensorSpecError("usb: needs a camera number or device, e.g. usb:0")
        return VideoCaptureSource(int(target) if target.isdigit() else target, size)
    if kind == "file":
        path = Path(target)
        hold = int(_number(options, "hold", 5))
        if path.is_dir():
            pictures = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            return ImageFiles(pictures, hold=hold)
        if not path.is_file():
            raise SensorSpecError(f"file:{target}: no such file or folder")
        if path.suffix.lower() in IMAGE_SUFFIXES:
            return ImageFiles([path], hold=hold)
        fps = _number(options, "fps", 1e9) if "fps" in options else None
        return VideoCaptureSource(str(path), fps=fps)
    raise SensorSpecError(
        f"unknown camera source {source!r}: expected picamera2, usb:N or file:PATH"
    )


def _parse_spec(argument: str) -> tuple[str, dict[str, str]]:
    """A spec's SOURCE and its options; ``SensorSpecError`` names options it does not know."""
    source, _, query = argument.rpartition("?") if "?" in argument else (argument, "", "")
    options = dict(parse_qsl(query, keep_blank_values=True))
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise SensorSpecError(f"unknown camera option(s) {', '.join(unknown)}: use {_OPTIONS}")
    return source, options


def snap(argument: str, settle: int = 30) -> np.ndarray:
    """One frame from the source a spec names (``SOURCE[?width=W&height=H]``, its calibration
    not needed), after ``settle`` frames for the camera's exposure and white balance to
    settle: the very stream, size and view the sensor will read, to calibrate from.
    ``SensorSpecError`` says why there is none."""
    source, options = _parse_spec(argument)
    try:
        frames = open_source(source, options)
    except SourceError as error:
        raise SensorSpecError(str(error)) from None
    last = None
    try:
        for _ in range(max(settle, 1)):
            frame = frames.grab(timeout=5.0)
            if frame is None:
                raise SensorSpecError(f"{source}: no frame came within 5 s")
            last = frame
    except SourceError as error:
        if last is None:  # a video shorter than ``settle`` gives its last frame
            raise SensorSpecError(str(error)) from None
    finally:
        frames.close()
    assert last is not None  # the loop ran at least once, or raised
    if blank(last):  # no use calibrating from it
        raise SensorSpecError(f"{argument}: the picture is {BLANK}")
    return last


def sensor_from_spec(argument: str) -> CameraSensor:
    """A camera sensor from ``SOURCE?calibration=CAL.json&...`` (see the module docstring)."""
    source, options = _parse_spec(argument)
    if "calibration" not in options:
        raise SensorSpecError(
            f"camera:{argument} needs ?calibration=CAL.json (made by poolboard vision calibrate)"
        )
    try:
        calibration = Calibration.load(options["calibration"])
    except CalibrationError as error:
        raise SensorSpecError(str(error)) from None
    config = WatchConfig(still_frames=int(_number(options, "still", 3)))
    try:
        frames = open_source(source, options)
    except SourceError as error:
        raise SensorSpecError(str(error)) from None
    return CameraSensor(frames, calibration, config)
