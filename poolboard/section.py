"""The base of every config file's sections (board.toml, HALL.toml): typed keys, checked once.

A :class:`Section` is a frozen pydantic model that refuses unknown keys and converts nothing but
an integer to a number; :func:`one_of`, :func:`between` and :func:`no_control` are the value
rules the sections share, each raising an error that says what was expected.
"""

from __future__ import annotations

import unicodedata

from pydantic import AfterValidator, BaseModel, ConfigDict


class Section(BaseModel):
    """A config section: every key typed (an integer is a number too, ``true`` is neither),
    unknown keys refused, read-only once loaded."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def one_of(*choices: str) -> AfterValidator:
    """A string that must be one of ``choices``."""

    def check(value: str) -> str:
        if value not in choices:
            expected = " or ".join(choices) if len(choices) == 2 else "one of " + ", ".join(choices)
            raise ValueError(f"expected {expected}, got {value!r}")
        return value

    return AfterValidator(check)


def between(low: float, high: float, what: str) -> AfterValidator:
    """A number from ``low`` to ``high``; ``what`` says so in the error (``0-30 seconds``)."""

    def check(value: float) -> float:
        if not low <= value <= high:
            raise ValueError(f"expected {what}, got {value}")
        return value

    return AfterValidator(check)


def no_control(why: str) -> AfterValidator:
    """A string without control characters (Unicode category Cc: tab, newline, NUL...)."""

    def check(value: str) -> str:
        if any(unicodedata.category(char) == "Cc" for char in value):
            raise ValueError(why)
        return value

    return AfterValidator(check)
