"""``poolboard demo``: the web UI on the simulated board, here playing by itself."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def test_demo_serves_the_board_and_records_the_autoplayed_game(tmp_path: Path) -> None:
    demo = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "poolboard.cli",
            "demo",
            "--port",
            "0",
            "--autoplay",
            "--speed",
            "4",
            "--seed",
            "5",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
    )
    try:
        url = None
        for _ in range(5):
            line = demo.stdout.readline()
            if "web UI on " in line:
                url = line.split("web UI on ")[1].split("/ ")[0]
                break
        assert url is not None
        moves: list[str] = []
        deadline = time.monotonic() + 30
        while len(moves) < 3 and time.monotonic() < deadline:
            time.sleep(0.5)
            with urllib.request.urlopen(f"{url}/api/state", timeout=5) as response:
                moves = json.load(response)["moves"]
        assert len(moves) >= 3
        assert (tmp_path / "poolboard" / "demo" / "games.sqlite3").exists()
    finally:
        demo.send_signal(signal.SIGTERM)
        assert demo.wait(timeout=15) == 0
