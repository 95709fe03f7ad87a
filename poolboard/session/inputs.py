"""What goes into the session core: every input is one of these, handled one at a time.

Each kind of input is a small frozen dataclass with its own :meth:`Input.handle`, the one
handler for that kind (the sensor's readings in :mod:`.sensing`, the referee's commands in
:mod:`.referee`, the opponent's move in :mod:`.opponent`, a remote board's news in
:mod:`poolboard.remote.inputs`, hints in :mod:`.hints`). The core queues inputs from every
thread and runs their handlers in arrival order under its lock
(:meth:`poolboard.session.Session.submit`), so a handler never races another and sees the game
exactly as the inputs before it left it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Generic, TypeVar

from engine.refusal import Refusal

if TYPE_CHECKING:
    from poolboard.session.core import Session

R = TypeVar("R", covariant=True)


class RefereeError(Refusal):
    """An action (the referee's, a hint, a remote board's) that cannot be done; the message
    says why.

    ``message`` is English with ``{name}`` places for ``values``, the key a page looks up in
    its language's catalogue (so each literal one is a message of poolboard/locale); ``str()``
    is the English sentence, for logs and programs. An engine's :class:`Refusal` is passed on
    with its own message and values; other text is passed on as it is, English in every
    language.

    >>> error = RefereeError("the game is over already ({result})", result="1-0")
    >>> str(error), error.message, error.values
    ('the game is over already (1-0)', 'the game is over already ({result})', {'result': '1-0'})
    """

    @classmethod
    def passing_on(cls, error: ValueError) -> RefereeError:
        """``error`` as the referee is told it: a :class:`Refusal` in its own words and values
        (said in the page's language), other text as it is."""
        if isinstance(error, Refusal):
            return cls(error.message, **error.values)
        return cls(str(error))


class Input(ABC, Generic[R]):
    """One input to the core; :meth:`handle` applies it (on the core's turn) and answers."""

    @abstractmethod
    def handle(self, core: Session) -> R:
        """Apply this input to ``core`` (its lock held, nothing else running in it)."""
