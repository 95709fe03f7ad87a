"""The pages in Spanish in the real browser: ``[display] language = "es"`` shows them in Spanish,
the switch on each page changes the reader's language, and square numbers, rule IDs and PDN stay
as they are (docs/web.md)."""

from pathlib import Path

import pytest

from engine.color import Color
from engine.phrase import Phrase
from poolboard.config import DisplayConfig, OpponentConfig, RulesConfig
from poolboard.simulated_board import SimulatedBoard
from tests.hall.conftest import broker, needs_mosquitto  # noqa: F401 (a fixture, used by name)
from tests.remote.conftest import INVITE, Board_, loopback_link
from tests.web.conftest import CHROMIUM, PASSWORD, START, LinkedBoard, Live
from tests.web.pages import (
    TIMEOUT,
    serious,
    spectator_and_board,
    tab_to,
    tap,
    text_of,
    type_square,
    wait_text,
)

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"
)


@pytest.fixture
def spanish(tmp_path: Path):
    server = Live(tmp_path, display=DisplayConfig(language="es"))
    yield server
    server.close()


def test_the_pages_speak_spanish_and_switch_to_english(browser, spanish: Live) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        http_credentials={"username": "referee", "password": PASSWORD},
    )
    board, spectator, referee = (context.new_page() for _ in range(3))
    for page, path in ((board, "/board"), (spectator, "/"), (referee, "/referee")):
        page.goto(spanish.url + path)
        page.wait_for_selector(".conn.live", timeout=TIMEOUT)
        assert page.evaluate("document.documentElement.lang") == "es"
        assert serious(page) == []
    assert text_of(board, "#setup") == "colocar la posición"
    assert text_of(board, "h1") == "Tablero virtual"
    assert text_of(referee, "#correct-form button") == "corregir"
    assert referee.locator("[name=time_control]").get_attribute("placeholder") == "apca-match"
    wait_text(spectator, "#state-line", "coloque la posición en el tablero (Juegan las negras)")
    wait_text(spectator, "#clock-note", "45 minutos por jugador para todo el encuentro")
    board.click("#setup")
    wait_text(board, "#state-line", "Juegan las negras")
    tab_to(board, "board")
    type_square(board, 11, "casilla")
    wait_text(board, "#hand", "en la mano: una pieza negra de la 11")
    type_square(board, 15, "casilla")
    wait_text(spectator, "#said", "Negras: 11-15")  # the move in PDN, as in every language
    wait_text(spectator, ".player.black .name", "Negras")  # no players' names: the side's
    wait_text(spectator, ".player.black .pieces", "12 piezas")
    wait_text(referee, "#clock-note", "apca-match · reloj en marcha")
    # A refused move: the tracker's words in Spanish, the rule IDs and squares as they are.
    type_square(board, 21, "casilla")
    type_square(board, 13, "casilla")
    refused = (
        "21-13 no es una jugada legal (R-ILL-1): restaure la posición: ponga una pieza en 21; "
        "despeje 13; luego mueva la pieza de la casilla 21 (R-TCH-1): 21-17"
    )
    wait_text(spectator, "#alerts", refused)
    wait_text(spectator, "#state-line", refused)
    wait_text(board, "#state-line", refused)
    spectator.screenshot(path=str(Path(spanish.session.store.path).parent / "es.png"))

    type_square(board, 13, "casilla")
    type_square(board, 21, "casilla")
    wait_text(spectator, "#state-line", "Juegan las blancas")
    # The referee's refused actions are answered in Spanish too (the 422's message, docs/api.md).
    referee.click("#resume")
    wait_text(referee, ".message.answer.error", "no se puede reanudar: el reloj ya está en marcha")
    referee.fill("#correct-form [name=ply]", "9")
    referee.fill("#correct-form [name=move]", "11-16")
    referee.click("#correct-form button")
    wait_text(
        referee,
        "#correct-form .message.answer.error",
        "media jugada 9: la partida tiene las medias jugadas 1 a 1",
    )
    # The engine's refusals too, what was typed quoted as it was (docs/api.md).
    referee.fill("#correct-form [name=ply]", "1")
    referee.fill("#correct-form [name=move]", "11-33")
    referee.click("#correct-form button")
    wait_text(
        referee,
        "#correct-form .message.answer.error",
        "media jugada 1: '11-33': la casilla 33 no es una casilla oscura del 1 al 32 (R-BRD-2)",
    )
    referee.fill("#details-form [name=time_control]", "300+x")
    referee.click("#details-form button")
    wait_text(
        referee,
        "#details-form .message.answer.error",
        "control de tiempo '300+x': '300+x' no es un tramo: se espera SEGUNDOS o JUGADAS/SEGUNDOS",
    )
    referee.on("dialog", lambda dialog: dialog.accept())
    referee.fill("#position-form [name=fen]", "X:W1:B2")
    referee.click("#position-form button[type=submit]")
    wait_text(
        referee,
        "#position-form .message.answer.error",
        "FEN 'X:W1:B2': el bando que juega debe ser B o W, no 'X'",
    )
    # The result with its reason in full; the referee's page with the rules it cites, the
    # audience's without (docs/web.md).
    spanish.session.end_game("referee", "resign", Color.BLACK)
    wait_text(spectator, "#game-over", "Ganan las blancas — Negras abandonan")
    wait_text(referee, "#state-line", "Ganan las blancas — Negras abandonan")
    wait_text(referee, "#match-results", "partida 1: 0-1 Ganan las blancas — Negras abandonan")

    # The referee's details line, audit and recorded games in Spanish, times in its locale.
    wait_text(referee, "#details-for", "vale para la siguiente partida")
    referee.fill("#details-form [name=time_control]", "apca-match")  # the refused one put right
    referee.fill("#details-form [name=event]", "Club")
    referee.click("#details-form button[type=submit]")
    wait_text(referee, "#details-for", "vale para la siguiente partida; ya fijado: torneo Club")
    heads = referee.locator("table.log thead th").all_inner_texts()
    assert heads == ["hora", "árbitro", "acción", "detalles"]
    # The whole form is sent: the time control it shows goes with the event.
    wait_text(referee, "#audit", "torneo: Club, control de tiempo: apca-match, para: la siguiente")
    audit = referee.request.get(spanish.url + "/api/referee/audit").json()
    ended = next(entry for entry in audit if entry["action"] == "result")
    row = referee.locator("#audit tr", has_text="registró el resultado").locator("td")
    assert row.all_inner_texts() == [
        referee.evaluate("time => new Date(time).toLocaleTimeString('es')", ended["time"]),
        "referee",
        "registró el resultado",
        "cómo: un jugador abandona, bando: Negras",  # no reason given: none shown
    ]
    wait_text(referee, "#games", "0-1 (1 media jugada)")

    # The reader's own choice, kept by this browser: English on every page from now on.
    spectator.select_option("#language", "en")
    spectator.wait_for_function("document.documentElement.lang === 'en'", timeout=TIMEOUT)
    wait_text(spectator, "#flip", "flip")
    wait_text(spectator, ".player.black .name", "Black")
    wait_text(spectator, "#clock-note", "45 minutes a side for the whole match")
    board.reload()
    board.wait_for_selector(".conn.live", timeout=TIMEOUT)
    assert text_of(board, "#setup") == "set up the position"
    context.close()


def test_a_draw_count_is_told_in_spanish(browser, tmp_path: Path) -> None:
    server = Live(
        tmp_path,
        display=DisplayConfig(language="es"),
        rules=RulesConfig(fen="B:WK31,K32,5,25:BK10"),
    )
    try:
        board = server.session.sensor
        board.set_occupied({31, 32, 5, 25, 10})
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        spectator = context.new_page()
        spectator.goto(server.url + "/")
        spectator.wait_for_selector(".conn.live", timeout=TIMEOUT)
        wait_text(spectator, "#state-line", "Juegan las negras")
        assert text_of(spectator, ".player.black .pieces").endswith("1 pieza")  # not "1 piezas"
        server.session.invoke_count("referee", Color.BLACK)  # the weaker side asks (R-DRW-4)
        wait_text(
            spectator,
            "#counts",
            "R-DRW-4: cuenta del bando fuerte: Negras han hecho 0 de 30 jugadas",
        )
        context.close()
    finally:
        server.close()


def test_a_refused_hint_is_said_in_spanish(browser, tmp_path: Path) -> None:
    """The hint's 409 carries its message and values: the page says why in Spanish."""
    server = Live(
        tmp_path, display=DisplayConfig(language="es"), rules=RulesConfig(profile="casual")
    )
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        spectator = context.new_page()
        spectator.goto(server.url + "/")
        spectator.wait_for_selector(".conn.live", timeout=TIMEOUT)
        spectator.click("#hint")  # no position on the board yet
        wait_text(spectator, "#hint-message", "primero coloque la posición")
        context.close()
    finally:
        server.close()


def test_what_the_computer_does_is_said_in_spanish(browser, tmp_path: Path) -> None:
    """The opponent line comes with its words (opponent.said): what the computer waits for and
    the move it has chosen, in Spanish, the move in PDN as it is (docs/opponents.md)."""
    opponent = OpponentConfig(kind="engine", side="white", level=1)
    server = Live(tmp_path, display=DisplayConfig(language="es"), opponent=opponent)
    try:
        context, spectator, board = spectator_and_board(browser, server.url)
        wait_text(
            spectator, "#opponent-line", "juega con Blancas: coloque la posición en el tablero"
        )
        board.click("#setup")
        tap(board, 11)
        tap(board, 15)
        spectator.wait_for_function(
            "() => document.getElementById('opponent-line').textContent.includes(': mueve ')",
            timeout=TIMEOUT,
        )
        move = server.session.state()["opponent"]["move"]
        assert text_of(spectator, "#opponent-line").endswith(f"juega con Blancas: mueve {move}")
        context.close()
    finally:
        server.close()


@needs_mosquitto
def test_a_remote_game_s_disagreement_is_said_in_spanish(
    browser,
    tmp_path: Path,
    broker,  # noqa: F811 (the fixture imported above)
) -> None:
    """The other board's name until it says its own, and what the two boards disagree on, come
    with their words (opponent.name_said, opponent.problem_said): in Spanish, the values as sent
    (docs/remote.md)."""
    link = loopback_link(broker.port, "t1", "host", INVITE)
    opponent = OpponentConfig(kind="remote", side="white")
    server = Live(tmp_path, display=DisplayConfig(language="es"), opponent=opponent, remote=link)
    other = None
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        spectator = context.new_page()
        spectator.goto(server.url + "/")
        spectator.wait_for_selector(".conn.live", timeout=TIMEOUT)
        waiting = "juega con Blancas: coloque la posición en el tablero"
        wait_text(spectator, "#opponent-line", f"el otro tablero, {waiting}")
        other = Board_(broker.port, "t2", "guest", "black").start()  # it wants Black too
        wait_text(
            spectator,
            "#opponent-line",
            f"t2, {waiting} · los tableros no coinciden (color que juega): el otro tablero "
            "tiene 'black', este espera 'white'; dé a ambos la misma partida (docs/remote.md)",
        )
        context.close()
    finally:
        if other is not None:
            other.link.stop()
        server.close()


def test_a_lost_sensor_link_is_said_in_spanish(browser, tmp_path: Path) -> None:
    """The link's detail comes with its words (link.said): "CAÍDA" and why in Spanish, the USB
    id as it is; a sensor that words only its detail is quoted as it is (docs/web.md)."""
    sensor = LinkedBoard()
    server = Live(tmp_path, sensor=sensor, display=DisplayConfig(language="es"))
    try:
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector(".conn.live", timeout=TIMEOUT)
        sensor.link(False, Phrase("waiting for a board with USB id {usb}", usb="2E8A:000A"))
        wait_text(
            page,
            "#alerts",
            "conexión del sensor CAÍDA: esperando un tablero con identificador USB 2E8A:000A",
        )
        sensor.link(True, "back")
        page.wait_for_function(
            "() => document.getElementById('alerts').textContent === ''", timeout=TIMEOUT
        )
        sensor.link(False, "unplugged")
        wait_text(page, "#alerts", "conexión del sensor CAÍDA: unplugged")
        context.close()
    finally:
        server.close()


def test_a_stuck_square_is_said_in_spanish_on_the_referee_console(browser, tmp_path) -> None:
    """The tracker's sensor faults come with their words (faults' said): a square that keeps
    reading occupied after a move is named in Spanish on the console, and in English for a
    reader who chose English (docs/web.md)."""
    sensor = SimulatedBoard()
    server = Live(tmp_path, sensor=sensor, display=DisplayConfig(language="es"))
    try:
        context = browser.new_context(
            viewport={"width": 1024, "height": 768},
            http_credentials={"username": "referee", "password": PASSWORD},
        )
        referee = context.new_page()
        referee.goto(server.url + "/referee")
        sensor.set_occupied(START)
        wait_text(referee, "#state-line", "Juegan las negras")
        sensor.set_occupied(START | {15})  # 11-15 played, and 11 still reads occupied
        stuck = "la casilla 11 se sigue leyendo ocupada: si su pieza está donde debe"
        # The tracker waits 5 s (its stuck time, docs/tracker.md) before it suspects the square.
        referee.wait_for_function(
            "(wanted) => document.getElementById('alerts').textContent.includes(wanted)",
            arg=stuck,
            timeout=5000 + TIMEOUT,
        )
        referee.goto(server.url + "/referee?lang=en")
        wait_text(referee, "#alerts", "square 11 still reads occupied: if its piece is where")
        context.close()
    finally:
        server.close()


def test_a_move_not_recorded_is_said_in_spanish(browser, tiny_disk) -> None:
    """A full disk (a real 512 KiB tmpfs): "NO REGISTRADO" on the spectator page and the
    referee's console, the store's own error quoted as it is (docs/web.md)."""
    sensor = SimulatedBoard()
    server = Live(tiny_disk.folder, sensor=sensor, display=DisplayConfig(language="es"))
    try:
        context = browser.new_context(
            viewport={"width": 1024, "height": 768},
            http_credentials={"username": "referee", "password": PASSWORD},
        )
        spectator, referee = context.new_page(), context.new_page()
        spectator.goto(server.url + "/")
        referee.goto(server.url + "/referee")
        sensor.set_occupied(START)
        wait_text(spectator, "#state-line", "Juegan las negras")
        tiny_disk.fill()
        sensor.set_occupied(START - {11})
        sensor.set_occupied(START - {11} | {15})
        for page in (spectator, referee):
            wait_text(page, "#alerts", "NO REGISTRADO: ")
            wait_text(page, "#alerts", "; el tablero debe volver a la última posición registrada")
        assert "NOT RECORDED" not in text_of(spectator, "#alerts")
        context.close()
    finally:
        server.close()


def test_the_closed_referee_console_says_how_to_open_it_in_spanish(browser, tmp_path) -> None:
    """Without a referee password /referee says how to set one in the board's language; the
    config lines and commands stay as they are typed."""
    server = Live(tmp_path, password="", display=DisplayConfig(language="es"))
    try:
        page = browser.new_page()
        assert page.goto(server.url + "/referee").status == 503
        wait_text(page, "h1", "La consola del árbitro está cerrada")
        assert page.evaluate("document.documentElement.lang") == "es"
        assert page.title() == "poolboard — consola del árbitro cerrada"
        assert 'password = "choose-a-long-one"' in page.inner_text("pre")
        assert serious(page) == []
        page.close()
    finally:
        server.close()


def test_the_big_screen_switches_language_too(browser, spanish: Live) -> None:
    """/big has the language list the other pages have; the choice keeps the big screen."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    big = context.new_page()
    big.goto(spanish.url + "/big")
    big.wait_for_selector(".conn.live", timeout=TIMEOUT)
    assert text_of(big, "#fullscreen") == "pantalla completa"
    assert big.input_value("#language") == "es"
    with big.expect_navigation():
        big.select_option("#language", "en")
    big.wait_for_selector(".conn.live", timeout=TIMEOUT)
    assert big.evaluate("document.documentElement.lang") == "en"
    assert big.evaluate("location.pathname") == "/big" and big.locator("body.big").count() == 1
    assert text_of(big, "#fullscreen") == "full screen"
    context.close()


def test_a_spanish_page_shows_no_english_before_its_words_load(browser, spanish: Live) -> None:
    """Held before its catalogue arrives, a Spanish page shows nothing (no English flash);
    once the words load it shows in Spanish. An English page never waits."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    held = []
    page.route("**/api/messages/es", lambda route: held.append(route))
    with page.expect_request("**/api/messages/es"):
        page.goto(spanish.url + "/", wait_until="commit")
    hidden = "getComputedStyle(document.body).visibility"
    page.wait_for_function("() => document.body !== null", timeout=TIMEOUT)
    assert held and page.evaluate(hidden) == "hidden"
    held[0].continue_()
    page.wait_for_function("() => !document.documentElement.classList.contains('translating')")
    assert page.evaluate(hidden) == "visible"
    assert text_of(page, "#flip") != "flip"  # in Spanish
    english = context.new_page()
    english.goto(spanish.url + "/?lang=en", wait_until="domcontentloaded")
    assert english.evaluate(hidden) == "visible"
    context.close()
