"""axe-core, run in the real browser, finds nothing serious on any page: the spectator board,
the big screen, the virtual board and the referee console, during a game with a violation
standing (docs/web.md, "Everyone can use the pages")."""

from axe_playwright_python.sync_playwright import Axe

from tests.web.conftest import PASSWORD, Live

PAGES = ("/", "/big", "/board", "/referee")


def serious(page) -> list[str]:
    """axe-core's serious and critical findings on ``page``, one line each."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']}: "
        + "; ".join(node["target"][0] for node in v["nodes"][:3])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def test_no_page_has_a_serious_accessibility_finding(browser, live: Live) -> None:
    board = live.session.sensor
    board.set_occupied(set(live.session.game.board.occupied_squares()))
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        http_credentials={"username": "referee", "password": PASSWORD},
    )
    findings = {}
    for path in PAGES:
        page = context.new_page()
        page.goto(live.url + path)
        page.wait_for_selector(".conn.live")
        findings[path] = serious(page)
    context.close()
    assert findings == {path: [] for path in PAGES}
