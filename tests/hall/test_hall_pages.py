"""The hall's pages in the real browser (Debian's Chromium, as tests/web): a table's move shows
on the hall page, the director confirms a result in the console, the standings follow."""

import pytest

from tests.hall.conftest import DIRECTOR, needs_mosquitto
from tests.web.conftest import CHROMIUM, browser  # noqa: F401 (fixture)
from tests.web.pages import TIMEOUT, shoot

pytestmark = [
    needs_mosquitto,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run)"),
]


def test_hall_director_and_standings_pages(browser, hall, tables) -> None:  # noqa: F811
    hall.director("players.csv", "Ann\nBob\n").raise_for_status()
    hall.director("pairings", {"round": 1, "table": "t1", "first": "Ann", "second": "Bob"})
    t1 = tables("t1", hall.broker_port)
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.goto(hall.url + "/")
    tile = page.locator(".tile[data-table='t1']")
    tile.wait_for(timeout=TIMEOUT)
    page.wait_for_selector(".conn.live", timeout=TIMEOUT)
    assert "Ann" in tile.locator(".black .name").inner_text()
    assert page.locator(".tile").count() == 3  # every table of hall.toml, t2 and t3 not yet seen
    t1.play("11-15")
    page.wait_for_selector(".tile[data-table='t1'][data-plies='1']", timeout=TIMEOUT)
    assert tile.get_attribute("data-last") == "11-15"
    assert tile.locator("svg .piece").count() == 24
    shoot(page, "hall")
    table = context.new_page()
    table.goto(hall.url + "/table/t1")
    table.wait_for_selector("#moves td.last", timeout=TIMEOUT)
    assert table.locator("#moves td.last").inner_text() == "11-15"
    # Black's line first, as the board is drawn (Black's men on 1-12 at the top).
    table.wait_for_selector("#player-top .name:has-text('Ann (Black)')", timeout=TIMEOUT)
    assert tile.locator(".player").first.get_attribute("class").startswith("player black")
    assert "to-move" in tile.locator(".player.white").get_attribute("class")  # White to move
    assert tile.locator(".tile-last").inner_text() == "move 1: 11-15"
    # The big screen fills the screen, whatever its size, and the names are whole.
    for width, height in ((1920, 1080), (1024, 768)):
        screen = browser.new_context(viewport={"width": width, "height": height})
        big = screen.new_page()
        big.goto(hall.url + "/big")
        big.wait_for_selector("body.big .tile[data-table='t1'][data-plies='1']", timeout=TIMEOUT)
        big.wait_for_function("document.querySelector('.tiles').style.gridTemplateRows !== ''")
        box = big.locator(".tile[data-table='t3']").bounding_box()
        assert box is not None and box["y"] + box["height"] > 0.9 * height  # down to the bottom
        name = big.locator(".tile[data-table='t1'] .black .name")
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth")  # "Ann" is not cut
        shoot(big, f"hall-big-{width}")
        screen.close()

    # The director's console needs the login; a spectator gets 401.
    assert hall.http.get("/director").status_code == 401
    t1.referee("result", {"result": "1-0", "reason": "White resigned"})  # Black won
    director = browser.new_context(
        viewport={"width": 1200, "height": 900},
        http_credentials={"username": DIRECTOR[0], "password": DIRECTOR[1]},
    )
    console = director.new_page()
    console.goto(hall.url + "/director")
    console.locator("#alerts li[data-kind='result']").wait_for(timeout=TIMEOUT)
    console.locator("#results button.confirm").click()
    console.wait_for_selector("#results td:has-text('confirmed by director')", timeout=TIMEOUT)
    assert "Ann (Black) wins" in console.inner_text("#results td.words")

    standings = context.new_page()
    standings.goto(hall.url + "/standings")
    standings.wait_for_selector("#standings tr", timeout=TIMEOUT)
    first = standings.locator("#standings tr").first.locator("td").all_inner_texts()
    assert first[:2] == ["1", "Ann"] and first[3] == "4"  # Black won game 1: 4 points (R-TRN-3)
    # On a phone the whole row is on the screen, to the opponents' points.
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    small = phone.new_page()
    small.goto(hall.url + "/standings")
    small.wait_for_selector("#standings tr", timeout=TIMEOUT)
    assert small.evaluate("document.documentElement.scrollWidth") <= 390
    last = small.locator("#standings tr").first.locator("td").last.bounding_box()
    assert last is not None and last["x"] + last["width"] <= 390
    shoot(small, "hall-standings-390")
    phone.close()
    context.close()
    director.close()
