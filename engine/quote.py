"""Quoting input text in error messages, cut short: a 10 MB token must not become a 10 MB message.

>>> quoted("11/15")
"'11/15'"
>>> quoted("x" * 100, limit=8)
"'xxxxxxxx...' (100 characters)"
"""

from __future__ import annotations

#: How much of a piece of input an error message shows by default.
EXCERPT_LENGTH = 40


def quoted(text: str, limit: int = EXCERPT_LENGTH) -> str:
    """``text`` as a Python literal for a message, its first ``limit`` characters if longer."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit] + '...'!r} ({len(text)} characters)"
