"""Self-playing demo: simulated hands play random games on the simulated board in real time.

The events go through the simulated board, so the session's tracker sees exactly what it would
from a reed board, bounces and slides included. After each game (or ``max_plies``), a pause, then
a new game from the start position.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from engine.board import Board, Move
from engine.sensing import LeverPress, Snapshot
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.simulator import HumanSimulator, random_game

#: The fastest the hands play (``poolboard demo --speed``): a hundred times a person's pace.
MAX_SPEED = 100.0


class AutoPlayer:
    """Plays games into ``session``'s simulated board until stopped."""

    def __init__(
        self,
        session: Session,
        board: SimulatedBoard,
        *,
        speed: float = 1.0,
        max_plies: int = 120,
        seed: int | None = None,
        between_games: Callable[[threading.Event], None] | None = None,
    ) -> None:
        """``between_games(stop)``: what happens after a game (default: a new game from the
        start position, as one more game of the match)."""
        self.session = session
        self.board = board
        self.speed = speed
        self.max_plies = max_plies
        self.rng = random.Random(seed)
        self.between_games = between_games or self._set_up_again

    def _set_up_again(self, _: threading.Event) -> None:
        with self.session.lock:
            self.session.set_position("autoplay", Board().fen())

    def run(self, stop: threading.Event) -> None:
        """Play games one after another until ``stop`` is set."""
        news = threading.Event()  # set at each change the session announces
        unsubscribe = self.session.subscribe(lambda _: news.set())
        try:
            while not stop.is_set():
                with self.session.lock:
                    start = self.session.game.board.copy(stack=False)
                    game_id = self.session.game_id
                    record = list(self.session.game.board.move_stack)
                moves = random_game(self.rng, self.max_plies, start)
                played = self._play(stop, news, start, moves, game_id, record)
                if played == "changed":
                    continue  # the referee changed the game: play on from where it stands
                if played == "stopped" or stop.wait(5.0):
                    return
                self.between_games(stop)
        finally:
            unsubscribe()

    def _play(
        self,
        stop: threading.Event,
        news: threading.Event,
        start: Board,
        moves: list[Move],
        game_id: int,
        record: list[Move],
    ) -> str:
        """Set up ``start`` and play ``moves`` by hand, game ``game_id`` holding ``record``
        before them. Each move starts only once the session has taken the one before: the
        tracker's debounce and settle windows keep their length at any speed, and a move begun
        inside them would be read together with the one before. ``done``, ``changed`` (by the
        referee: another game, moves voided or corrected) or ``stopped``."""
        began = time.monotonic()
        for played, events in enumerate(HumanSimulator(self.rng).each_move(start, moves)):
            for event in events:
                if stop.wait(max(0.0, began + event.t / self.speed - time.monotonic())):
                    return "stopped"
                if isinstance(event, Snapshot):
                    self.board.set_occupied(event.occupied)
                elif isinstance(event, LeverPress):
                    self.board.press_lever(event.side)
            while True:
                news.clear()
                with self.session.lock:
                    where = self._where(game_id, record + moves[:played])
                if where == "taken":
                    break
                if where != "pending":
                    return where
                news.wait(0.25)  # a look at ``stop`` four times a second
                if stop.is_set():
                    return "stopped"
            # The thinking before the next move starts once this one is taken.
            began = max(began, time.monotonic() - events[-1].t / self.speed)
        return "done"

    def _where(self, game_id: int, expected: list[Move]) -> str:
        """How the session stands with what the hands did, game ``game_id`` to hold the moves
        ``expected`` (its lock held): ``taken`` (the tracker has settled on the board as they
        left it and the move is recorded), ``pending``, ``changed`` (another game, moves voided
        or corrected: the record is no longer theirs) or ``done`` (the game is over, or a
        violation stands: the hands play it no further)."""
        session = self.session
        recorded = session.game.board.move_stack
        theirs = recorded == expected[: len(recorded)]
        if session.game_id != game_id or not theirs or len(recorded) < len(expected) - 1:
            return "changed"
        if session.game.is_over():
            return "done"
        if session.tracker.occupied != self.board.occupied:
            return "pending"
        if session.violation is not None:
            return "done"
        return "taken" if len(recorded) == len(expected) else "pending"
