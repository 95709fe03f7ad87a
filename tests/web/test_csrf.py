"""Cross-site request forgery in a real browser (Debian's Chromium through Playwright).

The referee is logged in to the console; in another tab of the same browser a hostile page,
served from another origin on loopback, tries every way a page can reach the board's server:
auto-submitted forms (``text/plain`` JSON), ``no-cors`` fetches with a body the server might
read as JSON, a fetch adding our header (which needs a CORS preflight), and framing the console.
The clock, the game and the simulated board must be exactly as they were, and every attempt
that reached the server must have been refused by the guard (poolboard/web/guard.py).
"""

import base64
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from engine.color import Color
from tests.web.conftest import CHROMIUM, PASSWORD, START, Live, start_game

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"
)

HOSTILE_PAGE = """<!doctype html>
<title>prizes</title>
<iframe name="sink1"></iframe><iframe name="sink2"></iframe><iframe name="sink3"></iframe>
<form id="pause" method="POST" action="{target}/api/referee/pause" target="sink1"
      enctype="text/plain"><input name='{{"x":"' value='"}}'></form>
<form id="next" method="POST" action="{target}/api/referee/next-game" target="sink2"></form>
<form id="board" method="POST" action="{target}/api/board" target="sink3"
      enctype="text/plain"><input name='{{"occupied":[1,2,3' value='4]}}'></form>
<iframe id="framed" src="{target}/referee"></iframe>
<script>
const target = "{target}";
const done = [];
const blob = (text) => new Blob([text]);  // no Content-Type: no preflight
const attempts = [
  fetch(target + "/api/referee/adjust-clock", {{method: "POST", mode: "no-cors",
    credentials: "include", body: blob('{{"side": "black", "seconds": -3000}}')}}),
  fetch(target + "/api/referee/resume", {{method: "POST", mode: "no-cors",
    credentials: "include"}}),
  fetch(target + "/api/lever", {{method: "POST", mode: "no-cors",
    body: blob('{{"side": "black"}}')}}),
  fetch(target + "/api/board", {{method: "POST", mode: "no-cors",
    body: blob('{{"occupied": [1]}}')}}),
  // Our header on a cross-origin request: the browser must ask first (preflight), and is told no.
  fetch(target + "/api/referee/pause", {{method: "POST", credentials: "include",
    headers: {{"X-Poolboard": "1", "Content-Type": "application/json"}}, body: "{{}}"}}),
];
for (const form of document.forms) form.submit();
Promise.allSettled(attempts).then((results) => {{
  window.outcomes = results.map((r) => r.status);
}});
</script>
"""


class Hostile:
    """A site of its own: another port of loopback, another origin."""

    def __init__(self, target: str) -> None:
        page = HOSTILE_PAGE.format(target=target).encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://localhost:{self.server.server_port}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hostile(live: Live) -> Iterator[Hostile]:
    site = Hostile(live.url)
    yield site
    site.close()


def test_a_hostile_page_cannot_change_the_game_through_the_referees_browser(
    browser, live: Live, hostile: Hostile
) -> None:
    start_game(live)
    game = live.session.game_id
    # Logged in, at worst: the browser sends the referee's credentials with every request.
    login = base64.b64encode(f"referee:{PASSWORD}".encode()).decode()
    context = browser.new_context(extra_http_headers={"Authorization": f"Basic {login}"})
    console = context.new_page()
    console.goto(live.url + "/referee")
    console.wait_for_selector(".conn.live", timeout=5000)
    black, white = (live.session.clock.remaining(side) for side in (Color.BLACK, Color.WHITE))

    reached: list[tuple[str, str, int]] = []
    page = context.new_page()
    page.on(
        "response",
        lambda r: (
            r.url.startswith(live.url) and reached.append((r.request.method, r.url, r.status))
        ),
    )
    page.goto(hostile.url)
    page.wait_for_function("window.outcomes !== undefined", timeout=5000)
    page.wait_for_timeout(500)  # the forms' navigations land in their frames

    posts = {
        (url.removeprefix(live.url), status) for method, url, status in reached if method == "POST"
    }
    assert {path for path, _ in posts} >= {
        "/api/referee/pause",
        "/api/referee/next-game",
        "/api/referee/adjust-clock",
        "/api/referee/resume",
        "/api/lever",
        "/api/board",
    }
    assert {status for _, status in posts} == {403}, posts
    # The fetch with our header never got past its preflight.
    assert page.evaluate("window.outcomes")[-1] == "rejected"
    # The console in a frame of the hostile page is not shown (X-Frame-Options, frame-ancestors).
    # Nothing of this server shows in any frame of the hostile page (X-Frame-Options DENY,
    # frame-ancestors 'none'): the console and the refusals alike are Chromium's error page.
    assert [frame.url for frame in page.frames[1:]] == ["chrome-error://chromewebdata/"] * 4

    assert live.session.game_id == game
    assert live.session.clock.state.value == "running"
    assert black - 5 < live.session.clock.remaining(Color.BLACK) <= black  # it ran, no more
    assert live.session.clock.remaining(Color.WHITE) == white
    assert live.session.sensor.occupied == START
    assert live.session.store.audit_log() == []
    context.close()
