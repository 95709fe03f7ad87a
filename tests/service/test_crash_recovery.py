"""``kill -9`` at random moments loses no recorded move, and the game goes on after a restart.

Everything is real but the Pico: the firmware runs in ``poolboard emulate-board`` behind a pty,
``poolboard run --no-web`` reads it through the serial driver and records into SQLite, and the
service is killed with SIGKILL at random moments, mid-move included, then started again.
"""

import base64
import http.client
import json
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from engine.board import Board, Move
from engine.game import Game
from poolboard.config import load_config
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.simulator import random_game
from poolboard.storage import DamagedGame, GameStore, StoredGame
from tests.patience import wait_for
from tests.service.conftest import hand_steps


def start_service(config: Path) -> subprocess.Popen:
    service = subprocess.Popen(
        [sys.executable, "-m", "poolboard.cli", "run", "--no-web", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert "recording to" in service.stdout.readline()
    time.sleep(0.5)  # the serial handshake and the first snapshot
    return service


def stored_moves(database: Path) -> list[tuple[int, ...]]:
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT path FROM moves ORDER BY game_id, ply").fetchall()
    return [tuple(int(s) for s in path.strip("[]").split(", ")) for (path,) in rows]


def test_sigkill_at_random_moments_loses_no_recorded_move(tmp_path: Path, emulator) -> None:
    rng = random.Random(20261122)
    moves = random_game(rng, 24)
    config = tmp_path / "board.toml"
    config.write_text(
        f'[sensor]\nkind = "serial"\nspec = "{emulator.port}"\n'
        f'[storage]\npath = "{tmp_path / "data"}"\n[clock]\ntime_control = "600"\n'
    )
    database = tmp_path / "data" / "games.sqlite3"
    board = Board()
    emulator.set(board.occupied_squares())
    service = start_service(config)
    replay = Board()
    moments = []
    for index, move in enumerate(moves):
        moments += [(index, step) for step in range(len(hand_steps(replay, move)))]
        replay.push(move)
    kills = set(rng.sample(moments, 6))
    killed = 0
    try:
        for index, move in enumerate(moves):
            king = board.piece_at(move.from_square).king
            for step, occupied in enumerate(hand_steps(board, move)):
                emulator.set(occupied)
                time.sleep(0.1)
                if (index, step) in kills:
                    time.sleep(rng.uniform(0.0, 0.1))
                    service.kill()  # SIGKILL: no clean-up of any kind
                    service.wait()
                    recorded = stored_moves(database)
                    assert [m.path for m in moves[: len(recorded)]] == recorded
                    killed += 1
                    service = start_service(config)
            board.push(move)
            time.sleep(0.45 if king else 0.1)  # a king's move waits for the settle window
        wait_for(lambda: len(stored_moves(database)) >= len(moves), "every move stored")
        assert stored_moves(database) == [m.path for m in moves]
        assert killed == len(kills)
    finally:
        service.kill()


PASSWORD = "crash-test"


def projection(database: Path) -> tuple[list[tuple[object, ...]], ...]:
    """What must survive whole or not at all: every game's start and result, every move, every
    referee action."""
    with closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)) as db:
        return (
            db.execute("SELECT id, start_fen, result FROM games ORDER BY id").fetchall(),
            db.execute("SELECT game_id, ply, path FROM moves ORDER BY game_id, ply").fetchall(),
            db.execute("SELECT game_id, action FROM audit ORDER BY id").fetchall(),
        )


def apply(config: Path, folder: Path, action: Callable[[Session], None]) -> None:
    """Run ``action`` on a session of the config's over the store in ``folder``."""
    settings = load_config(str(config))
    storage = settings.storage.model_copy(update={"path": str(folder)})
    settings = settings.model_copy(update={"storage": storage})
    session = Session(settings, SimulatedBoard())
    action(session)
    session.close()


def outcome_without_kill(
    database: Path, config: Path, scratch: Path, action: Callable[[Session], None]
) -> tuple[list[tuple[object, ...]], ...]:
    """The store as the action leaves it when nothing goes wrong: the same session code on a
    copy of the store."""
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    with (
        closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)) as source,
        closing(sqlite3.connect(scratch / "games.sqlite3")) as copy,
    ):
        source.backup(copy)
    apply(config, scratch, action)
    return projection(scratch / "games.sqlite3")


def goes_on(moves: list[Move]) -> bool:
    """Whether a game of these moves (casual rules) has no result yet."""
    game = Game(profile="casual")
    for move in moves:
        if game.is_over():
            return False
        game.push(move)
    return not game.is_over()


def a_correction(database: Path, rng: random.Random) -> tuple[str, dict[str, object]]:
    """A referee correction of the unfinished game at a random ply: another legal move there."""
    store = GameStore(database, read_only=True)
    stored = store.unfinished_game()
    store.close()
    assert isinstance(stored, StoredGame)
    while True:
        ply = rng.randrange(1, len(stored.moves) + 1)
        board = Board(stored.start_fen)
        for move in stored.moves[: ply - 1]:
            board.push(move.move)
        others = [m for m in board.generate_legal_moves() if m != stored.moves[ply - 1].move]
        if others:
            return "correct-move", {"ply": ply, "move": board.notation(rng.choice(others))}


def test_sigkill_during_referee_corrections_and_game_changes_leaves_all_or_nothing(
    tmp_path: Path, services
) -> None:
    """Each referee change (a correction rewriting up to 40 moves, a result, a new game) is
    killed at a random moment while the real service applies it: the store then holds the state
    from before it or the whole change, never a part (issue 14)."""
    rng = random.Random(1414)
    database = tmp_path / "data" / "games.sqlite3"
    store = GameStore(database)
    game_id = store.create_game(Board().fen(), "casual", {"Black": "Ann", "White": "Bob"})
    moves = random_game(rng, 40)
    while len(moves) < 40 or not goes_on(moves):
        moves = random_game(rng, 40)
    board = Board()
    for ply, move in enumerate(moves, start=1):
        store.add_move(game_id, ply, move, board.notation(move), (600.0 - ply, 600.0 - ply))
        board.push(move)
    store.close()
    config = tmp_path / "board.toml"
    config.write_text(
        f'[sensor]\nkind = "simulated"\n[rules]\nprofile = "casual"\n'
        f'[storage]\npath = "{tmp_path / "data"}"\n[web]\nport = 0\n'
        f'[referee]\npassword = "{PASSWORD}"\n[clock]\ntime_control = "600"\n'
    )
    credentials = base64.b64encode(f"referee:{PASSWORD}".encode()).decode()
    changes: list[Callable[[], tuple[str, dict[str, object]]]] = [
        *[lambda: a_correction(database, rng)] * 8,
        lambda: ("result", {"result": "1-0", "reason": "crash test"}),
        # A restart after a result starts a new game; setting up a position ends it for another.
        lambda: ("position", {"fen": "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"}),
        lambda: ("position", {"fen": Board().fen()}),
    ]
    calls = {
        "correct-move": lambda body: lambda s: s.correct_move("referee", body["ply"], body["move"]),
        "result": lambda body: (
            lambda s: s.declare_result("referee", body["result"], body["reason"])
        ),
        "position": lambda body: lambda s: s.set_position("referee", body["fen"]),
    }
    landed = []
    for change in changes:
        service = services("run", "--config", str(config))
        assert service.url, service.lines
        endpoint, body = change()
        action = calls[endpoint](body)
        before = projection(database)
        after = outcome_without_kill(database, config, tmp_path / "scratch", action)
        assert after != before
        host, port = service.url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=5)
        connection.request("GET", "/api/games")  # warm: the change itself then takes ~2-10 ms
        connection.getresponse().read()
        connection.request(
            "POST",
            f"/api/referee/{endpoint}",
            body=json.dumps(body),
            headers={
                "Authorization": f"Basic {credentials}",
                "Content-Type": "application/json",
                "Origin": service.url,
                "X-Poolboard": "1",
            },
        )
        time.sleep(rng.uniform(0.0, 0.012))
        service.kill()
        connection.close()
        found = projection(database)
        assert found in (before, after), f"{endpoint} {body}: half-written"
        landed.append(found == after)
        store = GameStore(database, read_only=True)
        assert not [game for game in store.games() if isinstance(game, DamagedGame)]
        store.close()
        if found == before:  # the next change starts from this one
            apply(config, tmp_path / "data", action)
    print("kills after the change was stored:", landed)


def test_sigkill_around_takebacks_keeps_the_game_whole(tmp_path: Path, services) -> None:
    """Casual play on the real service, moves made and taken back on the (simulated) board
    through its web API, killed at random moments around each takeback: the store then holds
    the game with the move or without it, always a game that replays, never a part of one."""
    rng = random.Random(2614)
    database = tmp_path / "data" / "games.sqlite3"
    config = tmp_path / "board.toml"
    config.write_text(
        f'[sensor]\nkind = "simulated"\n[rules]\nprofile = "casual"\n'
        f'[storage]\npath = "{tmp_path / "data"}"\n[web]\nport = 0\n'
        f'[referee]\npassword = "{PASSWORD}"\n[clock]\ntime_control = "600"\n'
        "[tracker]\ndebounce = 0.01\nsettle = 0.05\n"
    )
    credentials = base64.b64encode(f"referee:{PASSWORD}".encode()).decode()

    def post(service, occupied: frozenset[int]) -> None:
        host, port = service.url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=5)
        connection.request(
            "POST",
            "/api/board",
            body=json.dumps({"occupied": sorted(occupied)}),
            headers={
                "Authorization": f"Basic {credentials}",
                "Content-Type": "application/json",
                "Origin": service.url,
                "X-Poolboard": "1",
            },
        )
        assert connection.getresponse().status == 200
        connection.close()

    def stored() -> list[tuple[int, ...]]:
        store = GameStore(database, read_only=True)
        games = store.games()
        store.close()
        assert not [game for game in games if isinstance(game, DamagedGame)]
        return [tuple(m.move.path) for m in games[-1].moves] if games else []

    taken_back = []
    for _ in range(5):
        service = services("run", "--config", str(config))
        assert service.url, service.lines
        board = Board()
        for path in stored():
            board.push_legal(Move(path))
        post(service, board.occupied_squares())  # the board stands as recorded
        time.sleep(0.1)
        before = stored()
        move = rng.choice(board.generate_legal_moves())
        for occupied in hand_steps(board, move):
            post(service, occupied)
            time.sleep(0.06)
        # Called only here, in this iteration, so the loop variable is the one meant.
        wait_for(lambda: len(stored()) > len(before), "the move stored")  # noqa: B023
        assert stored() == [*before, tuple(move.path)]
        board.push(move)
        # Back the way it came: lift it from where it landed, set it down where it started.
        lifted = board.occupied_squares() - {move.to_square}
        post(service, lifted)
        time.sleep(0.06)
        board.pop()
        post(service, board.occupied_squares())  # it counts once settled (~60 ms from now)
        time.sleep(rng.uniform(0.0, 0.1))
        service.kill()
        found = stored()
        assert found in (before, [*before, tuple(move.path)])
        taken_back.append(found == before)
    print("takebacks stored before the kill:", taken_back)
