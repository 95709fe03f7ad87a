"""Where frames come from: a Pi camera (Picamera2), a USB webcam, or image and video files.

Every source has ``grab(timeout) -> frame | None`` (a BGR uint8 array, ``None`` when no frame came
in time) and ``close()``; ``SourceError`` means the source is gone (unplugged, end of a file).
OpenCV's VideoCapture cannot open libcamera cameras on a Pi, hence Picamera2 there; it comes from
apt on Raspberry Pi OS and is imported only when a Pi camera is opened.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class SourceError(OSError):
    """A frame source that cannot give frames any more (or could not be opened)."""


def read_picture(path: str | Path, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    """A picture file decoded (a BGR array with the default ``flags``); ``SourceError`` if it
    is missing, no picture, or cut short: a JPEG copied only in part decodes its top half and
    greys the rest, which would read as an empty board, with only libjpeg's warning on stderr
    to tell. That warning is taken in here instead, not printed."""
    if Path(path).is_dir():
        raise SourceError(f"image {str(path)!r} is a folder: name the picture files in it")
    if not Path(path).is_file():
        raise SourceError(f"image {str(path)!r} does not exist")
    with tempfile.TemporaryFile() as said:
        sys.stderr.flush()
        kept = os.dup(2)
        os.dup2(said.fileno(), 2)  # libjpeg writes its warnings straight to the process's fd 2
        try:
            image = cv2.imread(str(path), flags)
        finally:
            os.dup2(kept, 2)
            os.close(kept)
        said.seek(0)
        warnings = said.read().decode(errors="replace")
    if image is None:
        raise SourceError(f"image {str(path)!r} is not a picture OpenCV can read")
    if "Premature end" in warnings:
        raise SourceError(f"image {str(path)!r} is cut short (a partial copy?): copy it again")
    return image


class FrameSource(Protocol):
    """Anything that gives camera frames."""

    def grab(self, timeout: float | None = None) -> np.ndarray | None: ...

    def close(self) -> None: ...


class ImageFiles:
    """Still pictures, each shown for ``hold`` frames; the last one forever if ``repeat_last``.

    >>> source = ImageFiles(["start.png", "after-11-15.png"], hold=5)  # doctest: +SKIP
    """

    def __init__(self, paths: Sequence[str | Path], hold: int = 5, repeat_last: bool = True):
        self._images = []
        for path in paths:
            self._images.append(read_picture(path))
        if not self._images:
            raise SourceError("no images given")
        self._hold = hold
        self._repeat_last = repeat_last
        self._count = 0

    def grab(self, timeout: float | None = None) -> np.ndarray | None:
        index = self._count // self._hold
        if index >= len(self._images):
            if not self._repeat_last:
                raise SourceError("end of the images")
            index = len(self._images) - 1
        self._count += 1
        return self._images[index]

    def close(self) -> None:
        self._images.clear()


class VideoCaptureSource:
    """A USB webcam (an index or a device path) or a video file, through cv2.VideoCapture."""

    def __init__(
        self, target: int | str, size: tuple[int, int] | None = None, fps: float | None = None
    ):
        self._target = target
        self._capture = cv2.VideoCapture(target)
        if not self._capture.isOpened():
            raise SourceError(f"cannot open camera or video {target!r}")
        if size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._period = 1 / fps if fps else 0.0
        self._next = time.monotonic()

    def grab(self, timeout: float | None = None) -> np.ndarray | None:
        if self._period:  # replaying a file at camera speed
            wait = self._next - time.monotonic()
            if timeout is not None and wait > timeout:
                time.sleep(max(timeout, 0))
                return None
            time.sleep(max(wait, 0))
            self._next = max(self._next + self._period, time.monotonic())
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise SourceError(f"no more frames from {self._target!r}")
        return frame

    def close(self) -> None:
        self._capture.release()


class Picamera2Source:
    """A Raspberry Pi camera (libcamera) through Picamera2, giving BGR frames of ``size``."""

    def __init__(self, index: int = 0, size: tuple[int, int] = (640, 480)):
        try:
            from picamera2 import Picamera2  # apt: python3-picamera2, only on a Pi
        except ImportError:
            raise SourceError(
                "Picamera2 is not installed: on Raspberry Pi OS run "
                "'sudo apt install python3-picamera2' and create the venv with "
                "--system-site-packages"
            ) from None
        try:
            self._camera = Picamera2(index)
            # "RGB888" is laid out B, G, R in memory: what OpenCV calls BGR.
            config = self._camera.create_video_configuration(
                main={"size": size, "format": "RGB888"}
            )
            self._camera.configure(config)
            self._camera.start()
        except (RuntimeError, IndexError, OSError) as error:
            raise SourceError(f"cannot open Pi camera {index}: {error}") from None

    def grab(self, timeout: float | None = None) -> np.ndarray | None:
        try:
            return np.ascontiguousarray(self._camera.capture_array("main"))
        except (RuntimeError, OSError) as error:
            raise SourceError(f"Pi camera stopped: {error}") from None

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()
