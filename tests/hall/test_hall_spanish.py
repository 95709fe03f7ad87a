"""The hall's pages in Spanish in the real browser (Debian's Chromium), over the real broker and
a real table: ``[display] language = "es"`` in hall.toml shows every page in Spanish, the
results and alerts the hall composes included, and the switch on a page changes the reader's
language; square numbers, moves in PDN and rule IDs stay as they are (docs/hall.md)."""

from pathlib import Path

import pytest

from tests.hall.conftest import DIRECTOR, START, TABLES, HallProcess, needs_mosquitto
from tests.web.conftest import CHROMIUM, browser  # noqa: F401 (fixture)
from tests.web.pages import TIMEOUT, serious, shoot, text_of, wait_text

pytestmark = [
    needs_mosquitto,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run)"),
]

#: What may not overflow its box on the big screen: names, clocks, captions, what each table says.
WHOLE = ".tile h2 span, .tile .name, .tile .clock, .tile-last, .tile-state, header > *"


@pytest.fixture
def spanish_hall(tmp_path: Path):
    process = HallProcess(tmp_path, TABLES, display='language = "es"')
    yield process
    process.stop()


def test_the_hall_speaks_spanish_and_switches_to_english(browser, spanish_hall, tables) -> None:  # noqa: F811
    hall = spanish_hall
    assert hall.get("/api/hall")["language"] == "es"
    assert hall.get("/api/messages/es")["table {table}"] == "mesa {table}"
    hall.director("players.csv", "Ann\nBob\n").raise_for_status()
    hall.director("pairings", {"round": 1, "table": "t1", "first": "Ann", "second": "Bob"})
    t1 = tables("t1", hall.broker_port)
    t1.play("11-15")
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.goto(hall.url + "/")
    page.wait_for_selector(".tile[data-table='t1'][data-plies='1']", timeout=TIMEOUT)
    page.wait_for_selector(".conn.live", timeout=TIMEOUT)
    assert page.evaluate("document.documentElement.lang") == "es"
    assert text_of(page, "#conn") == "en directo"
    links = page.locator("nav.tools a").all_inner_texts()
    assert links == ["sala", "pantalla grande", "clasificación", "director"]
    tile = page.locator(".tile[data-table='t1']")
    assert text_of(page, "#round") == "ronda 1"
    assert tile.locator(".tile-name").inner_text() == "mesa t1"
    assert tile.locator(".tile-game").inner_text() == "partida 1"
    assert tile.locator(".tile-last").inner_text() == "jugada 1: 11-15"  # the move in PDN
    assert tile.locator(".tile-state").inner_text() == "Juegan las blancas"
    assert tile.locator(".black .name").get_attribute("title") == "Negras"
    wait_text(page, ".tile[data-table='t2'] .tile-state", "aún sin conectar")
    assert serious(page) == []
    t1.show(START - {11, 21} | {15, 13})  # White plays 21-13, no move: put back at once
    t1.show(START - {11} | {15})

    table = context.new_page()
    table.goto(hall.url + "/table/t1")
    wait_text(table, "#player-top .name", "Ann (Negras)")
    wait_text(table, "#state-line", "Juegan las blancas")
    assert text_of(table, "#event") == "mesa t1"
    assert text_of(table, "#moves tr.heads th:first-child") == "jugada"
    assert text_of(table, "#pdn-link") == "las partidas de esta mesa (PDN)"

    # A result the hall composes: who won, by name and side, in Spanish, on every page.
    t1.referee("result", {"result": "1-0", "reason": "White resigned"})
    said = "Gana Ann (Negras) — decisión del árbitro: Blancas abandonan"
    wait_text(page, ".tile[data-table='t1'] .tile-state", said)
    wait_text(table, "#result", said)
    director = browser.new_context(
        viewport={"width": 1200, "height": 900},
        http_credentials={"username": DIRECTOR[0], "password": DIRECTOR[1]},
    )
    console = director.new_page()
    console.goto(hall.url + "/director")
    # A violation at the table, in the table's own words (its said), the rule ID as it is.
    illegal = console.locator("#alerts li[data-kind='violation']")
    illegal.wait_for(timeout=TIMEOUT)
    assert "mesa t1: 21-13 no es una jugada legal (R-ILL-1): restaure la posición" in (
        illegal.inner_text()
    )
    alert = console.locator("#alerts li[data-kind='result']")
    alert.wait_for(timeout=TIMEOUT)
    assert f"mesa t1: partida 1: {said}; confírmela" in alert.inner_text()
    assert text_of(console, "#alerts li[data-kind='result'] .seen") == "vista"
    assert text_of(console, "form[data-action='end'] button") == "registrar el resultado"
    void = console.locator("form[data-action='void'] label").inner_text()
    assert " ".join(void.split()) == "borrar la última media jugada"
    assert text_of(console, "form[data-action='void'] .note") == (
        "Una media jugada es la jugada de un bando: 2 medias jugadas borran una jugada de cada "
        "bando."
    )
    # The result form words a resignation as a recorded result says it.
    offered = console.locator("select.outcome option").first.inner_text()
    assert offered == "Gana Ann (Negras) — Blancas abandonan"
    assert said.endswith(offered.split(" — ")[1])
    console.locator("#results button.confirm").click()
    wait_text(console, "#results", "confirmado por director")
    # One wording on every page, the board's own too: who won, by name and side, and why.
    assert text_of(console, "#results td.words") == said
    wait_text(console, "#audit", f"confirmó ronda 1, mesa t1, partida 1: {said}")
    # A table's refusal comes over MQTT with its message and values: said in Spanish, and the
    # audit marks it refused.
    console.fill("form[data-action='correct-move'] [name=ply]", "9")
    console.fill("form[data-action='correct-move'] [name=move]", "11-16")
    console.click("form[data-action='correct-move'] button")
    refusal = "media jugada 9: la partida tiene las medias jugadas 1 a 1"
    wait_text(console, "#action-answer.refused", f"mesa t1: no hecho — {refusal}")
    wait_text(console, "#audit tr.refused", f"rechazado: {refusal}")
    assert serious(console) == []

    standings = context.new_page()
    standings.goto(hall.url + "/standings")
    standings.wait_for_selector("#standings tr", timeout=TIMEOUT)
    heads = standings.locator("thead th").all_inner_texts()
    assert heads[:4] == ["#", "jugador", "club", "puntos"]
    assert standings.title() == "sala poolboard — clasificación"
    assert "(R-TRN-3)" in text_of(standings, "main .note")  # the rule ID as it is

    # The reader's choice: English on this browser from now on, on every page.
    with standings.expect_navigation():
        standings.select_option("#language", "en")
    standings.wait_for_selector("#standings tr", timeout=TIMEOUT)
    assert standings.locator("thead th").all_inner_texts()[:4] == ["#", "player", "club", "points"]
    page.reload()
    wait_text(page, ".tile[data-table='t1'] .tile-state", "Ann (Black) wins — ")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert text_of(page, ".tile[data-table='t1'] .tile-name") == "table t1"
    assert page.input_value("#language") == "en"

    # The big screen in Spanish (?lang=es) at 1920x1080 and 1024x768: everything whole, and
    # the language list shown, as on the other pages.
    for width, height in ((1920, 1080), (1024, 768)):
        screen = browser.new_context(viewport={"width": width, "height": height})
        big = screen.new_page()
        big.goto(hall.url + "/big?lang=es")
        big.wait_for_selector("body.big .tile[data-table='t1'].finished", timeout=TIMEOUT)
        big.wait_for_function("document.querySelector('.tiles').style.gridTemplateRows !== ''")
        wait_text(big, ".tile[data-table='t1'] .tile-state", "Gana Ann (Negras)")
        cut = big.eval_on_selector_all(
            WHOLE,
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1 "
            "|| e.scrollHeight > e.clientHeight + 1).map(e => e.className + ': ' + e.textContent)",
        )
        assert cut == []
        assert big.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert big.evaluate("document.documentElement.scrollHeight <= innerHeight")
        assert big.locator("#language").is_visible()
        shoot(big, f"hall-big-es-{width}")
        screen.close()
    context.close()
    director.close()


def test_a_tile_says_what_its_table_waits_for_in_spanish(browser, spanish_hall, tables) -> None:  # noqa: F811
    """The table's tracker line comes as words (waiting_said): a refused move is told on its
    tile in Spanish in full, squares, moves and rule IDs as they are (docs/hall.md)."""
    t1 = tables("t1", spanish_hall.broker_port)
    t1.play("11-15")
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.goto(spanish_hall.url + "/")
    wait_text(page, ".tile[data-table='t1'] .tile-state", "Juegan las blancas")
    t1.show(START - {11, 21} | {15})
    t1.show(START - {11, 21} | {15, 13})
    wait_text(
        page,
        ".tile[data-table='t1'] .tile-state",
        "21-13 no es una jugada legal (R-ILL-1): restaure la posición: ponga una pieza en 21; "
        "despeje 13",
    )
    context.close()


def test_a_round_started_in_spanish_says_which_table_was_not_seated(
    browser,  # noqa: F811
    spanish_hall,
    tables,
) -> None:
    """Starting a round from the console: a table seated, and one offline, why not in Spanish."""
    hall = spanish_hall
    hall.director("players.csv", "Ann\nBob\nCy\nDi\n").raise_for_status()
    for table, first, second in (("t1", "Ann", "Bob"), ("t2", "Cy", "Di")):
        hall.director("pairings", {"round": 1, "table": table, "first": first, "second": second})
    tables("t1", hall.broker_port)
    hall.wait(lambda: hall.tile("t1")["online"], "t1 online")
    director = browser.new_context(
        viewport={"width": 1200, "height": 900},
        http_credentials={"username": DIRECTOR[0], "password": DIRECTOR[1]},
    )
    console = director.new_page()
    console.goto(hall.url + "/director")
    wait_text(console, "#round-number", "ronda 1")
    console.click("#round-form button")
    wait_text(console, "#round-answer", "ronda 1 empezada")
    wait_text(console, "#round-answer", "mesa t1: sentados")
    wait_text(
        console, "#round-answer li.refused", "mesa t2: no sentados: la mesa t2 está sin conexión"
    )
    director.close()


def test_the_console_says_the_halls_refusal_of_a_change_in_spanish(browser, spanish_hall) -> None:  # noqa: F811
    """A player registered twice, a CSV line naming a player not registered or with a field too
    many: the hall's own refusals (no table involved), each said in Spanish with the file, line
    and name as they are (docs/hall.md)."""
    hall = spanish_hall
    hall.director("players.csv", "Ann\nBob\n").raise_for_status()
    director = browser.new_context(
        viewport={"width": 1200, "height": 900},
        http_credentials={"username": DIRECTOR[0], "password": DIRECTOR[1]},
    )
    console = director.new_page()
    console.goto(hall.url + "/director")
    wait_text(console, "#players", "Bob")
    console.fill("#player-name", "Ann")
    console.click("#player-form button")
    wait_text(console, "#players-answer.refused", "el jugador 'Ann' ya está inscrito")

    console.select_option("#csv-kind", "pairings")
    console.fill("#csv-text", "round,table,first,second\n1,t1,Ann,Bbo\n")
    console.click("#csv-form button")
    wait_text(
        console,
        "#csv-answer.refused",
        "pairings.csv, línea 2: el jugador 'Bbo' no está inscrito (¿quiso decir 'Bob'?)",
    )
    console.select_option("#csv-kind", "players")
    console.fill("#csv-text", "Cyd,York,extra\n")
    console.click("#csv-form button")
    wait_text(
        console,
        "#csv-answer.refused",
        "players.csv, línea 1: se esperaban los campos name, club; la línea tiene 3 campos",
    )
    assert [player["name"] for player in hall.get("/api/players")] == ["Ann", "Bob"]
    director.close()
