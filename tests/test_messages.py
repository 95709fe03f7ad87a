"""Every message a player, a referee or a director reads or hears is in both catalogues: the
English text the code and the pages use has its Spanish translation, with the same ``{places}``,
and the Spanish catalogue holds nothing no longer used (poolboard/locale)."""

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from poolboard.hall.web import HALL_PAGES, compose
from poolboard.locale import catalogue_path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "poolboard" / "web" / "static"
HALL_STATIC = ROOT / "poolboard" / "hall" / "static"
#: Each page as served: the board's as they are, the hall's put together from their parts.
PAGES = {str(p.relative_to(ROOT)): p.read_text() for p in sorted(STATIC.glob("*.html"))} | {
    f"hall page {page}": compose(page) for page in HALL_PAGES
}
SCRIPTS = sorted(STATIC.glob("*.js")) + sorted(HALL_STATIC.glob("*.js"))
#: What the pages translate: an element's text and these attributes (poolboard.js translatePage).
ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
#: A literal passed to the pages' t(): t("...") or t('...').
T_CALL = re.compile(r"""\bt\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")
VOID = {"meta", "link", "input", "img", "br"}
#: What the engine words its messages with: a refusal of each kind, and a phrase.
ENGINE_WORDS = (
    "Refusal",
    "ClockError",
    "TimeControlError",
    "FenError",
    "InvalidMoveError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "Phrase",
)


class _PageText(HTMLParser):
    """The words of a page as translatePage sees them: text and attributes outside elements
    marked translate="no", whitespace collapsed, only what holds a letter."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._kept: list[bool] = []  # per open element: whether its words stay as they are

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        kept = values.get("translate") == "no" or tag in ("script", "style") or any(self._kept)
        if tag not in VOID:
            self._kept.append(kept)
        if not kept:
            self.found += [_words(values.get(name) or "") for name in ATTRIBUTES]

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self._kept:
            self._kept.pop()

    def handle_data(self, data: str) -> None:
        if not any(self._kept):
            self.found.append(_words(data))


def _words(text: str) -> str:
    return " ".join(text.split())


def used() -> dict[str, str]:
    """Every message the code and the pages use, with where it is used."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "poolboard").rglob("*.py")):
        # Phrasebook's gettext and ngettext; a refusal's message and a phrase, which the pages
        # look up.
        keywords = {
            "_": None,
            "_n": (1, 2),
            "RefereeError": None,
            "Phrase": None,
            "ActionError": None,
            "EventError": None,
        }
        for _, message, _, _ in extract_from_file("python", path, keywords=keywords):
            for text in message if isinstance(message, tuple) else (message,):
                found.setdefault(text, str(path.relative_to(ROOT)))
    for path in sorted(
        path
        for folder in ("engine", "firmware_bridge", "hardware", "vision")
        for path in (ROOT / folder).rglob("*.py")
    ):
        # The engine's refusals and phrases, which the pages and the voice say as worded, and
        # the serial link's and the camera's words for their state (LinkHealth's said), the
        # GPIO matrix's for its faults (SensorFault's said).
        keywords = {name: None for name in ENGINE_WORDS} | {"joined": (2,)}
        for _, message, _, _ in extract_from_file("python", path, keywords=keywords):
            found.setdefault(str(message), str(path.relative_to(ROOT)))
    for name, html in PAGES.items():
        parser = _PageText()
        parser.feed(html)
        for text in parser.found:
            if re.search("[A-Za-z]", text):
                found.setdefault(text, name)
    for script in SCRIPTS:
        for double, single in T_CALL.findall(script.read_text()):
            found.setdefault(re.sub(r"\\(.)", r"\1", double or single), script.name)
    return found


def spanish() -> dict[str, tuple[str, ...]]:
    with open(catalogue_path("es"), "rb") as handle:
        catalogue = read_po(handle, locale="es")
    entries: dict[str, tuple[str, ...]] = {}
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            entries[text] = tuple(strings)
    return entries


def places(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_message_used_has_its_spanish_translation() -> None:
    translated = spanish()
    # A message with no entry counts as missing, as one with an empty translation does.
    missing = {
        text: where for text, where in used().items() if not all(translated.get(text, ("",)))
    }
    assert missing == {}, "add these to poolboard/locale/es/LC_MESSAGES/poolboard.po"


def test_the_spanish_catalogue_holds_only_messages_in_use() -> None:
    stale = set(spanish()) - set(used())
    assert stale == set(), "no longer used anywhere: remove from the catalogue"


def test_each_translation_keeps_the_places_of_its_message() -> None:
    wrong = {
        text: strings
        for text, strings in spanish().items()
        if any(places(string) != places(text) for string in strings)
    }
    assert wrong == {}


def test_the_pages_find_words_a_language_can_hold() -> None:
    found = used()
    assert "Tablero virtual" not in found  # translations are not message keys
    assert {"Virtual board", "set up the position", "White to move", "{n} minutes left"} <= set(
        found
    )
    assert "apca-match" not in found and "FEN" not in found  # kept as they are (translate="no")


def test_a_refusal_names_its_message_and_its_values_apart() -> None:
    """A RefereeError's (or an EventError's, or an engine Refusal's) message is a literal (a key
    the pages find in the catalogue) or an error passed on as it is; never an f-string, whose
    filled-in text no catalogue can hold."""
    built = []
    worded = ("poolboard", "engine", "firmware_bridge", "hardware", "vision")
    for path in sorted(path for folder in worded for path in (ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            # A ClockError with a filled-in message is about a damaged snapshot: for a program.
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in (
                "RefereeError",
                *(name for name in ENGINE_WORDS if name != "ClockError"),
                "ActionError",
                "EventError",
            ):
                built.append((path.name, node.lineno, node.args[0]))
    assert len(built) > 20
    formatted = [(name, line) for name, line, first in built if isinstance(first, ast.JoinedStr)]
    assert formatted == []
