"""``poolboard demo``: the web UI on the simulated board, here playing by itself."""

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from poolboard.cli import main
from tests.patience import wait_for


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

        def three_moves() -> bool:
            with urllib.request.urlopen(f"{url}/api/state", timeout=5) as response:
                return len(json.load(response)["moves"]) >= 3

        wait_for(three_moves, "three moves played")
        assert (tmp_path / "poolboard" / "demo" / "games.sqlite3").exists()
    finally:
        demo.send_signal(signal.SIGTERM)
        assert demo.wait(timeout=15) == 0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--port", "70000"], "argument --port: expected a port number 0-65535, got '70000'"),
        (["--port", "-1"], "argument --port: expected a port number 0-65535"),
        (["--speed", "0"], "argument --speed: expected a number above 0, up to 100, got '0'"),
        (["--speed", "nan"], "argument --speed: expected a number above 0, up to 100"),
        (["--speed", "inf"], "argument --speed: expected a number above 0, up to 100"),
        (["--host", ""], "argument --host: empty; 0.0.0.0 (or ::) serves every interface"),
        (["--level", "11"], "argument --level: expected a level 1-10, got '11'"),
        (["--opponent", "chess"], "argument --opponent: invalid choice: 'chess'"),
    ],
)
def test_bad_demo_arguments_are_one_clear_line(capsys, arguments: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["demo", *arguments])
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith(f"poolboard demo: error: {message}")


def run_with(tmp_path: Path, config: str, *, hide: str = "") -> subprocess.CompletedProcess:
    """``poolboard run --no-web --config`` with ``config``; ``hide``: a module to make missing."""
    path = tmp_path / "board.toml"
    path.write_text(f'[storage]\npath = "{tmp_path / "data"}"\n{config}')
    hiding = f"import sys; sys.modules[{hide!r}] = None; " if hide else ""
    return subprocess.run(
        [
            sys.executable,
            "-c",
            f"{hiding}from poolboard.cli import main; import sys; sys.exit(main(sys.argv[1:]))",
            *["run", "--no-web", "--config", str(path)],
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_run_needs_a_config_that_names_the_sensor(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["run"])
    assert "the following arguments are required: --config" in capsys.readouterr().err
    unnamed = run_with(tmp_path, '[game]\nevent = "Club night"\n')
    assert unnamed.returncode == 2 and unnamed.stdout == ""
    assert unnamed.stderr.strip().endswith(
        "[sensor] kind: not set; say which sensor reads the board (serial, gpio, camera), "
        'or kind = "simulated" to run without one'
    )


@pytest.mark.parametrize(
    ("config", "hide", "message"),
    [
        (
            '[sensor]\nkind = "camera"\nspec = "file:board.png"\n',
            "cv2",
            "the camera sensor needs the Python module 'cv2', which is not installed: "
            "pip install 'poolboard[camera]'",
        ),
        (
            '[sensor]\nkind = "simulated"\n[leds]\nkind = "spi"\n',
            "spidev",
            "spidev is not installed: pip install 'poolboard[spi-leds]'",
        ),
        (
            '[sensor]\nkind = "gpio"\nspec = "BOARD"\n',
            "RPi",
            "pip install 'poolboard[gpio]' on a Pi 4 or older",
        ),
    ],
)
def test_a_missing_optional_extra_is_one_line_naming_what_to_install(
    tmp_path: Path, config: str, hide: str, message: str
) -> None:
    board = Path(__file__).parents[2] / "hardware" / "board.example.toml"
    ran = run_with(tmp_path, config.replace("BOARD", str(board)), hide=hide)
    assert ran.returncode == 2
    assert len(ran.stderr.splitlines()) == 1 and "Traceback" not in ran.stderr
    assert ran.stderr.startswith("poolboard run: ") and message in ran.stderr


def test_demo_against_the_computer_answers_a_move_on_the_virtual_board(tmp_path: Path) -> None:
    demo = subprocess.Popen(
        [sys.executable, "-m", "poolboard.cli", "demo", "--port", "0"]
        + ["--opponent", "engine", "--level", "2", "--side", "white"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
    )
    try:
        lines = [demo.stdout.readline() for _ in range(3)]
        assert any("the computer (level 2) plays white, casual rules" in line for line in lines)
        url = next(line for line in lines if "web UI on " in line).split("web UI on ")[1]
        url = url.split("/ ")[0]

        def post_board(squares: set[int]) -> None:
            request = urllib.request.Request(
                f"{url}/api/board",
                data=json.dumps({"occupied": sorted(squares)}).encode(),
                headers={"Content-Type": "application/json", "X-Poolboard": "1"},
            )
            urllib.request.urlopen(request, timeout=5).close()

        def state_now() -> dict:
            with urllib.request.urlopen(f"{url}/api/state", timeout=5) as response:
                return json.load(response)

        start = set(range(1, 13)) | set(range(21, 33))
        post_board(start)
        # The position stands: play starts.
        wait_for(lambda: state_now()["clock"]["running"] == "black", "the game starting")
        post_board(start - {11})
        post_board(start - {11} | {15})
        state = wait_for(
            lambda: (s := state_now())["opponent"]["status"] == "execute" and s,
            "the computer's move cued",
        )
        assert state["moves"] == ["11-15"]
        assert state["opponent"]["level"] == 2 and state["rules"] == "casual"
        assert "play-from" in state["cues"].values()
    finally:
        demo.send_signal(signal.SIGTERM)
        assert demo.wait(timeout=15) == 0


def test_demo_refuses_autoplay_against_the_computer(capsys) -> None:
    assert main(["demo", "--autoplay", "--opponent", "engine"]) == 2
    assert "--autoplay plays both sides itself: leave out --opponent" in capsys.readouterr().err


def _start_demo(tmp_path: Path, *arguments: str) -> tuple[subprocess.Popen, str]:
    """``poolboard demo ARGUMENTS`` on a free port with its data under ``tmp_path``; its URL."""
    demo = subprocess.Popen(
        [sys.executable, "-m", "poolboard.cli", "demo", "--port", "0", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
    )
    for _ in range(5):
        line = demo.stdout.readline()
        if "web UI on " in line:
            return demo, line.split("web UI on ")[1].split("/ ")[0]
    demo.kill()
    raise AssertionError("the demo did not say where it serves")


def _stop(demo: subprocess.Popen) -> None:
    demo.send_signal(signal.SIGTERM)
    assert demo.wait(timeout=15) == 0


def test_the_computer_demo_after_an_earlier_demo_is_a_game_of_its_own(tmp_path: Path) -> None:
    """An earlier demo's match (game 2 of it unfinished) is not resumed: "You v poolboard
    (level 2)", game 1, both clocks full."""
    demo, url = _start_demo(tmp_path)
    try:
        for action in ("end", "next-game"):
            body = {"how": "agree-draw"} if action == "end" else None
            request = urllib.request.Request(
                f"{url}/api/referee/{action}",
                data=None if body is None else json.dumps(body).encode(),
                headers={
                    "Content-Type": "application/json",
                    "X-Poolboard": "1",
                    "Authorization": "Basic cmVmZXJlZTpkZW1v",  # referee:demo
                },
                method="POST",
            )
            urllib.request.urlopen(request, timeout=5).close()
        with urllib.request.urlopen(f"{url}/api/state", timeout=5) as response:
            assert json.load(response)["match"]["game"] == 2
    finally:
        _stop(demo)
    demo, url = _start_demo(tmp_path, "--opponent", "engine", "--level", "2")
    try:
        with urllib.request.urlopen(f"{url}/api/state", timeout=5) as response:
            state = json.load(response)
    finally:
        _stop(demo)
    assert (state["headers"]["Black"], state["headers"]["White"]) == ("You", "poolboard (level 2)")
    assert (state["match"]["game"], state["match"]["games"]) == (1, 2)
    assert state["moves"] == [] and state["clock"]["state"] == "ready"
    assert state["clock"]["black"] == state["clock"]["white"] == 2700  # apca-match: 45 minutes


def test_python_dash_m_poolboard_is_the_command() -> None:
    """From a checkout not installed, ``python -m poolboard`` is ``poolboard``."""
    done = subprocess.run(
        [sys.executable, "-m", "poolboard", "moves", "--json"],
        input="B:W21:B17\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["notation"] == "17-22"
