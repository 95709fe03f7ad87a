"""What the session core tells its subscribers: typed domain events, each about one change.

The core emits these while it handles an input and publishes them only once the change is stored
(one SQLite transaction), in the order they happened, followed by :class:`BoardChanged` with the
whole new state. A change the store refused publishes nothing of itself. Subscribers (the pages'
hub, the hall publisher, the LEDs) run on the core's thread, so they must return at once; one that
raises is logged and the others still hear (:class:`~poolboard.listeners.Listeners`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from engine.cues import Cues
from poolboard.listeners import Listeners
from poolboard.session.state import BoardState, Json, to_json


@dataclass(frozen=True)
class GameOpened:
    """A new game was created (not a resumed one): its start and its PDN tags."""

    game_id: int
    start_fen: str
    headers: dict[str, str]


@dataclass(frozen=True)
class MovePlayed:
    """Move ``ply`` (1-based) was recorded; ``fen`` after it and both clocks (seconds left)."""

    game_id: int
    ply: int
    notation: str
    fen: str
    black: float
    white: float


@dataclass(frozen=True)
class RecordRewritten:
    """The record changed from ``ply`` on: ``moves`` now stand there (a correction), or none
    (a takeback); ``fen``: the position after the record."""

    game_id: int
    ply: int
    moves: tuple[str, ...]
    fen: str

    @property
    def kind(self) -> str:
        """``takeback`` if moves were only taken away, else ``correction``."""
        return "correction" if self.moves else "takeback"


@dataclass(frozen=True)
class ViolationShown:
    """A rule was broken on the board (the violation as the pages show it)."""

    game_id: int
    data: Json


@dataclass(frozen=True)
class FaultShown:
    """A sensor fault, the sensor link going down or up, or a change that could not be stored."""

    game_id: int
    data: Json


@dataclass(frozen=True)
class ClockNoted:
    """The clock said something (a warning, a flag, a time forfeit: engine.clock events)."""

    game_id: int
    data: Json


@dataclass(frozen=True)
class ResultReached:
    """The game got its result (PDN) for ``reason``."""

    game_id: int
    result: str
    reason: str


@dataclass(frozen=True)
class RefereeActed:
    """A referee action (or a remote board's) was applied and audited at ``time``."""

    game_id: int
    time: str
    actor: str
    action: str
    data: Json


@dataclass(frozen=True)
class CuesShown:
    """The squares to light changed: ``cues`` is the whole picture (the LEDs show it)."""

    cues: Cues


@dataclass(frozen=True)
class BoardChanged:
    """Something changed: the whole state after it (what the pages and the hall show)."""

    state: BoardState

    @cached_property
    def json(self) -> Json:
        """The state as the JSON object sent (made once for every subscriber)."""
        return to_json(self.state)


DomainEvent = (
    GameOpened
    | MovePlayed
    | RecordRewritten
    | ViolationShown
    | FaultShown
    | ClockNoted
    | ResultReached
    | RefereeActed
    | CuesShown
    | BoardChanged
)

E = TypeVar("E", bound=DomainEvent)


class EventBus:
    """Subscribers by the kind of event they want; :meth:`publish` calls them in turn."""

    def __init__(self) -> None:
        self._by_kind: dict[type, Listeners[DomainEvent]] = {}

    def subscribe(self, kind: type[E], subscriber: Callable[[E], object]) -> Callable[[], None]:
        """Call ``subscriber`` with every event of ``kind``; returns the unsubscribe."""
        listeners = self._by_kind.setdefault(kind, Listeners("session"))
        return listeners.add(subscriber)  # type: ignore[arg-type]  # only kind reaches it

    def publish(self, event: DomainEvent) -> None:
        """Tell the subscribers of the event's kind."""
        listeners = self._by_kind.get(type(event))
        if listeners is not None:
            listeners.notify(event)
