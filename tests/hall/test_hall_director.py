"""A director runs the hall: players and pairings edited, a round started, its names in each
table's own record; the console driven by clicks in the real browser (Debian's Chromium) at
1920x1080, 1024x768 and a phone, over the real broker and real tables."""

import re

import pytest

from tests.hall.conftest import DIRECTOR, REFEREE_PASSWORD, START, needs_mosquitto
from tests.web.conftest import CHROMIUM, browser  # noqa: F401 (fixture)
from tests.web.pages import TIMEOUT, shoot

pytestmark = needs_mosquitto


def pdn_of(table, game_id: int) -> str:
    return table.http.get(f"/api/games/{game_id}.pdn").text


def test_names_from_a_pairing_are_in_the_tables_own_pdn(hall, tables) -> None:
    hall.director("players.csv", "Ann Lee,Leeds\nBob Ray,York\nCyd Moss,\n").raise_for_status()
    hall.director("pairings", {"round": 1, "table": "t1", "first": "Ann Lee", "second": "Bob Ray"})
    t1 = tables("t1", hall.broker_port)  # set up and waiting: its clock runs, no move yet
    hall.wait(lambda: hall.tile("t1")["online"] and hall.tile("t1")["fen"], "t1 online")
    answer = hall.director("round", {"round": 1})
    assert answer.json() == {"ok": True, "tables": {"t1": "seated"}, "refused": {}}
    state = t1.http.get("/api/state").json()
    assert (state["headers"]["Black"], state["headers"]["White"]) == ("Ann Lee", "Bob Ray")
    # Once started, the round's pairings are fixed (422 naming why).
    changed = hall.director(
        "pairings", {"round": 1, "table": "t1", "first": "Cyd Moss", "second": "Bob Ray"}
    )
    assert changed.status_code == 422 and "round 1 has started" in changed.json()["detail"]

    # Game 1: Ann (Black) wins; game 2 from the hall: the colours change (R-TRN-2).
    t1.play("11-15")
    t1.play("23-19")
    t1.referee("end", {"how": "resign", "side": "white"})
    hall.wait(lambda: hall.tile("t1")["words"], "the result at the hall")
    assert hall.tile("t1")["words"] == "Ann Lee (Black) wins — White resigned"
    alerts = hall.get("/api/director/alerts", auth=True)
    assert alerts[0]["message"] == "game 1: Ann Lee (Black) wins — White resigned; confirm it"
    hall.director("tables/t1/next-game").raise_for_status()
    t1.show(START)
    t1.play("11-16")
    played = [g for g in t1.http.get("/api/games").json() if g["plies"]]
    first, second = (pdn_of(t1, game["id"]) for game in played[-2:])
    for tag in ('[Event "Club Open"]', '[Round "1.1"]', '[Board "t1"]', '[Black "Ann Lee"]'):
        assert tag in first, first
    assert '[White "Bob Ray"]' in first and "1-0" in first
    assert '[Round "1.2"]' in second and '[Black "Bob Ray"]' in second
    assert '[White "Ann Lee"]' in second
    # Confirming the result clears its alert; the audit has every step with its outcome.
    hall.director("confirm", {"round": 1, "table": "t1", "game": 1}).raise_for_status()
    assert not [a for a in hall.get("/api/director/alerts", auth=True) if a["kind"] == "result"]
    audit = [(a["action"], a["data"].get("status")) for a in hall.get("/api/director/audit", True)]
    assert ("round", None) in audit and ("table-details", 200) in audit


def test_a_table_offline_when_its_round_started_is_seated_when_it_comes_back(hall, tables) -> None:
    """A table that was off when the director started its round (a Pi still booting) is not
    seated then; when it comes online the hall seats it, once, and audits it as its own."""
    hall.director("players.csv", "Ann Lee,Leeds\nBob Ray,York\n").raise_for_status()
    hall.director("pairings", {"round": 1, "table": "t1", "first": "Ann Lee", "second": "Bob Ray"})
    answer = hall.director("round", {"round": 1})
    assert answer.json()["tables"]["t1"] == "not seated: table t1 is offline"
    # Why, apart as well, for the console's language.
    refused = answer.json()["refused"]["t1"]
    assert (refused["message"], refused["values"]) == ("table {table} is offline", {"table": "t1"})
    t1 = tables("t1", hall.broker_port)

    def names() -> tuple[str, str]:
        headers = t1.http.get("/api/state").json()["headers"]
        return headers.get("Black"), headers.get("White")

    hall.wait(lambda: names() == ("Ann Lee", "Bob Ray"), "t1 seated when it came online", 20)

    def late() -> list[tuple[str, str]]:
        audit = hall.get("/api/director/audit", True)
        return [(a["actor"], a["data"]["outcome"]) for a in audit if a["action"] == "late-seat"]

    assert hall.wait(late, "the late seating in the audit") == [("hall", "seated")]


def console(browser, hall, width: int, height: int, **extra):  # noqa: F811
    context = browser.new_context(
        viewport={"width": width, "height": height},
        http_credentials={"username": DIRECTOR[0], "password": DIRECTOR[1]},
        **extra,
    )
    page = context.new_page()
    page.goto(hall.url + "/director")
    page.wait_for_selector(".conn.live", timeout=TIMEOUT)
    return context, page


def fits(page, width: int) -> bool:
    """Nothing runs off the side of a screen ``width`` pixels wide."""
    return page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run)")
def test_the_console_by_clicks_at_three_sizes(browser, hall, tables) -> None:  # noqa: F811
    context, page = console(browser, hall, 1920, 1080)
    # Players: added through the form, one renamed in place, one withdrawn (asked twice).
    for name in ("Ann Lee", "Bob Ray", "Cyd Mos", "Dee Hart"):
        page.fill("#player-name", name)
        page.click("#player-form button")
        page.wait_for_selector(f"#players tr[data-player='{name}']", timeout=TIMEOUT)
    page.click("#players tr[data-player='Cyd Mos'] button.rename")
    page.fill("#players input[aria-label='new name for Cyd Mos']", "Cyd Moss")
    page.click("#players button.save")
    page.wait_for_selector("#players tr[data-player='Cyd Moss']", timeout=TIMEOUT)
    page.click("#players tr[data-player='Dee Hart'] button.withdraw")
    page.click("#players tr[data-player='Dee Hart'] button.withdraw.sure")
    page.wait_for_selector("#players tr.withdrawn[data-player='Dee Hart']", timeout=TIMEOUT)
    assert [p["withdrawn"] for p in hall.get("/api/players")] == [False, False, False, True]
    # A pairing through the form, changed before its round starts.
    page.fill("#pairing-round", "1")
    page.select_option("#pairing-table", "t1")
    page.select_option("#pairing-first", "Ann Lee")
    page.select_option("#pairing-second", "Cyd Moss")
    page.click("#pairing-form button")
    page.wait_for_selector("#pairings tr[data-table='t1']", timeout=TIMEOUT)
    page.click("#pairings tr[data-table='t1'] button.change")
    page.select_option("#pairing-second", "Bob Ray")
    page.click("#pairing-form button")
    page.wait_for_selector("#pairings tr[data-table='t1'] td:has-text('Bob Ray')", timeout=TIMEOUT)
    assert "Dee Hart" not in page.inner_text("#pairing-first")  # withdrawn: not offered

    # Round 1 started by a click: the table is sent its players.
    t1 = tables("t1", hall.broker_port)
    hall.wait(lambda: hall.tile("t1")["online"] and hall.tile("t1")["fen"], "t1 online")
    page.select_option("#round-number", "1")
    page.click("#round-form button")
    page.wait_for_selector("#round-answer li:has-text('table t1: seated')", timeout=TIMEOUT)
    assert t1.http.get("/api/state").json()["headers"]["Black"] == "Ann Lee"
    page.wait_for_selector("#pairings tr[data-table='t1'] td:has-text('started')", timeout=TIMEOUT)

    # Referee actions are forms naming the players.
    page.select_option("#action-table", "t1")
    page.wait_for_selector("#table-line:has-text('Ann Lee (Black) v Bob Ray (White)')")
    adjust = page.locator("form[data-action='adjust-clock']")
    assert adjust.locator("select[name='side']").inner_text().split("\n") == [
        "Ann Lee (Black)",
        "Bob Ray (White)",
    ]
    before = t1.http.get("/api/state").json()["clock"]["white"]
    adjust.locator("select[name='side']").select_option("white")
    adjust.locator("input[name='seconds']").fill("60")
    adjust.locator("button").click()
    page.wait_for_selector("#action-answer.done:has-text('adjusted a clock')", timeout=TIMEOUT)
    assert t1.http.get("/api/state").json()["clock"]["white"] == pytest.approx(before + 60, abs=1)
    # A refusal comes back in words: a correction of a move that was not played.
    correct = page.locator("form[data-action='correct-move']")
    correct.locator("input[name='ply']").fill("5")
    correct.locator("input[name='move']").fill("11-15")
    correct.locator("button").click()
    page.wait_for_selector("#action-answer.refused:has-text('not done')", timeout=TIMEOUT)
    t1.play("11-15")
    # The clocks paused and resumed, a caution given and the move voided, each by a click.
    for button, said, running in (("pause", "paused", "paused"), ("resume", "resumed", "running")):
        page.click(f"button.act[data-action='{button}']")
        page.wait_for_selector(
            f"#action-answer.done:has-text('{said} the clocks — done')", timeout=TIMEOUT
        )
        assert t1.http.get("/api/state").json()["clock"]["state"] == running
    penalty = page.locator("form[data-action='penalty']")
    penalty.locator("select[name='side']").select_option(label="Bob Ray (White)")
    penalty.locator("select[name='rule']").select_option("R-TCH-2")
    penalty.locator("input[name='note']").fill("touched 22")
    penalty.locator("button").click()
    page.wait_for_selector("#action-answer.done:has-text('gave a penalty')", timeout=TIMEOUT)
    table_audit = t1.http.get("/api/referee/audit", auth=("referee", REFEREE_PASSWORD)).json()
    (caution,) = [a["data"] for a in table_audit if a["action"] == "penalty"]
    assert [caution[key] for key in ("rule", "side", "severity")] == ["R-TCH-2", "white", "caution"]
    void = page.locator("form[data-action='void']")
    label = void.locator("label")
    assert " ".join(label.inner_text().split()) == "strike the last ply"
    void.locator("[name=plies]").fill("2")  # a ply is one side's move: the form counts those
    assert " ".join(label.inner_text().split()) == "strike the last plies"
    void.locator("[name=plies]").fill("1")
    void.locator("button").click()  # strike the last ply
    page.wait_for_selector("#action-answer.done:has-text('voided moves')", timeout=TIMEOUT)
    assert t1.http.get("/api/state").json()["moves"] == []
    t1.show(START)  # the board put back as it stands in the record
    ending = page.locator("form[data-action='end']")
    ending.locator("select[name='outcome']").select_option(
        label="Bob Ray (White) wins — Black resigned"
    )
    ending.locator("button").click()
    page.wait_for_selector("#action-answer.done:has-text('recorded the result')", timeout=TIMEOUT)

    # The result in words, as an alert and to confirm; confirming clears the alert.
    alert = page.locator("#alerts li[data-kind='result']")
    alert.wait_for(timeout=TIMEOUT)
    assert "Bob Ray (White) wins — Black resigned" in alert.inner_text()
    assert "Bob Ray (White) wins — Black resigned" in page.inner_text("#results td.words")
    assert not re.search(r"\b[01]-[01]\b", page.inner_text("#results"))  # never a bare 0-1
    page.click("#results button.confirm")
    page.wait_for_selector("#results td:has-text('confirmed by director')", timeout=TIMEOUT)
    page.wait_for_selector("#alerts li[data-kind='result']", state="detached", timeout=TIMEOUT)
    # The audit: a table in words, local time, outcomes.
    audit = page.inner_text("#audit")
    assert "started round 1" in audit and "renamed Cyd Mos to Cyd Moss" in audit
    assert "table t1: adjusted a clock (side white, seconds 60)" in audit
    assert "refused:" in audit and "withdrew Dee Hart" in audit
    # A rule ID is kept on one line (never "R-" then "TCH-2"), as on the board's pages.
    assert page.locator("#audit td span.rule").first.inner_text() == "R-TCH-2"
    assert not re.search(r"\d{4}-\d\d-\d\dT", audit)  # no ISO stamps: the browser's local time
    assert fits(page, 1920)
    shoot(page, "hall-director", full_page=True)
    context.close()

    # 1024x768 and a phone: everything reachable, nothing off the side; a click still works.
    for size, extra in (((1024, 768), {}), ((390, 844), {"is_mobile": True, "has_touch": True})):
        context, page = console(browser, hall, *size, **extra)
        page.wait_for_selector("#results td:has-text('confirmed by director')", timeout=TIMEOUT)
        assert fits(page, size[0]), f"the console runs off a {size} screen"
        page.select_option("#action-table", "t1")
        adjust = page.locator("form[data-action='adjust-clock']")
        adjust.locator("select[name='side']").select_option(label="Ann Lee (Black)")
        adjust.locator("input[name='seconds']").fill("-30")
        adjust.locator("button").click()
        page.wait_for_selector("#action-answer:not(:empty)", timeout=TIMEOUT)
        assert "adjusted a clock — done" in page.inner_text("#action-answer")
        assert fits(page, size[0])
        if size[0] < 640:  # a phone stacks the rows: each cell says which column it is
            # (awaited in the page: the console redraws its lists after each action)
            page.wait_for_function(
                """() => {
                    const row = document.querySelector("#pairings tr[data-table='t1']");
                    const td = row?.cells[2];
                    return td?.textContent === "Ann Lee"
                        && getComputedStyle(td, "::before").content === '"Black in game 1: "';
                }""",
                timeout=TIMEOUT,
            )
        shoot(page, f"hall-director-{size[0]}", full_page=True)
        context.close()
