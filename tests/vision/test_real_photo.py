"""A real photo we did not make: a wide-angle, oblique view of a start position (Apache-2.0).

The full shared set of labelled real photos is measured by hand with ``poolboard vision
evaluate`` (docs/vision.md); this one photo is licensed to live in the repository.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.phrase import Phrase
from engine.sensing import LinkHealth, SensorFault, Snapshot
from tests.vision.conftest import CORNERS, CORNERS_INSIDE, PHOTO, SPARE, disc
from vision.calibration import Calibration, CalibrationError, calibrate, load_image, read_squares
from vision.colour import BLANK, START_POSITION
from vision.evaluate import Photo, report, trials, unchanged
from vision.layout import SQUARE_CENTRES
from vision.photo_changes import changes
from vision.pipeline import BoardWatcher, WatchConfig

#: The camera link's words when its picture can be read again (a page says them in its language).
AGAIN = Phrase("the camera's picture can be read again")


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    return load_image(PHOTO)


def test_each_half_of_the_board_reads_the_other_half(photo: np.ndarray) -> None:
    """Learnt from the odd-numbered squares alone, the even ones read right, and vice versa."""
    for half in (0, 1):
        learn = {s: v if s % 2 != half else "unknown" for s, v in START_POSITION.items()}
        reading = read_squares(calibrate(photo, CORNERS, learn), photo)
        misread = {s: reading[s] for s, v in START_POSITION.items() if learn[s] == "unknown"
                   and reading[s] != v}  # fmt: skip
        assert misread == {}


def test_the_start_position_calibrates_and_reads_back(photo: np.ndarray) -> None:
    calibration = calibrate(photo, CORNERS)
    assert calibration.warnings == []
    assert read_squares(calibration, photo) == START_POSITION
    assert calibration.k1 < 0  # the wide-angle lens's barrel distortion is seen


def test_the_board_is_found_without_markers_or_corners(photo: np.ndarray) -> None:
    """The grid shows best in CIELAB's blue-yellow channel (blue squares on an orange board):
    found there, within 2.5 % of the side of the hand-picked corners (the wide-angle lens bends
    the outer row), and the start position calibrates and reads back with no hand at all."""
    calibration = calibrate(photo)
    assert calibration.method == "auto"
    side = float(np.linalg.norm(CORNERS[1] - CORNERS[0]))
    assert np.linalg.norm(calibration.corners - CORNERS, axis=1).max() < 0.025 * side
    assert read_squares(calibration, photo) == START_POSITION


def test_a_full_size_still_is_found_on_a_shrunk_copy(photo: np.ndarray) -> None:
    """A Pi HQ camera's full-size still (4056 px across) is searched for the grid at 1920 px at
    most (bench/vision_still.py: seconds and gigabytes at full size): the corners found are the
    hand-picked ones, scaled, and the start position reads back."""
    scale = 4056 / photo.shape[1]
    still = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    calibration = calibrate(still)
    assert calibration.method == "auto"
    side = float(np.linalg.norm(CORNERS[1] - CORNERS[0])) * scale
    assert np.linalg.norm(calibration.corners - CORNERS * scale, axis=1).max() < 0.025 * side
    assert read_squares(calibration, still) == START_POSITION


def test_a_camera_gone_black_and_white_is_a_link_down_not_an_empty_board(
    photo: np.ndarray,
) -> None:
    """A webcam in night mode sends three equal channels: every piece would read as empty
    board. The watcher says the view is gone (the link down, as for a camera unplugged) and
    reads nothing until the colour is back; `vision read` refuses such a picture too
    (docs/vision.md, "Lighting")."""
    calibration = calibrate(photo, CORNERS)
    assert calibration.coloured and Calibration.from_json(calibration.to_json()).coloured
    grey = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    watcher = BoardWatcher(calibration)
    events = [watcher.feed(photo, t) for t in range(5)]
    pieces = {s: v for s, v in START_POSITION.items() if v != "empty"}
    assert [e for e in events if e is not None] == [Snapshot.from_pieces(3.0, pieces)]
    events = [watcher.feed(grey, t) for t in range(5, 40)]
    (down,) = [e for e in events if e is not None]
    assert isinstance(down, LinkHealth) and not down.connected and down.t == 5
    assert "black and white" in down.detail and "night" in down.detail
    events = [watcher.feed(photo, t) for t in range(40, 46)]
    assert events[0] == LinkHealth(40, True, "the camera's picture can be read again", AGAIN)
    assert events[1:] == [None] * 5  # the same board as before: no new snapshot
    with pytest.raises(CalibrationError, match="black and white where the calibration"):
        read_squares(calibration, grey)
    # Black and white discs differ in brightness: a black-and-white camera can be calibrated
    # for them, and is then never taken for one that lost its colour.
    calibrated_grey = calibrate(grey, CORNERS)
    assert not calibrated_grey.coloured
    assert read_squares(calibrated_grey, grey) == START_POSITION


def test_a_covered_lens_is_a_link_down_not_a_moved_camera(photo: np.ndarray) -> None:
    """A frame with nothing in it (a hand over the lens, the lamp off) is said once as the
    view gone, for a colour calibration and a black-and-white one alike; before, the
    black-and-white one searched the frame for a moved board, and the colour one blamed
    night mode. When the picture is back, the same board gives no new snapshot."""
    dark = np.full_like(photo, 3)
    grey = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    for seen, calibration in ((photo, calibrate(photo, CORNERS)), (grey, calibrate(grey, CORNERS))):
        watcher = BoardWatcher(calibration)
        events = [watcher.feed(seen, t) for t in range(5)]
        assert [type(e) for e in events if e is not None] == [Snapshot]
        events = [watcher.feed(dark, t) for t in range(5, 60)]
        said = Phrase("the camera's picture is {why}", why=BLANK)  # said in a page's language
        assert [e for e in events if e is not None] == [
            LinkHealth(5, False, "the camera's picture is all one shade: is the lens covered, "
                       "or the lamp off?", said)
        ]  # fmt: skip
        events = [watcher.feed(seen, t) for t in range(60, 66)]
        assert (
            events
            == [LinkHealth(60, True, "the camera's picture can be read again", AGAIN)] + [None] * 5
        )
        with pytest.raises(CalibrationError, match="all one shade"):
            read_squares(calibration, dark)


def test_a_coin_left_on_a_square_is_named_and_the_corners_clicked_stay(
    photo: np.ndarray,
) -> None:
    """Something no piece on square 15 (a green disc, a coin's size) fits no colour learnt.
    The grid search then finds corners up to 2 % of the side from the hand-clicked ones (this
    lens bends the outer row): that is the grid's own error, not a moved camera. The
    corners clicked stay and the fault names square 15; the board reads again once it is
    cleared (docs/vision.md, "What happens to each frame")."""
    calibration = calibrate(photo, CORNERS)
    coin = photo.copy()
    x, y = calibration.to_picture(np.array([SQUARE_CENTRES[14]]))[0]
    cv2.circle(coin, (int(x), int(y)), 16, (0, 255, 0), -1)
    watcher = BoardWatcher(calibration, WatchConfig(moved_frames=3))
    events = [watcher.feed(frame, t) for t, frame in enumerate([photo] * 4 + [coin] * 8)]
    (fault,) = [e for e in events if isinstance(e, SensorFault)]
    assert fault.squares == {15} and "square 15 fits no colour learnt" in fault.message
    assert not any(isinstance(e, LinkHealth) for e in events)
    assert np.array_equal(watcher.calibration.corners, calibration.corners)
    assert [watcher.feed(photo, t) for t in range(12, 16)][-1] is None  # reads, unchanged


def test_a_spare_of_a_colour_never_learnt_reads_as_a_piece_whose_side_is_not_seen(
    photo: np.ndarray,
) -> None:
    """Two spares from another set on squares 13 and 17, which the camera sees from near
    overhead: their colours read empty, their round outlines say a piece is there
    (docs/vision.md, "A piece of neither side's colour"). The snapshot says ``?`` there, and
    the game confirming the move teaches White's colour nothing from them."""
    calibration = calibrate(photo, CORNERS)
    spares = photo.copy()
    for square in (13, 17):
        cv2.fillPoly(spares, [disc(calibration, square, 0.35)], SPARE, cv2.LINE_AA)
    assert read_squares(calibration, photo) == START_POSITION  # no outline on a bare square
    reading = read_squares(calibration, spares)
    assert reading == START_POSITION | {13: "?", 17: "?"}
    canvas = calibration.canvas(spares)
    assert [calibration.read(canvas, outlines=False)[0][s - 1] for s in (13, 17)] == ["empty"] * 2
    watcher = BoardWatcher(calibration)
    events = [watcher.feed(frame, t) for t, frame in enumerate([spares] * 4)]
    (snapshot,) = [e for e in events if isinstance(e, Snapshot)]
    assert snapshot.piece_map() == {s: k for s, k in reading.items() if k != "empty"}
    for _ in range(20):  # the game says they are White's men, over and over
        assert watcher.confirm(START_POSITION | {13: "w", 17: "w"})
    assert read_squares(watcher.calibration, spares) == reading


def test_a_smaller_copy_reads_the_same(photo: np.ndarray) -> None:
    """The calibration scales to another resolution of the same camera."""
    calibration = calibrate(photo, CORNERS)
    small = cv2.resize(photo, (960, 540), interpolation=cv2.INTER_AREA)
    assert read_squares(calibration, small) == START_POSITION


#: What another camera, lamp or hand does, from the robustness sweep (bench/vision_real.py):
#: the photo read after each, each half learnt from the other half of the unchanged photo
#: (or, for "calibration:", learnt from the changed photo and read unchanged).
USUAL_CAMERA = (
    "exposure x1.5",
    "warm lamp (R x1.15, B x0.8)",
    "noise sigma 8",
    "640 px, noise 4, JPEG 60 (Pi camera)",
    "corners off by <= 1 % of the side",
    "rotated 4 degrees",
    "calibration: exposure x0.6",
)


#: Harder changes the photo also reads right under: the men's outlines are measured on colours
#: fitted all the way to the frame read (before, each crowned one to two men).
HARDER = ("exposure x2", "washed-out colours (saturation x0.5)")


@pytest.mark.parametrize("name", USUAL_CAMERA + HARDER)
def test_the_photo_reads_right_after_another_cameras_change(photo: np.ndarray, name: str) -> None:
    side, change = changes(seed=1)[name]
    labelled = Photo(
        PHOTO.name, photo, CORNERS, dict(START_POSITION), "eppuhassinen/opencv-checkers"
    )
    done = trials(
        [labelled],
        read_as=change if side == "read" else unchanged,
        learn_as=change if side == "calibration" else unchanged,
    )
    misread = [
        (s, truth, got) for trial in done for s, truth, got in trial.compared() if truth != got
    ]
    assert len(done) == 2 and misread == []


def test_a_half_without_one_side_is_learnt_for_what_it_shows(photo: np.ndarray) -> None:
    """A photo alone of its board is read in halves (odd squares learnt, even read, and the
    other way): with White's men labelled on one even square only, the odd half shows no White
    piece. Play needs both sides, so ``calibrate`` refuses it; ``evaluate`` learns what the
    labels allow and still reads the even squares' Black men and empty squares right."""
    truth = START_POSITION | dict.fromkeys(range(21, 33), "unknown") | {22: "w"}
    odd_half = {s: v if s % 2 == 1 else "unknown" for s, v in truth.items()}
    with pytest.raises(CalibrationError, match="shows no White piece"):
        calibrate(photo, CORNERS, odd_half)
    labelled = Photo(PHOTO.name, photo, CORNERS, truth, "eppuhassinen/opencv-checkers")
    done = trials([labelled])
    without_white = next(t for t in done if 22 in t.truth)
    misread = [(s, v, got) for s, v, got in without_white.compared() if v in ("b", "empty")
               and got != v]  # fmt: skip
    assert len(done) == 2 and misread == []


def test_a_label_whose_corners_the_pattern_test_doubts_is_read_all_the_same(
    photo: np.ndarray, capsys: pytest.CaptureFixture[str]
) -> None:
    """``evaluate`` trusts a label's corners: corners a tenth of the board inside it, between
    which the checker-pattern test (the camera sensor's guard against a moved camera) sees no
    board, are calibrated from and read, with a line saying the sensor would refuse them,
    rather than counted as refused."""
    with pytest.raises(CalibrationError, match="do not line up"):
        calibrate(photo, CORNERS_INSIDE)
    labelled = Photo(PHOTO.name, photo, CORNERS_INSIDE, dict(START_POSITION), "eppu")
    done = trials([labelled])
    assert len(done) == 2
    assert not any(trial.refused for trial in done)
    said = capsys.readouterr().out
    assert "the checker pattern shows weakly between its labelled corners" in said
    assert "would refuse this picture; read all the same" in said


def test_a_photo_read_against_its_labels_on_many_squares_still_calibrates(
    photo: np.ndarray, capsys: pytest.CaptureFixture[str]
) -> None:
    """A labelled photo may read against its labels on many squares (pieces heaped or set
    between squares, which no square's label describes, or a slip in the labels: here five of
    Black's men labelled White). ``evaluate`` learns it from the squares that agree and says
    which did not, where before the refusal counted every square of every photo read with it
    wrong."""
    slipped = dict(START_POSITION) | dict.fromkeys(range(1, 6), "w")
    with pytest.raises(CalibrationError, match="does not read as the position given"):
        calibrate(photo, CORNERS, slipped)
    labelled = Photo("slipped.jpg", photo, CORNERS, slipped, "eppu")
    whole = Photo(PHOTO.name, photo, CORNERS, dict(START_POSITION), "eppu")
    done = [t for t in trials([labelled, whole]) if t.photo == PHOTO.name]
    assert [t.learnt_from for t in done] == ["slipped.jpg"]
    assert all(truth == got for _, truth, got in done[0].compared())
    said = capsys.readouterr().out
    assert "slipped.jpg: as a calibration, squares 1, 2, 3, 4, 5 read otherwise" in said


def test_a_labelled_board_running_off_the_picture_is_learnt_from_what_it_shows(
    photo: np.ndarray,
) -> None:
    """A label may put a corner outside its picture (a board cut by the frame, its corner
    extrapolated): ``evaluate`` learns from the squares the picture shows, where `calibrate`
    for play refuses such corners. Before, the refusal counted every square of every photo
    read with that calibration wrong."""
    left = int(CORNERS[:, 0].min() + 0.12 * np.ptp(CORNERS[:, 0]))  # cut the a-file off
    cut = np.ascontiguousarray(photo[:, left:])
    corners = CORNERS - np.array([left, 0], dtype=np.float32)
    with pytest.raises(CalibrationError, match=r"a8 .* lies outside the"):
        calibrate(cut, corners)
    cut_photo = Photo("cut.jpg", cut, corners, dict(START_POSITION), "eppu")
    whole = Photo(PHOTO.name, photo, CORNERS, dict(START_POSITION), "eppu")
    done = [t for t in trials([cut_photo, whole]) if t.photo == PHOTO.name]
    assert [t.learnt_from for t in done] == ["cut.jpg"]
    assert all(truth == got for _, truth, got in done[0].compared())


def test_a_calibration_picture_that_cannot_be_learnt_from_makes_no_read(
    photo: np.ndarray, capsys: pytest.CaptureFixture[str]
) -> None:
    """A labelled photo that cannot be learnt from (its label names no empty square, which
    the colours need, and no Black piece, which the learnt reader needs) is refused as a
    calibration, as `calibrate` would refuse it to a user: the reads it was to calibrate are
    not made, and `report` says how many, with the total as it would be were their squares
    all counted wrong. The photo it was the only partner of is read in halves, as a photo
    alone of its board; before, it lost all 32 squares to the refusal."""
    no_empty = dict(START_POSITION) | dict.fromkeys(range(1, 21), "unknown")
    bad = Photo("no-empty.jpg", photo, CORNERS, no_empty, "eppu")
    whole = Photo(PHOTO.name, photo, CORNERS, dict(START_POSITION), "eppu")
    done = trials([bad, whole])
    assert "no-empty.jpg: refused as a calibration: the position shows no Black piece" in (
        capsys.readouterr().out
    )
    assert [(t.photo, t.learnt_from, bool(t.refused)) for t in done] == [
        ("no-empty.jpg", PHOTO.name, False),
        (PHOTO.name, "no-empty.jpg", True),
        (PHOTO.name, "other half", False),
        (PHOTO.name, "other half", False),
    ]
    assert all(truth == got for trial in done for _, truth, got in trial.compared())
    lines = report(done)
    total = next(line for line in lines if line.startswith("total"))
    assert total.split()[1] == "44/44"
    assert "reads not made: 1, their calibration picture refused (no-empty.jpg;" in "\n".join(lines)
    assert "with their 32 squares counted wrong: 44/76 exact (57.89 %)" in "\n".join(lines)


def test_an_empty_board_is_no_calibration_but_is_read(
    photo: np.ndarray, capsys: pytest.CaptureFixture[str]
) -> None:
    """A photo of a board with no piece of one side is refused as a calibration, as `calibrate`
    refuses it to a user; it is still read with its partners' calibrations."""
    empty = Photo("empty.jpg", photo, CORNERS, dict.fromkeys(range(1, 33), "empty"), "eppu")
    whole = Photo(PHOTO.name, photo, CORNERS, dict(START_POSITION), "eppu")
    done = trials([empty, whole])
    assert "empty.jpg: refused as a calibration: the position shows no Black piece" in (
        capsys.readouterr().out
    )
    assert ("empty.jpg", PHOTO.name, False) in [
        (t.photo, t.learnt_from, bool(t.refused)) for t in done
    ]
