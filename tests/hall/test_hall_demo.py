"""``poolboard hall --demo N``: one command, a hall of N simulated tables playing on their own,
with the real Mosquitto; the players' names reach every table; Ctrl-C stops it all."""

import signal
import subprocess
import sys
import time

import httpx

from tests.hall.conftest import needs_mosquitto

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
