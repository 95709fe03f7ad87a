"""A simulator of human hands on a sensing board: game moves in, timestamped sensor events out.

It plays each move the ways people do: a lifted piece bounces on its reed switch, a king is slid
across the squares it passes or hopped straight there, a capturing piece touches down on its
landing squares or not, captured pieces come off before, during or after the move in any order,
a new king is lifted and put back to crown it, some players press their clock lever. Every such
stream is legal play, so the tracker must give the game back exactly with no violation. The demo
drives the simulated board with it; tests and ``bench/tracker.py`` feed it to the tracker.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

from engine.board import Board, Move
from engine.geometry import RAYS
from engine.sensing import LeverPress, SensorEvent, Snapshot


@dataclass(frozen=True, slots=True)
class HumanStyle:
    """How a simulated player handles the pieces (times in seconds, the rest probabilities)."""

    think: tuple[float, float] = (0.35, 2.0)  # pause before starting a move
    in_hand: tuple[float, float] = (0.1, 0.5)  # a piece carried through the air
    touch_down: tuple[float, float] = (0.1, 0.9)  # a capturing piece resting on a landing square
    bounce: float = 0.3  # a reed switch chatters (< 30 ms) as a piece arrives or leaves
    slide: float = 0.5  # a king slides over the squares it passes (else it is hopped)
    slide_square: tuple[float, float] = (0.02, 0.12)  # time on each square passed
    touch_down_landing: float = 0.5  # a capturer is set down on an intermediate landing
    arrive_first: float = 0.2  # a piece is put down before the sensor sees it leave (overlap)
    crown_lift: float = 0.7  # the opponent lifts a new king and puts it back to crown it
    lever: float = 0.4  # the player presses the clock lever after moving


class HumanSimulator:
    """Turns moves into the sensor events a board would report for a human making them."""

    def __init__(self, rng: random.Random | None = None, style: HumanStyle | None = None) -> None:
        self.rng = rng or random.Random()
        self.style = style or HumanStyle()
        self.t = 0.0
        self.occupied: set[int] = set()
        self.events: list[SensorEvent] = []

    # -- low level: one square changes --------------------------------------------------------

    def _snapshot(self) -> None:
        self.events.append(Snapshot(round(self.t, 4), frozenset(self.occupied)))

    def _wait(self, span: tuple[float, float]) -> None:
        self.t += self.rng.uniform(*span)

    def _set(self, square: int, present: bool) -> None:
        """Put a piece on or take it off a square, maybe with switch chatter first."""
        if self.rng.random() < self.style.bounce:
            for _ in range(self.rng.randint(1, 2)):
                self._toggle(square, present)
                self.t += self.rng.uniform(0.003, 0.012)
                self._toggle(square, not present)
                self.t += self.rng.uniform(0.003, 0.012)
        self._toggle(square, present)

    def _toggle(self, square: int, present: bool) -> None:
        if present:
            self.occupied.add(square)
        else:
            self.occupied.discard(square)
        self._snapshot()

    # -- a game ---------------------------------------------------------------------------------

    def set_up(self, board: Board) -> None:
        """Pieces placed on the board, all at once, before the game."""
        self.occupied = set(board.occupied_squares())
        self._snapshot()
        self.t += 0.5

    def play(self, board: Board, moves: list[Move]) -> list[SensorEvent]:
        """Set up ``board`` and play ``moves`` from it; returns all sensor events so far."""
        for _ in self.each_move(board, moves):
            pass
        return self.events

    def each_move(self, board: Board, moves: list[Move]) -> Iterator[list[SensorEvent]]:
        """Set up ``board`` and play ``moves`` from it, one at a time: yields the set-up's
        events, then each move's (the thinking before it and the lever after it included)."""
        done = len(self.events)
        self.set_up(board)
        yield self.events[done:]
        board = board.copy()
        crowned: int | None = None
        for move in moves:
            done = len(self.events)
            self._wait(self.style.think)
            if crowned is not None and self.rng.random() < self.style.crown_lift:
                self._set(crowned, False)
                self._wait((0.2, 0.8))
                self._set(crowned, True)
                self._wait((0.2, 0.6))
            king = bool(board.kings & (1 << (move.path[0] - 1)))
            self.make_move(move, king)
            if self.rng.random() < self.style.lever:
                self.t += self.rng.uniform(0.05, 0.4)
                self.events.append(LeverPress(round(self.t, 4), board.turn))
            crowned = move.path[-1] if move.crowns else None
            board.push(move)
            yield self.events[done:]
        self.t += 3.0

    def make_move(self, move: Move, king: bool) -> None:
        """One move by hand: a simple move, a slide, or a capture with its removals."""
        if not move.captures:
            if king and self.rng.random() < self.style.slide:
                self._slide(move.path[0], move.path[-1], lift_first=True)
            else:
                self._carry(move.path[0], move.path[-1])
            return
        self._capture(move, king)

    def _carry(self, start: int, end: int) -> None:
        if self.rng.random() < self.style.arrive_first:
            self._set(end, True)
            self.t += self.rng.uniform(0.01, 0.08)
            self._set(start, False)
            return
        self._set(start, False)
        self._wait(self.style.in_hand)
        self._set(end, True)

    def _slide(self, start: int, end: int, lift_first: bool) -> None:
        """A king pushed along the diagonal: each square it crosses sees it briefly."""
        ray = next(r for r in RAYS[start] if end in r)
        passed = ray[: ray.index(end)]
        if lift_first:
            self._set(start, False)
        previous = None
        for square in passed:
            self._toggle(square, True)
            if previous is not None:
                self._toggle(previous, False)
            self._wait(self.style.slide_square)
            previous = square
        self._set(end, True)
        if previous is not None:
            self._toggle(previous, False)

    def _capture(self, move: Move, king: bool) -> None:
        path, captured = move.path, list(move.captures)
        legs = len(path) - 1
        # When each captured piece comes off: 0 before the capturer is lifted, i after it has
        # made leg i (touching down or not), legs + 1 after it is set down on its last square.
        when = {square: self.rng.randint(0, legs + 1) for square in captured}
        order = captured[:]
        self.rng.shuffle(order)

        def remove_due(phase: int) -> None:
            for square in order:
                if when[square] == phase:
                    self._wait((0.05, 0.4))
                    self._set(square, False)

        remove_due(0)
        self._set(path[0], False)
        for leg, (a, b) in enumerate(itertools.pairwise(path), start=1):
            if king and self.rng.random() < self.style.slide:
                ray = next(r for r in RAYS[a] if b in r)
                for square in ray[: ray.index(b)]:
                    if square in move.captures or square == path[0]:
                        continue
                    self._toggle(square, True)
                    self.t += self.rng.uniform(*self.style.slide_square)
                    self._toggle(square, False)
            else:
                self._wait((0.05, 0.25))
            if leg < legs and self.rng.random() < self.style.touch_down_landing:
                self._set(b, True)
                self._wait(self.style.touch_down)
                remove_due(leg)
                self._set(b, False)
            else:
                remove_due(leg)
        self._set(path[-1], True)
        remove_due(legs + 1)


def random_game(rng: random.Random, max_plies: int = 120, board: Board | None = None) -> list[Move]:
    """A random legal game from ``board`` (the start position by default)."""
    board = board.copy() if board is not None else Board()
    moves = []
    for _ in range(max_plies):
        legal = board.generate_legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    return moves
