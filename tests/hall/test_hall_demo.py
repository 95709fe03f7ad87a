"""``poolboard hall --demo N``: one command, a hall of N simulated tables playing on their own,
with the real Mosquitto; the players' names reach every table; Ctrl-C stops it all."""

import signal
import subprocess
import sys
import threading
import time

import httpx

from engine.board import Board
from poolboard.hall.demo import DemoTable, demo_config
from tests.hall.conftest import needs_mosquitto
from tests.patience import wait_for

pytestmark = needs_mosquitto


def test_the_demo_hall_plays_on_its_own_and_stops_cleanly() -> None:
    demo = subprocess.Popen(
        [sys.executable, "-m", "poolboard.cli", "hall", "--demo", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = ""
        lines = []
        while not url and (line := demo.stdout.readline()):
            lines.append(line)
            if "pages on " in line:
                url = line.split("pages on ", 1)[1].split("/ ", 1)[0]
        assert url, "".join(lines) + demo.stderr.read()
        assert "login is director / demo" in "".join(lines)
        with httpx.Client(base_url=url, timeout=10) as http:
            # Round 1 is started by the demo itself: both tables seated and moving.
            deadline = time.monotonic() + 60
            tiles = http.get("/api/hall").json()["tables"]
            while not all(tile["plies"] > 0 for tile in tiles):
                assert time.monotonic() < deadline and demo.poll() is None, "no move was played"
                time.sleep(0.2)
                tiles = http.get("/api/hall").json()["tables"]
            pairs = {t["table"]: (t["black"], t["white"]) for t in tiles}
            assert pairs == {"t1": ("Ann Lee", "Dee Hart"), "t2": ("Bob Ray", "Cyd Moss")}
            for tile in tiles:  # the names are the tables' own, not only the hall's
                black, _ = pairs[tile["table"]]
                assert (tile["headers"]["Black"], tile["headers"]["Round"]) == (black, "1.1")
            audit = http.get("/api/director/audit", auth=("director", "demo")).json()
            assert [a["action"] for a in audit[:3]] == ["import-players", "round-robin", "round"]
    finally:
        demo.send_signal(signal.SIGINT)
        assert demo.wait(timeout=30) == 0, demo.stderr.read()[-2000:]
    # What the director reads in the terminal: the hall's own lines, not each HTTP request
    # the demo made to set the round up.
    assert "HTTP Request" not in demo.stderr.read()


def test_a_demo_table_plays_on_into_a_game_the_director_started(tmp_path) -> None:
    """Between games the hands end an unfinished game and start the match's next; a game
    the director started meanwhile (a new round's new match) is played, never ended unplayed."""
    config = demo_config(tmp_path, 1, port=0)
    table = DemoTable(tmp_path, config, "t1", config.tables[0].password)
    session, board, stop = table.session, table.board, threading.Event()
    recorder = threading.Thread(target=session.run, args=(stop,), daemon=True)
    recorder.start()
    try:
        session.set_details("director", {"black": "Ann Lee", "white": "Bob Ray"})
        position = Board()
        board.set_occupied(position.occupied_squares())
        board.set_occupied(set(position.occupied_squares()) - {11})
        board.set_occupied((set(position.occupied_squares()) - {11}) | {15})
        wait_for(lambda: len(session.game.board.move_stack) == 1, "11-15 recorded")
        # An event already set: _next_game never waits for the director here.
        never_wait = threading.Event()
        never_wait.set()
        table._next_game(never_wait)  # the hands stopped mid-game: agreed drawn, game 2 begins
        assert session.game_number == 2 and not session.game.board.move_stack
        assert session.details["black"] == "Bob Ray"  # colours change (R-TRN-2)
        game_id = session.game_id
        table._next_game(never_wait)  # a fresh game not over: it is to be played
        assert session.game_id == game_id and not session.game.is_over()
    finally:
        stop.set()
        recorder.join(timeout=5)
        session.close()
