"""The service's own sensor logs replay into the games it recorded (issue #14 item 5), even when
a referee acts between a reading being sensed and being handled."""

import time
from pathlib import Path

from engine.board import Board
from engine.sensing import Snapshot
from engine.tracker import TrackerConfig
from poolboard.commands.replay import replay_log
from poolboard.config import RefereeConfig, StorageConfig
from poolboard.sensor_log import GameMarker, read_sensor_log
from poolboard.sensor_log_files import session_parts


def replayed_games(tmp_path: Path) -> list[list[str]]:
    games = []
    for log in sorted((tmp_path / "sensor-logs").glob("sensor-*.jsonl")):
        for tracker, _events in replay_log(str(log), Board(), TrackerConfig.for_profile("apca")):
            if tracker.started:
                board = tracker.board.copy()
                notation = []
                for move in reversed(board.move_stack):
                    board.pop()
                    notation.insert(0, board.notation(move))
                games.append(notation)
    return games


def test_a_referee_set_up_mid_play_replays_into_the_recorded_games(make_table, tmp_path) -> None:
    table = make_table(referee=RefereeConfig(password="x"))
    table.set_up()
    table.move(11, 15)
    # White's hand lifts 23 at t: the reading waits in the sensor's queue while the referee,
    # 30 ms later, sets up a problem position; the session handles the reading after that.
    table.board.set_occupied(table.occupied - {23})
    table.time.now += 0.03
    table.session.set_position("ref", "W:W23,K30:B14,K5")
    table.session.process(table.board.read(0))
    table.settle()
    table.show({23, 30, 14, 5})
    table.move(23, 18)
    table.move(14, 23, 18)
    recorded = table.session.state()["moves"]
    assert recorded == ["23-18", "14x23"]
    table.session.sensor_log.close()

    (log,) = (tmp_path / "sensor-logs").glob("sensor-*.jsonl")
    entries = list(read_sensor_log(log))
    marker = next(i for i, e in enumerate(entries) if isinstance(e, GameMarker) and i > 0)
    assert entries[marker + 1].t < entries[marker].t  # sensed before the marker, handled after
    assert replayed_games(tmp_path) == [["11-15"], recorded]


def test_a_restart_and_a_correction_replay_too(make_table, tmp_path) -> None:
    table = make_table(referee=RefereeConfig(password="x"))
    table.set_up()
    table.move(11, 15)
    table.move(23, 19)
    table.reopen()  # a new process: a new log file that starts with a resume marker
    table.set_up()
    table.move(8, 11)
    table.session.correct_move("ref", 3, "9-13")
    table.show((table.occupied - {11}) | {8})
    table.show((table.occupied - {9}) | {13})
    table.settle()
    table.move(22, 18)
    table.session.sensor_log.close()
    assert table.session.state()["moves"] == ["11-15", "23-19", "9-13", "22-18"]
    games = replayed_games(tmp_path)
    assert games[0] == ["11-15", "23-19"]
    assert games[-1] == ["22-18"]  # the corrected game goes on from the corrected position


def test_a_camera_sessions_log_keeps_the_colours_and_a_set_up_checks_them(
    make_table, tmp_path
) -> None:
    """Colour snapshots go to the log with their pieces; after a referee set-up the new game
    is judged with the colours the camera last showed (the swapped pieces are named at once)."""
    table = make_table(referee=RefereeConfig(password="x"))
    start = Board()
    pieces = {s: start.piece_at(s).symbol for s in start.occupied_squares()}  # type: ignore[union-attr]
    table.session.process(Snapshot.from_pieces(table.time.now, pieces))
    table.settle()
    assert table.session.tracker.started
    table.session.set_position("ref", "B:W22,21:B9,10")
    pieces = {9: "w", 10: "b", 21: "w", 22: "b"}
    table.session.process(Snapshot.from_pieces(table.time.now, pieces))
    table.settle()
    assert table.session.state()["cues"] == {"9": "wrong-piece", "22": "wrong-piece"}
    table.time.now += 1
    table.session.set_position("ref", "B:W22,21:B9,10")  # the same again: judged at once
    assert table.session.state()["cues"] == {"9": "wrong-piece", "22": "wrong-piece"}
    table.session.sensor_log.close()
    (log,) = (tmp_path / "sensor-logs").glob("sensor-*.jsonl")
    seen = [e for e in read_sensor_log(log) if isinstance(e, Snapshot)]
    assert seen[-1].piece_map() == pieces


def test_a_log_rotated_mid_game_and_a_restart_in_the_same_second_replay_as_one_stream(
    make_table, tmp_path, monkeypatch
) -> None:
    real = time.strftime
    fixed = "sensor-20260101-120000"  # every process starts within the same second
    monkeypatch.setattr(
        time, "strftime", lambda f, *a: fixed if f.startswith("sensor") else real(f, *a)
    )
    table = make_table()
    # Below the 10,000 bytes a config file may ask for, so that the log rotates mid-game.
    small = StorageConfig.model_construct(path=str(tmp_path), sensor_log_max_bytes=400)
    table.config = table.config.model_copy(update={"storage": small})
    table.reopen()  # the same second: goes on after the first process's part
    table.set_up()
    for start, end in [(11, 15), (23, 19), (8, 11), (22, 17)]:
        table.move(start, end)
    table.reopen()  # a crash and a restart within the same second: the same file stem
    table.set_up()
    table.move(15, 18)
    table.session.sensor_log.close()
    recorded = table.session.state()["moves"]
    paths = sorted(str(p) for p in (tmp_path / "sensor-logs").glob("sensor-*.jsonl"))
    assert len(paths) > 3  # rotated, and the restart went on after the first session's parts
    (stream,) = session_parts(paths)
    games = [t for t, _ in replay_log(stream, Board(), TrackerConfig.for_profile("apca"))]
    assert [m.path for m in games[0].board.move_stack] == [(11, 15), (23, 19), (8, 11), (22, 17)]
    assert len(recorded) == 5 and games[-1].board.move_stack[-1].path == (15, 18)
