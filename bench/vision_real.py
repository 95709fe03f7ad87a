"""Robustness sweep of the camera reader on labelled real photos: each photo read after a change
another camera, light or hand would make, under ``poolboard vision evaluate``'s cross-validation.

    .venv/bin/python bench/vision_real.py LABELS.json [--images DIR] [--only NAME ...] [--seed 1]

The photos stay where they are (outside the repository). Every photo is read as ``evaluate``
reads it (calibrated on the other photos of its board, or on the other half of its squares),
once per change in ``changes``: a fixed, seeded list. Most change the picture read; the
``calibration:`` ones change the calibration picture instead (the light changed between
calibration and play), and the ``both:`` ones both pictures (another camera altogether).
Printed per change: squares right exactly and in occupancy and colour, and each miss the
unchanged photos do not show (photo square: label -> read).
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name hides the vision
# package: look in the repository root instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.evaluate import LabelError, Photo, Trial, load_labels, trials  # noqa: E402

Picture = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def _same(photo: Photo) -> Photo:
    return photo


def _pixels(change: Picture, seed: int) -> Callable[[Photo], Photo]:
    """A photo change that alters the pixels only (the board stays where it was)."""

    def changed(photo: Photo) -> Photo:
        rng = np.random.default_rng([seed, zlib.crc32(photo.name.encode())])
        return replace(photo, image=change(photo.image, rng))

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


def _smaller(width: int, then: Picture | None = None, seed: int = 0) -> Callable[[Photo], Photo]:
    """The photo as a camera ``width`` pixels wide takes it (corners scaled), then ``then``."""

    def changed(photo: Photo) -> Photo:
        height, wide = photo.image.shape[:2]
        factor = min(1.0, width / wide)
        size = (round(wide * factor), round(height * factor))
        image = cv2.resize(photo.image, size, interpolation=cv2.INTER_AREA)
        if then is not None:
            image = then(image, np.random.default_rng([seed, zlib.crc32(photo.name.encode())]))
        return replace(photo, image=image, corners=photo.corners * np.float32(factor))

    return changed


def _jitter(share: float, seed: int) -> Callable[[Photo], Photo]:
    """Each corner clicked up to ``share`` of the board's side away from where it is."""

    def changed(photo: Photo) -> Photo:
        rng = np.random.default_rng([seed, zlib.crc32(photo.name.encode())])
        side = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean()
        angle = rng.uniform(0, 2 * np.pi, 4)
        reach = rng.uniform(0.5, 1.0, 4) * share * side  # a real slip, not a pixel
        moved = np.stack([np.cos(angle), np.sin(angle)], axis=1) * reach[:, None]
        return replace(photo, corners=(photo.corners + moved).astype(np.float32))

    return changed


def _rotated(degrees: float) -> Callable[[Photo], Photo]:
    """The camera turned about its axis: the picture rotated about its centre, corners too."""

    def changed(photo: Photo) -> Photo:
        height, width = photo.image.shape[:2]
        turn = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
        image = cv2.warpAffine(photo.image, turn, (width, height), borderMode=cv2.BORDER_REFLECT)
        corners = cv2.transform(photo.corners.reshape(-1, 1, 2), turn).reshape(4, 2)
        return replace(photo, image=image, corners=corners.astype(np.float32))

    return changed


def _pi_camera(seed: int) -> Callable[[Photo], Photo]:
    """A Raspberry Pi camera's picture: 640 px wide, some sensor noise, JPEG quality 60."""
    return _smaller(640, lambda image, rng: _jpeg(60)(_noise(4)(image, rng), rng), seed)


def changes(seed: int) -> dict[str, tuple[str, Callable[[Photo], Photo]]]:
    """Name -> (which picture it changes: "read", "calibration" or "both", the change)."""
    return {
        "none": ("read", _same),
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
        "washed-out colours (saturation x0.5)": ("read", _pixels(_saturation(0.5), seed)),
        "noise sigma 14": ("read", _pixels(_noise(14), seed)),
        "JPEG quality 15": ("read", _pixels(_jpeg(15), seed)),
        "blur sigma 3": ("read", _pixels(_blur(3), seed)),
        "320 px wide": ("read", _smaller(320)),
        "corners off by <= 2 % of the side": ("read", _jitter(0.02, seed + 1)),
        "rotated 10 degrees": ("read", _rotated(10)),
        "calibration: exposure x0.6": ("calibration", _pixels(_gain(0.6, 0.6, 0.6), seed)),
        "calibration: exposure x1.5": ("calibration", _pixels(_gain(1.5, 1.5, 1.5), seed)),
        "calibration: warm lamp": ("calibration", _pixels(_gain(0.8, 1.0, 1.15), seed)),
        "calibration: cold light": ("calibration", _pixels(_gain(1.15, 1.0, 0.8), seed)),
        "calibration: 640 px wide": ("calibration", _smaller(640)),
        # Another camera altogether: both pictures taken with it.
        "both: 640 px, noise 4, JPEG 60 (Pi camera)": ("both", _pi_camera(seed)),
        "both: tone curve gamma 1.6": ("both", _pixels(_gamma(1.6), seed)),
        "both: washed-out colours (saturation x0.5)": ("both", _pixels(_saturation(0.5), seed)),
        "both: JPEG quality 15": ("both", _pixels(_jpeg(15), seed)),
    }


def misses(done: list[Trial]) -> set[tuple[str, str, int, str, str]]:
    """(photo, calibration picture, square, label, reading) of every square read wrong."""
    return {
        (t.photo, t.learnt_from, s, truth, got)
        for t in done
        for s, truth, got in t.compared()
        if truth != got
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels", metavar="LABELS.json")
    parser.add_argument("--images", metavar="DIR", help="folder of the photos (default: LABELS')")
    parser.add_argument("--only", nargs="*", help="run only changes whose name starts so")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    try:
        photos = load_labels(args.labels, args.images)
    except LabelError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    baseline: set[tuple[str, str, int, str, str]] | None = None
    rows = []
    started = time.perf_counter()
    for name, (side, change) in changes(args.seed).items():
        if args.only and name != "none" and not any(name.startswith(o) for o in args.only):
            continue
        read_as = change if side in ("read", "both") else _same
        learn_as = change if side in ("calibration", "both") else _same
        done = trials(photos, read_as=read_as, learn_as=learn_as)
        compared = [c for t in done for c in t.compared()]
        exact = sum(truth == got for _, truth, got in compared)
        colour = sum(truth.lower() == got.lower() for _, truth, got in compared)
        wrong = misses(done)
        if baseline is None:
            baseline = wrong
            new, mended = sorted(wrong), set()
        else:
            new, mended = sorted(wrong - baseline), baseline - wrong
        rows.append((name, exact, colour, len(compared)))
        print(f"{name}: exact {exact}/{len(compared)}, occupancy+colour {colour}/{len(compared)}")
        for photo, learnt, square, truth, got in new:
            kind = "king/man" if truth.lower() == got.lower() else "OCC/COLOUR"
            print(f"    {photo} {square}: {truth} -> {got} ({kind}; learnt from {learnt})")
        if mended:
            print(f"    ({len(mended)} of the unchanged photos' misses read right)")
    print(f"\n{time.perf_counter() - started:.0f} s\n")
    print("| change | exact | occupancy + colour |")
    print("| --- | --- | --- |")
    for name, exact, colour, total in rows:
        print(f"| {name} | {exact}/{total} | {colour}/{total} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
