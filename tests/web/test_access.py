"""Who may do what, over a real server on loopback: the request guard, the board's inputs off
loopback, UTF-8 passwords, and JSON the server cannot echo (NaN, Infinity)."""

import asyncio
import unicodedata
from pathlib import Path

import httpx
import pytest
import websockets

from tests.web.conftest import CHANGE, PASSWORD, START, Live, post

AUTH = ("referee", PASSWORD)


def test_a_change_needs_the_pages_header_and_this_servers_origin(live: Live) -> None:
    pause = f"{live.url}/api/referee/pause"
    bare = httpx.post(pause, auth=AUTH)
    assert bare.status_code == 403 and "X-Poolboard" in bare.text.replace(
        "x-poolboard", "X-Poolboard"
    )
    for header in ("Origin", "Referer"):
        foreign = post(pause, auth=AUTH, headers={header: "http://evil.example/page"})
        assert foreign.status_code == 403 and "another site" in foreign.text
    assert post(pause, auth=AUTH, headers={"Origin": "null"}).status_code == 403
    assert live.session.store.audit_log() == []
    own = post(pause, auth=AUTH, headers={"Origin": live.url})
    assert own.status_code == 422  # past the guard: nothing to pause before the game starts


def test_reading_needs_no_header_and_no_response_may_be_framed(live: Live) -> None:
    for path in ("/api/state", "/api/games", "/", "/static/poolboard.js"):
        response = httpx.get(live.url + path)
        assert response.status_code == 200
        assert response.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_on_loopback_only_loopback_host_names_are_answered(live: Live) -> None:
    """A hostile site whose name is re-pointed at 127.0.0.1 (DNS rebinding) gets nothing."""
    rebound = httpx.get(f"{live.url}/api/state", headers={"Host": "evil.example"})
    assert rebound.status_code == 421
    for host in ("localhost", "127.0.0.1", "[::1]"):
        port = live.server.port
        assert httpx.get(f"{live.url}/api/state", headers={"Host": f"{host}:{port}"}).is_success

    async def open_socket() -> None:
        async with websockets.connect(live.ws_url, additional_headers={"Host": "evil.example"}):
            pass

    with pytest.raises(websockets.exceptions.InvalidStatus):
        asyncio.run(open_socket())


def test_off_loopback_the_virtual_board_needs_the_referees_login(tmp_path: Path) -> None:
    """Served on an open address (here: as if on 0.0.0.0), no one moves pieces anonymously."""
    live = Live(tmp_path, app_host="0.0.0.0")
    try:
        for path, body in (
            ("/api/board", {"occupied": sorted(START)}),
            ("/api/lever", {"side": "black"}),
            ("/api/adjust", {"side": "white"}),
        ):
            refused = post(live.url + path, json=body)
            assert refused.status_code == 401 and "www-authenticate" in refused.headers
        assert httpx.get(f"{live.url}/api/board").status_code == 401
        assert httpx.get(f"{live.url}/board").status_code == 401
        assert live.session.sensor.occupied == frozenset()
        allowed = post(f"{live.url}/api/board", json={"occupied": sorted(START)}, auth=AUTH)
        assert allowed.status_code == 200 and live.session.sensor.occupied == START
        assert httpx.get(f"{live.url}/board", auth=AUTH).status_code == 200
        assert httpx.get(f"{live.url}/api/state").status_code == 200  # spectators still watch
    finally:
        live.close()


def test_a_non_ascii_password_logs_in_whatever_the_unicode_form(tmp_path: Path) -> None:
    password = "Mot-de-passe-réf-日本-ß"
    live = Live(tmp_path, password=password)
    try:
        whoami = f"{live.url}/api/referee/whoami"
        assert httpx.get(whoami, auth=("referee", password)).json() == {"referee": "referee"}
        decomposed = unicodedata.normalize("NFD", password)  # "e" + combining accent
        assert decomposed != password
        assert httpx.get(whoami, auth=("referee", decomposed)).status_code == 200
        assert httpx.get(whoami, auth=("referee", password[:-1])).status_code == 401
    finally:
        live.close()


#: Every endpoint taking a JSON body, with a body that is right but for one number.
BODIES = {
    "/api/board": '{"occupied": [1, %s]}',
    "/api/lever": '{"side": %s}',
    "/api/adjust": '{"side": "black", "extra": %s}',
    "/api/referee/adjust-clock": '{"side": "white", "seconds": %s}',
    "/api/referee/correct-move": '{"ply": %s, "move": "11-15"}',
    "/api/referee/position": '{"fen": %s}',
    "/api/referee/count": '{"side": [%s]}',
    "/api/referee/penalty": (
        '{"side": "white", "rule": "R-TCH-2", "severity": "caution", "note": %s}'
    ),
    "/api/referee/result": '{"result": "1-0", "reason": {"why": %s}}',
}


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("path", list(BODIES))
def test_nan_and_infinity_anywhere_in_a_body_are_a_422(live: Live, path: str, number: str) -> None:
    response = post(
        live.url + path,
        content=BODIES[path] % number,
        headers={"Content-Type": "application/json"},
        auth=AUTH,
    )
    assert response.status_code == 422, response.text
    problem = response.json()["detail"][0]
    assert problem["loc"][0] == "body" and problem["msg"]
    assert live.session.store.audit_log() == []


def test_a_change_without_a_json_content_type_is_refused(live: Live) -> None:
    """What a no-cors fetch sends (no Content-Type, or text/plain) is never read as JSON."""
    for headers in ({}, {"Content-Type": "text/plain"}):
        response = httpx.post(
            f"{live.url}/api/referee/adjust-clock",
            content=b'{"side": "black", "seconds": -3000}',
            headers={**CHANGE, **headers},
            auth=AUTH,
        )
        assert response.status_code == 422
    assert live.session.store.audit_log() == []
