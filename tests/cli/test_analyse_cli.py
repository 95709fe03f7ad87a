"""``poolboard analyse`` run as a real subprocess on real files: every move annotated, the file
read back by our PDN reader with its tags, clocks, remarks and results intact; bad input named."""

from __future__ import annotations

import io
import os
import shutil
import stat
from pathlib import Path

from engine.pdn import read_games
from tests.poolboard_cli import poolboard

DATA = Path(__file__).parents[1] / "data" / "pdn"


def test_every_move_is_annotated_and_the_file_reads_back(tmp_path: Path) -> None:
    shutil.copy(DATA / "club_night.pdn", tmp_path / "club.pdn")
    done = poolboard("analyse", "club.pdn", "--depth", "3", "--output", "out.pdn", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    progress = done.stderr.splitlines()
    assert progress[0] == "game 1 of 3: Lindqvist, Per (Black) v Okafor, Ada (White), 51 plies"
    assert progress[1].startswith("game 1 of 3: Black ") and "blunder" in progress[1]
    assert len(progress) == 6

    with open(tmp_path / "club.pdn", encoding="utf-8") as handle:
        originals = list(read_games(handle))
    with open(tmp_path / "out.pdn", encoding="utf-8") as handle:
        annotated = list(read_games(handle))
    assert len(annotated) == len(originals) == 3
    marks = 0
    for before, after in zip(originals, annotated, strict=True):
        assert after.headers.pop("Annotator") == "poolboard analyse (depth 3, apca rules)"
        assert after.headers == before.headers and after.result == before.result
        assert [n.notation for n in after.moves] == [n.notation for n in before.moves]
        for old, new in zip(before.moves, after.moves, strict=True):
            assert new.clock == old.clock
            assert new.comment.startswith(old.comment)
            assert "eval " in new.comment
            added = [nag for nag in new.nags if nag not in old.nags]
            assert added in ([], [2], [4])
            assert bool(added) == ("was better" in new.comment)
            marks += bool(added)
    assert marks > 0


def test_stdin_to_stdout_by_movetime(tmp_path: Path) -> None:
    game = b'[Event "Blitz"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1/2-1/2\n'
    done = poolboard("analyse", "-", "--movetime", "20", cwd=tmp_path, stdin=game)
    assert done.returncode == 0, done.stderr
    (record,) = read_games(io.StringIO(done.stdout))
    assert record.headers["Event"] == "Blitz" and record.result == "1/2-1/2"
    assert record.headers["Annotator"] == "poolboard analyse (20 ms a position, apca rules)"
    assert len(record.moves) == 8 and all("eval " in n.comment for n in record.moves)


def test_bad_input_is_named_and_nothing_is_written(tmp_path: Path) -> None:
    (tmp_path / "bad.pdn").write_text('[Event "x"]\n\n1. 11-15 23-19\n2. 8-11 11/15 *\n')
    done = poolboard("analyse", "bad.pdn", "-o", "out.pdn", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == (
        "poolboard analyse: bad.pdn:4:9: expected a move or a result, got '11/15'\n"
    )
    assert not (tmp_path / "out.pdn").exists()
    done = poolboard("analyse", "missing.pdn", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        2,
        "poolboard analyse: cannot read missing.pdn: No such file or directory\n",
    )
    done = poolboard("analyse", "bad.pdn", "--depth", "0", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (2, "poolboard analyse: --depth must be 1-64, got 0\n")
    (tmp_path / "empty.pdn").write_text("\n")
    done = poolboard("analyse", "empty.pdn", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "poolboard analyse: empty.pdn: no games found\n")


def test_the_output_file_gets_the_usual_permissions_or_keeps_its_own(tmp_path: Path) -> None:
    shutil.copy(DATA / "club_night.pdn", tmp_path / "club.pdn")
    umask = os.umask(0o022)
    os.umask(umask)
    done = poolboard("analyse", "club.pdn", "--depth", "1", "-o", "new.pdn", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE((tmp_path / "new.pdn").stat().st_mode) == 0o666 & ~umask
    (tmp_path / "club.pdn").chmod(0o640)
    done = poolboard("analyse", "club.pdn", "--depth", "1", "-o", "club.pdn", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE((tmp_path / "club.pdn").stat().st_mode) == 0o640
