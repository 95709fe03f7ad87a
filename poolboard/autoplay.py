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

from engine.board import Board
from engine.sensing import LeverPress, Snapshot
from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.simulator import HumanSimulator, random_game


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
        while not stop.is_set():
            with self.session.lock:
                start = self.session.game.board.copy(stack=False)
            moves = random_game(self.rng, self.max_plies, start)
            began = time.monotonic()
            for event in HumanSimulator(self.rng).play(start, moves):
                if stop.wait(max(0.0, began + event.t / self.speed - time.monotonic())):
                    return
                if isinstance(event, Snapshot):
                    self.board.set_occupied(event.occupied)
                elif isinstance(event, LeverPress):
                    self.board.press_lever(event.side)
            if stop.wait(5.0):
                return
            self.between_games(stop)
