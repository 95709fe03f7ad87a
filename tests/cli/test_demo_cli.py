"""``poolboard demo`` runs a whole simulated game through the tracker."""

import subprocess
import sys


def test_demo_plays_a_game_and_every_move_is_recognised() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "demo", "--seed", "7", "--speed", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "every move recognised" in result.stdout
    assert " 1. " in result.stdout
