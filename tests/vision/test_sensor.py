"""The camera sensor from its spec, on real picture and video files."""

from __future__ import annotations

from dataclasses import replace

import cv2
import pytest

from engine.sensing import LinkHealth, Sensor, Snapshot
from poolboard.sensor_spec import SensorSpecError, open_sensor
from vision.calibration import Calibration
from vision.sensor import sensor_from_spec
from vision.synthetic import START, Style, View, render

AFTER = {**START, 22: "empty", 18: "w"}


def occupied(position: dict[int, str]) -> frozenset[int]:
    return frozenset(s for s, k in position.items() if k != "empty")


@pytest.fixture
def calibration_file(tmp_path, calibration: Calibration) -> str:
    path = tmp_path / "cal.json"
    calibration.save(path)
    return str(path)


def test_a_picture_file_gives_one_snapshot(tmp_path, calibration_file: str, view: View) -> None:
    picture = tmp_path / "board.png"
    cv2.imwrite(str(picture), render(AFTER, Style(), view).image)
    sensor = open_sensor(f"camera:file:{picture}?calibration={calibration_file}")
    assert isinstance(sensor, Sensor)
    try:
        event = sensor.read(timeout=5)
        assert isinstance(event, Snapshot) and event.occupied == occupied(AFTER)
        assert sensor.read(timeout=0.05) is None
        assert sensor.kinds[17] == "w"
    finally:
        sensor.close()


def test_a_folder_of_pictures_is_replayed_in_order(
    tmp_path, calibration_file: str, view: View
) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    for index, position in enumerate([START, AFTER]):
        image = render(position, Style(), replace(view, seed=index)).image
        cv2.imwrite(str(folder / f"{index:03}.png"), image)
    sensor = sensor_from_spec(f"file:{folder}?calibration={calibration_file}&hold=4")
    try:
        first, second = sensor.read(timeout=5), sensor.read(timeout=5)
    finally:
        sensor.close()
    assert (first.occupied, second.occupied) == (occupied(START), occupied(AFTER))


def test_a_video_ends_with_the_link_down(tmp_path, calibration_file: str, view: View) -> None:
    video = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 15, (640, 480))
    for k in range(10):
        writer.write(render(START if k < 5 else AFTER, Style(), replace(view, seed=k)).image)
    writer.release()
    sensor = sensor_from_spec(f"file:{video}?calibration={calibration_file}")
    try:
        events = [sensor.read(timeout=2) for _ in range(4)]
    finally:
        sensor.close()
    assert [type(e) for e in events] == [Snapshot, Snapshot, LinkHealth, type(None)]
    assert events[1].occupied == occupied(AFTER)
    assert not events[2].connected


def test_pictures_of_another_size_are_scaled(tmp_path, calibration_file: str, view: View) -> None:
    picture = tmp_path / "big.png"
    image = render(AFTER, Style(), view).image
    cv2.imwrite(str(picture), cv2.resize(image, (1280, 960), interpolation=cv2.INTER_CUBIC))
    sensor = sensor_from_spec(f"file:{picture}?calibration={calibration_file}")
    try:
        assert sensor.read(timeout=5).occupied == occupied(AFTER)
    finally:
        sensor.close()


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("usb:0", "needs \\?calibration"),
        ("usb:0?calibration=CAL&colour=red", "unknown camera option"),
        ("webcam:0?calibration=CAL", "unknown camera source"),
        ("file:/no/such/video.mp4?calibration=CAL", "no such file"),
        ("usb:0?calibration=CAL&still=none", "not a number"),
        ("usb:0?calibration=/no/such.json", "does not exist"),
        ("picamera2:front?calibration=CAL", "camera number"),
    ],
)
def test_bad_specs_are_named(spec: str, problem: str, calibration_file: str) -> None:
    with pytest.raises(SensorSpecError, match=problem):
        sensor_from_spec(spec.replace("CAL", calibration_file))


def test_picamera2_missing_says_how_to_install(calibration_file: str) -> None:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("Picamera2 is installed here")
    with pytest.raises(SensorSpecError, match="apt install python3-picamera2"):
        sensor_from_spec(f"picamera2?calibration={calibration_file}")
