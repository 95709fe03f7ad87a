"""The board's voice: the game said aloud as the players would say it, in English or Spanish,
with Debian's espeak-ng (docs/voice.md)."""

from poolboard.voice.announcer import Announcer
from poolboard.voice.speaker import VoiceUnavailable, check_program

__all__ = ["Announcer", "VoiceUnavailable", "check_program"]
