"""Reading accuracy over a small randomised set of boards, sets, views and positions."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration, calibrate, read_squares
from vision.synthetic import (
    START,
    STYLES,
    Style,
    View,
    camera_corners,
    hardened_position,
    hardened_style,
    hardened_view,
    late_position,
    random_position,
    random_style,
    random_view,
    render,
    sticker_style,
)


def test_squares_read_right_across_sets_views_and_light() -> None:
    rng = np.random.default_rng(2024)
    wrong = total = boards_wrong = crowned = 0
    for board in range(6):
        style = random_style(rng)
        view = random_view(rng)
        markers = board % 2 == 0
        calibration = calibrate(render(START, style, view, markers=markers).image)
        for _ in range(3):
            position = random_position(rng)
            # Same camera, other light: new gradient, tint, glare, shadow and noise.
            other = random_view(rng, corners=view.corners, distortion=view.distortion)
            got = read_squares(calibration, render(position, style, other, markers=markers).image)
            misses = sum(got[s].lower() != position[s] for s in range(1, 33))
            crowned += sum(got[s] in ("B", "W") for s in range(1, 33))  # no king was placed
            wrong += misses
            total += 32
            boards_wrong += misses > 0
    assert wrong / total <= 0.01, f"{wrong} of {total} squares misread"
    assert boards_wrong <= 2, f"{boards_wrong} of 18 boards had a misread square"
    assert crowned / total <= 0.02, f"{crowned} men of {total} squares read as kings"


def test_dark_squares_of_their_own_shades_read_empty_once_the_men_leave() -> None:
    """Issue #31: on a board whose dark squares differ in shade (worn, stained, engraved)
    more than Black's men differ from the darkest of them, a square the start position
    covered was never seen empty: each dark square is compared with its own shade, learnt
    from its bare corners at calibration, so the men's squares read empty once they leave
    (all six boards; 6 squares wrong without the squares' own shades), in a dimmer light."""
    view = View(gradient=(0.3, -0.2), noise=2.5)
    after = {**dict.fromkeys(range(1, 33), "empty"), 30: "b", 3: "w", 14: "b", 27: "w", 9: "b"}
    wrong = {}
    for seed in range(6):
        style = Style(
            light=(200, 210, 215), dark=(70, 75, 80), black=(50, 52, 55), dark_spread=0.8,
            seed=seed,
        )  # fmt: skip
        calibration = calibrate(render(START, style, view).image)
        picture = render(after, style, replace(view, brightness=0.85, seed=seed + 9)).image
        got = read_squares(calibration, picture)
        wrong |= {(seed, s): got[s] for s in range(1, 33) if got[s] != after[s]}
    assert not wrong


def test_a_sleeve_over_the_calibration_picture_is_no_squares_empty_look() -> None:
    """A dark sleeve in Black's colour lying across two rows when the picture is taken
    covers those squares' corners too: what they show there is no square's look when empty,
    so they still read as the pieces the position puts there, the calibration warns of
    nothing, and the pieces later set on them read right."""
    style = STYLES["black-white on brown"]
    band = np.array([[0.0, 1.05], [8.0, 1.05], [8.0, 2.95], [0.0, 2.95]])
    for seed in range(2):
        view = View(corners=camera_corners(4, 90 * seed, 0), seed=seed)
        picture = render(START, replace(style, seed=seed), view).image
        sleeve = calibrate(picture).to_picture(band).astype(np.int32)
        cv2.fillPoly(picture, [sleeve], (np.array(style.black, float) * 0.95).tolist())
        grain = np.random.default_rng(seed).normal(0, 2, picture.shape)  # the camera's noise
        calibration = calibrate(np.clip(picture + grain, 0, 255).astype(np.uint8))
        assert not calibration.warnings
        later = dict.fromkeys(range(1, 33), "empty") | {
            s: ("b" if s % 2 else "w") if 5 <= s <= 12 else START[s] for s in START if s > 4
        }
        got = read_squares(calibration, render(later, style, replace(view, seed=30)).image)
        assert got == later


def test_emblem_kings_overhead_read_as_kings() -> None:
    """Sticker sets on a flat printed board, seen from above, crown a piece with a printed mark
    (issue #10's first complaint: such kings read as empty). Stars and squares, dark on bright
    pieces and gold on dark ones, on pieces set off-centre, under other light than at
    calibration."""
    rng = np.random.default_rng(10)
    overhead = ((175.0, 395.0), (465.0, 395.0), (450.0, 90.0), (190.0, 90.0))
    kings = seen = men = crowned = emptied = 0
    for shape in ("star", "square", "star"):
        style = replace(hardened_style(rng), kings="emblem", emblem=shape)
        view = hardened_view(rng, corners=overhead, distortion=0.0)
        calibration = calibrate(render(START, style, view, markers=False).image, np.array(overhead))
        for _ in range(2):
            position = hardened_position(rng)
            other = hardened_view(rng, corners=overhead, distortion=0.0)
            got = read_squares(calibration, render(position, style, other, markers=False).image)
            for square, truth in position.items():
                kings += truth in "BW"
                seen += truth in "BW" and got[square] == truth
                emptied += truth != "empty" and got[square] == "empty"
                men += truth in "bw"
                crowned += truth in "bw" and got[square] in "BW"
    assert emptied == 0, f"{emptied} pieces read as empty"
    assert seen >= 0.75 * kings, f"only {seen} of {kings} emblem kings read as kings"
    assert crowned <= 0.02 * men, f"{crowned} of {men} men read as kings"


def test_stacked_kings_seen_obliquely_read_as_kings() -> None:
    """A camera on a stand 40° off the vertical sees a king of two stacked men twice as tall
    as a man (issue #10: kings as stacks). Wooden-disc-like pieces 0.2 square thick, set up
    to 0.3 square off-centre, read under other light than at calibration; every square is
    judged, kings and men alike."""
    rng = np.random.default_rng(40)
    kings = seen = men = crowned = 0
    for azimuth in (20.0, 200.0):
        style = replace(hardened_style(rng), kings="stack", piece_height=0.2)
        corners = camera_corners(40.0, azimuth, 0.0, fill=0.7)
        view = hardened_view(rng, corners=corners, distortion=0.0)
        calibration = calibrate(render(START, style, view).image, np.array(corners))
        for _ in range(3):
            position = hardened_position(rng)
            other = hardened_view(rng, corners=corners, distortion=0.0)
            got = read_squares(calibration, render(position, style, other).image)
            for square, truth in position.items():
                kings += truth in "BW"
                seen += truth in "BW" and got[square] == truth
                men += truth in "bw"
                crowned += truth in "bw" and got[square] in "BW"
    # A floor, not the goal (every king): see docs/vision.md, "Limits" (16 of 35 and 2 of 71
    # when written; the reader before the finer stack strip saw 14 and crowned 1).
    assert seen >= 0.4 * kings, f"only {seen} of {kings} stacked kings read as kings"
    assert crowned <= 0.05 * men, f"{crowned} of {men} men read as kings"


def test_printed_emblems_never_read_empty_or_as_the_other_side() -> None:
    """Sticker sets print the crown in the middle of the piece (issue #10: 154 of 186 such
    kings read as empty): a dark star on a red king, a gold one on a black king, a dark square
    on a white king, each reaching 0.7 of the piece's radius, on flat discs set up to 0.3
    square off-centre and seen from overhead. No king reads as empty or as the other side, no
    man is crowned, and a crown that contrasts with its piece's class shows it a king (a dark
    star on red is seen as Black's, not always as a crown: docs/vision.md, Limits)."""
    overhead = ((175.0, 395.0), (465.0, 395.0), (450.0, 90.0), (190.0, 90.0))
    kings = {square: "B" if square % 2 else "W" for square in range(1, 33, 3)}
    men = {square: "w" if square % 2 else "b" for square in range(2, 33, 3)}
    wrong, contrasting, seen = [], 0, 0
    for set_name, shape in (("red-white on green", "star"), ("black-white on brown", "square")):
        style = replace(
            STYLES[set_name], kings="emblem", emblem=shape, emblem_size=0.7, emblem_ink="dark",
            piece_height=0.04,
        )  # fmt: skip
        view = View(corners=overhead, jitter=0.3, glare=None)
        calibration = calibrate(render(START, style, view).image, np.array(overhead))
        for seed in (1, 2):
            position = {**kings, **men}
            got = read_squares(calibration, render(position, style, replace(view, seed=seed)).image)
            wrong += [
                (set_name, s, v, got[s]) for s, v in position.items() if got[s] not in v + v.lower()
            ]
            wrong += [(set_name, s, v, got[s]) for s, v in men.items() if got[s] != v]
            dark_on_red = set_name.startswith("red")
            for square, king in kings.items():
                contrasting += not (dark_on_red and king == "B")
                seen += not (dark_on_red and king == "B") and got[square] == king
    assert not wrong, f"misread (set, square, placed, read): {wrong}"
    # A floor, not the goal: 25 of 32 when written (the round-4 reader saw 24, and no man
    # read empty or as the other side here either; its misses were under glare, where the
    # hardened set measures them: docs/vision.md, "Round 5").
    assert seen >= 0.75 * contrasting, f"only {seen} of {contrasting} contrasting crowns seen"


def test_marks_coloured_like_their_piece_are_learnt_from_the_kings_at_calibration() -> None:
    """Red and green stickers on a grey-and-white printed board, every king with a dark star,
    seen from above by a 640x400 camera. The star is nearer the green's shaded colour than
    anything else, so read by colour alone it was taken for the piece and every green king
    read as a man. Calibrated on a picture whose kings are known, the marks are learnt as a
    class of their own (docs/vision.md, "Calibrating")."""
    rng = np.random.default_rng(5)
    corners = camera_corners(4.0, 30.0, 5.0, (640, 400), 0.55)
    view = View(corners=corners, size=(640, 400), jitter=0.15)
    style = Style(
        light=(230, 232, 235), dark=(110, 110, 110), black=(45, 45, 200), white=(70, 175, 60),
        frame=(90, 60, 40), piece_radius=0.4, piece_height=0.02, kings="emblem",
        emblem="star", emblem_ink="dark",
    )  # fmt: skip
    known = {s: str(rng.choice(["b", "w", "B", "W", "empty"], p=[0.3, 0.3, 0.1, 0.1, 0.2]))
             for s in range(1, 33)}  # fmt: skip
    image = render(known, style, view, markers=False).image
    calibration = calibrate(image, np.array(corners), known)
    kings = {"B": [0, 0], "W": [0, 0]}
    for seed in range(3):
        position = hardened_position(rng)
        frame = render(position, style, replace(view, seed=seed), markers=False).image
        got = read_squares(calibration, frame)
        for square, truth in position.items():
            assert got[square].lower() == truth.lower()  # occupancy and colour, every square
            if truth in "BW":
                kings[truth][0] += got[square] == truth
                kings[truth][1] += 1
    for side, (seen, placed) in kings.items():
        assert seen >= 0.9 * placed, f"{seen} of {placed} {side} kings read as kings"


@pytest.mark.parametrize(
    "kings",
    [
        {"king_shape": "circle", "king_scale": 1.25},  # a larger disc
        {"king_shape": "square", "king_scale": 0.8},  # a smaller flat piece of another outline
    ],
    ids=["larger", "smaller square"],
)
def test_kings_of_another_size_are_learnt_from_the_kings_at_calibration(
    kings: dict[str, object],
) -> None:
    """Flat kings of another size than the men, no stack and no mark, seen from near above:
    calibrated on a position with kings, the set's kings are told by their outline's area
    against the men's; calibrated on the start position, the colours know nothing of this
    set's kings: each reads as a king (the learnt reader's second opinion) or a man of its
    side, and no man as a king."""
    view = View(corners=camera_corners(12.0, 0.0, 0.0), jitter=0.1, glare=None)
    style = replace(STYLES["black-white on brown"], kings="shape", **kings)
    known = late_position(np.random.default_rng(8), 5, 3)
    learnt = calibrate(render(known, style, view).image, np.array(view.corners), known)
    assert learnt.model.king_size
    taught = Calibration.from_json(json.loads(json.dumps(learnt.to_json())))  # as saved
    assert taught.model.king_size == pytest.approx(learnt.model.king_size, abs=1e-4)
    untaught = calibrate(render(START, style, view).image, np.array(view.corners))
    assert not untaught.model.king_size
    rng = np.random.default_rng(9)
    for seed in range(3):
        position = late_position(rng, 4, 4)
        frame = render(position, style, replace(view, seed=seed)).image
        assert read_squares(taught, frame) == position
        got = read_squares(untaught, frame)
        assert all(got[s] in (v, v.lower()) for s, v in position.items())
        assert all(got[s] == v for s, v in position.items() if v in ("b", "w"))


def test_coloured_inserts_learnt_at_calibration_still_read_as_kings() -> None:
    """A king whose top is mostly a coloured insert: calibrated on a position with kings, the
    insert's colour is learnt as the crowns' own, and a hole of that colour filling most of the
    piece is the insert, not an empty square ringed by a piece. Before, 27 of these 40 kings
    read as kings (the White ones 7 of 20); now 35."""
    view = View()
    style = replace(STYLES["black-white on brown"], kings="insert", insert=(200, 60, 60))
    known = late_position(np.random.default_rng(99), 4, 4)
    calibration = calibrate(render(known, style, view).image, np.array(view.corners), known)
    rng = np.random.default_rng(3)
    kings = seen = 0
    for _ in range(5):
        position = late_position(rng, 4, 4)
        got = read_squares(calibration, render(position, style, view).image)
        assert {s: v.lower() for s, v in got.items()} == {s: v.lower() for s, v in position.items()}
        assert all(got[s] == v for s, v in position.items() if v in ("b", "w"))  # no man crowned
        kings += sum(v in ("B", "W") for v in position.values())
        seen += sum(got[s] == v for s, v in position.items() if v in ("B", "W"))
    assert seen >= 0.85 * kings, f"{seen} of {kings} kings read as kings"


def test_kings_like_the_men_in_size_teach_no_size() -> None:
    """Stacks seen from above and marked kings are the men's size: their sets learn no size
    rule, so a man read a little large (glare, a neighbour's shadow) is never taken for a king.
    Seen 42 degrees off the vertical a stack shows its side and looks larger, but so do the men
    on the squares farther from the camera: no clear margin, so these sets learn no size either
    (their kings' height tells them; some oblique sets do learn one, docs/vision.md)."""
    known = late_position(np.random.default_rng(8), 5, 3)
    oblique = View(corners=camera_corners(42.0, 0.0, 0.0), glare=None)
    for kings, view in (("stack", View(glare=None)), ("emblem", View(glare=None)),
                        ("stack-emblem", oblique), ("stack", oblique)):  # fmt: skip
        style = replace(STYLES["red-white on green"], kings=kings)
        calibration = calibrate(render(known, style, view).image, np.array(view.corners), known)
        assert calibration.model.king_size == 0.0, kings


def test_a_camera_moved_to_another_angle_forgets_the_kings_size() -> None:
    """A size is learnt with the pieces' sides seen from one angle: from a camera moved much
    further off the vertical, tall men show more side and would look a king's size, so the
    moved calibration reads kings by height and marks alone until the game teaches the size
    again, and the learnt reader crowns no man the colours read (the tilted camera sees the
    pieces' sides). A camera nudged at the same angle keeps the size."""
    style = replace(STYLES["black-white on brown"], kings="shape", king_scale=1.25,
                    king_shape="circle", piece_height=0.3)  # fmt: skip
    view = View(corners=camera_corners(5.0, 0.0, 0.0), glare=None)
    known = late_position(np.random.default_rng(8), 5, 3)
    calibration = calibrate(render(known, style, view).image, np.array(view.corners), known)
    assert calibration.model.king_size
    nudged = np.array(camera_corners(5.0, 0.0, 3.0), dtype=np.float32)
    assert calibration.moved_to(nudged, {}).model.king_size == calibration.model.king_size
    tilted = View(corners=camera_corners(35.0, 0.0, 0.0), glare=None)
    moved = calibration.moved_to(np.array(tilted.corners, dtype=np.float32), {})
    assert moved.model.king_size == 0.0
    assert calibration.model.king_size  # the calibration itself keeps what it learnt
    position = late_position(np.random.default_rng(4), 6, 2)
    got = read_squares(moved, render(position, style, replace(tilted, seed=1)).image)
    assert all(got[s] == v for s, v in position.items() if v in ("b", "w"))


def test_a_side_shown_only_as_kings_is_told_by_the_other_sides_men() -> None:
    """A calibration whose White pieces are all kings: White's men's size is Black's (the
    sets' pieces are made alike), so White's larger kings are told too."""
    style = replace(STYLES["black-white on brown"], kings="shape", king_scale=1.25,
                    king_shape="circle")  # fmt: skip
    view = View(glare=None)
    known = dict.fromkeys(range(1, 33), "empty") | dict.fromkeys((1, 2, 3, 6, 7), "b")
    known |= dict.fromkeys((14, 15), "B") | dict.fromkeys((26, 27, 30), "W")
    calibration = calibrate(render(known, style, view).image, np.array(view.corners), known)
    position = dict.fromkeys(range(1, 33), "empty") | dict.fromkeys((5, 9, 10), "b")
    position |= {18: "B", 24: "w", 32: "w"} | dict.fromkeys((22, 23, 28, 31), "W")
    assert (
        read_squares(calibration, render(position, style, replace(view, seed=3)).image) == position
    )


def test_spares_beside_the_board_do_not_make_its_edge_men_kings() -> None:
    """Captured men lying just past the playing area, in line with the edge men as the camera
    sees them: they are no part of those men's outlines, so a set told by its kings' size reads
    its edge men as men."""
    style = replace(STYLES["black-white on brown"], kings="shape", king_scale=1.25,
                    king_shape="circle")  # fmt: skip
    view = View(corners=camera_corners(25.0, 0.0, 0.0), glare=None)
    known = late_position(np.random.default_rng(8), 5, 3)
    calibration = calibrate(render(known, style, view).image, np.array(view.corners), known)
    assert calibration.model.king_size
    edge = (1, 2, 3, 4, 5, 12, 13, 20, 21, 28, 29, 30, 31, 32)
    position = dict.fromkeys(range(1, 33), "empty") | {s: "b" if s < 17 else "w" for s in edge}
    spares = [(2 * ((s - 1) % 4) + 1.5, -0.45, "b") for s in (1, 2, 3, 4)]
    spares += [(2 * ((s - 1) % 4) + 0.5, 8.45, "w") for s in (29, 30, 31, 32)]
    spares += [(-0.45, 4.5, "w"), (8.45, 3.5, "b")]
    frame = render(position, style, replace(view, spares=tuple(spares), seed=1)).image
    assert read_squares(calibration, frame) == position


def test_pale_kings_marks_are_seen_when_the_picture_is_overexposed() -> None:
    """A pale piece's top may look like the light squares in a brighter picture than the
    calibration's (both clip): on a dark square that is still the White piece, so the dark
    star or square printed on a White king is still ringed by it. Read at one and a half
    times the calibration's exposure, the round-5 reader saw 1 of 32 such kings."""
    overhead = ((175.0, 395.0), (465.0, 395.0), (450.0, 90.0), (190.0, 90.0))
    position = {s: "W" for s in range(1, 33, 2)} | {s: "w" for s in range(2, 33, 4)}
    kings = seen = crowned = 0
    for shape in ("star", "square"):
        style = replace(
            STYLES["black-white on brown"], kings="emblem", emblem=shape, emblem_size=0.6,
            piece_height=0.04,
        )  # fmt: skip
        view = View(corners=overhead, jitter=0.2, glare=None)
        calibration = calibrate(render(START, style, view).image, np.array(overhead))
        frame = render(position, style, replace(view, brightness=1.5, seed=3)).image
        got = read_squares(calibration, frame)
        kings += sum(v == "W" for v in position.values())
        seen += sum(got[s] == "W" for s, v in position.items() if v == "W")
        crowned += sum(got[s] != "w" for s, v in position.items() if v == "w")
    assert crowned == 0, f"{crowned} White men misread"
    assert seen >= 0.8 * kings, f"only {seen} of {kings} White kings read as kings"


def _jpeg(image: np.ndarray) -> np.ndarray:
    """``image`` after a round trip through JPEG at quality 85, as a webcam's stills."""
    _, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def test_thin_printed_marks_on_red_stickers_are_read_as_crowns() -> None:
    """Issue #10's board: red and green stickers on a green printed board, each king with a
    dark star, seen from above at 640x400 in JPEG, the light changing between pictures. The
    star's thin arms blur into the red, so only its core is unlike the piece: a mark a third
    of the usual share. Calibrated on a picture with kings, their marks set the board's floor
    (docs/vision.md, round 6 on emblems); before, 11 of 61 Black kings read as men."""
    kings = {"B": [0, 0], "W": [0, 0]}
    crowned = 0
    for board in range(4):
        rng = np.random.default_rng(board)
        corners = camera_corners(float(rng.uniform(0, 8)), float(rng.uniform(0, 360)), 5.0,
                                 (640, 400), 0.55)  # fmt: skip
        views = [
            View(corners=corners, size=(640, 400), noise=3.0, jitter=0.2, seed=seed,
                 brightness=float(rng.uniform(0.8, 1.2)),
                 gradient=(float(rng.uniform(-0.3, 0.3)), float(rng.uniform(-0.3, 0.3))))
            for seed in range(4)
        ]  # fmt: skip
        style = sticker_style("green", 0.4)
        kinds = ["b", "w", "B", "W", "empty"]
        odds = [0.25, 0.25, 0.15, 0.15, 0.2]
        positions = [{s: str(rng.choice(kinds, p=odds)) for s in range(1, 33)} for _ in range(4)]
        image = _jpeg(render(positions[0], style, views[3], markers=False).image)
        calibration = calibrate(image, np.array(corners), positions[0])
        for view, position in zip(views[:3], positions[1:], strict=True):
            got = read_squares(
                calibration, _jpeg(render(position, style, view, markers=False).image)
            )
            for square, truth in position.items():
                assert got[square].lower() == truth.lower()  # occupancy and colour, every square
                crowned += truth in "bw" and got[square] != truth
                if truth in "BW":
                    kings[truth][0] += got[square] == truth
                    kings[truth][1] += 1
    assert crowned == 0, f"{crowned} men read as kings"
    for side, (seen, placed) in kings.items():
        assert seen >= 0.95 * placed, f"{seen} of {placed} {side} kings read as kings"


def test_crowns_marks_are_learnt_where_some_of_them_look_like_the_piece() -> None:
    """Stickers that nearly fill their squares (the set issue #10 names: pieces 41 pixels
    across on squares 42-43 apart), red and green with a dark star on each king, on a
    grey-and-white printed board seen from above. 56 % of the star's pixels lie nearer the
    green piece than anything else, the rest nearer the grey square; their median did too, so
    the calibration learnt no marks, and every green king read as a man (0 of 8 here). The
    marks are now learnt from the pixels the colours would take for a piece."""
    corners = ((473.6, 10.4), (130.4, 46.5), (163.9, 392.6), (512.7, 356.0))
    view = View(
        corners=corners, size=(640, 400), gradient=(0.15, 0.2), brightness=1.2, noise=4.7,
        jitter=0.15, seed=1,
    )  # fmt: skip
    style = sticker_style("grey-and-white", 0.48)
    picture = "BwWWB.wW.Bbw.WbbwwWwBw.wbBw.bwbw"  # squares 1-32, "." empty
    known = {square: "empty" if c == "." else c for square, c in enumerate(picture, 1)}
    calibration = calibrate(
        render(known, style, view, markers=False).image, np.array(corners), known
    )
    _read_stickers(calibration, style, view, np.random.default_rng(7))


def _read_stickers(
    calibration: Calibration, style: Style, view: View, rng: np.random.Generator
) -> None:
    """Read three random positions of a sticker set under ``view`` in other noise and light:
    every square right in occupancy and colour, no man crowned, nine kings in ten seen."""
    kings = {"B": [0, 0], "W": [0, 0]}
    for seed in range(3):
        position = hardened_position(rng)
        other = replace(view, seed=10 + seed, brightness=float(rng.uniform(0.8, 1.2)))
        got = read_squares(calibration, render(position, style, other, markers=False).image)
        for square, truth in position.items():
            assert got[square].lower() == truth.lower(), (style.dark, square, truth, got[square])
            assert truth not in "bw" or got[square] == truth  # no man crowned
            if truth in "BW":
                kings[truth][0] += got[square] == truth
                kings[truth][1] += 1
    for side, (seen, placed) in kings.items():
        assert seen >= 0.9 * placed, f"{style.dark}: {seen} of {placed} {side} kings seen"


@pytest.mark.parametrize(
    ("board", "mark"),
    [("grey-and-white", "star"), ("grey-and-white", "square"), ("green", "square")],
)
def test_crowns_never_seen_at_calibration_read_as_kings(board: str, mark: str) -> None:
    """Four pictures of issue #10's set hold no king, and `evaluate` reads every picture with
    each of the others' calibrations. A dark mark looks more like a piece's shaded rim than
    like anything else learnt from the start position, so kings read as men: here 0 of 11
    green kings on the grey-and-white board, star or square, and 0 of 13 red ones on the green
    board. A pixel unlike every class and darker than its own class now marks a crown
    (``PixelModel.dark_strays``), and such pixels no longer pull the frame's own copy of the
    colours towards themselves (with the first alone, the green board still read 0 of 13;
    docs/vision.md, round 13)."""
    corners = camera_corners(4.0, 120.0, -5.0, (640, 400), 0.55)
    view = View(corners=corners, size=(640, 400), noise=3.0, jitter=0.15, seed=1)
    style = sticker_style(board, 0.46, mark)
    picture = render(START, style, view, markers=False)
    _read_stickers(calibrate(picture.image, picture.corners), style, view, np.random.default_rng(5))


@pytest.mark.parametrize("men", [0, 3])
def test_crowns_marks_are_learnt_from_a_late_position_with_few_men(men: int) -> None:
    """Issue #10's set holds late positions: a picture with no man at all (nine kings a side)
    and one with three men of a side. Calibrated on such a picture, the marks were learnt only
    from a side with four men or more. Without them that side's kings read as men (here, on
    the grey board, 1 of 16 Black kings with no men, 0 of 7 White kings with three), and on
    the green board with no men the marks went into the green side's colour and a green man
    read as empty board. Plain tops now come from any man of the side, or from the kings' own
    tops round the edge, clear of the mark (docs/vision.md, round 12)."""
    rng = np.random.default_rng(1)
    corners = camera_corners(3.0, 200.0, 5.0, (640, 400), 0.55)
    view = View(corners=corners, size=(640, 400), noise=3.0, jitter=0.15, seed=1)
    for board in ("grey-and-white", "green"):
        style = sticker_style(board, 0.46)
        known = late_position(rng, men)
        picture = render(known, style, view, markers=False)
        _read_stickers(calibrate(picture.image, picture.corners, known), style, view, rng)
