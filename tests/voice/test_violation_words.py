"""A violation is said in the tracker's own words, the ones the pages show (its ``said``), with
what to do and the squares: the rule IDs left out, each move said as a move, every number said
by espeak-ng as the players say it, in English and in Spanish (docs/voice.md)."""

import re
import subprocess

import pytest

from engine.phrase import Phrase
from poolboard.config import VoiceConfig
from poolboard.voice.phrases import Phrasebook
from poolboard.voice.speaker import espeak_command
from poolboard.words import said, without_rule_codes
from tests.voice.samples import violations

#: The squares of the must-capture sample as a player says them.
NUMBERS = {
    "en": {"1": "one", "5": "five", "14": "fourteen", "15": "fifteen"},
    "es": {"1": "uno", "5": "cinco", "14": "catorce", "15": "quince"},
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_each_violation_says_the_squares_the_pages_show(language: str) -> None:
    words = Phrasebook(language)
    for name, violation in violations().items():
        sentence = words.violation(violation)
        assert sentence is not None, name
        page = said(Phrase.from_json(violation["said"]), language)
        # The same squares and moves, in the same order: the page's words, not a second wording.
        squares = re.findall(r"\d+", without_rule_codes(page, language))
        assert re.findall(r"\d+", sentence) == squares, (name, sentence, page)
        assert "R-" not in sentence, (name, sentence)
        assert not re.search(r"\d[-x]\d", sentence), (name, sentence)  # a move in words


def test_a_forfeit_or_the_referee_is_said_once() -> None:
    words = Phrasebook("en")
    said_of = {name: words.violation(v) or "" for name, v in violations().items()}
    assert said_of["illegal again"].endswith(
        "then move the piece on 14: 14 to 17 or 14 to 18. Repeated: grounds to forfeit. "
        "Call the referee."
    )
    assert said_of["touch again"] == (
        "touch move: Black touched the piece on 2, which cannot be played: repeated, grounds "
        "to forfeit. Call the referee."
    )
    assert said_of["out of turn"].startswith("Black: 9 to 14 is out of turn: it is White's move")


def test_a_violation_put_right_at_once_is_not_said() -> None:
    violation = violations()["illegal"] | {"mended": "mended at once: 10-14 played"}
    assert Phrasebook("en").violation(violation) is None


@pytest.mark.parametrize(
    "words",
    [None, {"text": "x"}, {"message": "{move} is not a legal move", "values": {"piece": 10}}],
)
def test_a_violation_without_words_it_can_say_is_said_in_its_english(words: object) -> None:
    """Words missing (a tracker that wrote only its English) or that cannot be said (another
    program's): the sentence is the violation's English message, never an error."""
    violation = violations()["illegal"] | {"said": words}
    sentence = Phrasebook("es").violation(violation)
    assert sentence == "Negras: " + without_rule_codes(violation["message"], "es") + "."


@pytest.mark.parametrize("language", ["en", "es"])
def test_espeak_ng_says_the_squares_as_the_players_say_them(language: str) -> None:
    """The sentence's phonemes (``espeak-ng -x``, stress marks aside) are those of the same
    sentence with each number written as a word: "capture with fifteen", "capture con quince"."""
    sentence = Phrasebook(language).violation(violations()["must capture"])
    assert sentence is not None
    written = re.sub(r"\d+", lambda number: NUMBERS[language][number[0]], sentence)
    assert written != sentence

    def phonemes(text: str) -> str:
        command = [*espeak_command(VoiceConfig(), language), "-q", "-x"]
        done = subprocess.run(command, input=text, text=True, capture_output=True, check=True)
        return " ".join(done.stdout.translate({ord("'"): None, ord(","): None}).split())

    assert phonemes(sentence) == phonemes(written)
