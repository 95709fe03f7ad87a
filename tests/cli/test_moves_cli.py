"""``poolboard moves`` run as a real subprocess: arguments, stdin lines, JSON, bad FENs."""

from __future__ import annotations

import json

from engine.board import STARTING_FEN
from tests.poolboard_cli import poolboard


def test_moves_of_fens_given_as_arguments() -> None:
    done = poolboard("moves", STARTING_FEN, "W:W9:B6,7")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["9-13 9-14 10-14 10-15 11-15 11-16 12-16", "9x11"]


def test_stdin_lines_one_answer_each_bad_lines_answered_in_place() -> None:
    stdin = f"{STARTING_FEN}\r\nnot a fen\n\nB:W10,11,17,18,19,27:B21\n\xff\xfe\nW::\n"
    done = poolboard("moves", stdin=stdin.encode("latin-1"))
    lines = done.stdout.splitlines()
    assert done.returncode == 1
    assert len(lines) == 6
    assert lines[0].startswith("9-13 ")
    assert lines[1].startswith("error: FEN 'not a fen': expected 'TURN:W...:B...'")
    assert lines[2].startswith("error: FEN ''")
    assert lines[3] == "21x14 21x14x7x16x23x32 21x14x23x32"  # sorted by path
    assert lines[4].startswith("error: FEN '\ufffd\ufffd'")
    assert lines[5] == ""  # a good FEN with no pieces: no moves
    assert "Traceback" not in done.stderr


def test_json_objects_per_move_and_error_objects() -> None:
    done = poolboard("moves", "--json", stdin="W:W9:B6,7\nB:W1\n")
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first == [
        {
            "from": 9,
            "to": 11,
            "path": [9, 2, 11],
            "captures": [6, 7],
            "crowns": False,
            "notation": "9x11",
        }
    ]
    assert set(second) == {"error"} and "B:W1" in second["error"]
    assert done.returncode == 1


def test_crowning_moves_are_flagged() -> None:
    done = poolboard("moves", "--json", "B:W:B25,K1")
    moves = {m["notation"]: m for m in json.loads(done.stdout)}
    assert moves["25-29"]["crowns"] and moves["25-30"]["crowns"]
    assert not moves["1-5"]["crowns"]


def test_a_man_on_its_crowning_row_and_a_huge_line_are_one_short_error_each() -> None:
    done = poolboard("moves", stdin="B:W20:B30\nW:W1:B12\nB:W" + "1," * 1_000_000 + ":B1\n")
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and len(lines) == 3
    assert lines[0] == (
        "error: FEN 'B:W20:B30': a Black man on 30 stands on the row where it is crowned "
        "(R-PRO-1): write it as a king, K30"
    )
    assert lines[1].startswith("error: FEN 'W:W1:B12': a White man on 1 stands on the row")
    assert lines[2].startswith("error: FEN 'B:W1,1,1,") and len(lines[2]) < 300
