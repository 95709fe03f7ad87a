"""Clock times in comments, ``{[%clk 0:44:51]}``: the mover's time left after the move.

Times are float seconds, written to the millisecond at most: ``split_clock(format_clock(t))``
gives back ``t`` itself for any time that has no finer part (e.g. ``9.5`` or ``2691.125``).
A clock is ``h:mm:ss`` with at most :data:`MAX_HOURS` hours, minutes and seconds below 60 and at
most three decimals; anything else in a ``[%clk ...]`` is not a clock time and stays comment text.
"""

from __future__ import annotations

import re
from decimal import Decimal

from engine.quote import quoted

#: The most hours a clock time may show (a clock of years is a typing slip, not a time).
MAX_HOURS = 99_999
_MS = Decimal("0.001")
_CLOCK = re.compile(r"\[%clk\s+(\d{1,5}):([0-5]?\d):([0-5]?\d(?:\.\d{1,3})?)\]")


def to_tenths(seconds: float) -> float:
    """A time left as recorded games write it: to the tenth of a second, never below 0 (a
    flag's overrun is not time left)."""
    return round(max(seconds, 0.0), 1)


def format_clock(seconds: float) -> str:
    """``[%clk h:mm:ss]`` for a time left, with decimals only when the time has them."""
    limit = Decimal((MAX_HOURS + 1) * 3600)
    exact = Decimal(repr(float(seconds))).quantize(_MS) if 0 <= seconds < limit else limit
    if exact >= limit:
        raise ValueError(
            f"a clock time must be a number of seconds from 0 to {MAX_HOURS} hours, got {seconds!r}"
        )
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
    """One comment's text holding a clock time (first) and the remark.

    ``ValueError`` for a remark holding a clock time when ``seconds`` is ``None``: it would read
    back as the move's clock.
    """
    if seconds is None:
        match = _CLOCK.search(comment)
        if match is not None:
            raise ValueError(
                f"the comment {quoted(comment)} holds the clock time {match.group(0)!r} but the "
                "move has no clock: it would read back as the clock; set the clock instead"
            )
        return comment
    return f"{format_clock(seconds)} {comment}".rstrip()
