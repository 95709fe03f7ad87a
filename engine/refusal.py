"""A rule's refusal of an action, worded so that a program can say it in another language.

>>> error = Refusal("the game is over already ({result})", result="1-0")
>>> str(error), error.message, error.values
('the game is over already (1-0)', 'the game is over already ({result})', {'result': '1-0'})
"""

from __future__ import annotations

#: A value in a refusal's message: a number, a result, a rule ID, what was typed.
Value = str | int | float


class Refusal(ValueError):
    """``message`` is English with ``{name}`` places for ``values`` (the key a translation is
    looked up by, so it is a literal wherever one is raised); ``str()`` is the English sentence."""

    def __init__(self, message: str, **values: Value) -> None:
        super().__init__(message.format(**values) if values else message)
        self.message = message
        self.values = values
