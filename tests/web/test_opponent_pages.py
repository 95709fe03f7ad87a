"""Playing the computer on the virtual board in Debian's Chromium: the pages say it is thinking,
its move is lit and made by tapping, and a hint button lights a move (docs/opponents.md).

Set POOLBOARD_SCREENSHOTS=docs/screenshots to save the pages' pictures.
"""

from pathlib import Path

import pytest

from poolboard.config import OpponentConfig, RulesConfig
from tests.web.conftest import CHROMIUM, Live
from tests.web.pages import TIMEOUT, shoot, spectator_and_board, tap, wait_moves, wait_text

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"
)


def shoot_lit(page, cue: str, name: str) -> None:
    """Wait for the ``cue`` squares to be drawn, then a screenshot (blinking cues shown lit)."""
    page.locator(f"#board .cue[data-cue='{cue}']").first.wait_for(timeout=TIMEOUT)
    shoot(page, name)


@pytest.fixture
def against_computer(tmp_path: Path):
    # Level 9 thinks for about two seconds: long enough to be seen thinking.
    opponent = OpponentConfig(kind="engine", side="white", level=9)
    server = Live(tmp_path, rules=RulesConfig(profile="casual"), opponent=opponent)
    yield server
    server.close()


def test_the_pages_show_the_computer_thinking_its_move_and_a_hint(
    browser, against_computer: Live
) -> None:
    live = against_computer
    context, spectator, board = spectator_and_board(browser, live.url)
    assert board.locator("#hint").is_visible()  # casual, and the computer plays: hints are on
    board.click("#setup")
    spectator.wait_for_selector(".player.black.running", timeout=TIMEOUT)
    assert "poolboard (level 9)" in spectator.inner_text(".player.white .name")

    tap(board, 11)
    tap(board, 15)
    wait_text(spectator, "#opponent-line", "poolboard (level 9), playing White: thinking…")
    wait_text(board, "#opponent-line", "thinking…")
    assert board.locator("#hint").is_disabled()  # no hint for the computer's move
    spectator.wait_for_selector(".player.white.running", timeout=TIMEOUT)
    shoot(board, "opponent-thinking")

    # Its move is lit: lift here, put down there.
    wait_text(board, "#state-line", "on the board")
    move = live.session.state()["opponent"]["move"]
    start, end = (int(square) for square in move.replace("x", "-").split("-"))
    board.locator(f"#board .cue[data-square='{start}'][data-cue='play-from']").wait_for(
        timeout=TIMEOUT
    )
    board.locator(f"#board .cue[data-square='{end}'][data-cue='play-to']").wait_for(timeout=TIMEOUT)
    line = spectator.inner_text("#opponent-line")
    assert line == f"poolboard (level 9), playing White: plays {move}"
    assert f"play {move} on the board" in spectator.inner_text("#state-line")
    spectator.wait_for_selector(".player.black.running", timeout=TIMEOUT)  # it has chosen
    shoot_lit(spectator, "play-from", "opponent-move")
    tap(board, start)
    tap(board, end)
    wait_moves(spectator, ["11-15", move])

    board.click("#hint")
    wait_text(board, "#opponent-line", "(lit on the board)")
    hint = live.session.state()["hint"]["move"]
    hint_from = int(hint.replace("x", "-").split("-")[0])
    board.locator(f"#board .cue[data-square='{hint_from}'][data-cue='hint-from']").wait_for(
        timeout=TIMEOUT
    )
    spectator.locator(f"#board .cue[data-square='{hint_from}'][data-cue='hint-from']").wait_for(
        timeout=TIMEOUT
    )
    assert f"hint: {hint}" in spectator.inner_text("#opponent-line")
    shoot_lit(board, "hint-from", "opponent-hint")
    context.close()

    # On a phone the virtual board, the computer's line and the hint button all fit the screen.
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    small = phone.new_page()
    small.goto(live.url + "/board")
    small.locator(f"#board .cue[data-square='{hint_from}'][data-cue='hint-from']").wait_for(
        timeout=TIMEOUT
    )
    for part in ("#board", "#opponent-line", "#hint"):
        box = small.locator(part).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, part
    assert small.locator("#board").bounding_box()["width"] > 300
    shoot(small, "opponent-phone", full_page=True)
    phone.close()


def test_the_hint_button_is_hidden_in_a_tournament_game(browser, live: Live) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(live.url + "/")
    page.wait_for_selector(".conn.live", timeout=TIMEOUT)
    assert page.locator("#hint").is_hidden()
    # The request guard holds for it as for every change: no X-Poolboard header, no hint.
    assert context.request.post(live.url + "/api/hint").status == 403
    answer = context.request.post(live.url + "/api/hint", headers={"X-Poolboard": "1"})
    assert answer.status == 409
    refusal = answer.json()
    assert "not for a game between two players under the apca rules" in refusal["detail"]
    # As a referee's refusal: its message (a key of the catalogue) and values apart.
    assert refusal["message"].endswith("between two players under the {profile} rules")
    assert refusal["values"] == {"profile": "apca"}
    context.close()
