"""What the players, the audience and the referee are told, in Debian's Chromium at 1024x768
and through the referee's API: a capture drawn as the sensor sees it while it is under way,
results in words without rule codes, the crown over the last-move arrow, the referee's answer
beside the button pressed, a position set up by clicking squares, and names given during a game
that the match score follows (R-TRN-3).

With POOLBOARD_SCREENSHOTS=DIR the pages' pictures are saved there.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.color import Color
from poolboard.config import GameConfig, RulesConfig
from tests.web.conftest import CHROMIUM, PASSWORD, START, Live, referee, start_game
from tests.web.pages import TIMEOUT, centre, shoot, wait_text

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"
)
RULE_ID = re.compile(r"R-[A-Z]+-\d")
SIZE = {"width": 1024, "height": 768}


def opened(browser, live: Live, *paths: str):
    """A 1024x768 browser logged in as the referee, with ``paths`` open and live."""
    context = browser.new_context(
        viewport=SIZE, http_credentials={"username": "referee", "password": PASSWORD}
    )
    pages = []
    for path in paths:
        page = context.new_page()
        page.goto(live.url + path)
        page.wait_for_selector(".conn.live", timeout=TIMEOUT)
        pages.append(page)
    return context, pages


def placed(live: Live, squares: set[int]) -> None:
    """The hands put the pieces on exactly ``squares``."""
    live.session.sensor.set_occupied(frozenset(squares))


@pytest.fixture
def capture(tmp_path: Path):
    """Black's man on 14 must jump 18 and 27 (14x23x32); White's king waits on 30."""
    live = Live(
        tmp_path,
        rules=RulesConfig(fen="B:W18,27,K30:B14,K1"),
        game=GameConfig(black="Ann Lee", white="Bo"),
    )
    yield live
    live.close()


def test_a_capture_under_way_is_drawn_as_the_sensor_sees_it(browser, capture: Live) -> None:
    context, (spectator,) = opened(browser, capture, "/")
    start = {1, 14, 18, 27, 30}
    placed(capture, start)
    wait_text(spectator, "#state-line", "Black to move")
    placed(capture, start - {14})
    placed(capture, start - {14} | {23})  # the man stops on 23, thinking
    spectator.wait_for_selector("#board .piece.black.moving[data-square='23']", timeout=TIMEOUT)
    assert spectator.locator("#board .piece[data-square='14']").count() == 0
    assert spectator.locator("#board .move-line.in-progress").count() == 1
    assert "jump on from 23 to 32" in spectator.inner_text("#state-line")
    placed(capture, start - {14, 18} | {23})  # the jumped man taken off early
    spectator.wait_for_function(
        "() => !document.querySelector(\"#board .piece[data-square='18']\")", timeout=TIMEOUT
    )
    shoot(spectator, "spectator-capture-under-way")
    assert spectator.locator("#board .piece.white[data-square='27']").count() == 1
    placed(capture, start - {14, 18, 27} | {32})
    spectator.wait_for_selector("#board .piece.black[data-square='32']", timeout=TIMEOUT)
    assert spectator.locator("#board .move-line.in-progress").count() == 0  # recorded: 14x32
    assert spectator.locator("#board .move-line").count() == 1
    context.close()


def test_a_jump_thought_over_is_never_charged_one_abandoned_is_told_and_mended(
    browser, tmp_path: Path
) -> None:
    """R-CAP-3 as APCA 10 and 21 have it: a player who stops on a landing square to find the
    way on is reminded, never charged; a jump left open when the lever is pressed is a
    violation, told at once on every page, and marked mended when the jump is finished."""
    start = {1, 14, 18, 27, 30}  # Black's man on 14 must jump 18 and 27: 14x23x32
    for abandoned in (False, True):
        live = Live(tmp_path / str(abandoned), rules=RulesConfig(fen="B:W18,27,K30:B14,K1"))
        try:
            context, (spectator, console) = opened(browser, live, "/", "/referee")
            placed(live, start)
            wait_text(spectator, "#state-line", "Black to move")
            placed(live, start - {14})
            placed(live, start - {14} | {23})
            placed(live, start - {14, 18} | {23})  # the man on 18 lifted; Black thinks on 23
            wait_text(spectator, "#state-line", "jump on from 23 to 32")
            assert console.inner_text("#alerts") == ""
            if abandoned:
                live.session.sensor.press_lever(Color.BLACK)
                wait_text(spectator, "#state-line", "incomplete jump")
                wait_text(console, "#alerts", "Black (violation): ")
                assert "R-CAP-3" in console.inner_text("#alerts")
            else:  # thinking past the reminder (10 s): the way on is cued, nothing charged
                reminder = "#board .cue[data-square='32'][data-cue='jump-reminder']"
                spectator.locator(reminder).wait_for(timeout=20_000)
                assert live.session.state()["violations"] == []
                assert console.inner_text("#alerts") == ""
            placed(live, start - {14, 18, 27} | {32})  # the jump finished: 14x32
            spectator.wait_for_selector("#board .piece.black[data-square='32']", timeout=TIMEOUT)
            state = live.session.state()
            assert state["moves"] == ["14x32"]
            assert len(state["violations"]) == (1 if abandoned else 0)
            pdn = console.request.get(f"{live.url}/api/games/{live.session.game_id}.pdn").text()
            if abandoned:  # corrected at once: marked so on the console and in the record
                wait_text(console, "#alerts", "Black (violation, mended): ")
                assert "R-CAP-3 mended at once" in pdn
            else:
                assert console.inner_text("#alerts") == "" and "R-CAP-3" not in pdn
            context.close()
        finally:
            live.close()


def test_the_result_banners_speak_in_words_without_rule_codes(browser, tmp_path: Path) -> None:
    live = Live(tmp_path, rules=RulesConfig(fen="B:W18:B14,K1"), game=GameConfig(black="Ann Lee"))
    try:
        context, (spectator, big, console) = opened(browser, live, "/", "/big", "/referee")
        placed(live, {1, 14, 18})
        wait_text(spectator, "#state-line", "Black to move")
        assert spectator.inner_text("#clock-note") == "45 minutes a side for the whole match"
        assert spectator.inner_text(".player.white .pieces") == "1 piece"
        placed(live, {1, 18})
        placed(live, {1, 18, 23})
        placed(live, {1, 23})  # 14x23: White has no piece left (R-END-1)
        words = "Ann Lee (Black) wins — White has no pieces left"
        for page in (spectator, big):
            page.wait_for_selector("#game-over:not([hidden])", timeout=TIMEOUT)
            assert page.inner_text("#game-over") == words
            assert not RULE_ID.search(page.inner_text("#state-line"))
        assert spectator.inner_text(".player.white .pieces").startswith("0 pieces")
        shoot(spectator, "spectator-result-1024x768")
        shoot(big, "big-result-1024x768")
        # The referee keeps the rule: on the console and in the PDN.
        wait_text(console, "#state-line", "(R-END-1)")
        pdn = console.request.get(f"{live.url}/api/games/{live.session.game_id}.pdn").text()
        assert "(R-END-1)" in pdn
        context.close()
    finally:
        live.close()


def test_the_crown_stays_over_the_last_moves_arrow(browser, tmp_path: Path) -> None:
    live = Live(tmp_path, rules=RulesConfig(fen="B:W30:BK1"))
    try:
        context, (spectator,) = opened(browser, live, "/")
        placed(live, {1, 30})
        wait_text(spectator, "#state-line", "Black to move")
        placed(live, {30})
        placed(live, {10, 30})  # the king 1-10
        wait_text(spectator, "#state-line", "White to move")
        x, y = centre(spectator, 10)
        on_top = spectator.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.classList.contains('crown')", [x, y]
        )
        assert on_top
        context.close()
    finally:
        live.close()


def test_a_violation_on_the_big_screen_keeps_its_bullet_inside(browser, live: Live) -> None:
    context, (big,) = opened(browser, live, "/big")
    placed(live, START)
    wait_text(big, "#state-line", "Black to move")
    placed(live, START - {12})
    placed(live, START - {12} | {17})  # 12-17 is no move
    big.wait_for_selector("#alerts li", timeout=TIMEOUT)
    inside = big.evaluate(
        """() => {
            const item = document.querySelector('#alerts li');
            const panel = document.querySelector('.panel').getBoundingClientRect();
            return getComputedStyle(item).listStylePosition === 'inside'
                && item.getBoundingClientRect().left >= panel.left;
        }"""
    )
    assert inside
    shoot(big, "big-violation-1024x768")
    context.close()


def test_the_referee_is_answered_beside_the_button_and_sets_a_position_by_clicking(
    browser, live: Live
) -> None:
    start_game(live)
    context, (console,) = opened(browser, live, "/referee")
    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss() if "resigns" in dialog.message else dialog.accept()

    console.on("dialog", answer)
    console.select_option("#end-form select[name='how']", "resign")
    console.select_option("#end-form select[name='side']", "white")
    console.click("#end-form button[type='submit']")
    assert asked[-1] == "End the game: White resigns?"  # unnamed: no "White (white)"
    console.click("#pause")
    console.wait_for_selector("#pause + .message.ok", timeout=TIMEOUT)
    # A position by clicking: 1 becomes a king, 17 gets a man, 22 becomes a white king.
    console.click("#edit-position")
    for square in (1, 17, 22):
        console.mouse.click(*centre(console, square))
    console.select_option("#position-form select[name='turn']", "white")
    fen = console.input_value("#position-form input[name='fen']")
    assert fen == "W:W21,K22,23,24,25,26,27,28,29,30,31,32:BK1,2,3,4,5,6,7,8,9,10,11,12,17"
    console.click("#position-form button[type='submit']")
    console.wait_for_selector("#position-form button[type='submit'] + .message.ok", timeout=TIMEOUT)
    assert asked[-1] == "End this game and start a new one from this position?"
    assert console.locator(".message.answer").count() == 1  # the pause's answer is gone
    state = live.session.state()
    assert state["start_fen"] == fen and state["turn"] == "white"
    shoot(console, "referee-position-set-up")
    context.close()


def test_names_given_during_game_1_are_its_players_and_the_score_follows_them(
    live: Live,
) -> None:
    start_game(live)
    names = {"black": "Ann Lee", "white": "Bartholomew O'Brien-Smithers"}
    assert referee(live, "details", names).status_code == 200
    assert referee(live, "end", {"how": "resign", "side": "white"}).status_code == 200
    assert referee(live, "next-game").status_code == 200
    start_game(live)
    assert referee(live, "end", {"how": "agree-draw"}).status_code == 200
    state = live.session.state()
    assert state["headers"]["Black"] == "Bartholomew O'Brien-Smithers"  # R-TRN-2
    assert state["match"]["score"] == [
        {"name": "Bartholomew O'Brien-Smithers", "points": 2, "side": "black"},
        {"name": "Ann Lee", "points": 6, "side": "white"},
    ]


def test_a_position_set_up_after_game_1_is_game_2_with_colours_changed(live: Live) -> None:
    """The referee's "set up a position" after a result starts game 2 as "next game" does
    (R-TRN-2), on the match clock (R-TIM-4)."""
    assert referee(live, "details", {"black": "Ann", "white": "Bo"}).status_code == 200
    start_game(live)
    assert referee(live, "end", {"how": "resign", "side": "black"}).status_code == 200
    left = live.session.state()["clock"]
    assert referee(live, "position", {"fen": "W:W21,22:B9,10"}).status_code == 200
    state = live.session.state()
    assert (state["headers"]["Black"], state["headers"]["White"]) == ("Bo", "Ann")
    assert (state["match"]["game"], state["clock"]["game"]) == (2, 2)
    assert (state["clock"]["black"], state["clock"]["white"]) == (left["white"], left["black"])
    assert {s["name"]: s["points"] for s in state["match"]["score"]} == {"Bo": 4, "Ann": 0}
