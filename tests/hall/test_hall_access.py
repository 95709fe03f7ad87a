"""The hall's console is guarded as a table's referee console is: a hostile page cannot act
through the director's logged-in browser (CSRF), and a big body is refused unread."""

import httpx

from tests.hall.conftest import DIRECTOR, needs_mosquitto

pytestmark = needs_mosquitto


def test_a_cross_site_director_action_is_refused_and_changes_nothing(hall) -> None:
    players = "Ann\nBob\n"
    raw = httpx.Client(base_url=hall.url, timeout=10)  # no X-Poolboard: a form or no-cors fetch
    forged = raw.post(
        "/api/director/players.csv",
        content=players,
        headers={"Content-Type": "text/csv", "Origin": "http://evil.example"},
        auth=DIRECTOR,
    )
    assert forged.status_code == 403
    assert raw.post("/api/director/players.csv", content=players, auth=DIRECTOR).status_code == 403
    assert hall.http.get("/api/players").json() == []
    own = hall.director("players.csv", players)
    assert own.status_code == 200, own.text


def test_a_huge_body_is_refused_before_the_password_is_asked(hall) -> None:
    answer = httpx.post(
        hall.url + "/api/director/players.csv",
        content=b"x" * 100_000,
        headers={"X-Poolboard": "1", "Content-Type": "text/csv"},
    )
    assert answer.status_code == 413
    assert answer.headers["x-frame-options"] == "DENY"
