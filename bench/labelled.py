"""What the benchmarks on labelled real photos share: their command line and the photos."""

from __future__ import annotations

import argparse
import sys

import cv2

from vision.evaluate import LabelError, Photo, load_labels


def photo_arguments(description: str) -> argparse.ArgumentParser:
    """A parser taking LABELS.json and --images DIR, as `poolboard vision evaluate` does."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("labels", metavar="LABELS.json")
    parser.add_argument("--images", metavar="DIR", help="folder of the photos (default: LABELS')")
    return parser


def load_photos(args: argparse.Namespace) -> list[Photo] | None:
    """The labelled photos, with OpenCV on one thread (the figures are per core); None after
    saying on stderr why they cannot be read."""
    cv2.setNumThreads(1)
    try:
        return load_labels(args.labels, args.images)
    except LabelError as error:
        print(f"error: {error}", file=sys.stderr)
        return None
