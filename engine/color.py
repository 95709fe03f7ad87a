"""The two sides of a pool checkers game (R-BRD-3: Black, the darker pieces, moves first)."""

from __future__ import annotations

import enum


class Color(enum.Enum):
    """A side. ``Color.BLACK`` starts on squares 1-12 and moves first; ``Color.WHITE`` on 21-32."""

    BLACK = "black"
    WHITE = "white"

    @property
    def opponent(self) -> Color:
        """The other side."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """``"B"`` or ``"W"``, as in FEN and PDN."""
        return "B" if self is Color.BLACK else "W"

    @classmethod
    def from_letter(cls, letter: str) -> Color:
        """``"B"``/``"W"`` (any case) to a colour; ``ValueError`` otherwise."""
        try:
            return {"B": cls.BLACK, "W": cls.WHITE}[letter.upper()]
        except KeyError:
            raise ValueError(f"expected a side letter B or W, got {letter!r}") from None
