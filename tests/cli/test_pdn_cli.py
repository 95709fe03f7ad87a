"""``poolboard pdn`` run as a real subprocess on real files: summaries, JSON, first error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.poolboard_cli import poolboard

DATA = Path(__file__).parents[1] / "data" / "pdn"


def test_summary_line_per_game(tmp_path: Path) -> None:
    shutil.copy(DATA / "club_night.pdn", tmp_path / "club.pdn")
    done = poolboard("pdn", "club.pdn", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3
    assert lines[0] == (
        "game 1: Okafor, Ada v Lindqvist, Per (Club night, 2025.03.14): 51 moves, result 1-0, "
        "end W:W13:B1,5,6,8,9,10,K25,27,28"
    )
    assert lines[2].startswith("game 3: Study v Study (Endgame drill, 2025.03.14): 40 moves")


def test_json_object_per_game_with_move_objects(tmp_path: Path) -> None:
    shutil.copy(DATA / "tolerant.pdn", tmp_path / "t.pdn")
    done = poolboard("pdn", "t.pdn", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["headers"]["White"] == "Ng, Lan"
    assert first["result"] == "0-0"
    assert first["moves"][0] == {
        "notation": "10-14",
        "from": 10,
        "to": 14,
        "path": [10, 14],
        "captures": [],
        "crowns": False,
        "clock": None,
        "comment": "",
        "nags": [],
    }
    assert first["moves"][20]["clock"] == 302
    assert second["start"] == "B:W10,12,18,19,26,27:B15"
    assert second["moves"][0]["captures"] == [18, 26, 27, 19, 10]
    assert second["end"] == "W:W12:B6"


def test_first_error_is_reported_with_its_position(tmp_path: Path) -> None:
    good = (DATA / "club_night.pdn").read_text(encoding="utf-8")
    (tmp_path / "games.pdn").write_text(
        good + '\n[Event "bad"]\n\n1. 11-15 23-19\n2. 8-11 11/15 *\n', encoding="utf-8"
    )
    lines_before = good.count("\n")
    done = poolboard("pdn", "games.pdn", cwd=tmp_path)
    assert done.returncode == 1
    assert len(done.stdout.splitlines()) == 3  # the good games are still listed
    assert done.stderr == (
        f"poolboard pdn: games.pdn:{lines_before + 5}:9: expected a move or a result, got '11/15'\n"
    )


def test_illegal_move_and_wrong_game_type(tmp_path: Path) -> None:
    (tmp_path / "a.pdn").write_text("1. 11-15 24x20 *\n", encoding="utf-8")
    (tmp_path / "b.pdn").write_text('[GameType "21"]\n1. 11-15 *\n', encoding="utf-8")
    done = poolboard("pdn", "a.pdn", "--json", cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("poolboard pdn: a.pdn:1:10: move 1... 24x20 is not legal in FEN")
    done = poolboard("pdn", "b.pdn", cwd=tmp_path)
    assert done.stderr == (
        "poolboard pdn: b.pdn:1:1: GameType '21' is not American pool checkers: "
        'expected "23" or "23,B,8,8,N1,0"\n'
    )


def test_missing_empty_latin1_and_stdin(tmp_path: Path) -> None:
    done = poolboard("pdn", "missing.pdn", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == "poolboard pdn: cannot read missing.pdn: No such file or directory\n"
    (tmp_path / "empty.pdn").write_text("\n", encoding="utf-8")
    done = poolboard("pdn", "empty.pdn", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "poolboard pdn: empty.pdn: no games found\n")
    (tmp_path / "old.pdn").write_bytes('[Site "Sm\xf8rum"]\n1. 11-15 *\n'.encode("latin-1"))
    done = poolboard("pdn", "old.pdn", "--json", cwd=tmp_path)
    assert json.loads(done.stdout)["headers"]["Site"] == "Sm\xf8rum"
    done = poolboard("pdn", "-", cwd=tmp_path, stdin=b"1. 11-15 x\n")
    assert done.stderr == "poolboard pdn: <stdin>:1:10: expected a move or a result, got 'x'\n"
    assert "Traceback" not in done.stderr


def test_hostile_files_give_one_short_line_or_strict_json(tmp_path: Path) -> None:
    huge_clock = "[%clk " + "9" * 400 + ":00:00]"
    (tmp_path / "clock.pdn").write_text(f"1. 11-15 {{{huge_clock}}} *\n", encoding="utf-8")
    done = poolboard("pdn", "clock.pdn", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    move = json.loads(done.stdout, parse_constant=lambda name: pytest.fail(name))["moves"][0]
    assert (move["clock"], move["comment"]) == (None, huge_clock)  # not a clock: no Infinity
    for text in ("1. 11-15 } *", "1. 11-15 $" + "9" * 5000 + " *", "x" * 10_000_000):
        (tmp_path / "bad.pdn").write_text(text, encoding="utf-8")
        done = poolboard("pdn", "bad.pdn", cwd=tmp_path)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert done.stderr.startswith("poolboard pdn: bad.pdn:1:")
        assert len(done.stderr.splitlines()) == 1 and len(done.stderr) < 200
