"""The learnt square reader: windows cut where the squares are, the network shipped and
described, a board's look learnt at calibration and kept in a file, and renders read."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import numpy as np
import pytest
from pydantic import ValidationError

from engine.sensing import Snapshot
from vision import synthetic
from vision.calibration import Calibration, CalibrationError, calibrate
from vision.calibration_file import LookFile
from vision.patches import BEHIND, BEYOND, PATCH_PX, lean_directions
from vision.pipeline import BoardWatcher
from vision.renders import KIND_OF, boards, windows_of
from vision.squares import MODEL, BoardLook, colours, network, network_id
from vision.synthetic import START, render

STYLE = synthetic.STYLES["red-white on green"]


def test_windows_hold_their_square_and_lean_as_the_camera_sees_it() -> None:
    """A window's middle is its own square: a red man's window is red in the middle, an empty
    square's is the dark square's green; a man's top leans away from the camera's foot."""
    view = synthetic.View()
    frame = synthetic.render(synthetic.START, STYLE, view, markers=False)
    patches = windows_of(frame, view).patches(frame.image)
    row = round(BEYOND / (BEYOND + BEHIND) * PATCH_PX)  # the square's centre
    column = PATCH_PX // 2
    middle = patches[:, row - 3 : row + 3, column - 3 : column + 3]
    _, green, red = middle.mean(axis=(1, 2)).T
    assert (red[:12] > 1.5 * green[:12]).all()  # Black's red men on 1-12
    assert (green[12:20] > red[12:20]).all()  # empty dark squares 13-20
    assert (np.abs(red[20:] - green[20:]) < 0.25).all()  # White's near-white men


def test_lean_points_away_from_the_camera() -> None:
    """Seen from beyond White's side, every piece's top leans towards Black's side (up)."""
    from vision.camera import CameraPose

    directions = lean_directions(CameraPose(foot=(4.0, 14.0), height=10.0))
    assert (directions[:, 1] < -0.7).all()
    assert np.allclose(np.linalg.norm(directions, axis=1), 1.0)


def test_the_shipped_network_says_what_it_was_trained_on() -> None:
    """The model file is small and its description names renders, never photographs."""
    assert MODEL.stat().st_size < 3_000_000
    described = json.loads(MODEL.with_suffix(".json").read_text())
    assert "rendered" in described["trained_on"] and "no photographs" in described["trained_on"]
    assert described["outputs"]["kinds"] == ["empty", "man", "king"]
    probabilities, embedding = network()(np.ones((5, PATCH_PX, PATCH_PX, 3), np.float32))
    assert probabilities.shape == (5, 3) and np.allclose(probabilities.sum(axis=1), 1.0)
    assert embedding.shape[0] == 5


def test_a_board_look_survives_its_file_and_refuses_a_broken_one() -> None:
    board = next(boards(3, 1))
    balance = np.array([0.9, 1.0, 1.1])
    look = BoardLook.learn(board.patches, board.position, balance)
    saved = json.loads(json.dumps(look.to_json()))
    again = LookFile.model_validate(saved).board_look()
    assert again.light_balance is not None and np.allclose(again.light_balance, balance)
    assert again.read(board.patches, balance) == look.read(board.patches, balance)
    older = {k: v for k, v in saved.items() if k != "light_balance"}  # saved before it was kept
    assert LookFile.model_validate(older).board_look().light_balance is None
    with pytest.raises(ValidationError, match="light_balance"):
        LookFile.model_validate(saved | {"light_balance": [1.0, 0.0, 1.0]})
    with pytest.raises(ValidationError, match="centres"):
        LookFile.model_validate(saved | {"centres": [[1.0, 2.0]]})
    with pytest.raises(ValidationError, match="finite"):
        LookFile.model_validate(saved | {"side_colours": [[float("nan")] * 3] * 2})


def test_a_colour_cast_since_calibration_cancels() -> None:
    """Windows under a warmer light than the calibration's (each channel scaled, as the light
    squares show) read as they did under the calibration's light."""
    board = next(boards(3, 1))
    balance = np.array([0.95, 1.0, 1.05])
    look = BoardLook.learn(board.patches, board.position, balance)
    cast = np.array([0.8, 1.0, 1.2], dtype=np.float32)
    warm = (board.patches * cast).astype(np.float32)
    assert warm.max() < 2.0  # nothing clipped: the cast is all that changed
    assert look.read(warm, balance * cast) == look.read(board.patches, balance)


def test_a_rendered_board_calibrated_on_the_start_reads_another_position() -> None:
    """Calibrated on the start position, the reader finds every piece of a later position of
    the same set under the same camera (renders it never learnt from)."""
    rng = np.random.default_rng(7)
    view = synthetic.random_view(rng)
    start = synthetic.render(synthetic.START, STYLE, view, markers=False)
    calibration = calibrate(start.image, start.corners, synthetic.START, reader="learnt")
    again = Calibration.from_json(json.loads(json.dumps(calibration.to_json())))
    assert again.look is not None
    later = synthetic.random_position(rng)
    frame = synthetic.render(later, STYLE, view, markers=False)
    reading = again.squares_in(frame.image)
    occupied_right = sum((reading[s] == "empty") == (later[s] == "empty") for s in range(1, 33))
    sides_right = sum(reading[s].lower() == later[s] for s in range(1, 33))
    assert occupied_right == 32
    assert sides_right >= 31


def test_a_look_learnt_by_another_network_is_refused(tmp_path) -> None:
    """A calibration keeps the network its look was learnt with: after the network file
    changes, the embeddings it holds mean nothing, so loading it names both and asks for a
    recalibration instead of reading the board wrong. A file saved before looks named their
    network still loads."""
    view = synthetic.View()
    start = synthetic.render(synthetic.START, STYLE, view, markers=False)
    saved = calibrate(start.image, start.corners, synthetic.START, reader="learnt").to_json()
    assert saved["look"]["network"] == network_id()
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(saved | {"look": saved["look"] | {"network": "0123456789ab"}}))
    refused = f"{path}: the learnt reader's look was made by another network (0123456789ab; "
    with pytest.raises(CalibrationError, match=re.escape(refused) + ".*: recalibrate$"):
        Calibration.load(path)
    del saved["look"]["network"]
    path.write_text(json.dumps(saved))
    assert Calibration.load(path).look is not None


def test_colours_tell_the_two_sets_apart_and_ignore_a_crown_mark() -> None:
    """Each set's pieces lie together in colour, far apart from the other set's; a king whose
    top carries a dark star is still its side's colour."""
    style = synthetic.sticker_style("black-and-white", 0.38)
    position = {**synthetic.START, 1: "B", 32: "W"}
    view = synthetic.View()
    frame = synthetic.render(position, style, view, markers=False)
    found = colours(windows_of(frame, view).patches(frame.image))
    sides = np.array([KIND_OF[position.get(s, "empty")] for s in range(1, 33)])
    black, white = found[:12], found[20:]
    apart = np.linalg.norm(black.mean(axis=0) - white.mean(axis=0))
    assert apart > 4 * max(black.std(axis=0).max(), white.std(axis=0).max())
    assert sides[0] == sides[31] == 2  # the two kings are among those measured


def test_the_watcher_reads_a_move_through_the_learnt_reader_and_waits_for_the_arm() -> None:
    """A calibration made for the learnt reader drives the camera sensor's watcher: an arm over
    the board gives no snapshot, and the move it made is seen once it has gone."""
    view = synthetic.View(gradient=(0.3, -0.2), noise=2.5)
    calibration = calibrate(render(START, STYLE, view).image, reader="learnt")
    after = {**START, 22: "empty", 18: "w"}  # White played 22-18
    reach = [0, 0, 0, 0, 0.3, 0.6, 0.9, 1.0, 1.0, 0.6, 0.3, 0, 0, 0, 0]
    frames = [
        render(START if k < 7 else after, STYLE, replace(view, seed=k, arm=a)).image
        for k, a in enumerate(reach)
    ]
    watcher = BoardWatcher(calibration)
    snapshots = [e for t, f in enumerate(frames) if (e := watcher.feed(f, float(t))) is not None]
    pieces = [{s: v for s, v in p.items() if v != "empty"} for p in (START, after)]
    assert [s.pieces for s in snapshots] == [Snapshot.from_pieces(0, p).pieces for p in pieces]


@pytest.mark.parametrize("reader", ["colour", "learnt"])
def test_a_position_with_no_empty_square_in_the_clear_calibrates_the_learnt_reader(
    reader: str,
) -> None:
    """The colours cannot be learnt from a board crowded with kings (no empty square to learn
    the squares from): asked for either reader, the learnt one takes it and reads R-BRD-1's
    32 dark squares with the look it learnt; a crowded board of one side stays refused."""
    crowded = {
        s: ("B" if s <= 12 else "W" if s >= 21 else "b" if s <= 16 else "w") for s in range(1, 33)
    }
    view = synthetic.View(noise=2.0)
    with pytest.raises(CalibrationError, match="pieces of both sides"):
        one_side = {s: "b" for s in range(1, 33)}
        calibrate(render(one_side, STYLE, view).image, position=one_side, reader=reader)
    calibration = calibrate(render(crowded, STYLE, view).image, position=crowded, reader=reader)
    assert calibration.look is not None
    later = {**crowded, 13: "empty", 17: "empty", 20: "empty"}
    reading = calibration.squares_in(render(later, STYLE, replace(view, seed=3)).image)
    assert {s for s, v in reading.items() if v == "empty"} == {13, 17, 20}
