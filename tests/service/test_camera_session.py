"""The service with the camera sensor: pictures of a game in, the move recorded."""

import threading
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2

from poolboard.config import Config, SensorConfig, StorageConfig
from poolboard.service import build_session
from poolboard.session import Session
from vision.calibration import calibrate
from vision.sensor import CameraSensor
from vision.sources import ImageFiles
from vision.synthetic import START, Style, View, render


def test_run_with_the_camera_records_the_move_it_sees(tmp_path: Path) -> None:
    view = View(gradient=(0.2, -0.1), noise=2.0)
    calibrate(render(START, Style(), view).image).save(tmp_path / "cal.json")
    after = {**START, 11: "empty", 15: "b"}  # Black plays 11-15
    frames = tmp_path / "frames"
    frames.mkdir()
    for index, position in enumerate([START, START, after]):
        image = render(position, Style(), replace(view, seed=index)).image
        cv2.imwrite(str(frames / f"{index:03}.png"), image)
    config = Config(
        sensor=SensorConfig(kind="camera", spec=f"file:{frames}?calibration={tmp_path}/cal.json"),
        storage=StorageConfig(path=str(tmp_path / "data")),
    )
    session = build_session(config)
    recorded = threading.Event()
    session.subscribe(lambda state: state["moves"] == ["11-15"] and recorded.set())
    stop = threading.Event()
    worker = threading.Thread(target=session.run, args=(stop,), daemon=True)
    worker.start()
    try:
        assert recorded.wait(20), f"not recorded: {session.state()['moves']}"
        assert session.state()["moves"] == ["11-15"]
        assert session.store.game(session.game_id).moves[0].notation == "11-15"
    finally:
        stop.set()
        worker.join(timeout=5)
        session.close()


class TaughtCamera(CameraSensor):
    """The real camera sensor, keeping what the session taught it and whether it learnt."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.lessons: list[tuple[dict[int, str], bool]] = []
        self.taught = threading.Condition()  # notified at each lesson

    def confirm(self, position: Mapping[int, str]) -> bool:
        learnt = super().confirm(position)
        with self.taught:
            self.lessons.append((dict(position), learnt))
            self.taught.notify_all()
        return learnt


def test_the_camera_learns_from_each_recorded_position(tmp_path: Path) -> None:
    """Once the set-up stands and after each recorded move the session shows the camera the
    game's position, and the camera learns from the picture it read it from (docs/vision.md)."""
    view = View(brightness=1.2)  # the lamp turned up since calibration
    calibration = calibrate(render(START, Style(), View()).image)
    after = {**START, 11: "empty", 15: "b"}  # Black plays 11-15
    frames = tmp_path / "frames"
    frames.mkdir()
    for index, position in enumerate([START, START, after, after]):
        image = render(position, Style(), replace(view, seed=index)).image
        cv2.imwrite(str(frames / f"{index:03}.png"), image)
    camera = TaughtCamera(ImageFiles(sorted(frames.iterdir())), calibration)
    session = Session(Config(storage=StorageConfig(path=str(tmp_path / "data"))), camera, [])
    stop = threading.Event()
    worker = threading.Thread(target=session.run, args=(stop,), daemon=True)
    worker.start()
    try:
        with camera.taught:
            assert camera.taught.wait_for(lambda: len(camera.lessons) >= 2, timeout=20)
        assert session.store.game(session.game_id).moves[0].notation == "11-15"
    finally:
        stop.set()
        worker.join(timeout=5)
        session.close()
    assert camera.lessons == [
        ({s: k for s, k in START.items() if k != "empty"}, True),
        ({s: k for s, k in after.items() if k != "empty"}, True),
    ]
