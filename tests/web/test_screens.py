"""Screens that tell the truth, in Debian's Chromium at a projector's, a laptop's and a phone's
size: /, /big, /board and /referee through one game with a refused move, a pause, a resignation
and the next game of the match.

With POOLBOARD_SCREENSHOTS=docs/screenshots the pages' pictures are saved there at each step.
"""

from pathlib import Path

import pytest

from poolboard.simulated_board import SimulatedBoard
from tests.web.conftest import CHROMIUM, PASSWORD, START, LinkedBoard, Live
from tests.web.pages import SHOTS, TIMEOUT, centre, tap, text_of, wait_moves, wait_text

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"
)
BLACK = "Alexandra Montgomery-Featherstonehaugh"
WHITE = "Bartholomew Okonkwo-Vanderbilt"
SIZES = [(1920, 1080), (1024, 768), (390, 844)]


def shoot(page, name: str, size: tuple[int, int]) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}-{size[0]}x{size[1]}.png"))


def assert_nothing_cut(page) -> None:
    """The page is no wider than the screen and every player's name shows in full."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url}: {width} px wide"
    names = page.evaluate(
        "[...document.querySelectorAll('.player .name')].map(n => "
        "[n.textContent, n.scrollWidth <= n.clientWidth + 1, n.getBoundingClientRect().right "
        "<= innerWidth])"
    )
    assert sorted(text for text, _, _ in names) == [BLACK, WHITE]
    # The move list's head names the players too: it stays within its box.
    boxes = page.evaluate(
        "[...document.querySelectorAll('.moves-box')].map(b => b.scrollWidth <= b.clientWidth + 1)"
    )
    assert all(boxes), f"{page.url}: the move list runs past its box"
    assert all(fits and inside for _, fits, inside in names), names
    # Names wrap only between words (or after a hyphen): no word is split over two lines.
    split = page.evaluate(
        """() => [...document.querySelectorAll('.player .name')].flatMap(name => {
            const text = name.firstChild, broken = [];
            for (const match of text.textContent.matchAll(/[^\\s-]+-?/g)) {
                const range = document.createRange();
                range.setStart(text, match.index);
                range.setEnd(text, match.index + match[0].length);
                const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (tops.size > 1) broken.push(match[0]);
            }
            return broken;
        })"""
    )
    assert split == [], f"{page.url}: words split over lines: {split}"


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_screens_tell_the_truth(browser, live: Live, size: tuple[int, int]) -> None:
    live.session.set_details(
        "director", {"black": BLACK, "white": WHITE, "event": "Thursday Club Night", "round": "3"}
    )
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        http_credentials={"username": "referee", "password": PASSWORD},
    )
    pages = {}
    for name, path in (("spectator", "/"), ("big", "/big"), ("board", "/board")):
        pages[name] = context.new_page()
        pages[name].goto(live.url + path)
        pages[name].wait_for_selector(".conn.live", timeout=TIMEOUT)
    spectator, big, board = pages["spectator"], pages["big"], pages["board"]
    assert "set up" in text_of(spectator, "#state-line")
    assert text_of(spectator, "#clock-note") == "45 minutes a side for the whole match"

    board.click("#setup")
    for page in (spectator, big, board):
        wait_text(page, "#state-line", "Black to move")
        page.wait_for_selector(".player.black.to-move", timeout=TIMEOUT)
        assert_nothing_cut(page)
    assert "12 pieces" in text_of(spectator, ".player.black .pieces")
    heads = spectator.locator("#moves tr.heads th").all_inner_texts()
    assert heads[1:] == [BLACK, WHITE]  # the names over the move columns
    assert "round 3 · game 1 of 2" in text_of(big, "#match-line")
    assert big.locator("#fullscreen").is_visible()
    # The language list, as on the other pages: beside or above the board, never over it, and
    # on a landscape screen the whole board still in view.
    assert big.locator("#language").is_visible()
    choice, drawn = (big.locator(part).bounding_box() for part in ("#language", "#board"))
    beside = choice["x"] >= drawn["x"] + drawn["width"]
    assert beside or choice["y"] + choice["height"] <= drawn["y"], (choice, drawn)
    if size[0] > size[1]:
        assert drawn["y"] + drawn["height"] <= size[1], drawn
    # Served on loopback only: no phone can open it, and the big screen says so.
    wait_text(big, "#phone-caption", "Phones cannot reach this board")
    assert spectator.locator("a[href='/api/games.pdn']").count() == 1

    # A refused move: 12-17 is no move. The reason shows on the board page and the spectators'
    # page, naming its rule once, and goes once the piece is back.
    tap(board, 12)
    assert board.locator("#board .lifted[data-square='12']").count() == 1
    assert "in hand" in text_of(board, "#hand")
    tap(board, 17)
    wait_text(board, "#message", "R-ILL-1")
    wait_text(spectator, "#alerts", "R-ILL-1")
    assert text_of(spectator, "#alerts").count("R-ILL-1") == 1
    for page in (spectator, big, board):  # a rule ID never breaks at its hyphens, even on a phone
        wait_text(page, ".rule", "R-ILL-1")
        lines = page.evaluate(
            "[...document.querySelectorAll('.rule')].map(r => r.getClientRects().length)"
        )
        assert lines and set(lines) == {1}, f"{page.url}: a rule ID over lines: {lines}"
    shoot(board, "board-refused", size)
    shoot(big, "big-refused", size)
    tap(board, 17)
    tap(board, 12)
    wait_text(board, "#state-line", "Black to move")
    spectator.wait_for_function(
        "() => document.getElementById('alerts').textContent === ''", timeout=TIMEOUT
    )
    board.wait_for_function(
        "() => document.getElementById('message').textContent === ''", timeout=TIMEOUT
    )

    # The lifted piece is marked and, asked for, its legal destinations; the hand empties.
    board.check("#show-legal")
    tap(board, 9)
    targets = board.locator("#board .target").evaluate_all(
        "marks => marks.map(m => Number(m.dataset.square)).sort((a, b) => a - b)"
    )
    assert targets == [13, 14]
    if size[0] < 500:  # a phone keeps the hand and the clocks in view
        assert in_view(board, "#hand") and in_view(board, ".player.white")
    shoot(board, "board-lifted", size)
    tap(board, 14)
    wait_moves(spectator, ["9-14"])
    assert text_of(board, "#hand") == ""
    wait_text(spectator, "#state-line", "White to move")

    # "Clear the board" then "set up" is no touch: no touch-move cue.
    board.click("#clear")
    wait_text(board, "#state-line", "restore")
    board.click("#setup")
    wait_text(board, "#state-line", "White to move")
    board.wait_for_timeout(300)
    assert board.locator("#board .cue[data-cue='touch-move']").count() == 0

    # The referee pauses: PAUSED, and whose turn it is, while the clocks stand.
    referee = context.new_page()
    referee.on("dialog", lambda dialog: dialog.accept())
    referee.goto(live.url + "/referee")
    referee.wait_for_selector(".conn.live", timeout=TIMEOUT)
    assert_nothing_cut(referee)
    assert "game 1 of 2" in text_of(referee, "#match-game")
    referee.click("#pause")
    for page in (spectator, big):
        page.wait_for_selector("#paused:not([hidden])", timeout=TIMEOUT)
        assert "White to move" in text_of(page, "#state-line")
    shoot(big, "big-paused", size)
    shoot(referee, "referee", size)
    referee.click("#resume")
    big.wait_for_selector("#paused", state="hidden", timeout=TIMEOUT)

    # White resigns: the banner names the winner and why, in words.
    referee.select_option("#end-form select[name='how']", "resign")
    referee.select_option("#end-form select[name='side']", "white")
    referee.click("#end-form button[type='submit']")
    words = f"{BLACK} (Black) wins — White resigned"
    for page in (spectator, big):
        page.wait_for_selector("#game-over:not([hidden])", timeout=TIMEOUT)
        assert text_of(page, "#game-over") == words
    wait_text(referee, "#match-results", words)
    assert "match 4" in text_of(spectator, ".player.black .pieces")
    shoot(big, "big-game-over", size)
    shoot(spectator, "spectator-game-over", size)

    # The next game: colours change, and the status says what the board waits for now.
    referee.click("#next-game")
    for page in (spectator, big, board):
        wait_text(page, "#state-line", "set up the position")
    for page in (spectator, big):
        page.wait_for_selector("#game-over", state="hidden", timeout=TIMEOUT)
    assert text_of(big, ".player.black .name") == WHITE
    assert "game 2 of 2" in text_of(big, "#match-line")
    board.click("#setup")
    wait_text(spectator, "#state-line", "Black to move")
    for page in (spectator, big, board, referee):
        assert_nothing_cut(page)
    shoot(spectator, "spectator", size)
    shoot(big, "big", size)
    shoot(board, "board", size)
    context.close()


def test_the_closed_console_says_how_to_open_it(browser, tmp_path) -> None:
    live = Live(tmp_path, password="")
    try:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(live.url + "/referee")
        assert "The referee console is closed" in page.inner_text("h1")
        assert "[referee]" in page.inner_text("pre")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        if SHOTS:
            page.screenshot(path=str(Path(SHOTS) / "referee-closed-390x844.png"))
        context.close()
    finally:
        live.close()


def test_the_last_moves_arrow_has_its_head_on_top(browser, live: Live) -> None:
    """The arrow is drawn over the pieces, so its head shows on the piece that moved."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    board = context.new_page()
    board.goto(live.url + "/board")
    board.wait_for_selector(".conn.live", timeout=TIMEOUT)
    board.click("#setup")
    wait_text(board, "#state-line", "Black to move")
    tap(board, 11)
    tap(board, 15)
    page = context.new_page()
    page.goto(live.url + "/")
    wait_moves(page, ["11-15"])
    x, y = centre(page, 15)
    on_top = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('.last-move') !== null", [x, y]
    )
    assert on_top
    context.close()


def test_the_big_screen_shows_a_qr_code_a_phone_can_open(browser, tmp_path) -> None:
    """Served on every address (here pretended on loopback), /big shows the board's LAN address
    as a QR code; OpenCV reads it back from the browser's own screenshot."""
    cv2 = pytest.importorskip("cv2")
    np = pytest.importorskip("numpy")
    live = Live(tmp_path, app_host="0.0.0.0")
    try:
        context = browser.new_context(viewport={"width": 1920, "height": 1080})
        big = context.new_page()
        big.goto(live.url + "/big")
        big.wait_for_selector(".conn.live", timeout=TIMEOUT)
        phone = big.request.get(live.url + "/api/phone").json()
        if not phone["reachable"]:
            pytest.skip("this machine has no network address for a phone to open")
        big.wait_for_function(
            "() => document.getElementById('phone-qr').naturalWidth > 0", timeout=TIMEOUT
        )
        assert phone["url"] in text_of(big, "#phone-caption")
        picture = big.locator("#phone-qr").screenshot()
        image = cv2.imdecode(np.frombuffer(picture, np.uint8), cv2.IMREAD_GRAYSCALE)
        assert cv2.QRCodeDetectorAruco().detectAndDecode(image)[0] == phone["url"]
        shoot(big, "big-phone-qr", (1920, 1080))
        context.close()
    finally:
        live.close()


def test_a_lost_sensor_link_shows_while_it_is_lost(browser, tmp_path) -> None:
    """The spectators see "sensor link DOWN" with its reason while the board is out of view,
    and nothing once it reads again (before, the link's return stayed on as an alert)."""
    sensor = LinkedBoard()
    live = Live(tmp_path, sensor=sensor)
    try:
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        page = context.new_page()
        page.goto(live.url + "/")
        sensor.link(False, "the board's view changed and the board cannot be found again")
        wait_text(page, "#alerts", "sensor link DOWN: the board's view changed")
        sensor.link(True, "the board is in view and reads again")
        page.wait_for_function(
            "() => document.getElementById('alerts').textContent === ''", timeout=TIMEOUT
        )
        context.close()
    finally:
        live.close()


def test_a_move_that_cannot_be_stored_shows_until_writes_work_again(browser, tiny_disk) -> None:
    """A full disk (a real 512 KiB tmpfs filled to the last byte): "NOT RECORDED" on the
    spectator page and the referee's console while the store refuses writes, gone from both
    once a move is stored again (before, the spectator page kept it after the disk had room,
    and the console never showed it)."""
    sensor = SimulatedBoard()
    live = Live(tiny_disk.folder, sensor=sensor)
    try:
        context = browser.new_context(
            viewport={"width": 1024, "height": 768},
            http_credentials={"username": "referee", "password": PASSWORD},
        )
        spectator, referee = context.new_page(), context.new_page()
        spectator.goto(live.url + "/")
        referee.goto(live.url + "/referee")
        sensor.set_occupied(START)
        wait_text(spectator, "#state-line", "Black to move")
        tiny_disk.fill()
        sensor.set_occupied(START - {11})
        sensor.set_occupied(START - {11} | {15})
        for page in (spectator, referee):
            wait_text(page, "#alerts", "NOT RECORDED")
            wait_text(page, "#alerts", "database or disk is full")
        shoot(referee, "referee-not-recorded", (1024, 768))
        assert live.session.state()["moves"] == []
        tiny_disk.free()
        sensor.set_occupied(START)  # back to the recorded position, then the move again
        wait_text(spectator, "#state-line", "Black to move")
        sensor.set_occupied(START - {11})
        sensor.set_occupied(START - {11} | {15})
        wait_moves(spectator, ["11-15"])
        for page in (spectator, referee):
            page.wait_for_function(
                "() => !document.getElementById('alerts').textContent.includes('NOT RECORDED')",
                timeout=TIMEOUT,
            )
        assert live.session.state()["storage"] is None
        context.close()
    finally:
        live.close()
