"""The referee API: credentials first, then each action reaches the session and the audit log."""

import base64
from pathlib import Path

import httpx
import pytest

from engine.color import Color
from poolboard.locale import translation
from tests.patience import wait_for
from tests.web.conftest import AUTH, PASSWORD, START, Live, post, referee, start_game


@pytest.mark.parametrize(
    "auth",
    [
        None,
        ("referee", "wrong"),
        ("Referee", PASSWORD),
        ("referee", PASSWORD + " "),
        ("", ""),
        ("referee", "s3cret-réf"),
    ],
)
def test_referee_actions_refuse_missing_or_wrong_credentials(live: Live, auth) -> None:
    start_game(live)
    for action in ("pause", "resume", "next-game"):
        response = referee(live, action, auth=auth)
        assert response.status_code == 401
        assert (
            response.headers["www-authenticate"]
            == 'Basic realm="poolboard referee", charset="UTF-8"'
        )
    assert httpx.get(f"{live.url}/api/referee/audit", auth=auth).status_code == 401
    assert httpx.get(f"{live.url}/referee", auth=auth).status_code == 401
    assert live.session.clock.state.value == "running"
    assert live.session.store.audit_log() == []


def test_malformed_authorization_headers_are_401(live: Live) -> None:
    for header in ("Basic", "Basic !!!", "Bearer abc", "Basic " + base64.b64encode(b"x").decode()):
        response = post(f"{live.url}/api/referee/pause", headers={"Authorization": header})
        assert response.status_code == 401


def test_the_console_is_closed_without_a_password(tmp_path: Path) -> None:
    live = Live(tmp_path, password="")
    try:
        response = referee(live, "pause", auth=("referee", ""))
        assert response.status_code == 503
        assert "set [referee] password" in response.json()["detail"]
        assert httpx.get(f"{live.url}/referee").status_code == 503
        assert httpx.get(f"{live.url}/api/info").json()["referee_console"] is False
    finally:
        live.close()


def test_pause_resume_and_adjust_the_clock_are_applied_and_audited(live: Live) -> None:
    start_game(live)
    assert referee(live, "pause").json() == {"ok": True}
    assert live.session.clock.state.value == "paused"
    again = referee(live, "pause")
    assert again.status_code == 422 and "pause" in again.json()["detail"]
    before = live.session.clock.remaining(Color.WHITE)
    assert referee(live, "adjust-clock", {"side": "white", "seconds": 90}).status_code == 200
    assert live.session.clock.remaining(Color.WHITE) == pytest.approx(before + 90, abs=0.01)
    assert referee(live, "resume").status_code == 200
    assert live.session.clock.state.value == "running"
    log = httpx.get(f"{live.url}/api/referee/audit", auth=AUTH).json()
    assert [(entry["actor"], entry["action"]) for entry in log] == [
        ("referee", "pause"),
        ("referee", "adjust"),
        ("referee", "resume"),
    ]
    assert log[1]["data"] == {"side": "white", "seconds": 90.0, "ply": 0}


def test_a_refusal_carries_its_message_and_values_for_the_pages(live: Live) -> None:
    """A 422 says why in English (``detail``, as before) and as the message the catalogue holds
    with its values, so a page says it in its own language (docs/api.md)."""
    start_game(live)
    live.session.declare_result("referee", "0-1", "Black left the hall")
    over = referee(live, "result", {"result": "1-0", "reason": "again"})
    assert over.status_code == 422
    assert over.json() == {
        "detail": "the game is over already (0-1)",
        "message": "the game is over already ({result})",
        "values": {"result": "0-1"},
    }
    spanish = translation("es").gettext(over.json()["message"])
    assert spanish.format(**over.json()["values"]) == "la partida ya ha terminado (0-1)"
    paused = referee(live, "pause").json()
    assert (paused["message"], paused["values"]) == ("cannot pause: the clock is stopped", {})
    # The engine's refusal of a bad FEN has its words and values too (what was typed).
    fen = referee(live, "position", {"fen": "X:W1:B2"}).json()
    assert fen == {
        "detail": "FEN 'X:W1:B2': side to move must be B or W, got 'X'",
        "message": "FEN {fen}: side to move must be B or W, got {side}",
        "values": {"fen": "'X:W1:B2'", "side": "'X'"},
    }


def test_a_refusal_within_a_refusal_is_words_of_its_own(live: Live) -> None:
    """Bad move text in a correction: the ply's refusal holds the engine's, each a message of
    the catalogue with its values (docs/api.md), so a page says both in its language."""
    start_game(live)
    live.session.sensor.set_occupied(START - {11} | {15})
    wait_for(lambda: live.session.state()["moves"], "11-15 recorded")
    answer = referee(live, "correct-move", {"ply": 1, "move": "11-33"}).json()
    assert answer == {
        "detail": "ply 1: '11-33': square 33 is not a dark square 1-32 (R-BRD-2)",
        "message": "ply {ply}: {error}",
        "values": {
            "ply": 1,
            "error": {
                "message": "{text}: square {square} is not a dark square 1-32 (R-BRD-2)",
                "values": {"text": "'11-33'", "square": 33},
            },
        },
    }
    control = referee(live, "details", {"time_control": "300+x"}).json()
    assert control["message"] == "time control {text}: {error}"
    assert control["values"]["error"]["message"].startswith("{part} is not a stage")


def test_correct_count_penalty_result_next_game_and_position(live: Live) -> None:
    start_game(live)
    board = live.session.sensor
    board.set_occupied(START - {11} | {15})
    wait_for(lambda: live.session.state()["moves"], "11-15 recorded")
    assert referee(live, "correct-move", {"ply": 1, "move": "11-16"}).status_code == 200
    assert live.session.state()["moves"] == ["11-16"]
    wrong = referee(live, "correct-move", {"ply": 5, "move": "11-15"})
    assert wrong.status_code == 422 and "ply 5" in wrong.json()["detail"]
    count = referee(live, "count", {"side": "black"})
    assert count.status_code == 422  # no count applies at the start: Black is not the weaker
    refused = count.json()
    assert refused["message"].startswith("R-DRW-6: Black is not the weaker side ({own} v {other}")
    assert refused["values"]["own"] > refused["values"]["other"]  # 11-16 made Black stronger
    assert referee(
        live, "penalty", {"side": "white", "rule": "R-TCH-2", "severity": "caution", "note": ""}
    ).json() == {"ok": True}
    assert live.session.state()["result"] is None
    assert referee(live, "next-game").status_code == 422  # no result yet
    result = referee(live, "result", {"result": "1/2-1/2", "reason": "agreed"})
    assert result.status_code == 200
    assert live.session.state()["result"] == "1/2-1/2"
    first = live.session.game_id
    assert referee(live, "next-game").status_code == 200
    assert live.session.game_id == first + 1
    assert referee(live, "position", {"fen": "W:WK10:B19,27"}).status_code == 200
    assert live.session.state()["start_fen"].startswith("W:")
    actions = [entry[2] for entry in live.session.store.audit_log()]
    assert actions == ["correct", "penalty", "result", "next-game", "setup"]


@pytest.mark.parametrize(
    ("action", "body", "message"),
    [
        ("adjust-clock", {"side": "white", "seconds": 1e9}, "less than or equal to 36000"),
        ("adjust-clock", {"side": "white", "seconds": "60"}, "seconds"),
        ("adjust-clock", {"side": "green", "seconds": 60}, "'black' or 'white'"),
        ("adjust-clock", {"side": "white", "seconds": 0}, "non-zero"),
        ("correct-move", {"ply": 0, "move": "11-15"}, "greater than or equal to 1"),
        ("correct-move", {"ply": 1, "move": "11-15; rm -rf"}, "pattern"),
        ("position", {"fen": "X" * 500}, "at most 200"),
        ("position", {"fen": "not a fen"}, "fen"),
        ("penalty", {"side": "white", "rule": "TCH", "severity": "caution"}, "pattern"),
        ("penalty", {"side": "white", "rule": "R-TCH-2", "severity": "death"}, "forfeit"),
        ("result", {"result": "2-0", "reason": ""}, "1/2-1/2"),
        ("count", {}, "Field required"),
    ],
)
def test_bad_referee_input_gets_422_with_a_message(
    live: Live, action: str, body: dict, message: str
) -> None:
    response = referee(live, action, body)
    assert response.status_code == 422
    assert message.lower() in str(response.json()["detail"]).lower()
    assert live.session.store.audit_log() == []


def test_the_console_page_opens_with_the_credentials(live: Live) -> None:
    page = httpx.get(f"{live.url}/referee", auth=AUTH)
    assert page.status_code == 200 and "/static/referee.js" in page.text
    assert httpx.get(f"{live.url}/api/referee/whoami", auth=AUTH).json() == {"referee": "referee"}
