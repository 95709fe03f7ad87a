"""The one error a PDN reader raises: what was wrong and exactly where, as ``file:line:column``."""

from __future__ import annotations


class PdnError(ValueError):
    """Bad PDN text, e.g. ``games.pdn:14:9: expected a move or a result, got '11/15'``.

    ``name``, ``line`` and ``column`` (both 1-based) locate it; ``reason`` is the bare message.
    """

    def __init__(self, name: str, line: int, column: int, reason: str) -> None:
        super().__init__(f"{name}:{line}:{column}: {reason}")
        self.name = name
        self.line = line
        self.column = column
        self.reason = reason
