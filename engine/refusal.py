"""A rule's refusal of an action, worded so that a program can say it in another language.

>>> error = Refusal("the game is over already ({result})", result="1-0")
>>> str(error), error.message, error.values
('the game is over already (1-0)', 'the game is over already ({result})', {'result': '1-0'})
"""

from __future__ import annotations

from engine.phrase import Phrase, Value

__all__ = ["Refusal", "Value"]


class Refusal(ValueError):
    """``message`` is English with ``{name}`` places for ``values`` (the key a translation is
    looked up by, so it is a literal wherever one is raised); ``str()`` is the English sentence.
    A value may be a :class:`Phrase`: another refusal's words within this one's."""

    def __init__(self, message: str, **values: Value) -> None:
        super().__init__(message.format(**values) if values else message)
        self.message = message
        self.values = values

    @property
    def phrase(self) -> Phrase:
        """The refusal's words, to quote within another's or to send to a page."""
        return Phrase(self.message, **self.values)
