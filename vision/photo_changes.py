"""What another camera, light or hand does to a labelled photo, for robustness sweeps.

Each change maps a ``vision.evaluate.Photo`` to a changed copy (its picture and, for
geometric changes, its corners), seeded per photo so a sweep is repeatable. ``changes`` is
the fixed list ``bench/vision_real.py`` reads the labelled photos under; the tests read the
committed real photo under the usual camera's part of it.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np

from vision.corners import lens_distortion
from vision.evaluate import Change, Photo, unchanged
from vision.grid_snap import snap_corners

#: A change to a picture's pixels, given a generator seeded for the photo.
Picture = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def _generator(seed: int, photo: Photo) -> np.random.Generator:
    """A generator seeded for this photo: each photo's change is its own, and the same each run."""
    return np.random.default_rng([seed, zlib.crc32(photo.name.encode())])


def _pixels(change: Picture, seed: int) -> Change:
    """A photo change that alters the pixels only (the board stays where it was)."""

    def changed(photo: Photo) -> Photo:
        return replace(photo, image=change(photo.image, _generator(seed, photo)))

    return changed


def _gain(blue: float, green: float, red: float) -> Picture:
    """Every channel scaled (exposure, a lamp's colour), clipped as a camera clips."""
    gains = np.array([blue, green, red], dtype=np.float32)
    return lambda image, _: np.clip(image * gains, 0, 255).astype(np.uint8)


def _gamma(power: float) -> Picture:
    """Another camera's tone curve: every value v/255 raised to ``power``."""
    table = (255 * (np.arange(256) / 255) ** power).round().astype(np.uint8)
    return lambda image, _: cv2.LUT(image, table)


def _lamp(near: float, far: float) -> Picture:
    """A lamp at the picture's left: the light falls from ``near`` to ``far`` across it."""

    def lit(image: np.ndarray, _: np.random.Generator) -> np.ndarray:
        gain = np.linspace(near, far, image.shape[1], dtype=np.float32)[None, :, None]
        return np.clip(image * gain, 0, 255).astype(np.uint8)

    return lit


def _shadow(depth: float) -> Picture:
    """A player's shadow: a soft-edged straight edge at a random angle through the middle
    third of the picture, the light beyond it cut to ``depth``."""

    def shaded(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        height, width = image.shape[:2]
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        angle = rng.uniform(0, 2 * np.pi)
        through = rng.uniform(1 / 3, 2 / 3, 2) * [width, height]
        across = (xs - through[0]) * np.cos(angle) + (ys - through[1]) * np.sin(angle)
        soft = 0.02 * max(width, height)  # a penumbra: the shadow of a body a metre away
        gain = 1 - (1 - depth) / (1 + np.exp(-np.clip(across / soft, -50, 50)))
        return np.clip(image * gain[..., None], 0, 255).astype(np.uint8)

    return shaded


def _vignette(corner: float) -> Picture:
    """A cheap lens darkening towards the corners, to ``corner`` of the centre's light."""

    def dimmed(image: np.ndarray, _: np.random.Generator) -> np.ndarray:
        height, width = image.shape[:2]
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        radius = np.hypot(xs - width / 2, ys - height / 2) / np.hypot(width / 2, height / 2)
        gain = 1 - (1 - corner) * radius**2
        return np.clip(image * gain[..., None], 0, 255).astype(np.uint8)

    return dimmed


def _saturation(factor: float) -> Picture:
    """Colours pulled towards grey (a camera's weak colour, a faded print)."""

    def faded(image: np.ndarray, _: np.random.Generator) -> np.ndarray:
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)[..., None].astype(np.float32)
        return np.clip(grey + factor * (image - grey), 0, 255).astype(np.uint8)

    return faded


def _blur(sigma: float) -> Picture:
    return lambda image, _: cv2.GaussianBlur(image, (0, 0), sigma)


def _noise(sigma: float) -> Picture:
    def noisy(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return np.clip(image + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)

    return noisy


def _jpeg(quality: int) -> Picture:
    def encoded(image: np.ndarray, _: np.random.Generator) -> np.ndarray:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is None:
            raise RuntimeError(f"OpenCV could not round-trip a JPEG of quality {quality}")
        return np.asarray(decoded)

    return encoded


def _smaller(width: int, then: Picture | None = None, seed: int = 0) -> Change:
    """The photo as a camera ``width`` pixels wide takes it (corners scaled), then ``then``."""

    def changed(photo: Photo) -> Photo:
        height, wide = photo.image.shape[:2]
        factor = min(1.0, width / wide)
        size = (round(wide * factor), round(height * factor))
        image = cv2.resize(photo.image, size, interpolation=cv2.INTER_AREA)
        if then is not None:
            image = then(image, _generator(seed, photo))
        return replace(photo, image=image, corners=photo.corners * np.float32(factor))

    return changed


def _jitter(share: float, seed: int) -> Change:
    """Each corner clicked up to ``share`` of the board's side away from where it is."""

    def changed(photo: Photo) -> Photo:
        rng = _generator(seed, photo)
        side = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean()
        angle = rng.uniform(0, 2 * np.pi, 4)
        reach = rng.uniform(0.5, 1.0, 4) * share * side  # a real slip, not a pixel
        moved = np.stack([np.cos(angle), np.sin(angle)], axis=1) * reach[:, None]
        return replace(photo, corners=(photo.corners + moved).astype(np.float32))

    return changed


def _clicked(share: float, seed: int, calibrating: bool) -> Change:
    """Each corner clicked up to ``share`` of the board's side off, then snapped onto the grid
    as ``vision calibrate`` snaps them (``calibrating``: the lens fitted with them) or ``vision
    read --corners`` does (through the camera's lens: the one its labelled corners show)."""
    jitter = _jitter(share, seed)

    def changed(photo: Photo) -> Photo:
        clicked = jitter(photo)
        lens = None if calibrating else lens_distortion(photo.image, photo.corners)
        corners, _ = snap_corners(clicked.image, clicked.corners, lens)
        return replace(clicked, corners=corners)

    return changed


def _rotated(degrees: float) -> Change:
    """The camera turned about its axis: the picture rotated about its centre, corners too."""

    def changed(photo: Photo) -> Photo:
        height, width = photo.image.shape[:2]
        turn = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
        image = cv2.warpAffine(photo.image, turn, (width, height), borderMode=cv2.BORDER_REFLECT)
        corners = cv2.transform(photo.corners.reshape(-1, 1, 2), turn).reshape(4, 2)
        return replace(photo, image=image, corners=corners.astype(np.float32))

    return changed


def turned_upright(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A picture and its corners as the camera turned a quarter clockwise takes them: a phone
    held upright takes a portrait picture."""
    height = image.shape[0]
    turned = np.stack([height - 1 - corners[:, 1], corners[:, 0]], axis=1)
    return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), turned.astype(np.float32)


def _upright(photo: Photo) -> Photo:
    """The photo turned upright (:func:`turned_upright`)."""
    image, corners = turned_upright(photo.image, photo.corners)
    return replace(photo, image=image, corners=corners)


def _pi_camera(seed: int) -> Change:
    """A Raspberry Pi camera's picture: 640 px wide, some sensor noise, JPEG quality 60."""
    return _smaller(640, lambda image, rng: _jpeg(60)(_noise(4)(image, rng), rng), seed)


def changes(seed: int) -> dict[str, tuple[str, Change]]:
    """Name -> (which picture it changes: "read", "calibration" or "both", the change)."""
    return {
        "none": ("read", unchanged),
        "exposure x0.6": ("read", _pixels(_gain(0.6, 0.6, 0.6), seed)),
        "exposure x1.5": ("read", _pixels(_gain(1.5, 1.5, 1.5), seed)),
        "warm lamp (R x1.15, B x0.8)": ("read", _pixels(_gain(0.8, 1.0, 1.15), seed)),
        "cold light (R x0.8, B x1.15)": ("read", _pixels(_gain(1.15, 1.0, 0.8), seed)),
        "blur sigma 1.5": ("read", _pixels(_blur(1.5), seed)),
        "noise sigma 8": ("read", _pixels(_noise(8), seed)),
        "JPEG quality 35": ("read", _pixels(_jpeg(35), seed)),
        "640 px wide": ("read", _smaller(640)),
        "640 px, noise 4, JPEG 60 (Pi camera)": ("read", _pi_camera(seed)),
        "corners off by <= 1 % of the side": ("read", _jitter(0.01, seed)),
        "rotated 4 degrees": ("read", _rotated(4)),
        "rotated -3 degrees": ("read", _rotated(-3)),
        # Harder than a usual camera, to see where the reader gives way.
        "exposure x0.4": ("read", _pixels(_gain(0.4, 0.4, 0.4), seed)),
        "exposure x2": ("read", _pixels(_gain(2, 2, 2), seed)),
        "tone curve gamma 0.6": ("read", _pixels(_gamma(0.6), seed)),
        "tone curve gamma 1.6": ("read", _pixels(_gamma(1.6), seed)),
        "lamp at one side (x1.4 to x0.6)": ("read", _pixels(_lamp(1.4, 0.6), seed)),
        "vignetting (corners x0.5)": ("read", _pixels(_vignette(0.5), seed)),
        "a shadow across the board (x0.6 beyond a soft edge)": (
            "read",
            _pixels(_shadow(0.6), seed),
        ),
        "a deep shadow across the board (x0.35)": ("read", _pixels(_shadow(0.35), seed)),
        "washed-out colours (saturation x0.5)": ("read", _pixels(_saturation(0.5), seed)),
        "noise sigma 14": ("read", _pixels(_noise(14), seed)),
        "JPEG quality 15": ("read", _pixels(_jpeg(15), seed)),
        "blur sigma 3": ("read", _pixels(_blur(3), seed)),
        "320 px wide": ("read", _smaller(320)),
        "corners off by <= 2 % of the side": ("read", _jitter(0.02, seed + 1)),
        "corners clicked <= 2 % of the side off, snapped": (
            "read",
            _clicked(0.02, seed + 1, False),
        ),
        "rotated 10 degrees": ("read", _rotated(10)),
        "calibration: exposure x0.6": ("calibration", _pixels(_gain(0.6, 0.6, 0.6), seed)),
        "calibration: exposure x1.5": ("calibration", _pixels(_gain(1.5, 1.5, 1.5), seed)),
        "calibration: warm lamp": ("calibration", _pixels(_gain(0.8, 1.0, 1.15), seed)),
        "calibration: cold light": ("calibration", _pixels(_gain(1.15, 1.0, 0.8), seed)),
        "calibration: 640 px wide": ("calibration", _smaller(640)),
        "calibration: corners off by <= 1 % of the side": ("calibration", _jitter(0.01, seed + 2)),
        "calibration: corners clicked <= 2 % of the side off, snapped": (
            "calibration",
            _clicked(0.02, seed + 2, True),
        ),
        # Another camera altogether: both pictures taken with it.
        "both: 640 px, noise 4, JPEG 60 (Pi camera)": ("both", _pi_camera(seed)),
        "both: tone curve gamma 1.6": ("both", _pixels(_gamma(1.6), seed)),
        "both: washed-out colours (saturation x0.5)": ("both", _pixels(_saturation(0.5), seed)),
        "both: JPEG quality 15": ("both", _pixels(_jpeg(15), seed)),
        "both: turned upright (portrait)": ("both", _upright),
    }
