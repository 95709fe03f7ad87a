"""Opponents played off the board: the interface (:mod:`.base`) and the computer (:mod:`.computer`).

``make_opponent(config)`` builds the one ``[opponent] kind`` names (docs/opponents.md).
"""

from __future__ import annotations

from engine.color import Color
from poolboard.config import OpponentConfig
from poolboard.opponents.base import Answer, Opponent, Position
from poolboard.remote.settings import RemoteLinkConfig

__all__ = ["Answer", "Opponent", "Position", "make_opponent"]


def make_opponent(
    config: OpponentConfig, remote: RemoteLinkConfig | None = None
) -> Opponent | None:
    """The opponent ``config`` asks for; ``None`` for ``kind = "none"`` (two players here).
    ``remote``: the ``[remote]`` section, for ``kind = "remote"`` (docs/remote.md)."""
    if config.kind == "none":
        return None
    if config.kind == "engine":
        from poolboard.opponents.computer import ComputerOpponent

        return ComputerOpponent(Color(config.side), config.level)
    if config.kind == "remote" and remote is not None:
        from poolboard.remote.opponent import RemoteOpponent

        return RemoteOpponent(Color(config.side), remote)
    raise ValueError(f"[opponent] kind: no opponent of kind {config.kind!r}")
