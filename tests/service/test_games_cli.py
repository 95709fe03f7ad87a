"""``poolboard games`` and ``poolboard export`` on a real store."""

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx

from engine.board import Board
from poolboard.storage import GameStore
from tests.poolboard_cli import poolboard


def make_store(tmp_path: Path) -> Path:
    config = tmp_path / "board.toml"
    config.write_text(f'[storage]\npath = "{tmp_path / "data"}"\n')
    store = GameStore(tmp_path / "data" / "games.sqlite3")
    for names in (("Ann", "Bob"), ("Bob", "Ann")):
        game_id = store.create_game(Board().fen(), "apca", {"Black": names[0], "White": names[1]})
        board = Board()
        for ply, text in enumerate(["11-15", "23-19"], start=1):
            move = board.parse_move(text)
            store.add_move(game_id, ply, move, text)
            board.push(move)
    store.set_result(1, "1/2-1/2", "agreed (R-END-2)")
    store.close()
    return config


def test_games_lists_every_game(tmp_path: Path) -> None:
    config = make_store(tmp_path)
    result = poolboard("games", "--config", str(config), "--json")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["id"], r["black"], r["plies"], r["result"]) for r in rows] == [
        (1, "Ann", 2, "1/2-1/2"),
        (2, "Bob", 2, "*"),
    ]
    listing = poolboard("games", "--config", str(config)).stdout
    assert "Ann - Bob" in listing and "  2 plies  1/2-1/2  agreed (R-END-2)" in listing


def test_export_writes_pdn(tmp_path: Path) -> None:
    config = make_store(tmp_path)
    out = tmp_path / "out.pdn"
    assert poolboard("export", "2", "--config", str(config), "--out", str(out)).returncode == 0
    text = out.read_text()
    assert '[Black "Bob"]' in text and "1. 11-15 23-19 *" in text
    check = poolboard("pdn", str(out))
    assert check.returncode == 0, check.stderr


def test_export_of_a_missing_game_or_store_says_so(tmp_path: Path) -> None:
    config = make_store(tmp_path)
    result = poolboard("export", "9", "--config", str(config))
    assert result.returncode == 2 and "no game 9" in result.stderr
    empty = tmp_path / "empty.toml"
    empty.write_text(f'[storage]\npath = "{tmp_path / "none"}"\n')
    result = poolboard("games", "--config", str(empty))
    assert result.returncode == 2 and "no games recorded yet" in result.stderr


def test_games_and_export_reach_the_demos_games(tmp_path: Path) -> None:
    """``--demo`` reads the store ``poolboard demo`` records into (under XDG_DATA_HOME)."""
    make_store(tmp_path)
    demo = tmp_path / "xdg" / "poolboard" / "demo"
    demo.parent.mkdir(parents=True)
    (tmp_path / "data").rename(demo)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    run = [sys.executable, "-m", "poolboard.cli"]
    listing = subprocess.run([*run, "games", "--demo"], capture_output=True, text=True, env=env)
    assert listing.returncode == 0 and "Bob - Ann" in listing.stdout, listing.stderr
    export = subprocess.run([*run, "export", "--demo"], capture_output=True, text=True, env=env)
    assert export.stdout.count("[Event ") == 2
    both = subprocess.run(
        [*run, "games", "--demo", "--config", "x.toml"], capture_output=True, text=True, env=env
    )
    assert both.returncode == 2 and "--demo and --config" in both.stderr


def test_games_and_doctor_without_a_config_point_to_the_demos_folder(tmp_path: Path) -> None:
    """After a demo, plain ``poolboard games`` says where the demo's games are (``--demo``),
    and ``doctor``'s defaults (the demo's) check the folder the demo records into."""
    make_store(tmp_path)
    demo = tmp_path / "xdg" / "poolboard" / "demo"
    demo.parent.mkdir(parents=True)
    (tmp_path / "data").rename(demo)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    run = [sys.executable, "-m", "poolboard.cli"]
    listing = subprocess.run([*run, "games"], capture_output=True, text=True, env=env)
    assert listing.returncode == 2 and "no games recorded yet" in listing.stderr
    assert (
        f"`poolboard demo` recorded 2 games, kept apart in {demo}: `poolboard games --demo` "
        "reads them"
    ) in listing.stderr
    export = subprocess.run([*run, "export"], capture_output=True, text=True, env=env)
    assert "`poolboard export --demo` reads them" in export.stderr
    demo_listing = subprocess.run(
        [*run, "games", "--demo"], capture_output=True, text=True, env=env
    )
    assert "kept apart" not in demo_listing.stderr
    checked = subprocess.run(
        [*run, "doctor", "--seconds", "1"], capture_output=True, text=True, env=env
    )
    assert f"ok    storage  {demo / 'games.sqlite3'}: 2 games (0 damaged)" in checked.stdout, (
        checked
    )


def test_games_demo_lists_what_a_running_demo_recorded(tmp_path: Path) -> None:
    """A real ``poolboard demo``: the referee ends its game through the API, and ``poolboard
    games --demo`` / ``export --demo`` read it while the demo still runs."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    run = [sys.executable, "-m", "poolboard.cli"]
    demo = subprocess.Popen(
        [*run, "demo", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        url = ""
        for _ in range(20):
            line = demo.stdout.readline()
            if "web UI on " in line:
                url = line.split("web UI on ", 1)[1].split("/ ", 1)[0].strip().rstrip("/")
                break
        assert url, "the demo did not serve"
        ended = httpx.post(
            f"{url}/api/referee/end",
            json={"how": "agree-draw"},
            auth=("referee", "demo"),
            headers={"X-Poolboard": "1"},
        )
        assert ended.status_code == 200, ended.text
        listing = subprocess.run([*run, "games", "--demo"], capture_output=True, text=True, env=env)
        assert "0 plies  1/2-1/2  draw by agreement (R-END-2)" in listing.stdout, listing
        export = subprocess.run([*run, "export", "--demo"], capture_output=True, text=True, env=env)
        assert '[Termination "normal"]' in export.stdout and '[Round "?.1"]' in export.stdout
    finally:
        demo.kill()
        demo.wait(timeout=10)
        demo.stdout.close()
