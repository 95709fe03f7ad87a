"""Clock times in comments, ``{[%clk 0:44:51]}``: the mover's time left after the move.

Times are float seconds, written to the millisecond at most: ``split_clock(format_clock(t))``
gives back ``t`` itself for any time that has no finer part (e.g. ``9.5`` or ``2691.125``).
"""

from __future__ import annotations

import re
from decimal import Decimal

_CLOCK = re.compile(r"\[%clk\s+(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)\]")


def format_clock(seconds: float) -> str:
    """``[%clk h:mm:ss]`` for a time left, with decimals only when the time has them."""
    if not seconds >= 0 or seconds == float("inf"):
        raise ValueError(f"a clock time must be a finite number of seconds >= 0, got {seconds!r}")
    exact = Decimal(repr(float(seconds))).quantize(Decimal("0.001"))
    hours, rest = divmod(exact, 3600)
    minutes, secs = divmod(rest, 60)
    whole, fraction = divmod(secs, 1)
    decimals = format(fraction.normalize(), "f").lstrip("0") if fraction else ""
    return f"[%clk {int(hours)}:{int(minutes):02d}:{int(whole):02d}{decimals}]"


def split_clock(comment: str) -> tuple[float | None, str]:
    """The first ``[%clk ...]`` time in a comment, if any, and the comment without it."""
    match = _CLOCK.search(comment)
    if match is None:
        return None, comment
    hours, minutes, secs = match.groups()
    seconds = float(Decimal(hours) * 3600 + Decimal(minutes) * 60 + Decimal(secs))
    rest = comment[: match.start()] + " " + comment[match.end() :]
    return seconds, " ".join(rest.split())


def join_clock(seconds: float | None, comment: str) -> str:
    """One comment's text holding a clock time (first) and the remark."""
    if seconds is None:
        return comment
    return f"{format_clock(seconds)} {comment}".rstrip()
