"""``poolboard replay`` on real sensor-log files, run as a subprocess."""

import json
import random
from pathlib import Path

from engine.board import Board
from engine.pdn import read_games
from poolboard.sensor_log import SensorLogWriter, read_sensor_log
from poolboard.simulator import HumanSimulator, random_game
from tests.poolboard_cli import poolboard


def write_log(path: Path, seed: int, plies: int = 30, fen: str | None = None) -> list:
    rng = random.Random(seed)
    board = Board(fen) if fen else Board()
    moves = random_game(rng, plies, board)
    with open(path, "w") as handle:
        SensorLogWriter(handle).write_all(HumanSimulator(rng).play(board, moves))
    return moves


def test_sensor_log_round_trip(tmp_path: Path) -> None:
    rng = random.Random(3)
    events = HumanSimulator(rng).play(Board(), random_game(rng, 10))
    path = tmp_path / "game.jsonl"
    with open(path, "w") as handle:
        SensorLogWriter(handle).write_all(events)
    assert list(read_sensor_log(path)) == events


def test_replay_json_gives_every_move_with_file_and_time(tmp_path: Path) -> None:
    log = tmp_path / "session.jsonl"
    moves = write_log(log, seed=11)
    result = poolboard("replay", "--json", str(log))
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    recorded = [e for e in events if e["event"] == "move"]
    assert [(e["from"], e["to"], tuple(e["path"])) for e in recorded] == [
        (m.from_square, m.to_square, m.path) for m in moves
    ]
    assert all(e["file"] == str(log) and isinstance(e["t"], float) for e in events)
    assert not [e for e in events if e["event"] == "violation"]


def test_replay_writes_the_games_as_pdn(tmp_path: Path) -> None:
    logs = [tmp_path / f"table{i}.jsonl" for i in (1, 2)]
    games = [write_log(log, seed) for seed, log in enumerate(logs)]
    out = tmp_path / "games.pdn"
    result = poolboard("replay", "--pdn", str(out), *map(str, logs))
    assert result.returncode == 0, result.stderr
    with open(out) as handle:
        records = list(read_games(handle))
    assert [[node.move for node in r.moves] for r in records] == games
    assert "move 1. " in result.stdout


def test_replay_from_a_fen_and_with_a_profile(tmp_path: Path) -> None:
    fen = "B:WK30,22:BK1,9"
    log = tmp_path / "kings.jsonl"
    moves = write_log(log, seed=5, plies=12, fen=fen)
    result = poolboard("replay", "--json", "--fen", fen, "--rules", "casual", str(log))
    assert result.returncode == 0, result.stderr
    recorded = [json.loads(x) for x in result.stdout.splitlines() if '"event": "move"' in x]
    assert len(recorded) == len(moves)


def test_replay_reports_the_violation_in_a_log(tmp_path: Path) -> None:
    """12 to 17 is no move at all: R-ILL-1, with the squares to restore; nothing recorded."""
    start = set(Board().occupied_squares())
    lines = [
        {"t": 0, "occupied": sorted(start)},
        {"t": 1.0, "occupied": sorted(start - {12})},
        {"t": 1.5, "occupied": sorted((start - {12}) | {17})},
    ]
    log = tmp_path / "illegal.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = poolboard("replay", "--json", str(log))
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert [e for e in events if e["event"] == "move"] == []
    (violation,) = [e for e in events if e["event"] == "violation"]
    assert violation["rule"] == "R-ILL-1" and violation["squares"] == [12, 17]
    assert "put a piece on 12; clear 17" in violation["message"]
    text = poolboard("replay", str(log)).stdout
    assert "violation R-ILL-1 (violation): 12-17 is not a legal move (R-ILL-1)" in text


def test_replay_names_the_bad_line_of_a_malformed_log(tmp_path: Path) -> None:
    log = tmp_path / "broken.jsonl"
    log.write_text('{"t": 0, "occupied": [1, 2]}\n{"t": 1, "occupied": [1, 40]}\n')
    result = poolboard("replay", str(log))
    assert result.returncode == 1
    assert f"{log}:2:" in result.stderr and "40" in result.stderr
    assert "Traceback" not in result.stderr

    log.write_text('{"t": 5, "occupied": [1]}\n{"t": 4, "occupied": [1]}\n')
    result = poolboard("replay", str(log))
    assert "t went back" in result.stderr

    log.write_text("not json\n")
    assert f"{log}:1:" in poolboard("replay", str(log)).stderr


def test_replay_pdn_into_a_missing_folder_is_one_clear_line(tmp_path: Path) -> None:
    log = tmp_path / "session.jsonl"
    write_log(log, seed=2, plies=4)
    out = tmp_path / "no-such-folder" / "games.pdn"
    result = poolboard("replay", "--pdn", str(out), str(log))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"poolboard replay: --pdn {out}: folder {out.parent} does not exist"
    ]
    result = poolboard("replay", "--pdn", str(tmp_path), str(log))  # a folder, not a file
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == f"poolboard replay: --pdn {tmp_path}: Is a directory"


def test_replay_keeps_a_camera_logs_colours(tmp_path: Path) -> None:
    """A log with pieces replays with colours: a swapped piece is no move (docs/tracker.md)."""
    start = Board()
    pieces = {str(s): start.piece_at(s).symbol for s in start.occupied_squares()}
    swapped = {**pieces, "9": "w", "22": "b"}
    lines = [
        {"t": 0, "occupied": sorted(start.occupied_squares()), "pieces": swapped},
        {"t": 1, "occupied": sorted(start.occupied_squares()), "pieces": pieces},
    ]
    log = tmp_path / "camera.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = poolboard("replay", str(log))
    assert result.returncode == 0, result.stderr
    assert "replace the white piece on 9 with a black man" in result.stdout
    assert (
        "start B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12" in result.stdout
    )


def test_replay_reads_the_parts_of_one_sessions_log_as_one_stream(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    moves = write_log(whole, seed=8, plies=20)
    lines = whole.read_text().splitlines(keepends=True)
    parts = [tmp_path / f"sensor-20260101-120000-000{n}.jsonl" for n in (1, 2)]
    half = len(lines) // 2
    parts[0].write_text("".join(lines[:half]))
    parts[1].write_text("".join(lines[half:]))
    result = poolboard("replay", "--json", *map(str, parts))
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert [tuple(e["path"]) for e in events if e["event"] == "move"] == [m.path for m in moves]
    assert {e["file"] for e in events} == {str(parts[0])}
