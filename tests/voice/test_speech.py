"""Every announcement, rendered by the real espeak-ng into a WAV file (``espeak-ng -w``), holds
speech of a plausible length, in English and in Spanish (docs/voice.md)."""

import array
import subprocess
import wave
from pathlib import Path

import pytest

from poolboard.config import VoiceConfig
from poolboard.voice.speaker import espeak_command
from tests.voice.samples import every_sentence


def speech(path: Path) -> tuple[float, float]:
    """(seconds of sound, the share of 10 ms frames that are not silence) of a 16-bit WAV."""
    with wave.open(str(path)) as recording:
        assert recording.getsampwidth() == 2 and recording.getnchannels() == 1
        rate = recording.getframerate()
        samples = array.array("h", recording.readframes(recording.getnframes()))
    frame = rate // 100
    loud = [
        max(abs(s) for s in samples[i : i + frame]) > 1000
        for i in range(0, len(samples) - frame, frame)
    ]
    return len(samples) / rate, sum(loud) / max(len(loud), 1)


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_announcement_is_spoken_at_a_plausible_length(tmp_path: Path, language: str) -> None:
    settings = VoiceConfig(enabled=True)
    english = every_sentence("en")
    for name, text in every_sentence(language).items():
        assert text, f"{name}: nothing to say"
        if language == "es" and any(c.isalpha() for c in text):
            assert text != english[name], f"{name}: not translated: {text!r}"
        wav = tmp_path / f"{language}-{name}.wav"
        done = subprocess.run(
            espeak_command(settings, language, wav=wav),
            input=text,
            text=True,
            capture_output=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        seconds, voiced = speech(wav)
        # espeak-ng at 160 words a minute says some 12-16 characters a second: a sentence
        # cut short or read out letter by letter falls outside these bounds.
        assert len(text) / 40 < seconds < len(text) / 6 + 1.0, (name, text, seconds)
        assert voiced > 0.4, (name, text, voiced)


def test_a_slower_rate_says_the_same_sentence_for_longer(tmp_path: Path) -> None:
    text = every_sentence("en")["capture"]
    lengths = []
    for rate in (120, 300):
        wav = tmp_path / f"{rate}.wav"
        command = espeak_command(VoiceConfig(rate=rate), "en", wav=wav)
        subprocess.run(command, input=text, text=True, check=True, capture_output=True)
        lengths.append(speech(wav)[0])
    assert lengths[0] > 1.8 * lengths[1]


def test_a_lower_volume_says_the_same_sentence_more_quietly(tmp_path: Path) -> None:
    text = every_sentence("es")["must capture"]
    peaks = []
    for volume in (40, 160):
        wav = tmp_path / f"{volume}.wav"
        command = espeak_command(VoiceConfig(volume=volume), "es", wav=wav)
        subprocess.run(command, input=text, text=True, check=True, capture_output=True)
        with wave.open(str(wav)) as recording:
            samples = array.array("h", recording.readframes(recording.getnframes()))
        peaks.append(max(abs(s) for s in samples))
    assert peaks[1] > 2 * peaks[0]
