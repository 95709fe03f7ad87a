"""axe-core, run in the real browser, finds nothing serious on any page: the spectator board,
the big screen, the virtual board and the referee console, during a game with a violation
standing, and the page a closed referee console shows (docs/web.md, "Everyone can use the
pages")."""

from pathlib import Path

from tests.web.conftest import PASSWORD, START, Live
from tests.web.pages import serious, wait_text

PAGES = ("/", "/big", "/board", "/referee")


def test_no_page_has_a_serious_accessibility_finding(browser, live: Live) -> None:
    board = live.session.sensor
    board.set_occupied(START)
    board.set_occupied(START - {21} | {13})  # no move: R-ILL-1 stands until it is put back
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        http_credentials={"username": "referee", "password": PASSWORD},
    )
    findings = {}
    for path in PAGES:
        page = context.new_page()
        page.goto(live.url + path)
        page.wait_for_selector(".conn.live")
        wait_text(page, "body", "R-ILL-1")
        findings[path] = serious(page)
    context.close()
    assert findings == {path: [] for path in PAGES}


def test_the_closed_referee_console_has_no_serious_finding(browser, tmp_path: Path) -> None:
    """Without a referee password /referee is a page saying how to set one."""
    server = Live(tmp_path, password="")
    try:
        page = browser.new_page()
        assert page.goto(server.url + "/referee").status == 503
        assert serious(page) == []
        page.close()
    finally:
        server.close()
