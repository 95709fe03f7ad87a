"""The API over a real server on loopback: state, WebSocket, board inputs, games, cue styles."""

import asyncio
import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest
import websockets

from engine.color import Color
from engine.cues import CUE_STYLES, CueKind
from firmware_bridge.host import sensor_from_spec
from poolboard import records
from poolboard.config import Config, StorageConfig, WebConfig
from poolboard.session import Session
from poolboard.session.state import BoardState
from poolboard.simulated_board import SimulatedBoard
from poolboard.web.app import WebServer, serve_web
from tests.patience import wait_for
from tests.web.conftest import START, Live, post, referee, start_game


def post_board(live: Live, squares: set[int]) -> None:
    post(f"{live.url}/api/board", json={"occupied": sorted(squares)}).raise_for_status()


def state_when(live: Live, check, what: str) -> dict:
    """The table's state, once ``check`` holds for it."""

    def matching() -> dict | None:
        state = httpx.get(f"{live.url}/api/state").json()
        return state if check(state) else None

    return wait_for(matching, what)


def play(live: Live, occupied: set[int], start: int, end: int) -> None:
    """Slide a man one square, as the virtual board reports it."""
    occupied -= {start}
    post_board(live, occupied)
    occupied |= {end}
    post_board(live, occupied)


def test_the_state_is_the_sessions_and_a_move_on_the_board_is_recorded(live: Live) -> None:
    state = httpx.get(f"{live.url}/api/state").json()
    assert state["fen"] == live.session.state()["fen"]
    assert state["moves"] == [] and state["turn"] == "black"
    occupied = set(START)
    post_board(live, occupied)
    play(live, occupied, 11, 15)
    state = state_when(live, lambda s: s["moves"] == ["11-15"], "11-15 recorded")
    assert state["last_move"] == {"from": 11, "to": 15, "path": [11, 15]}
    assert state["turn"] == "white"
    assert state["clock"]["running"] == "white"
    assert state["cues"] in (
        {"11": "move-from", "15": "confirm"},
        {"11": "move-from", "15": "move-to"},
    )


def test_websocket_sends_the_whole_state_first_then_every_change(live: Live) -> None:
    async def watch() -> list[dict]:
        async with websockets.connect(live.ws_url) as socket:
            first = json.loads(await socket.recv())
            seen = [first]
            occupied = set(START)
            await asyncio.to_thread(post_board, live, occupied)
            await asyncio.to_thread(play, live, occupied, 9, 14)
            while seen[-1]["moves"] != ["9-14"]:
                seen.append(json.loads(await asyncio.wait_for(socket.recv(), 5)))
            return seen

    seen = asyncio.run(watch())
    assert set(seen[0]) >= {"fen", "moves", "clock", "cues", "headers", "counts", "result"}
    assert seen[0]["moves"] == [] and seen[0]["clock"]["state"] == "ready"
    assert seen[-1]["last_move"]["path"] == [9, 14]
    assert any(state["clock"]["state"] == "running" for state in seen)


def test_a_late_joiner_gets_the_game_so_far_and_leavers_are_forgotten(live: Live) -> None:
    occupied = set(START)
    post_board(live, occupied)
    play(live, occupied, 11, 15)
    state_when(live, lambda s: len(s["moves"]) == 1, "the first move recorded")
    play(live, occupied, 23, 19)
    state_when(live, lambda s: len(s["moves"]) == 2, "the second move recorded")

    async def join() -> list[dict]:
        sockets = [await websockets.connect(live.ws_url) for _ in range(5)]
        firsts = [json.loads(await socket.recv()) for socket in sockets]
        for socket in sockets:
            await socket.close()
        return firsts

    for state in asyncio.run(join()):
        assert state["moves"] == ["11-15", "23-19"]
    hub = live.server.app.state.hub
    wait_for(lambda: hub.client_count == 0, "the hub letting its spectators go")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"occupied": [1, 33]}, "square 33 is not a dark square 1-32"),
        ({"occupied": [0]}, "square 0 is not a dark square 1-32"),
        ({"occupied": ["5"]}, "valid integer"),
        ({"occupied": [5.0]}, "valid integer"),
        ({"occupied": [True]}, "valid integer"),
        ({"occupied": list(range(1, 34))}, "at most 32"),
        ({"occupied": [1], "extra": 1}, "Extra inputs are not permitted"),
        ({}, "Field required"),
    ],
)
def test_bad_board_snapshots_get_422_naming_the_problem(
    live: Live, body: dict, message: str
) -> None:
    response = post(f"{live.url}/api/board", json=body)
    assert response.status_code == 422
    assert message in json.dumps(response.json()["detail"])
    assert live.session.sensor.occupied == frozenset()


def test_not_json_gets_422(live: Live) -> None:
    response = post(
        f"{live.url}/api/board", content=b"{occupied", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422


def test_levers_and_adjust_reach_the_simulated_board(live: Live) -> None:
    occupied = set(START)
    post_board(live, occupied)
    state_when(live, lambda s: s["clock"]["state"] == "running", "the clock running")
    assert post(f"{live.url}/api/adjust", json={"side": "black"}).json() == {"adjust": "black"}
    assert post(f"{live.url}/api/lever", json={"side": "white"}).status_code == 200
    bad = post(f"{live.url}/api/lever", json={"side": "red"})
    assert bad.status_code == 422 and "'black' or 'white'" in bad.text
    assert post(f"{live.url}/api/board", json={"occupied": sorted(occupied)}).json() == {
        "occupied": sorted(occupied)
    }
    assert httpx.get(f"{live.url}/api/board").json() == {"occupied": sorted(occupied)}


def test_cue_styles_are_engine_cue_styles(live: Live) -> None:
    styles = httpx.get(f"{live.url}/api/cue-styles").json()
    assert styles["priority"] == [kind.value for kind in CueKind]
    for kind, style in CUE_STYLES.items():
        served = styles["kinds"][kind.value]
        assert tuple(served["rgb"]) == style.rgb
        assert served["hex"] == "#{:02x}{:02x}{:02x}".format(*style.rgb)
        assert served["blink"] == style.blink.value
        assert style.blink.is_on(0.0) and (served["hertz"] == 0) == (style.blink.value == "solid")


def test_games_are_listed_shown_and_downloaded_as_pdn(live: Live) -> None:
    occupied = set(START)
    post_board(live, occupied)
    play(live, occupied, 11, 15)
    state_when(live, lambda s: len(s["moves"]) == 1, "the first move recorded")
    game_id = live.session.game_id
    listed = httpx.get(f"{live.url}/api/games").json()
    assert [game["id"] for game in listed] == [game_id]
    assert listed[0]["plies"] == 1 and listed[0]["headers"]["GameType"] == "23"
    shown = httpx.get(f"{live.url}/api/games/{game_id}").json()
    assert [move["move"] for move in shown["moves"]] == ["11-15"]
    assert shown["moves"][0]["clock_black"] is not None
    download = httpx.get(f"{live.url}/api/games/{game_id}.pdn")
    assert download.status_code == 200
    assert download.headers["content-type"].startswith("application/x-pdn")
    assert f'filename="poolboard-{game_id}.pdn"' in download.headers["content-disposition"]
    assert '[GameType "23"]' in download.text and "1. 11-15" in download.text
    assert httpx.get(f"{live.url}/api/games/999").status_code == 404
    assert "no game 999" in httpx.get(f"{live.url}/api/games/999.pdn").text


def test_games_serve_a_result_s_words_only_while_they_say_it(live: Live, tmp_path: Path) -> None:
    """An older poolboard (after a downgrade) changing a result leaves the newer words beside
    it: they are no longer served, the reason's English is."""
    start_game(live)
    assert referee(live, "end", {"how": "resign", "side": "white"}).status_code == 200
    game_id = live.session.game_id
    resigned = records.resignation(Color.WHITE).said.to_json()
    (listed,) = httpx.get(f"{live.url}/api/games").json()
    assert (listed["result_reason"], listed["result_said"]) == ("White resigned", resigned)
    older = sqlite3.connect(tmp_path / "games.sqlite3")
    with older:  # as a poolboard that does not know the words writes a result
        older.execute(
            "UPDATE games SET result = '0-1', result_reason = 'Black resigned' WHERE id = ?",
            (game_id,),
        )
    older.close()
    (listed,) = httpx.get(f"{live.url}/api/games").json()
    shown = httpx.get(f"{live.url}/api/games/{game_id}").json()
    for game in (listed, shown):
        assert (game["result"], game["result_reason"]) == ("0-1", "Black resigned")
        assert game["result_said"] is None


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/..%2F..%2F..%2Fetc%2Fpasswd.pdn",
        "/api/games/%2e%2e%2fgames.sqlite3",
        "/api/games/1%2F..%2F..%2Fgames.sqlite3.pdn",
        "/api/games/-1.pdn",
        "/api/games/1e3.pdn",
        "/api/games/games.sqlite3",
        "/static/..%2F..%2Fsession.py",
        "/static/%2e%2e/app.py",
        "/static/%2e%2e%2f%2e%2e%2fsession.py",
    ],
)
def test_path_traversal_finds_nothing(live: Live, path: str) -> None:
    response = httpx.get(live.url + path)
    assert response.status_code == 404
    assert "sqlite" not in response.headers.get("content-type", "")
    assert "import" not in response.text and "SQLite format" not in response.text


def test_pages_and_their_files_are_served_locally(live: Live) -> None:
    for path in ("/", "/big", "/board"):
        page = httpx.get(live.url + path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert "http://" not in page.text and "https://" not in page.text
    for name in ("poolboard.js", "spectator.js", "board.js", "referee.js", "style.css"):
        assert httpx.get(f"{live.url}/static/{name}").status_code == 200
    schema = httpx.get(f"{live.url}/openapi.json").json()
    assert {"/api/state", "/api/board", "/api/referee/pause", "/api/cue-styles"} <= set(
        schema["paths"]
    )
    assert httpx.get(f"{live.url}/api/info").json() == {
        "sensor": "simulated",
        "virtual_board": True,
        "referee_console": True,
        "language": "en",
        "languages": ["en", "es"],
    }
    spanish = httpx.get(f"{live.url}/api/messages/es").json()
    assert spanish["set up the position"] == "colocar la posición"
    unknown = httpx.get(f"{live.url}/api/messages/fr")
    assert unknown.status_code == 404 and "one of en, es" in unknown.json()["detail"]


def test_openapi_documents_the_state_the_api_sends(live: Live) -> None:
    schema = httpx.get(f"{live.url}/openapi.json").json()
    answer = schema["paths"]["/api/state"]["get"]["responses"]["200"]["content"]
    assert answer["application/json"]["schema"] == {"$ref": "#/components/schemas/BoardState"}
    documented = schema["components"]["schemas"]["BoardState"]
    state = httpx.get(f"{live.url}/api/state").json()
    assert set(documented["properties"]) == set(state)  # every key documented, none left out
    # Words added later are optional, so a hall still reads an older table's state.
    assert set(state) - set(documented["required"]) <= {"result_said", "storage_said"}
    assert BoardState.model_validate(state).moves == state["moves"] == []


def test_a_real_sensor_has_no_virtual_board(tmp_path: Path) -> None:
    emulator = subprocess.Popen(
        [sys.executable, "-m", "poolboard.cli", "emulate-board", "--link", str(tmp_path / "pico")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        port = emulator.stdout.readline().strip()
        live = Live(tmp_path / "data", sensor=sensor_from_spec(port))
        try:
            refused = post(f"{live.url}/api/board", json={"occupied": [1]})
            assert refused.status_code == 409 and "not the simulated board" in refused.text
            assert post(f"{live.url}/api/lever", json={"side": "black"}).status_code == 409
            assert httpx.get(f"{live.url}/board").status_code == 404
            assert httpx.get(f"{live.url}/api/info").json()["virtual_board"] is False
        finally:
            live.close()
    finally:
        emulator.stdin.write("quit\n")
        emulator.stdin.flush()
        emulator.wait(timeout=10)


def test_serve_web_announces_its_address_and_stops_with_the_service(tmp_path: Path) -> None:
    config = Config(storage=StorageConfig(path=str(tmp_path)), web=WebConfig(port=0))
    session = Session(config, SimulatedBoard())
    stop = threading.Event()
    said: list[str] = []
    thread = threading.Thread(
        target=serve_web, args=(session, stop), kwargs={"announce": said.append}
    )
    thread.start()
    try:
        said_first = wait_for(lambda: said, "the server saying where it listens")[0]
        url = said_first.split(" on ")[1].split("/ ")[0]
        assert httpx.get(f"{url}/api/state").json()["game_id"] == session.game_id
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{url}/api/state")
    session.close()


def test_a_taken_port_is_a_clear_error(live: Live) -> None:
    with pytest.raises(OSError, match=f"cannot listen on 127.0.0.1:{live.server.port}"):
        WebServer(live.session, "127.0.0.1", live.server.port).start()
