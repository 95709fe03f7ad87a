"""End to end in headless Chromium: play on the virtual board, watch the spectator page, referee.

Debian's /usr/bin/chromium is driven through Playwright (never a browser Playwright downloads);
.ci/run installs it. Set POOLBOARD_SCREENSHOTS=docs/screenshots to save the pages' pictures.
"""

from pathlib import Path

import pytest

from tests.web.conftest import CHROMIUM, PASSWORD, START, Live
from tests.web.pages import TIMEOUT, centre, shoot, spectator_and_board, tap, wait_moves

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"
)


def drag(page, *squares: int) -> None:
    """Press on the first square and slide through the others, as a finger would."""
    page.mouse.move(*centre(page, squares[0]))
    page.mouse.down()
    for square in squares[1:]:
        page.mouse.move(*centre(page, square), steps=6)
    page.mouse.up()


def moves(page) -> str:
    return " ".join(page.locator("#moves td").all_inner_texts()).split()


def clock_text(page, side: str) -> str:
    return page.locator(f".player.{side} .clock").inner_text()


def test_play_on_the_virtual_board_and_watch_the_spectator_page(browser, live: Live) -> None:
    context, spectator, board = spectator_and_board(browser, live.url)
    # Nothing stands on the board yet: the session waits for the set-up.
    assert board.locator("#board .piece").count() == 0
    assert "set up" in spectator.inner_text("#state-line")

    board.click("#setup")
    spectator.wait_for_selector(".player.black.running", timeout=TIMEOUT)
    assert spectator.locator("#board .piece").count() == 24

    tap(board, 11)  # lift
    tap(board, 15)  # put down
    wait_moves(spectator, ["11-15"])
    assert spectator.locator("#board .piece[data-square='15']").count() == 1
    spectator.locator("#board .cue[data-square='11'][data-cue='move-from']").wait_for(
        timeout=TIMEOUT
    )
    spectator.wait_for_selector(".player.white.running", timeout=TIMEOUT)
    before = clock_text(spectator, "white"), clock_text(spectator, "black")
    spectator.wait_for_timeout(1200)
    assert clock_text(spectator, "white") != before[0]  # ticks between snapshots
    assert clock_text(spectator, "black") == before[1]  # waits its turn

    drag(board, 24, 19)  # White slides a man
    wait_moves(spectator, ["11-15", "24-19"])
    # Black must capture: lift the capturer, put it down beyond, take the captured piece off.
    tap(board, 15)
    tap(board, 24)
    spectator.locator("#board .cue[data-square='19'][data-cue='remove']").wait_for(timeout=TIMEOUT)
    shoot(spectator, "spectator-remove-cue")
    tap(board, 19)
    wait_moves(spectator, ["11-15", "24-19", "15x24"])
    assert spectator.locator("#board .piece.black[data-square='24']").count() == 1
    assert spectator.locator("#board .piece[data-square='19']").count() == 0
    wait_moves(board, ["11-15", "24-19", "15x24"])
    assert board.locator("#board .piece").count() == 23
    assert live.session.state()["moves"] == ["11-15", "24-19", "15x24"]
    shoot(spectator, "spectator")
    shoot(board, "virtual-board")

    big = context.new_page()
    big.goto(live.url + "/big")
    big.wait_for_selector("body.big .conn.live", timeout=TIMEOUT)
    wait_moves(big, ["11-15", "24-19", "15x24"])
    shoot(big, "big-screen")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    small = phone.new_page()
    small.goto(live.url + "/")
    wait_moves(small, ["11-15", "24-19", "15x24"])
    board_box = small.locator("#board").bounding_box()
    assert board_box["width"] <= 390 and board_box["width"] > 300  # the board fits the phone
    shoot(small, "phone", full_page=True)
    phone.close()
    context.close()


def test_the_referee_pauses_the_clock_from_the_console(browser, live: Live) -> None:
    watching = browser.new_context()
    spectator = watching.new_page()
    spectator.goto(live.url + "/")
    live.session.sensor.set_occupied(
        frozenset(range(1, 13)) | frozenset(range(21, 33))
    )  # the players set up
    spectator.wait_for_selector(".player.black.running", timeout=TIMEOUT)

    assert watching.request.get(live.url + "/referee").status == 401  # spectators cannot

    console = browser.new_context(http_credentials={"username": "referee", "password": PASSWORD})
    page = console.new_page()
    page.goto(live.url + "/referee")
    page.wait_for_selector(".conn.live", timeout=TIMEOUT)
    page.click("#pause")
    page.wait_for_selector("#pause + .message.ok", timeout=TIMEOUT)
    spectator.wait_for_function(
        "document.getElementById('clock-note').textContent.includes('paused')", timeout=TIMEOUT
    )
    stopped = clock_text(spectator, "black")
    spectator.wait_for_timeout(600)
    assert clock_text(spectator, "black") == stopped
    assert live.session.clock.state.value == "paused"
    page.locator("#audit tr", has_text="pause").wait_for(timeout=TIMEOUT)
    page.click("#pause")  # twice: the session's refusal is shown
    page.wait_for_selector("#pause + .message.error", timeout=TIMEOUT)  # beside the button
    assert "pause" in page.inner_text(".message.answer")
    shoot(page, "referee")
    console.close()
    watching.close()


def test_the_void_form_says_ply_or_plies_as_its_number_is(browser, live: Live) -> None:
    """The words follow the number as the referee types it ("strike the last 1 ply", "... 3
    plies"), in English and in Spanish (docs/web.md)."""
    console = browser.new_context(http_credentials={"username": "referee", "password": PASSWORD})
    words = {}
    for language in ("en", "es"):
        page = console.new_page()
        page.goto(f"{live.url}/referee?lang={language}")
        page.wait_for_selector(".conn.live", timeout=TIMEOUT)
        label = page.locator("#void-form label")
        said = [" ".join(label.inner_text().split())]
        for number in ("3", "1", "12"):
            page.fill("#void-form [name=plies]", number)
            said.append(" ".join(label.inner_text().split()))
        words[language] = said
    assert words["en"] == [
        "strike the last ply",
        "strike the last plies",
        "strike the last ply",
        "strike the last plies",
    ]
    assert words["es"] == [
        "borrar la última media jugada",
        "borrar las últimas medias jugadas",
        "borrar la última media jugada",
        "borrar las últimas medias jugadas",
    ]
    console.close()


def test_off_loopback_the_virtual_board_works_once_the_referee_logs_in(
    browser, tmp_path: Path
) -> None:
    """The page asks for the login once; its moves then carry it (docs/web.md)."""
    live = Live(tmp_path, app_host="0.0.0.0")
    try:
        context = browser.new_context(
            http_credentials={"username": "referee", "password": PASSWORD}
        )
        page = context.new_page()
        page.goto(live.url + "/board")
        page.wait_for_selector(".conn.live", timeout=5000)
        page.click("#setup")
        for _ in range(250):
            if live.session.sensor.occupied == START:
                break
            live.stop.wait(0.02)
        assert live.session.sensor.occupied == START
        context.close()
    finally:
        live.close()
