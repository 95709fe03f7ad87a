"""Opponents played off the board: the interface (:mod:`.base`) and the computer (:mod:`.computer`).

``make_opponent(config)`` builds the one ``[opponent] kind`` names (docs/opponents.md).
"""

from __future__ import annotations

from engine.color import Color
from poolboard.config import OpponentConfig
from poolboard.opponents.base import Answer, Opponent, Position

__all__ = ["Answer", "Opponent", "Position", "make_opponent"]


def make_opponent(config: OpponentConfig) -> Opponent | None:
    """The opponent ``config`` asks for; ``None`` for ``kind = "none"`` (two players here)."""
    if config.kind == "none":
        return None
    if config.kind == "engine":
        from poolboard.opponents.computer import ComputerOpponent

        return ComputerOpponent(Color(config.side), config.level)
    raise ValueError(f"[opponent] kind: no opponent of kind {config.kind!r}")
