"""The request bodies the API accepts, validated before anything reaches the session, and the
small answers it gives (each documented in /openapi.json).

Every field is checked (types are strict: ``"5"`` is not a square), so a bad request gets a 422
whose message names the field and what was wrong, never a server error.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StrictFloat,
    StrictInt,
    field_validator,
)

from engine.color import Color
from engine.sensing import occupancy

SideName = Literal["black", "white"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class BoardSnapshot(_Body):
    """The whole occupancy of the simulated board, as a reed matrix would report it."""

    occupied: Annotated[list[StrictInt], Field(max_length=32)] = Field(
        description="the dark squares (1-32, R-BRD-2) holding a piece; every other one is empty",
        examples=[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 21, 22, 23, 24]],
    )

    @field_validator("occupied")
    @classmethod
    def _squares(cls, squares: list[int]) -> list[int]:
        return sorted(occupancy(squares))  # ValueError names the first bad square


class SideBody(_Body):
    """A side: whose lever, whose clock, who is penalised."""

    side: SideName

    @property
    def color(self) -> Color:
        """The side as a :class:`Color`."""
        return Color(self.side)


class ClockAdjustment(SideBody):
    """Add time to (or, negative, take time from) one side's clock."""

    seconds: StrictInt | StrictFloat = Field(
        ge=-36_000, le=36_000, description="seconds to add; negative takes time"
    )

    @field_validator("seconds")
    @classmethod
    def _finite(cls, seconds: float) -> float:
        if not math.isfinite(seconds) or seconds == 0:
            raise ValueError("seconds must be a non-zero number")
        return seconds


class MoveCorrection(_Body):
    """Replace recorded move ``ply`` (1 = Black's first move) with ``move`` in PDN."""

    ply: StrictInt = Field(ge=1, le=10_000)
    move: str = Field(min_length=3, max_length=60, pattern=r"^[0-9x\-]+$", examples=["11-15"])


class PositionSetup(_Body):
    """A position to set up, in PDN FEN (``B:W21,22:B1,K2``)."""

    fen: str = Field(min_length=3, max_length=200, examples=["W:WK10:B19,27"])


class Penalty(SideBody):
    """A caution or forfeit against ``side`` for breaking ``rule`` (a RULES.md ID)."""

    rule: str = Field(pattern=r"^R-[A-Z]{3}-[0-9]{1,2}$", examples=["R-TCH-2", "R-ILL-1"])
    severity: Literal["caution", "forfeit"]
    note: str = Field(default="", max_length=500)


class Result(_Body):
    """A result declared by the referee, with the reason for the record."""

    result: Literal["1-0", "0-1", "1/2-1/2"]
    reason: str = Field(default="", max_length=200)


class Done(BaseModel):
    """The answer to an action the session took (a refused one is a 422 instead)."""

    ok: bool = True


class AuditEntry(BaseModel):
    """A referee action from the audit log: when (ISO 8601), who, what, and its details."""

    time: str
    actor: str
    action: str
    data: dict[str, JsonValue]


class PhoneLink(BaseModel):
    """The address a phone opens to follow the game, its QR code (SVG), and whether a phone
    can reach it (false for a loopback address)."""

    url: str
    svg: str
    reachable: bool
