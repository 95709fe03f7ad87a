"""The languages poolboard speaks and shows: English (the source text) and Spanish.

Every message a player, a referee or a director reads or hears is written in English in the code
and looked up in the language's gettext catalogue (``locale/es/LC_MESSAGES/poolboard.po``, kept
with Babel); rule IDs, square numbers, PDN and the API stay as they are in every language.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

#: The languages with a catalogue; English needs none (the messages are written in it).
LANGUAGES = ("en", "es")
DOMAIN = "poolboard"
FOLDER = Path(__file__).parent


def catalogue_path(language: str) -> Path:
    """Where the ``.po`` catalogue of ``language`` is kept."""
    return FOLDER / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translation(language: str) -> gettext.NullTranslations:
    """The translations of ``language`` (one of :data:`LANGUAGES`); English: the text itself.

    The ``.po`` file is compiled when first needed, so the catalogue in the repository is the
    only copy (no ``.mo`` file to fall out of step with it)."""
    if language not in LANGUAGES:
        raise ValueError(f"no messages in {language!r}: expected one of {', '.join(LANGUAGES)}")
    if language == "en":
        return gettext.NullTranslations()
    with open(catalogue_path(language), "rb") as handle:
        catalogue = read_po(handle, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@cache
def messages(language: str) -> dict[str, str]:
    """Every translated message of ``language``, English text to its translation (what the
    pages look their words up in); empty for English. Read once: do not change the result."""
    if language == "en":
        return {}
    with open(catalogue_path(language), "rb") as handle:
        catalogue = read_po(handle, locale=language, domain=DOMAIN)
    return {str(m.id): str(m.string) for m in catalogue if m.id and isinstance(m.id, str)}
