"""What the browser tests do on a page: find a square, tap it, wait for words, take a picture.

Set POOLBOARD_SCREENSHOTS=docs/screenshots to save the pages' pictures.
"""

import os
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe

from tests.patience import PATIENCE_MS

SHOTS = os.environ.get("POOLBOARD_SCREENSHOTS")
TIMEOUT = PATIENCE_MS  # for anything to appear


def shoot(page, name: str, *, full_page: bool = False) -> None:
    """Save a screenshot when asked; blinking cues are caught in their lit half (the
    animations are held at their start, which is lit), so the pictures do not depend on timing."""
    if SHOTS:
        page.screenshot(
            path=str(Path(SHOTS) / f"{name}.png"), animations="disabled", full_page=full_page
        )


def centre(page, square: int) -> tuple[float, float]:
    """Where square ``square`` is on screen (the board seen from White, not flipped)."""
    box = page.locator("#board").bounding_box()
    row = (square - 1) // 4
    col = ((square - 1) % 4) * 2 + (1 if row % 2 == 0 else 0)
    cell = box["width"] / 8
    return box["x"] + (col + 0.5) * cell, box["y"] + (row + 0.5) * cell


def tap(page, square: int) -> None:
    page.mouse.click(*centre(page, square))


def wait_moves(page, expected: list[str]) -> None:
    page.wait_for_function(
        "expected => [...document.querySelectorAll('#moves td')].map(td => td.textContent)"
        ".filter(Boolean).join(' ') === expected",
        arg=" ".join(expected),
        timeout=TIMEOUT,
    )


def spectator_and_board(browser, url: str):
    """A desktop browser with the spectator page and the virtual board open and live:
    (context, spectator, board)."""
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    pages = []
    for path in ("/", "/board"):
        page = context.new_page()
        page.goto(url + path)
        page.wait_for_selector(".conn.live", timeout=TIMEOUT)
        pages.append(page)
    return context, *pages


def text_of(page, selector: str) -> str:
    return page.locator(selector).inner_text()


def wait_text(page, selector: str, wanted: str) -> None:
    """Until the element's text holds ``wanted``."""
    page.wait_for_function(
        "([selector, wanted]) => document.querySelector(selector)?.textContent.includes(wanted)",
        arg=[selector, wanted],
        timeout=TIMEOUT,
    )


def serious(page) -> list[str]:
    """axe-core's serious and critical findings on ``page``, one line each."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']}: "
        + "; ".join(node["target"][0] for node in v["nodes"][:3])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def tab_to(page, element_id: str) -> None:
    """Press Tab until ``element_id`` has the focus, as a keyboard user would."""
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.id") == element_id:
            return
    raise AssertionError(f"Tab never reaches #{element_id}")


def type_square(page, square: int, word: str = "square") -> None:
    """Go to ``square`` by typing its number and lift or put down there (Enter); ``word``:
    "square" in the page's language."""
    page.keyboard.type(str(square))
    wait_text(page, "#cursor-line", f"{word} {square}:")
    page.keyboard.press("Enter")
