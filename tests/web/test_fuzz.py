"""Property tests over a real server on loopback: whatever JSON (or not-quite-JSON) reaches any
endpoint, the answer is a right result or a clean error naming the problem, never a 500."""

import json
from collections.abc import Iterator

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import CHANGE, PASSWORD, Live

#: Every endpoint that takes a JSON body, and the keys its body has.
ENDPOINTS = {
    "/api/board": ["occupied"],
    "/api/lever": ["side"],
    "/api/adjust": ["side"],
    "/api/referee/adjust-clock": ["side", "seconds"],
    "/api/referee/correct-move": ["ply", "move"],
    "/api/referee/position": ["fen"],
    "/api/referee/count": ["side"],
    "/api/referee/penalty": ["side", "rule", "severity", "note"],
    "/api/referee/result": ["result", "reason"],
}
#: What each answer may be: done, refused by the session (409, 422), or the body over the limit.
CLEAN = {200, 409, 413, 422}

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | st.sampled_from(["black", "white", "11-15", "R-TCH-2", "forfeit", "1-0", "B:W21:B1"])
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def bodies(draw: st.DrawFn) -> tuple[str, str]:
    """An endpoint and a body: its own keys with any values, or anything at all."""
    path = draw(st.sampled_from(sorted(ENDPOINTS)))
    keys = ENDPOINTS[path]
    if draw(st.booleans()):
        body = {key: draw(values) for key in keys if draw(st.integers(0, 4))}
    else:
        body = draw(values)
    return path, json.dumps(body)  # NaN and Infinity come out as the bare words


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Live]:
    live = Live(tmp_path_factory.mktemp("fuzz"))
    yield live
    live.close()


@pytest.fixture(scope="module")
def client(server: Live) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, auth=("referee", PASSWORD), headers=CHANGE) as http:
        yield http


def check(response: httpx.Response) -> None:
    assert response.status_code in CLEAN, (response.status_code, response.text)
    answer = response.json()
    if response.status_code != 200:
        assert answer["detail"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request=bodies())
def test_any_json_body_gets_a_result_or_a_clean_error(client: httpx.Client, request) -> None:
    path, body = request
    check(client.post(path, content=body, headers={"Content-Type": "application/json"}))


@settings(max_examples=100, deadline=None)
@given(path=st.sampled_from(sorted(ENDPOINTS)), raw=st.binary(max_size=200))
def test_any_bytes_as_a_body_get_a_clean_error(client: httpx.Client, path: str, raw: bytes) -> None:
    response = client.post(path, content=raw, headers={"Content-Type": "application/json"})
    assert response.status_code in CLEAN | {400}, response.text
    assert response.json()["detail"]


@settings(max_examples=100, deadline=None)
@given(game=st.integers(min_value=0, max_value=10**40) | st.text("0123456789", min_size=1))
def test_any_game_id_is_a_game_or_a_404(client: httpx.Client, game) -> None:
    for suffix in ("", ".pdn"):
        response = client.get(f"/api/games/{game}{suffix}")
        assert response.status_code in (200, 404), response.text
