"""axe-core in the real browser finds nothing serious on the hall's pages either: the hall, a
table, the big screen, the director's console and the standings (docs/web.md, "Everyone can use
the pages")."""

import pytest

from tests.hall.conftest import DIRECTOR, needs_mosquitto
from tests.web.conftest import CHROMIUM, browser  # noqa: F401 (fixture)
from tests.web.pages import serious

pytestmark = [
    needs_mosquitto,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run)"),
]
PAGES = ("/", "/table/t1", "/big", "/director", "/standings")


def test_no_hall_page_has_a_serious_accessibility_finding(browser, hall, tables) -> None:  # noqa: F811
    hall.director("players.csv", "Ann\nBob\n").raise_for_status()
    hall.director("pairings", {"round": 1, "table": "t1", "first": "Ann", "second": "Bob"})
    tables("t1", hall.broker_port)
    context = browser.new_context(
        viewport={"width": 1200, "height": 800},
        http_credentials={"username": DIRECTOR[0], "password": DIRECTOR[1]},
    )
    findings = {}
    for path in PAGES:
        page = context.new_page()
        page.goto(hall.url + path)
        page.wait_for_load_state("networkidle")
        findings[path] = serious(page)
    context.close()
    assert findings == {path: [] for path in PAGES}
