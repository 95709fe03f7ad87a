"""The three rule profiles (RULES.md, "Draw counts"): which draw rules apply and their limits.

>>> profile("apca").stronger_side_count, profile("apca").stronger_side_restart
(30, 20)
>>> profile("casual").quiet_play
25
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PROFILE = "apca"


@dataclass(frozen=True, slots=True)
class RulesProfile:
    """One rule profile's switches and limits; ``None`` switches a count off."""

    name: str
    description: str
    #: R-DRW-1: threefold repetition draws at any time (True) or only while a stronger-side count
    #: (R-DRW-4) runs (False, APCA 26 and seed 000 rule 12).
    repetition_always: bool
    #: R-DRW-2: the lone king's moves in a three-kings-v-one-king ending.
    thirteen_count: int | None
    #: R-DRW-3: the stronger side's moves to catch a lone king that holds the long diagonal.
    long_line: int | None
    #: R-DRW-4: the weaker side's moves the stronger side has to win in, once invoked ...
    stronger_side_count: int | None
    #: ... and the limit the count restarts at after a capture or a crowning.
    stronger_side_restart: int | None
    #: R-DRW-5: moves by each side in a row with no man move and no capture.
    quiet_play: int | None
    #: Touch-move and conduct breaches (R-TCH, R-ILL) are flagged for a referee's decision.
    referee_flags: bool
    #: Putting the previous position back on the board takes the last move back.
    takeback: bool


PROFILES: dict[str, RulesProfile] = {
    "apca": RulesProfile(
        name="apca",
        description="APCA tournament rules (the default for tournaments)",
        repetition_always=False,
        thirteen_count=13,
        long_line=5,
        stronger_side_count=30,
        stronger_side_restart=20,
        quiet_play=None,
        referee_flags=True,
        takeback=False,
    ),
    "classic": RulesProfile(
        name="classic",
        description="Rules of play after Ramsey and Kaplan (seed 000)",
        repetition_always=False,
        thirteen_count=13,
        long_line=None,
        stronger_side_count=40,
        stronger_side_restart=40,
        quiet_play=None,
        referee_flags=True,
        takeback=False,
    ),
    "casual": RulesProfile(
        name="casual",
        description="Friendly games as game sites play them (seeds 002 and 003)",
        repetition_always=True,
        thirteen_count=13,
        long_line=None,
        stronger_side_count=None,
        stronger_side_restart=None,
        quiet_play=25,
        referee_flags=False,
        takeback=True,
    ),
}


def profile(name: str) -> RulesProfile:
    """The profile of that name; ``ValueError`` listing the valid names otherwise."""
    try:
        return PROFILES[name]
    except KeyError:
        valid = ", ".join(PROFILES)
        raise ValueError(f"unknown rule profile {name!r}: expected one of {valid}") from None
