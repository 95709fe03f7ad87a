"""The director's endpoints answer 422 naming the field, never 500, to numbers JSON or SQLite
cannot hold: NaN, Infinity, rounds and games beyond 64 bits or out of range (docs/hall.md)."""

import pytest

from tests.hall.conftest import DIRECTOR, needs_mosquitto

pytestmark = needs_mosquitto

BAD_NUMBERS = ["NaN", "Infinity", "-Infinity", "0", "1000", "1.5", str(2**64), "9" * 40, '"1"']
PAIRING = '{{"round": {}, "table": "t1", "first": "Ann", "second": "Bob"}}'
CONFIRM = '{{"round": 1, "table": "t1", "game": {}}}'


@pytest.fixture
def post(hall):
    def send(path: str, body: str):
        return hall.http.post(
            f"/api/director/{path}",
            content=body,
            headers={"Content-Type": "application/json"},
            auth=DIRECTOR,
        )

    return send


def test_bad_numbers_in_director_bodies_are_422(hall, post) -> None:
    for number in BAD_NUMBERS:
        for path, body, field in [
            ("round", f'{{"round": {number}}}', "round"),
            ("pairings", PAIRING.format(number), "round"),
            ("confirm", CONFIRM.format(number), "game"),
            ("reject", CONFIRM.format(number), "game"),
        ]:
            answer = post(path, body)
            assert answer.status_code == 422, (path, body, answer.text)
            assert answer.json()["detail"][0]["loc"][-1] == field, answer.text
    adjust = post("tables/t1/adjust-clock", '{"side": "white", "seconds": NaN}')
    assert adjust.status_code == 422 and "NaN" in adjust.json()["detail"]
    # Its words apart, for the console to say in the hall's language.
    assert adjust.json()["message"] == "{action}: NaN and Infinity are not numbers"
    assert adjust.json()["values"] == {"action": "adjust-clock"}
    [call] = [
        a for a in hall.get("/api/director/audit", auth=True) if a["action"].startswith("table-")
    ]
    assert (call["action"], call["data"]["status"], call["data"]["ok"]) == (
        "table-adjust-clock",
        422,
        False,
    )
    assert hall.get("/api/hall")["round"] == 1
    assert hall.get("/api/pairings") == []


def test_bad_round_numbers_in_queries_are_422(hall) -> None:
    for path in ("/api/pairings", "/api/results"):
        for number in ["NaN", "Infinity", "-1", "0", "1000", "1.5", str(2**64), "x"]:
            answer = hall.http.get(path, params={"round": number})
            assert answer.status_code == 422, (path, number, answer.text)
            assert answer.json()["detail"][0]["loc"] == ["query", "round"]
        assert hall.http.get(path, params={"round": 1}).json() == []
