"""The director's endpoints on a real server over a real session: details, void, endings, the
match, the event's PDN, the phone QR code and the closed console's page."""

import io

import cv2
import httpx
import numpy as np

from engine.pdn import read_games
from poolboard.web.qr import qr_modules
from tests.patience import wait_for
from tests.web.conftest import AUTH, START, Live, referee, start_game


def play(live: Live, start: int, end: int) -> None:
    """A simple move on the simulated board, waited for until recorded."""
    sensor = live.session.sensor
    plies = len(live.session.game.board.move_stack)
    sensor.set_occupied(set(sensor.occupied) - {start})
    sensor.set_occupied(set(sensor.occupied) | {end})
    wait_for(
        lambda: len(live.session.game.board.move_stack) > plies, f"{start}-{end} being recorded"
    )


def test_details_then_a_resignation_then_the_match_and_the_event_pdn(live: Live) -> None:
    body = {"black": "Ann Ashworth-Bellingham", "white": "Bo", "round": "3", "event": "Club"}
    assert referee(live, "details", body).status_code == 200
    assert referee(live, "details", {}).status_code == 422
    bad = referee(live, "details", {"time_control": "soon"})
    assert bad.status_code == 422 and "time control" in bad.json()["detail"]
    start_game(live)
    play(live, 11, 15)
    play(live, 23, 19)
    assert referee(live, "void", {"plies": 1}).status_code == 200
    assert live.session.state()["moves"] == ["11-15"]
    assert referee(live, "end", {"how": "resign"}).status_code == 422  # whose resignation?
    assert referee(live, "end", {"how": "resign", "side": "white"}).status_code == 200
    state = httpx.get(f"{live.url}/api/state").json()
    assert state["result"] == "1-0"
    assert state["result_text"] == "Ann Ashworth-Bellingham (Black) wins — White resigned"
    assert referee(live, "next-game").status_code == 200
    live.session.sensor.set_occupied(START)
    assert referee(live, "end", {"how": "agree-draw"}).status_code == 200
    over = referee(live, "next-game")
    assert over.status_code == 422 and "the match is over" in over.json()["detail"]
    assert referee(live, "extend-match", {"games": 3}).status_code == 422  # odd: R-TRN-2
    assert referee(live, "new-match").status_code == 200
    match = httpx.get(f"{live.url}/api/state").json()["match"]
    assert (match["game"], match["games"]) == (1, 2)
    pdn = httpx.get(f"{live.url}/api/games.pdn")
    assert pdn.headers["content-disposition"].endswith('"poolboard-event.pdn"')
    games = list(read_games(io.StringIO(pdn.text)))
    assert [g.headers["Round"] for g in games] == ["3.1", "3.2", "3.1"]
    assert [g.result for g in games] == ["1-0", "1/2-1/2", "*"]
    assert "the referee (referee) voided 23-19" in games[0].moves[0].comment
    actions = [e["action"] for e in httpx.get(f"{live.url}/api/referee/audit", auth=AUTH).json()]
    assert actions == ["details", "void", "result", "next-game", "result", "new-match"]


def test_the_phone_address_comes_as_a_qr_code_that_reads_back(live: Live) -> None:
    phone = httpx.get(f"{live.url}/api/phone").json()
    assert phone["url"] == f"{live.url}/"
    assert phone["reachable"] is False  # served on loopback: no phone can open it
    assert phone["svg"].startswith("<svg")
    image = np.pad(
        np.where(qr_modules(phone["url"]), 0, 255).astype(np.uint8), 4, constant_values=255
    )
    image = cv2.resize(image, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    assert cv2.QRCodeDetectorAruco().detectAndDecode(image)[0] == phone["url"]


def test_without_a_password_referee_shows_how_to_set_one(tmp_path) -> None:
    live = Live(tmp_path, password="")
    try:
        page = httpx.get(f"{live.url}/referee")
        assert page.status_code == 503 and page.headers["content-type"].startswith("text/html")
        assert "[referee]" in page.text and "password" in page.text
        api = httpx.post(
            f"{live.url}/api/referee/void", json={"plies": 1}, headers={"X-Poolboard": "1"}
        )
        assert api.status_code == 503
    finally:
        live.close()
