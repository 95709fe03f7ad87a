"""The session: one board's game, run by one core that takes every input on one queue and tells
its subscribers typed events (docs/architecture.md)."""

from poolboard.session.core import Session
from poolboard.session.games import DETAIL_FIELDS
from poolboard.session.inputs import Input, RefereeError

__all__ = ["DETAIL_FIELDS", "Input", "RefereeError", "Session"]
