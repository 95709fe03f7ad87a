"""``kill -9`` while the computer thinks, or while its move waits to be executed on the board:
after a restart it thinks again, or shows the very same move again; nothing is lost.

Everything is real but the Pico: the firmware runs in ``poolboard emulate-board`` behind a pty
(the board keeps its pieces while the service is down, as a real one does), ``poolboard run``
records into SQLite, lights the firmware's LED chain and serves /api/state on loopback, and is
killed with SIGKILL. The computer's move is read back from the LEDs the firmware drives.
"""

import json
import random
import sqlite3
import time
import urllib.request
from pathlib import Path

from engine.board import Board
from tests.patience import wait_for
from tests.service.conftest import hand_steps


def state(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/api/state", timeout=5) as response:
        return json.load(response)


def wait_state(url: str, wanted, what: str) -> dict:
    """The service's state, once ``wanted`` holds for it."""
    return wait_for(lambda: wanted(now := state(url)) and now, what)


def lit(emulator) -> set[int]:
    """The squares the firmware's LED strip lights now (the emulator's ``leds`` command)."""
    emulator.process.stdin.write("leds\n")
    emulator.process.stdin.flush()
    words = emulator.process.stdout.readline().split()[1:]
    return {int(square) for square, _ in (w.split("=") for w in words) if square.isdigit()}


def wait_lit(emulator, squares: set[int]) -> None:
    """Until the strip has shown exactly ``squares`` lit (blinking ones in their lit half)."""
    wait_for(lambda: lit(emulator) == squares, f"the strip lighting {sorted(squares)}")


def opponent_moves(database: Path) -> list[dict]:
    with sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT data FROM events WHERE kind = 'opponent-move' ORDER BY id")
        return [json.loads(data) for (data,) in rows.fetchall()]


def test_sigkill_while_thinking_and_while_the_move_waits(
    tmp_path: Path, emulator, services
) -> None:
    config = tmp_path / "board.toml"
    config.write_text(  # the LEDs on the Pico's chain, through the firmware
        f'[sensor]\nkind = "serial"\nspec = "{emulator.port}"\n'
        f'[storage]\npath = "{tmp_path / "data"}"\n[clock]\ntime_control = "600"\n'
        '[rules]\nprofile = "casual"\n[web]\nport = 0\n'
        '[opponent]\nkind = "engine"\nside = "white"\nlevel = 8\n[leds]\nkind = "serial"\n'
    )
    database = tmp_path / "data" / "games.sqlite3"
    board = Board()
    emulator.set(board.occupied_squares())
    service = services("run", "--config", str(config))
    assert service.url, service.lines
    wait_state(service.url, lambda s: s["clock"]["running"] == "black", "the game starting")
    move = board.parse_move("11-15")
    for occupied in hand_steps(board, move):
        emulator.set(occupied)
        time.sleep(0.1)
    board.push(move)
    wait_state(
        service.url, lambda s: s["opponent"]["status"] == "thinking", "the computer thinking"
    )
    time.sleep(random.Random(15).uniform(0.0, 0.3))
    service.kill()  # while the computer thinks (level 8 thinks about a second)
    assert opponent_moves(database) == []

    service = services("run", "--config", str(config))
    # It thinks again (nothing was chosen before the kill) and chooses.
    chosen = wait_state(
        service.url, lambda s: s["opponent"]["status"] == "execute", "the move cued"
    )
    played = chosen["opponent"]["move"]
    (stored,) = opponent_moves(database)
    assert stored["move"] == played and stored["ply"] == 2
    assert chosen["clock"]["running"] == "black"  # the computer's clock stopped at its choice
    white_left = chosen["clock"]["white"]
    reply = board.parse_move(played)  # no capture is possible after 11-15
    start, end = reply.path[0], reply.path[-1]
    wait_lit(emulator, {start, end})  # the Pico's LEDs show the computer's move
    service.kill()  # while its move waits to be executed on the board

    service = services("run", "--config", str(config))
    again = wait_state(
        service.url, lambda s: s["opponent"]["status"] != "setup", "the game resumed"
    )
    assert again["opponent"]["status"] == "execute" and again["opponent"]["move"] == played
    assert again["cues"] == chosen["cues"]  # the same move lit on the board
    assert again["clock"]["white"] == white_left
    wait_lit(emulator, {start, end})
    time.sleep(0.5)
    assert len(opponent_moves(database)) == 1  # shown again, not thought about again
    for occupied in hand_steps(board, reply):
        emulator.set(occupied)
        time.sleep(0.1)
    done = wait_state(service.url, lambda s: len(s["moves"]) == 2, "the computer's move recorded")
    assert done["moves"] == ["11-15", played]
    assert done["opponent"]["status"] == "waiting" and done["clock"]["running"] == "black"
