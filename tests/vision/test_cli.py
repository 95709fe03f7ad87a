"""``poolboard vision`` run as a real subprocess on PNG files."""

from __future__ import annotations

import json
import re
import struct
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from tests.poolboard_cli import poolboard
from vision.colour import START_POSITION
from vision.markers import detect_markers
from vision.synthetic import START, Style, View, render

AFTER = {**START, 22: "empty", 18: "w"}


def test_calibrate_then_read(tmp_path, view: View) -> None:
    start, after = tmp_path / "start.png", tmp_path / "after.png"
    cv2.imwrite(str(start), render(START, Style(), view).image)
    cv2.imwrite(str(after), render(AFTER, Style(), replace(view, seed=9)).image)
    cal = tmp_path / "cal.json"
    done = poolboard("vision", "calibrate", str(start), "--out", str(cal))
    assert done.returncode == 0, done.stderr
    assert "calibrated by markers" in done.stdout
    # Which side it took for Black's, to check at a glance (the view has a1 at bottom left).
    assert "square 1 (Black's back row) is at the board's top left" in done.stdout
    assert "square 32 at its bottom right" in done.stdout
    assert json.loads(cal.read_text())["version"] == 3
    done = poolboard("vision", "read", str(start), str(after), "--calibration", str(cal), "--json")
    assert done.returncode == 0, done.stderr
    readings = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["image"] for r in readings] == [str(start), str(after)]
    assert readings[1]["squares"] == {str(s): AFTER.get(s, "empty") for s in range(1, 33)}


def test_calibrate_says_it_keeps_markers_placed_elsewhere(tmp_path, view: View) -> None:
    start = tmp_path / "start.png"
    cv2.imwrite(str(start), render(START, Style(), view, markers_off=0.5).image)
    done = poolboard("vision", "calibrate", str(start), "--out", str(tmp_path / "cal.json"))
    assert done.returncode == 0, done.stderr
    assert "calibrated by auto" in done.stdout
    assert "markers 0-3 seen away from the playing area's corners: kept" in done.stdout


def test_calibrate_with_corners_given(tmp_path, view: View) -> None:
    frame = render(START, Style(), view, markers=False)
    start = tmp_path / "start.png"
    cv2.imwrite(str(start), frame.image)
    corners = ",".join(f"{v:.0f}" for v in frame.corners.ravel())
    done = poolboard(
        "vision", "calibrate", str(start), "--out", str(tmp_path / "c.json"), "--corners", corners
    )
    assert done.returncode == 0, done.stderr
    assert "calibrated by manual" in done.stdout


def test_calibrate_says_how_far_it_moved_corners_clicked_off(tmp_path, view: View) -> None:
    """Corners clicked 5 px off (2 % of the board's side) are snapped onto the squares' edges,
    the line says by how much, and the file keeps the snapped corners."""
    frame = render(START, Style(), view, markers=False)
    start = tmp_path / "start.png"
    cv2.imwrite(str(start), frame.image)
    clicked = frame.corners + np.array([[5, 0], [0, -5], [-4, 3], [3, 4]], np.float32)
    done = poolboard(
        "vision", "calibrate", str(start), "--out", str(tmp_path / "c.json"),
        "--corners", ",".join(f"{v:.0f}" for v in clicked.ravel()),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    moved = re.search(
        r"corners given were moved up to ([\d.]+) px onto the squares' edges", done.stdout
    )
    assert moved is not None and 3 < float(moved.group(1)) < 7
    kept = json.loads((tmp_path / "c.json").read_text())["corners"]
    saved = np.array([kept[name] for name in ("a1", "h1", "h8", "a8")], np.float32)
    assert np.abs(saved - frame.corners).max() < 2


def test_errors_are_plain_sentences(tmp_path) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, dtype=np.uint8))
    noise = tmp_path / "noise.png"
    cv2.imwrite(str(noise), np.random.default_rng(1).integers(0, 256, (480, 640, 3), np.uint8))
    done = poolboard("vision", "calibrate", str(noise), "--out", str(tmp_path / "c.json"))
    assert done.returncode == 2
    assert "markers not found" in done.stderr and "--corners" in done.stderr
    assert "Traceback" not in done.stderr
    done = poolboard("vision", "calibrate", str(blank), "--out", str(tmp_path / "c.json"))
    assert done.returncode == 2
    assert done.stderr == (
        "poolboard vision: the picture is all one shade: is the lens covered, or the lamp off?\n"
    )
    done = poolboard(
        "vision", "calibrate", str(tmp_path / "none.png"), "--out", str(tmp_path / "c.json")
    )
    assert done.returncode == 2 and "does not exist" in done.stderr
    done = poolboard("vision", "calibrate", str(tmp_path), "--out", str(tmp_path / "c.json"))
    assert done.returncode == 2 and "is a folder" in done.stderr
    done = poolboard("vision", "read", str(blank), "--calibration", str(tmp_path / "none.json"))
    assert done.returncode == 2 and "does not exist" in done.stderr
    done = poolboard("vision", "calibrate", str(blank), "--out", "x.json", "--corners", "1,2")
    assert done.returncode == 2 and "eight numbers" in done.stderr


def test_corners_given_round_a_featureless_patch_are_one_line(tmp_path) -> None:
    """Corners round a part of the picture that is all one shade (a cloth over the board):
    the lens fit found no pattern to score, which printed numpy's divide warnings before."""
    picture = np.random.default_rng(2).integers(0, 256, (480, 640, 3), np.uint8)
    picture[100:400, 150:500] = 90
    path = tmp_path / "covered.png"
    cv2.imwrite(str(path), picture)
    corners = "170,380,480,380,480,120,170,120"
    done = poolboard("vision", "calibrate", str(path), "--out", "c.json", "--corners", corners)
    assert done.returncode == 2
    assert done.stderr == (
        "poolboard vision: the squares do not line up with the corners given: click the "
        "playing area's own corners, a1 first\n"
    )


def test_a_photo_copied_only_in_part_is_named_cut_short(tmp_path) -> None:
    """A JPEG cut off decodes its top and greys the rest (an empty board's bottom rows), with
    only libjpeg's warning on stderr: it is refused in one line of ours instead."""
    whole = Path(__file__).parent.parent / "data" / "photos" / "eppu_initialization.jpg"
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(whole.read_bytes()[:60_000])
    for args in (("calibrate", str(cut), "--out", str(tmp_path / "c.json")),
                 ("snap", f"file:{cut}", str(tmp_path / "s.png"))):  # fmt: skip
        done = poolboard("vision", *args)
        assert done.returncode == 2, done.stdout
        said = f"image {str(cut)!r} is cut short (a partial copy?): copy it again"
        assert done.stderr == f"poolboard vision: {said}\n"


def test_markers_sheet_is_written_and_detectable(tmp_path) -> None:
    out = tmp_path / "markers.png"
    done = poolboard("vision", "markers", str(out), "--size", "200")
    assert done.returncode == 0, done.stderr
    assert sorted(detect_markers(cv2.imread(str(out)))) == [0, 1, 2, 3]


def test_evaluate_reads_a_labelled_real_photo(tmp_path) -> None:
    """``evaluate`` on the committed real photo: each half of its squares read with colours
    learnt from the other half only."""
    from tests.vision.conftest import CORNERS, PHOTO

    labels = {
        "format": "test",
        "photos": {
            PHOTO.name: {
                "source": "eppuhassinen/opencv-checkers@915fd6f:initialization.jpg",
                "corners_a1_h1_h8_a8": CORNERS.tolist(),
                "squares": {str(s): k for s, k in START_POSITION.items()},
            }
        },
    }
    path = tmp_path / "labels.json"
    path.write_text(json.dumps(labels))
    done = poolboard("vision", "evaluate", str(path), "--images", str(PHOTO.parent))
    assert done.returncode == 0, done.stderr
    assert "other half" in done.stdout
    total = next(line for line in done.stdout.splitlines() if line.startswith("total"))
    assert "32/32" in total  # the start position, every square right


def _with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """A JPEG with an EXIF orientation tag, as a phone saves a picture taken upright: the
    pixels stay as the sensor read them and the tag tells viewers to turn them."""
    entry = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)  # Orientation, SHORT, one
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + entry + bytes(4)
    body = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + jpeg[2:]


def test_evaluate_takes_a_photo_as_its_label_measured_it(tmp_path) -> None:
    """Labels give each photo's size: a copy saved smaller has its corners scaled, and a
    phone's JPEG that its EXIF tag turns upright, labelled as stored, is read as stored;
    a picture of another shape is named, not read with corners that miss the board."""
    from tests.vision.conftest import CORNERS, PHOTO

    photo = cv2.imread(str(PHOTO))
    height, width = photo.shape[:2]
    entry = {
        "source": "eppuhassinen/opencv-checkers@915fd6f:initialization.jpg",
        "size": [width, height],
        "corners_a1_h1_h8_a8": CORNERS.tolist(),
        "squares": {str(s): k for s, k in START_POSITION.items()},
    }
    cv2.imwrite(str(tmp_path / "small.jpg"), cv2.resize(photo, (width // 2, height // 2)))
    ok, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    (tmp_path / "tagged.jpg").write_bytes(_with_orientation(jpeg.tobytes(), 6))
    assert cv2.imread(str(tmp_path / "tagged.jpg")).shape[:2] == (width, height)  # turned
    # Upside down and mirrored: the same size whichever way it is shown.
    (tmp_path / "upside.jpg").write_bytes(_with_orientation(jpeg.tobytes(), 3))
    (tmp_path / "mirror.jpg").write_bytes(_with_orientation(jpeg.tobytes(), 2))
    path = tmp_path / "labels.json"
    names = ("small.jpg", "tagged.jpg", "upside.jpg", "mirror.jpg")
    path.write_text(json.dumps({"photos": dict.fromkeys(names, entry)}))
    done = poolboard("vision", "evaluate", str(path))
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines() if line.strip()}
    assert all("96/96" in rows[name] for name in names), done.stdout  # 3 partners x 32
    cv2.imwrite(str(tmp_path / "small.jpg"), cv2.resize(photo, (width // 2, height // 3)))
    done = poolboard("vision", "evaluate", str(path))  # the other three are still read
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert f"small.jpg: labelled as {width}x{height} pixels, but the picture is" in done.stderr
    assert "skipped 1 of 4 photos" in done.stdout


def test_evaluate_names_bad_labels(tmp_path) -> None:
    done = poolboard("vision", "evaluate", str(tmp_path / "none.json"))
    assert done.returncode == 2 and "does not exist" in done.stderr
    path = tmp_path / "labels.json"
    path.write_text('{"photos": {"x.jpg": {"corners_a1_h1_h8_a8": [], "squares": {}}}}')
    done = poolboard("vision", "evaluate", str(path))
    assert done.returncode == 2 and "x.jpg: malformed label" in done.stderr
    assert "Traceback" not in done.stderr
    squares = {str(s): "empty" for s in range(1, 33)}
    backwards = [[400, 400], [0, 400], [0, 0], [400, 0]]  # a mirror image of the board
    entry = {"corners_a1_h1_h8_a8": backwards, "squares": squares}
    path.write_text(json.dumps({"photos": {"x.jpg": entry}}))
    done = poolboard("vision", "evaluate", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "poolboard vision: x.jpg: corners run the wrong way round: give them as a1, h1, h8, a8"
        ": photo skipped",
        f"poolboard vision: no photo in {str(path)!r} could be read",
    ]


def test_evaluate_skips_a_photo_it_cannot_read_and_reads_the_rest(tmp_path) -> None:
    """A set in which one photo's file is missing: that photo is named and skipped, and the
    committed real photo is still read (one bad photo need not cost a whole set)."""
    from tests.vision.conftest import CORNERS, PHOTO

    squares = {str(s): k for s, k in START_POSITION.items()}
    entry = {"source": "eppu", "corners_a1_h1_h8_a8": CORNERS.tolist(), "squares": squares}
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"photos": {"gone.jpg": entry, PHOTO.name: entry}}))
    done = poolboard("vision", "evaluate", str(path), "--images", str(PHOTO.parent))
    assert done.returncode == 0, done.stderr
    gone = PHOTO.parent / "gone.jpg"
    assert done.stderr.strip().splitlines() == [
        f"poolboard vision: image {str(gone)!r} does not exist: photo skipped"
    ]
    assert "eppu_initialization.jpg                  other half   32/32" in done.stdout
    assert "skipped 1 of 2 photos (each named on stderr)" in done.stdout


def test_corners_outside_the_picture_are_named(tmp_path, view: View) -> None:
    start = tmp_path / "start.png"
    cv2.imwrite(str(start), render(START, Style(), view).image)
    corners = "100,400,2000,400,500,50,100,50"
    done = poolboard(
        "vision", "calibrate", str(start), "--out", str(tmp_path / "c.json"), "--corners", corners
    )
    assert done.returncode == 2 and "outside the 640x480 picture" in done.stderr


def test_calibrate_from_a_mid_game_position_given_as_fen(tmp_path, view: View) -> None:
    picture = tmp_path / "mid.png"
    cv2.imwrite(str(picture), render(AFTER, Style(), view).image)
    cal = tmp_path / "c.json"
    fen = "W:W18,21,23-32:B1-12"
    done = poolboard("vision", "calibrate", str(picture), "--out", str(cal), "--fen", fen)
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stdout
    done = poolboard("vision", "calibrate", str(picture), "--out", str(cal), "--fen", "W:W99:B1")
    assert done.returncode == 2
    assert done.stderr == (
        "poolboard vision: --fen: FEN 'W:W99:B1': square 99 is not a dark square 1-32 (R-BRD-2)\n"
    )


def test_reading_a_picture_that_is_not_the_board_says_so(tmp_path, view: View) -> None:
    start, noise = tmp_path / "start.png", tmp_path / "noise.png"
    cv2.imwrite(str(start), render(START, Style(), view).image)
    cv2.imwrite(str(noise), np.random.default_rng(0).integers(0, 255, (480, 640, 3), np.uint8))
    cal = tmp_path / "cal.json"
    assert poolboard("vision", "calibrate", str(start), "--out", str(cal)).returncode == 0
    done = poolboard("vision", "read", str(noise), "--calibration", str(cal))
    assert done.returncode == 2 and "shows no checker board" in done.stderr
    assert "Traceback" not in done.stderr


def test_read_names_each_picture_it_cannot_read_and_reads_the_rest(tmp_path) -> None:
    """Among several pictures, the one that fails is named with its reason (before, the
    reason came alone and the JSON simply lacked its line); one of another shape than the
    calibration's, with no markers to place the board, is said to be so."""
    frame = render(START, Style(), View(), markers=False)
    start, cropped = tmp_path / "start.png", tmp_path / "cropped.png"
    cv2.imwrite(str(start), frame.image)
    cv2.imwrite(str(cropped), frame.image[60:420])  # 640x360 out of 640x480
    cal = tmp_path / "cal.json"
    corners = ",".join(f"{v:.0f}" for v in frame.corners.ravel())
    done = poolboard("vision", "calibrate", str(start), "--corners", corners, "--out", str(cal))
    assert done.returncode == 0, done.stderr
    done = poolboard("vision", "read", str(cropped), str(start), "--calibration", str(cal))
    assert done.returncode == 2
    assert done.stderr == (
        f"poolboard vision: {cropped}: the picture is 640x360, another shape than the "
        "calibration's 640x480 (another camera mode, or a cropped copy), and no markers show "
        "where the board went: calibrate from a picture of this shape\n"
    )
    assert done.stdout.startswith(f"{start}: Black 1,2,3,4,5,6,7,8,9,10,11,12  White 21,")


def test_snap_saves_the_frame_the_sensor_would_read_once_settled(tmp_path, view: View) -> None:
    """`vision snap` reads the spec's own source: after --settle frames, the frame then shown
    is saved as it came (a folder of pictures, one frame each, stands in for a camera)."""
    frames = tmp_path / "camera"
    frames.mkdir()
    pictures = [render(START, Style(), replace(view, seed=k)).image for k in range(4)]
    for k, picture in enumerate(pictures):
        cv2.imwrite(str(frames / f"{k}.png"), picture)
    out = tmp_path / "start.png"
    done = poolboard("vision", "snap", f"file:{frames}?hold=1", str(out), "--settle", "3")
    assert done.returncode == 0, done.stderr
    assert f"saved {out} (640x480)" in done.stdout
    assert np.array_equal(cv2.imread(str(out)), pictures[2])
    cal = tmp_path / "cal.json"
    assert poolboard("vision", "calibrate", str(out), "--out", str(cal)).returncode == 0


def test_snap_of_a_short_video_saves_its_last_frame_and_errors_are_one_line(tmp_path) -> None:
    video = tmp_path / "short.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for level in (40, 200):
        frame = np.full((48, 64, 3), level, np.uint8)
        frame[:, :32] = 120  # something in view: a frame all one shade is refused (below)
        writer.write(frame)
    writer.release()
    out = tmp_path / "last.png"
    done = poolboard("vision", "snap", f"file:{video}", str(out))  # 30 frames wanted, 2 there
    assert done.returncode == 0, done.stderr
    assert abs(float(cv2.imread(str(out))[:, 40:].mean()) - 200) < 5
    dark = tmp_path / "dark.png"
    cv2.imwrite(str(dark), np.full((48, 64, 3), 2, np.uint8))
    done = poolboard("vision", "snap", f"file:{dark}", str(tmp_path / "dark-snap.png"))
    assert done.returncode == 2 and not (tmp_path / "dark-snap.png").exists()
    assert done.stderr == (
        f"poolboard vision: file:{dark}: the picture is all one shade: is the lens covered, "
        "or the lamp off?\n"
    )
    for source, said in (
        (f"file:{tmp_path / 'none.avi'}", "no such file or folder"),
        ("usb:0?colour=1", "unknown camera option(s) colour"),
        ("webcam", "unknown camera source 'webcam'"),
    ):
        done = poolboard("vision", "snap", source, str(out))
        assert done.returncode == 2 and said in done.stderr
        assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    done = poolboard("vision", "snap", f"file:{video}", str(tmp_path / "missing" / "x.png"))
    assert done.returncode == 2 and "is not a folder" in done.stderr


def test_read_names_the_squares_holding_a_piece_whose_side_is_not_seen(tmp_path) -> None:
    """Spares of a colour never learnt on the committed real photo's squares 13 and 17: the
    plain reading names them apart from either side (docs/vision.md, item 6)."""
    from tests.vision.conftest import CORNERS, PHOTO, SPARE, disc
    from vision.calibration import calibrate, load_image

    photo = load_image(PHOTO)
    calibration = calibrate(photo, CORNERS)
    for square in (13, 17):
        cv2.fillPoly(photo, [disc(calibration, square, 0.35)], SPARE, cv2.LINE_AA)
    spares, cal = tmp_path / "spares.png", tmp_path / "cal.json"
    cv2.imwrite(str(spares), photo)
    corners = ",".join(str(int(v)) for v in CORNERS.ravel())
    done = poolboard("vision", "calibrate", str(PHOTO), "--corners", corners, "--out", str(cal))
    assert done.returncode == 0, done.stderr
    done = poolboard("vision", "read", str(spares), "--calibration", str(cal))
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(
        "White 21,22,23,24,25,26,27,28,29,30,31,32  side not seen 13,17"
    )


def test_read_with_corners_reads_a_camera_moved_since_calibrating(tmp_path) -> None:
    """#31 item 4: a picture from another pose of the same board, no markers in view, is read
    with the calibration's colours where --corners puts the board; drawn with --show."""
    first = View(corners=((175, 395), (465, 395), (450, 90), (190, 90)))
    moved = View(corners=((150, 420), (470, 380), (430, 70), (160, 110)), seed=4)
    start = render(START, Style(), first, markers=False)
    after = render(AFTER, Style(), moved, markers=False)
    cv2.imwrite(str(tmp_path / "start.png"), start.image)
    cv2.imwrite(str(tmp_path / "after.png"), after.image)
    cal = tmp_path / "cal.json"
    corners = ",".join(f"{v:.0f}" for v in start.corners.ravel())
    done = poolboard(
        "vision", "calibrate", str(tmp_path / "start.png"), "--out", str(cal), "--corners", corners
    )
    assert done.returncode == 0, done.stderr
    moved_corners = ",".join(f"{v:.0f}" for v in after.corners.ravel())
    shown = tmp_path / "shown"
    shown.mkdir()
    done = poolboard(
        "vision", "read", str(tmp_path / "after.png"), "--calibration", str(cal),
        "--corners", moved_corners, "--json", "--show", str(shown),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["squares"] == {
        str(s): AFTER.get(s, "empty") for s in range(1, 33)
    }
    assert (shown / "after-read.png").exists()
    done = poolboard("vision", "read", str(tmp_path / "after.png"), "--calibration", str(cal),
                     "--corners", "1,2,3")  # fmt: skip
    assert done.returncode != 0
    assert "expected eight numbers" in done.stderr
