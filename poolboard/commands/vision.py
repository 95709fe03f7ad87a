"""``poolboard vision``: calibrate the overhead camera, read pictures, print the corner markers."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from vision import READERS

if TYPE_CHECKING:
    import numpy as np


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "vision",
        help="overhead camera: calibrate, read board pictures, print corner markers",
        description="Tools for the overhead camera sensor (see docs/vision.md).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    calibrate = actions.add_parser(
        "calibrate",
        help="find the board and learn its colours from a picture of a known position",
        description="Find the board in a picture of a known position (the start position "
        "unless --fen; corner markers, else the checker grid, else --corners), fit the lens's "
        "distortion and learn the colours of squares and pieces and the men's height.",
    )
    calibrate.add_argument("image", metavar="IMAGE", help="picture of the known position")
    calibrate.add_argument(
        "--fen",
        metavar="FEN",
        help="the position in the picture as a PDN FEN, e.g. B:W18,21,23-32:B1-10,12,15 "
        "after 11-15 22-18, kings as K14 (default: the start position)",
    )
    calibrate.add_argument("--out", required=True, metavar="CAL.json", help="where to save")
    calibrate.add_argument(
        "--corners",
        metavar="x,y,x,y,x,y,x,y",
        help="the playing area's corners in pixels: a1 (White's near-left), h1, h8, a8",
    )
    calibrate.add_argument(
        "--show",
        metavar="CHECK.png",
        help="also write the picture with the grid found and the position read back drawn on "
        "it (squares read otherwise than the position given are framed in red)",
    )
    calibrate.add_argument(
        "--reader",
        choices=READERS,
        default="colour",
        help="what reads the squares: colour, the colours learnt from this picture (default); "
        "learnt, the network learnt from rendered boards, adapted to this one",
    )
    calibrate.set_defaults(handler=run_calibrate)

    read = actions.add_parser(
        "read",
        help="say what each dark square holds in pictures",
        description="Read pictures with a calibration: each square is b, w, B, W (kings) or empty.",
    )
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--calibration", required=True, metavar="CAL.json")
    read.add_argument("--json", action="store_true", help="one JSON object per picture")
    read.add_argument(
        "--corners",
        metavar="x,y,x,y,x,y,x,y",
        help="where the playing area's corners are in these pictures (a1, h1, h8, a8): the camera "
        "was moved since calibrating; the calibration's colours read them there",
    )
    read.add_argument(
        "--show",
        metavar="DIR",
        help="also write each picture with the grid and what was read drawn on it, as "
        "DIR/NAME-read.png",
    )
    read.set_defaults(handler=run_read)

    evaluate = actions.add_parser(
        "evaluate",
        help="read labelled photos and say how many squares came out right",
        description="Read every photo a labels file names (corners and true squares), board by "
        "board: each board calibrated on one of its photos and its other photos read (a photo "
        "alone of its board in halves), and print squares right per photo, per board and in "
        "total, the confusion and the worst squares.",
    )
    evaluate.add_argument("labels", metavar="LABELS.json")
    evaluate.add_argument("--images", metavar="DIR", help="folder of the photos (default: LABELS')")
    evaluate.add_argument(
        "--self", action="store_true", help="learn each photo from itself (an optimistic bound)"
    )
    evaluate.add_argument(
        "--reader",
        choices=READERS,
        default="colour",
        help="as calibrate's --reader: colour (default) or learnt",
    )
    evaluate.add_argument(
        "--show",
        metavar="DIR",
        help="also write each reading with a square wrong, drawn on its photo with the wrong "
        "squares framed in red, as DIR/PHOTO--LEARNT-FROM.png",
    )
    evaluate.set_defaults(handler=run_evaluate)

    snap = actions.add_parser(
        "snap",
        help="save a frame from the camera, to calibrate from",
        description="Save one frame from the camera the sensor will read (the spec's SOURCE "
        "and size, as in camera:SOURCE?width=W&height=H; docs/vision.md), after the camera's "
        "exposure has settled: a picture of the very view and shape the sensor sees.",
    )
    snap.add_argument(
        "source",
        metavar="SOURCE",
        help="picamera2, usb:N or file:PATH, with ?width=W&height=H as in the sensor spec "
        "(default 640x480)",
    )
    snap.add_argument("out", metavar="OUT.png")
    snap.add_argument(
        "--settle",
        type=int,
        default=30,
        metavar="N",
        help="frames to let pass first, while exposure and white balance settle (default 30)",
    )
    snap.set_defaults(handler=run_snap)

    markers = actions.add_parser(
        "markers",
        help="write a printable sheet of the four corner markers",
        description="Write the four ArUco corner stickers (ids 0-3 for a1, h1, h8, a8) as a PNG.",
    )
    markers.add_argument("out", metavar="OUT.png")
    markers.add_argument(
        "--size", type=int, default=600, metavar="PX", help="sticker side in pixels (default 600)"
    )
    markers.set_defaults(handler=run_markers)


def _fail(message: str) -> int:
    print(f"poolboard vision: {message}", file=sys.stderr)
    return 2


def _whereabouts(corners: np.ndarray, square: int) -> str:
    """Where a square lies on the board as the picture shows it ("top left", "right"...), so
    the user can check which side the calibration took for Black's."""
    import cv2
    import numpy as np

    from vision.layout import BOARD_CORNERS, SQUARE_CENTRES

    to_picture = cv2.getPerspectiveTransform(BOARD_CORNERS, corners.astype(np.float32))
    centre = SQUARE_CENTRES[square - 1].reshape(1, 1, 2).astype(np.float32)
    offset = cv2.perspectiveTransform(centre, to_picture)[0, 0] - corners.mean(axis=0)
    offset = offset / max(float(np.abs(offset).max()), 1e-9)
    vertical = "top" if offset[1] < -0.4 else "bottom" if offset[1] > 0.4 else ""
    horizontal = "left" if offset[0] < -0.4 else "right" if offset[0] > 0.4 else ""
    return " ".join(part for part in (vertical, horizontal) if part) or "middle"


def _picture_problem(path: str) -> str | None:
    """Why a picture cannot be written at ``path`` (checked before any work is done), if so."""
    import cv2

    where = Path(path)
    if not where.suffix:
        return f"{path!r} needs an image suffix such as .png"
    if not cv2.haveImageWriter(path):
        return f"{path!r}: no {where.suffix!r} pictures can be written (try .png or .jpg)"
    return _folder_problem(str(where.parent))


def _folder_problem(folder: str) -> str | None:
    """Why pictures cannot be written into ``folder``, if so."""
    if not Path(folder).is_dir():
        return f"{folder!r} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{folder!r} is not a folder you can write to"
    return None


def _write_picture(path: str | Path, picture: np.ndarray) -> str | None:
    """Write ``picture`` to ``path`` (its suffix names the format); the error, if any, as one
    line (``cv2.imwrite`` would print its own warning besides and give no reason)."""
    import cv2

    try:
        encoded, data = cv2.imencode(Path(path).suffix, picture)
    except cv2.error:
        encoded = False
    if not encoded:
        return f"cannot write {str(path)!r}: no {Path(path).suffix!r} pictures (try .png)"
    try:
        Path(path).write_bytes(data.tobytes())
    except OSError as error:
        return f"cannot write {str(path)!r}: {error.strerror or error}"
    return None


def _farthest_move(given: np.ndarray, snapped: np.ndarray) -> float:
    """The farthest (pixels) any of four corners moved from ``given`` to ``snapped``."""
    import numpy as np

    return float(np.linalg.norm(snapped - given, axis=1).max())


def run_calibrate(args: argparse.Namespace) -> int:
    from vision.calibration import (
        CalibrationError,
        CornersOffError,
        black_looks_white,
        calibrate,
        given_position,
        load_image,
        parse_position,
        read_placed,
    )
    from vision.corners import CornerError, parse_corners
    from vision.overlay import draw_reading

    if args.show and (problem := _picture_problem(args.show)):
        return _fail(f"--show {problem}")
    if Path(args.out).is_dir():
        return _fail(f"--out {args.out!r} is a folder: name the file to save, e.g. cal.json")
    if problem := _folder_problem(str(Path(args.out).parent)):
        return _fail(f"--out {problem}")
    try:
        corners = None if args.corners is None else parse_corners(args.corners)
        position = None if args.fen is None else parse_position(args.fen)
        image = load_image(args.image)
        calibration = calibrate(image, corners, position, reader=args.reader)
        calibration.save(args.out)
    except CornersOffError as error:
        if args.show and not _write_picture(args.show, draw_reading(image, error.draft, {})):
            return _fail(f"{error} (the grid they give is drawn in {args.show})")
        return _fail(str(error))
    except (CalibrationError, CornerError) as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"cannot write {args.out!r}: {error.strerror or error}")
    corners_text = ", ".join(f"{x:.0f},{y:.0f}" for x, y in calibration.corners)
    print(f"calibrated by {calibration.method}: corners a1,h1,h8,a8 = {corners_text}")
    if corners is not None and (moved := _farthest_move(corners, calibration.corners)) >= 0.5:
        print(f"the corners given were moved up to {moved:.1f} px onto the squares' edges")
    remedy = {
        "markers": "move the stickers (id 0 goes at a1)",
        "manual": "give the corners starting at a1",
        "auto": "give --fen (its Black pieces are the darker ones) or --corners, a1 first",
    }[calibration.method]
    print(
        f"square 1 (Black's back row) is at the board's {_whereabouts(calibration.corners, 1)} "
        f"in the picture, square 32 at its {_whereabouts(calibration.corners, 32)}: "
        f"if Black sits elsewhere, {remedy}"
    )
    if calibration.look is not None and args.reader == "colour":
        print(
            "the colours cannot be learnt from this position (no empty square in the clear): "
            "the learnt reader reads this board"
        )
    if black_looks_white(calibration):
        print(
            "warning: the pieces taken for Black's are lighter than White's, where Black is "
            f"the darker or red side (R-BRD-3): if the board is turned round, {remedy}"
        )
    if calibration.markers and calibration.method != "markers":
        print("markers 0-3 seen away from the playing area's corners: kept to follow the camera")
    if calibration.k1:
        print(f"lens distortion k1 = {calibration.k1:+.2f} (corrected)")
    for warning in calibration.warnings:
        print(f"warning: {warning}")
    if not args.show:
        print(f"saved {args.out}")
        return 0
    given = given_position(position)
    try:
        # Learnt from this very picture: the board is placed already, no markers to look for.
        shown = draw_reading(image, calibration, read_placed(calibration, image), given)
    except CalibrationError as error:  # the grid alone then shows where the corners went
        print(f"warning: the picture is not read back: {error}")
        shown = draw_reading(image, calibration, {})
    if problem := _write_picture(args.show, shown):
        print(f"saved {args.out}")
        return _fail(f"--show {problem} (the calibration is saved in {args.out})")
    print(f"saved {args.out}; drawn on the picture in {args.show}")
    return 0


def run_read(args: argparse.Namespace) -> int:
    from vision.calibration import Calibration, CalibrationError, load_image, read_placed
    from vision.corners import CornerError, parse_corners
    from vision.grid_snap import snap_corners
    from vision.outline import UNSEEN_SIDE
    from vision.overlay import draw_reading

    try:
        calibration = Calibration.load(args.calibration)
        corners = None if args.corners is None else parse_corners(args.corners)
    except (CalibrationError, CornerError) as error:
        return _fail(str(error))
    if args.show and (problem := _folder_problem(args.show)):
        return _fail(f"--show {problem}")
    status = 0
    for path in args.images:
        try:
            image = load_image(path)
        except CalibrationError as error:  # it names the file
            status = _fail(str(error))
            continue
        try:
            if corners is None:  # markers looked for once, read and drawn
                placed = calibration.placed_in(image)
            else:
                snapped, _ = snap_corners(image, corners, calibration.k1)  # one camera, one lens
                placed = calibration.seen_at(snapped, image)
            squares = read_placed(placed, image)
        except CalibrationError as error:
            status = _fail(f"{path}: {error}")
            continue
        if args.show:
            shown = draw_reading(image, placed, squares)
            if problem := _write_picture(Path(args.show) / f"{Path(path).stem}-read.png", shown):
                status = _fail(problem)
        if args.json:
            reading = {"image": path, "squares": {str(s): k for s, k in squares.items()}}
            print(json.dumps(reading), flush=True)
        else:
            black = [f"K{s}" if k == "B" else str(s) for s, k in squares.items() if k in "bB"]
            white = [f"K{s}" if k == "W" else str(s) for s, k in squares.items() if k in "wW"]
            line = f"{path}: Black {','.join(black) or '-'}  White {','.join(white) or '-'}"
            if unseen := [str(s) for s, k in squares.items() if k == UNSEEN_SIDE]:
                line += f"  side not seen {','.join(unseen)}"
            print(line, flush=True)
    return status


def run_snap(args: argparse.Namespace) -> int:
    from engine.sensing import SensorSpecError
    from vision.sensor import snap

    if problem := _picture_problem(args.out):
        return _fail(problem)
    try:
        frame = snap(args.source, args.settle)
    except SensorSpecError as error:
        return _fail(str(error))
    if problem := _write_picture(args.out, frame):
        return _fail(problem)
    height, width = frame.shape[:2]
    print(f"saved {args.out} ({width}x{height}): calibrate from it with poolboard vision calibrate")
    return 0


def run_markers(args: argparse.Namespace) -> int:
    from vision.markers import marker_sheet

    if args.size < 60:
        return _fail("--size must be at least 60 pixels")
    if problem := _picture_problem(args.out) or _write_picture(args.out, marker_sheet(args.size)):
        return _fail(problem)
    print(f"wrote {args.out}: cut out the four stickers; see docs/vision.md for where each goes")
    return 0


def run_evaluate(args: argparse.Namespace) -> int:
    from vision.calibration import Calibration
    from vision.evaluate import LabelError, Trial, load_labels, report, trials
    from vision.overlay import draw_reading

    if args.show and (problem := _folder_problem(args.show)):
        return _fail(f"--show {problem}")
    if args.show and args.reader != "colour":
        return _fail("--show draws the colour reader's readings: leave out --reader")
    unwritten: list[str] = []
    names: Counter[str] = Counter()

    def show_misses(trial: Trial, placed: Calibration, image: np.ndarray) -> None:
        if all(truth == got for _, truth, got in trial.compared()):
            return
        name = f"{Path(trial.photo).stem}--{Path(trial.learnt_from).stem.replace(' ', '-')}"
        names[name] += 1
        name += f"-{names[name]}" if names[name] > 1 else ""  # the second half of a photo alone
        path = Path(args.show) / f"{name}.png"
        shown = draw_reading(image, placed, trial.reading, trial.truth)
        if problem := _write_picture(path, shown):
            unwritten.append(problem)

    skipped: list[str] = []
    try:
        photos = load_labels(args.labels, args.images, skipped)
    except LabelError as error:
        return _fail(str(error))
    for reason in skipped:
        print(f"poolboard vision: {reason}: photo skipped", file=sys.stderr)
    if not photos:
        return _fail(f"no photo in {args.labels!r} could be read")
    shown = show_misses if args.show else None
    done = trials(photos, self_only=args.self, shown=shown, reader=args.reader)
    for line in report(done):
        print(line)
    if skipped:
        total = len(skipped) + len(photos)
        print(f"\nskipped {len(skipped)} of {total} photos (each named on stderr)")
    return _fail(unwritten[0]) if unwritten else 0
