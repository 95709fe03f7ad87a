"""Everyone can use the pages (docs/web.md): the virtual board played from the keyboard alone,
the spectator page telling a screen reader each move and violation (its live regions), the
referee console's move list reached by the keyboard, and marks beside the cues' colours."""

import pytest

from tests.web.conftest import CHROMIUM, PASSWORD, START, Live
from tests.web.pages import TIMEOUT, tab_to, text_of, type_square, wait_text

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"
)


def test_a_game_is_played_and_followed_from_the_keyboard_alone(browser, live: Live) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        http_credentials={"username": "referee", "password": PASSWORD},
    )
    board, spectator, referee = (context.new_page() for _ in range(3))
    for page, path in ((board, "/board"), (spectator, "/"), (referee, "/referee")):
        page.goto(live.url + path)
        page.wait_for_selector(".conn.live", timeout=TIMEOUT)
    tab_to(board, "setup")
    board.keyboard.press("Enter")
    wait_text(board, "#state-line", "Black to move")
    tab_to(board, "board")
    wait_text(board, "#cursor-line", "square")
    board.keyboard.press("ArrowUp")  # the arrows move the cursor over the dark squares
    assert "square" in text_of(board, "#cursor-line")
    type_square(board, 11)
    wait_text(board, "#hand", "in hand: a black piece from 11")
    type_square(board, 15)
    wait_text(spectator, "#said", "Black: 11-15")
    assert text_of(board, "#cursor-line") == "square 15: black man"

    # A refused move: told at once (assertively) to a screen reader on the spectator page,
    # and the cue squares carry a mark, not only a colour.
    type_square(board, 21)
    type_square(board, 13)  # no move
    wait_text(spectator, "#said-urgent", "R-ILL-1")
    marks = spectator.eval_on_selector_all("#board .cue-mark", "els => els.map(e => e.textContent)")
    assert marks and all(mark.strip() for mark in marks), marks
    type_square(board, 13)
    type_square(board, 21)
    wait_text(board, "#state-line", "White to move")
    type_square(board, 22)
    type_square(board, 18)
    wait_text(spectator, "#said", "White: 22-18")

    # The referee picks a move to correct from the keyboard: the move list holds buttons.
    referee.wait_for_selector("#moves button.pick", timeout=TIMEOUT)
    referee.locator("#moves button.pick").first.focus()
    referee.keyboard.press("Enter")
    assert referee.evaluate("() => document.activeElement?.name") == "move"
    assert referee.locator("#correct-form [name=move]").input_value() == "11-15"
    context.close()
    assert live.session.board_state().moves == ["11-15", "22-18"]
    assert live.session.sensor.occupied == START - {11, 22} | {15, 18}


def test_the_referee_sets_a_position_up_from_the_keyboard(browser, live: Live) -> None:
    """The referee console's board, like the virtual board, is worked from the keyboard: it
    says what stands on a square, and Enter puts the next piece there while setting up."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        http_credentials={"username": "referee", "password": PASSWORD},
    )
    referee = context.new_page()
    referee.on("dialog", lambda dialog: dialog.accept())
    referee.goto(live.url + "/referee")
    referee.wait_for_selector(".conn.live", timeout=TIMEOUT)
    tab_to(referee, "board")
    type_square(referee, 11)  # not setting up: Enter changes nothing, the square is said
    assert text_of(referee, "#cursor-line") == "square 11: black man"
    tab_to(referee, "edit-position")
    referee.keyboard.press("Enter")
    wait_text(referee, "#edit-position", "stop editing")
    tab_to(referee, "board")
    type_square(referee, 1)  # a black man becomes a king
    wait_text(referee, "#cursor-line", "square 1: black king")
    type_square(referee, 17)  # an empty square gets a black man
    wait_text(referee, "#cursor-line", "square 17: black man")
    fen = referee.input_value("#position-form input[name='fen']")
    assert fen == "B:W21,22,23,24,25,26,27,28,29,30,31,32:BK1,2,3,4,5,6,7,8,9,10,11,12,17"
    referee.focus("#position-form button[type='submit']")
    referee.keyboard.press("Enter")
    referee.wait_for_selector("#position-form button[type='submit'] + .message.ok", timeout=TIMEOUT)
    assert live.session.state()["start_fen"] == fen
    context.close()
