"""Speech through Debian's espeak-ng, to the default audio output or into a WAV file.

A sentence is one run of ``espeak-ng``; a failing or missing audio device costs only the voice
(logged once until it works again, tried again every :data:`RETRY_EVERY` seconds), and a device
that hangs is given up on after :data:`SPEAK_TIMEOUT` seconds.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import time
from pathlib import Path

from poolboard.config import VoiceConfig

log = logging.getLogger("poolboard.voice")

#: espeak-ng's voice for each language: American English, Latin American Spanish (Puerto Rico).
VOICES = {"en": "en-us", "es": "es-419"}
#: While the audio output fails, it is tried again at most this often (seconds); the sentences
#: in between are not said (nobody could hear them) and cost no CPU.
RETRY_EVERY = 10.0
#: The longest a sentence may take to say before its device is taken to hang.
SPEAK_TIMEOUT = 30.0
PACKAGE = "espeak-ng"


class VoiceUnavailable(RuntimeError):
    """The speech program cannot be run; the message says what to install."""


def espeak_command(settings: VoiceConfig, language: str, *, wav: Path | None = None) -> list[str]:
    """The command that says the text on its standard input in ``language`` (``-w``: into
    ``wav`` instead of the audio output)."""
    command = [settings.program, "-v", VOICES[language]]
    command += ["-a", str(settings.volume), "-s", str(settings.rate)]
    return command + (["-w", str(wav)] if wav is not None else [])


def check_program(settings: VoiceConfig) -> str:
    """The speech program's full path; :class:`VoiceUnavailable` naming the package if it is
    not installed."""
    found = shutil.which(settings.program)
    if found is None:
        if settings.program == PACKAGE:
            why = f"espeak-ng is not installed: install Debian's package {PACKAGE}"
        else:
            why = f"{settings.program!r} ([voice] program) is not found"
        raise VoiceUnavailable(f"voice: {why}; the board goes on without a voice")
    return found


class Speaker:
    """Says one sentence at a time with espeak-ng (:meth:`say` returns when it is said)."""

    def __init__(self, settings: VoiceConfig, language: str) -> None:
        self.command = espeak_command(settings, language)
        self._failing = False
        self._retry_at = 0.0
        #: Why the last sentence was not said (``""`` once one is).
        self.problem = ""

    def say(self, text: str) -> bool:
        """Say ``text``; ``False`` (logged once until speech works again) if the audio output
        failed or hung, or is left alone for a while after failing. Never raises: a silent board
        still plays."""
        if self._failing and time.monotonic() < self._retry_at:
            return False
        try:
            done = subprocess.run(
                self.command,
                input=text,
                text=True,
                capture_output=True,
                timeout=SPEAK_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return self._failed(f"saying one sentence took over {SPEAK_TIMEOUT:.0f} s")
        except OSError as error:
            return self._failed(f"cannot run {self.command[0]}: {error.strerror}")
        # espeak-ng exits 0 when the audio device is missing, saying so on its stderr.
        problem = [line for line in done.stderr.splitlines() if line.startswith("error")]
        if done.returncode != 0 or problem:
            last = (problem or done.stderr.splitlines() or [f"exit {done.returncode}"])[-1]
            return self._failed(f"the audio output failed ({last})")
        if self._failing:
            log.info("voice: the audio output works again")
        self._failing, self.problem = False, ""
        return True

    def _failed(self, why: str) -> bool:
        self.problem = why
        if not self._failing:
            log.warning("voice: %s; the game goes on without speech", why)
        self._failing = True
        self._retry_at = time.monotonic() + RETRY_EVERY
        return False
