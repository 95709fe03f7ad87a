"""A damaged game, a damaged page, a read-only medium: on a real SQLite file, through the real
commands. One damaged game is listed as damaged with the reason and never hides the others;
a damaged file is one line naming it; a read-only medium still lists and exports (issue 14)."""

import json
import os
import random
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from engine.board import Board
from poolboard.config import Config, StorageConfig
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.simulator import random_game
from poolboard.storage import DamagedGame, GameStore, StorageError
from poolboard.web.app import WebServer
from tests.poolboard_cli import poolboard

PAGE = 4096  # SQLite's default page size, which the store keeps


def make_store(folder: Path, games: int = 3, plies: int = 10) -> Path:
    """``games`` finished random games in ``folder``; returns a config naming it."""
    rng = random.Random(games)
    store = GameStore(folder / "games.sqlite3")
    for number in range(1, games + 1):
        game_id = store.create_game(Board().fen(), "apca", {"Black": f"Player {number}"})
        board = Board()
        for ply, move in enumerate(random_game(rng, plies), start=1):
            store.add_move(game_id, ply, move, board.notation(move))
            board.push(move)
        store.set_result(game_id, "1/2-1/2", "agreed (R-END-2)")
    store.close()
    config = folder.parent / f"{folder.name}.toml"
    config.write_text(f'[sensor]\nkind = "simulated"\n[storage]\npath = "{folder}"\n')
    return config


def damage(folder: Path, sql: str) -> None:
    with sqlite3.connect(folder / "games.sqlite3") as db:
        db.execute(sql)


DAMAGES = {
    "bad JSON tags": ("UPDATE games SET headers = '{\"Black\": ' WHERE id = 2", "headers"),
    "illegal move": ("UPDATE moves SET path = '[11, 20]' WHERE game_id = 2 AND ply = 1", "ply 1"),
    "off the board": ("UPDATE moves SET path = '[11, 99]' WHERE game_id = 2 AND ply = 1", "1-32"),
    "a lost ply": ("DELETE FROM moves WHERE game_id = 2 AND ply = 3", "ply 3 is missing"),
    "bad start": ("UPDATE games SET start_fen = 'B:W99' WHERE id = 2", "start position"),
}


@pytest.mark.parametrize("kind", DAMAGES)
def test_a_damaged_game_is_listed_as_such_with_the_reason(tmp_path: Path, kind: str) -> None:
    make_store(tmp_path / "data")
    sql, reason = DAMAGES[kind]
    damage(tmp_path / "data", sql)
    store = GameStore(tmp_path / "data" / "games.sqlite3", read_only=True)
    first, second, third = store.games()
    assert isinstance(second, DamagedGame) and reason in second.reason
    assert not isinstance(first, DamagedGame) and not isinstance(third, DamagedGame)
    with pytest.raises(StorageError, match="game 2 is damaged: "):
        store.game(2)
    store.close()


def test_games_export_and_doctor_go_on_beside_a_damaged_game(tmp_path: Path) -> None:
    config = make_store(tmp_path / "data")
    sql, reason = DAMAGES["illegal move"]
    damage(tmp_path / "data", sql)

    listed = poolboard("games", "--config", str(config), "--json")
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert listed.returncode == 1 and "Traceback" not in listed.stderr
    assert [row["id"] for row in rows] == [1, 2, 3]
    assert reason in rows[1]["damaged"] and "damaged" not in rows[0] | rows[2]

    out = tmp_path / "all.pdn"
    exported = poolboard("export", "--config", str(config), "--out", str(out))
    assert exported.returncode == 1
    assert exported.stderr.startswith("poolboard export: game 2 left out, damaged: ")
    assert out.read_text().count("[Black ") == 2
    assert poolboard("pdn", str(out)).returncode == 0  # what was written reads back

    one = poolboard("export", "2", "--config", str(config))
    assert one.returncode == 2 and one.stderr.startswith("poolboard export: game 2 is damaged")

    doctor = poolboard("doctor", "--config", str(config), "--seconds", "0")
    assert doctor.returncode == 1
    assert "FAIL  storage  game 2 is damaged: " in doctor.stdout and reason in doctor.stdout


def test_the_service_and_api_games_go_on_beside_a_damaged_game(tmp_path: Path) -> None:
    make_store(tmp_path / "data")
    damage(tmp_path / "data", DAMAGES["illegal move"][0])
    session = Session(Config(storage=StorageConfig(path=str(tmp_path / "data"))), SimulatedBoard())
    server = WebServer(session)
    url = server.start()
    try:
        with urllib.request.urlopen(f"{url}/api/games", timeout=10) as response:
            games = json.load(response)
    finally:
        server.stop()
        session.close()
    assert [game["id"] for game in games] == [1, 2, 3, 4]  # 4: the service's new game
    assert "ply 1" in games[1]["damaged"] and games[0]["damaged"] is None
    assert games[0]["plies"] == 10


def test_an_unfinished_damaged_game_is_not_resumed(tmp_path: Path) -> None:
    make_store(tmp_path / "data")
    damage(tmp_path / "data", "UPDATE games SET result = NULL WHERE id = 3")
    damage(tmp_path / "data", DAMAGES["illegal move"][0].replace("game_id = 2", "game_id = 3"))
    session = Session(Config(storage=StorageConfig(path=str(tmp_path / "data"))), SimulatedBoard())
    assert session.game_id == 4 and session.state()["moves"] == []
    session.close()


def corrupt_page(database: Path, page: int) -> None:
    """Overwrite most of page ``page`` (2 or later), its header included."""
    with open(database, "r+b") as handle:
        handle.seek((page - 1) * PAGE)
        handle.write(b"\xa5" * 3000)


def root_page(database: Path, table: str) -> int:
    with sqlite3.connect(database) as db:
        query = "SELECT rootpage FROM sqlite_master WHERE name = ?"
        return int(db.execute(query, (table,)).fetchone()[0])


def test_a_damaged_database_page_is_one_line_naming_the_file(tmp_path: Path) -> None:
    config = make_store(tmp_path / "data", games=30, plies=30)
    database = tmp_path / "data" / "games.sqlite3"
    corrupt_page(database, root_page(database, "games"))
    for command in ("games", "export"):
        result = poolboard(command, "--config", str(config))
        assert result.returncode == 2
        malformed = f"{database}: cannot be read: database disk image is malformed"
        assert result.stderr == f"poolboard {command}: {malformed}\n"
    doctor = poolboard("doctor", "--config", str(config), "--seconds", "0")
    assert f"FAIL  storage  {database}: cannot be read: database disk image is malformed" in (
        doctor.stdout
    )
    run = poolboard("run", "--no-web", "--config", str(config))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert f"{database}: cannot be read: database disk image is malformed" in run.stderr


def test_a_damaged_moves_page_takes_only_its_games(tmp_path: Path) -> None:
    config = make_store(tmp_path / "data", games=30, plies=30)
    database = tmp_path / "data" / "games.sqlite3"
    corrupt_page(database, 20)  # a leaf of the moves table
    store = GameStore(database, read_only=True)
    games = store.games()
    store.close()
    damaged = [game.id for game in games if isinstance(game, DamagedGame)]
    assert 0 < len(damaged) < 5 and len(games) == 30
    listed = poolboard("games", "--config", str(config))
    assert listed.returncode == 1 and listed.stdout.count("DAMAGED: ") == len(damaged)
    assert "Traceback" not in listed.stderr


@pytest.fixture
def read_only(tmp_path: Path):
    """``read_only(folder)``: ``folder`` seen through a read-only mount (root) or with its
    write permission taken away (anyone else): no file in it can be created or written."""
    mounts = []

    def make(folder: Path) -> Path:
        if os.geteuid() != 0:
            folder.chmod(0o555)
            return folder
        view = folder.with_name(folder.name + "-ro")
        view.mkdir()
        if subprocess.run(["mount", "-o", "bind,ro", str(folder), str(view)]).returncode:
            pytest.skip("cannot mount read-only here")
        mounts.append(view)
        return view

    yield make
    for view in mounts:
        subprocess.run(["umount", "--lazy", str(view)], check=True)


def test_a_read_only_medium_can_still_be_listed_and_exported(tmp_path: Path, read_only) -> None:
    make_store(tmp_path / "data")
    view = read_only(tmp_path / "data")
    config = tmp_path / "view.toml"
    config.write_text(f'[storage]\npath = "{view}"\n')
    listed = poolboard("games", "--config", str(config))
    assert listed.returncode == 0 and listed.stdout.count("1/2-1/2") == 3, listed.stderr
    exported = poolboard("export", "--config", str(config))
    assert exported.returncode == 0 and exported.stdout.count("[Result ") == 3
    assert sorted(path.name for path in view.iterdir()) == ["games.sqlite3"]  # nothing written


def test_a_read_only_copy_of_a_killed_service_reads_its_wal(tmp_path: Path, read_only) -> None:
    """The newest moves of a service killed mid-game are still in the WAL: read from it."""
    folder = tmp_path / "data"
    make_store(folder)
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, signal\n"
            "from engine.board import Board\n"
            "from poolboard.storage import GameStore\n"
            f"store = GameStore({str(folder / 'games.sqlite3')!r})\n"
            "game = store.create_game(Board().fen(), 'apca', {'Black': 'Last'})\n"
            "store.add_move(game, 1, Board().parse_move('11-15'), '11-15')\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n",
        ],
        check=False,
    )
    assert (folder / "games.sqlite3-wal").stat().st_size > 0
    store = GameStore(read_only(folder) / "games.sqlite3", read_only=True)
    last = store.games()[-1]
    store.close()
    assert not isinstance(last, DamagedGame)
    assert last.headers["Black"] == "Last" and [m.notation for m in last.moves] == ["11-15"]


def test_export_into_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    config = make_store(tmp_path / "data")
    out = tmp_path / "no-such-folder" / "games.pdn"
    result = poolboard("export", "--config", str(config), "--out", str(out))
    assert result.returncode == 2
    assert result.stderr == f"poolboard export: cannot write {out}: No such file or directory\n"


def test_a_missing_store_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="no games recorded yet"):
        GameStore(tmp_path / "none" / "games.sqlite3", read_only=True)
