"""The opponent interface: a player who is not at the board (the computer, a board far away).

The session owns the game; an :class:`Opponent` only chooses moves for its side. The session calls
:meth:`Opponent.update` with a :class:`Position` after every stored change to the game (a move
recorded, corrected or taken back, moves voided, a new game or position, a result, a resumed game)
and once at start; each update has a new ``serial`` and supersedes every earlier one. When
``position.to_move`` is true the opponent must choose a move in that position and answer,
from any thread and at any later time, with ``answer(position.serial, move)``: that puts the move
on the session core's queue (:class:`poolboard.session.opponent.OpponentMove`) and returns whether
it was taken. The core drops the answer if its serial is no longer current (the position changed
meanwhile: thinking was cancelled), checks that the move is legal, stores it, stops the
opponent's clock and cues the move on the board (docs/opponents.md); the tracker records it once
the board shows exactly that move. An opponent with news of its own (a remote board's clock, its
result) puts inputs on the queue it is given by :meth:`Opponent.attach`; it never calls into the
session otherwise.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeVar

from engine.board import Board, Move
from engine.color import Color
from engine.counts import Count
from engine.phrase import Phrase
from engine.search import Root

if TYPE_CHECKING:
    from poolboard.session.inputs import Input

T = TypeVar("T")

#: How an opponent answers: ``answer(serial, move)``; returns whether the session took the move.
Answer = Callable[[int, Move], bool]


class Inbox(Protocol):
    """The session core's queue, as an opponent sees it."""

    def submit(self, item: Input[T]) -> T:
        """Handle ``item`` on the core's turn (waiting for it) and return its answer."""
        ...

    def post(self, item: Input[object]) -> None:
        """Queue ``item`` and return at once."""
        ...


@dataclass(frozen=True)
class Position:
    """What the session tells its opponent after each change: a snapshot of the game, its own.

    ``serial``: this update's number, to be quoted in the answer. ``game_id``: the game (a new
    one when it changed). ``start_fen``, ``profile`` (the rule profile's name) and ``moves``:
    the game from its start, every move recorded (compare with the last update to see what
    changed: a new move, a takeback, a correction). ``counts``: the draw counts running now
    (:meth:`engine.game.Game.counts`). ``result`` and ``reason``: how the game ended, or
    ``None`` while it goes on. ``to_move``: choose a move now (the opponent's side to move, the
    game running, the position standing on the board and no move of the opponent's already
    waiting). ``chosen``: the opponent's move already taken and cued on the board, not yet
    executed there (after a restart it is re-shown, not asked again). ``clock``:
    :meth:`engine.clock.Clock.to_dict`.
    """

    serial: int
    game_id: int
    start_fen: str
    profile: str
    moves: tuple[Move, ...]
    counts: tuple[Count, ...]
    result: str | None
    reason: str | None
    side: Color
    to_move: bool
    chosen: Move | None
    clock: Mapping[str, object]

    @property
    def over(self) -> bool:
        """Whether the game has a result (stop thinking; the next update may be a new game)."""
        return self.result is not None

    def board(self) -> Board:
        """The position after :attr:`moves`, on a board of its own (its move stack the moves)."""
        board = Board(self.start_fen)
        for move in self.moves:
            board.push(move)
        return board

    def root(self) -> Root:
        """The position to search, with its earlier positions and its running counts."""
        return Root.from_moves(self.start_fen, self.moves, self.counts)


class Opponent(ABC):
    """One side of the game played off the board; the session executes its moves on the board.

    What an implementation must do (the engine in :mod:`poolboard.opponents.computer`; a remote
    board through the hall's broker):

    - :meth:`update` returns at once (it is called with the session's lock held, from the
      session's loop or a web thread): any work (a search, network I/O) happens on the
      opponent's own thread. It must not block on the session.
    - Answer only positions with ``to_move``, at most once per serial, with a legal move of
      the position (``answer`` returns ``False`` for a stale serial or a move the session
      refused: the opponent must then wait for the next update, never retry the same serial).
    - A newer update cancels the work for the older one (a takeback, a referee's correction, a
      new game, a result): stop it promptly; an answer that arrives late is dropped anyway.
    - The session is the authority for the game, its record and its clock; an opponent keeps
      no game state it cannot rebuild from the next :class:`Position` (after a crash the session
      starts a new opponent and sends the resumed game; ``chosen`` says a move already made).
    - A remote opponent sends our moves to the far board from successive updates (diff
      ``moves`` against the previous ones) and answers with the far player's move; its
      :attr:`waiting_text` says whom the page is waiting for.
    - :meth:`close` stops its thread (and connections); it is called once, when the session
      closes, and no update follows.
    """

    #: The ``[opponent] kind`` that selects this opponent.
    kind: ClassVar[str]
    #: What the pages say while the session waits for this opponent's move.
    waiting_text: ClassVar[Phrase] = Phrase("thinking…")
    #: Whether the session invokes the stronger-side count (R-DRW-4) for this opponent when it
    #: is the weaker side (engine/search.py ``claims_count``): the computer cannot ask the
    #: referee; a person far away claims it at their own board.
    claims_counts: ClassVar[bool] = False

    def __init__(self, side: Color) -> None:
        self.side = side
        self.inbox: Inbox | None = None

    def attach(self, inbox: Inbox) -> None:
        """Called once by the session before the first update: the queue for this opponent's
        own news (a remote board's clock, result or rewind)."""
        self.inbox = inbox

    @abstractmethod
    def update(self, position: Position, answer: Answer) -> None:
        """Take the game as it now stands; if ``position.to_move``, choose a move and call
        ``answer(position.serial, move)`` later, from any thread. Returns at once."""

    def describe(self) -> dict[str, object]:
        """What the pages show about this opponent (JSON-ready): its kind, side, name, more."""
        return {"kind": self.kind, "side": self.side.value, "name": self.player_name()}

    def player_name(self) -> str:
        """The name for the game's PDN tag of its side, when the config gives none."""
        return self.kind

    def close(self) -> None:  # noqa: B027 - an opponent without a thread needs no closing
        """Stop thinking or listening for good; no update follows."""
