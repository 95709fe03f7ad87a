"""``[voice]`` and ``[display]`` in board.toml: typed keys, clear errors (docs/voice.md)."""

import pytest

from poolboard.config import ConfigError, config_from_mapping


def test_the_voice_section_is_read_with_its_kinds_turned_off() -> None:
    config = config_from_mapping(
        {"voice": {"enabled": True, "rate": 200, "volume": 60, "clock": False}}
    )
    assert config.voice.enabled and config.voice.rate == 200 and config.voice.volume == 60
    assert not config.voice.clock and config.voice.moves
    assert config.voice_language == "en"


def test_the_voice_speaks_the_display_language_unless_told_otherwise() -> None:
    assert config_from_mapping({"display": {"language": "es"}}).voice_language == "es"
    both = config_from_mapping({"display": {"language": "es"}, "voice": {"language": "en"}})
    assert both.voice_language == "en"


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"voice": {"rate": 20}}, r"\[voice\] rate: expected 80-450 words a minute, got 20"),
        ({"voice": {"volume": 300}}, r"\[voice\] volume: expected 0-200"),
        ({"voice": {"enabled": "yes"}}, r"\[voice\] enabled: expected true or false"),
        ({"voice": {"language": "fr"}}, r"\[voice\] language: expected en or es \(or leave it out"),
        ({"display": {"language": "fr"}}, r"\[display\] language: expected en or es, got 'fr'"),
        ({"voice": {"program": " "}}, r"\[voice\] program: empty"),
        ({"voice": {"speed": 1}}, r"\[voice\] speed: unknown key; expected one of enabled"),
    ],
)
def test_a_wrong_voice_setting_is_named(data: dict, error: str) -> None:
    with pytest.raises(ConfigError, match=error):
        config_from_mapping(data, "board.toml")
