"""The demo's simulated hands (``poolboard demo --autoplay``) play clean games at every speed
the demo allows: each move starts only once the session has taken the one before."""

import itertools
import random
import threading
from pathlib import Path

import pytest

from engine.board import Board
from poolboard.autoplay import MAX_SPEED, AutoPlayer
from poolboard.config import Config, StorageConfig
from poolboard.session import Session
from poolboard.session.events import MovePlayed, ViolationShown
from poolboard.simulated_board import SimulatedBoard
from poolboard.simulator import random_game

PLIES = 40


@pytest.mark.system  # the session and the hands in threads of their own, in real time
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_hands_at_the_fastest_speed_record_their_game_with_no_violation(
    tmp_path: Path, seed: int
) -> None:
    # The hands' first game is the first thing their seed draws (it may end before PLIES).
    position, wanted = Board(), []
    for move in random_game(random.Random(seed), PLIES):
        wanted.append(position.notation(move))
        position.push(move)
    board = SimulatedBoard()
    session = Session(Config(storage=StorageConfig(path=str(tmp_path))), board)
    recorded: list[str] = []
    violations: list[dict] = []
    ended = threading.Event()

    def played(event: MovePlayed) -> None:
        recorded.append(event.notation)
        if len(recorded) == len(wanted):
            ended.set()

    def broken(event: ViolationShown) -> None:
        violations.append(event.data)
        ended.set()

    session.events.subscribe(MovePlayed, played)
    session.events.subscribe(ViolationShown, broken)
    hands = AutoPlayer(session, board, speed=MAX_SPEED, max_plies=PLIES, seed=seed)
    stop = threading.Event()
    threads = [threading.Thread(target=run, args=(stop,)) for run in (session.run, hands.run)]
    for thread in threads:
        thread.start()
    try:
        # A bound for a hang only: forty moves take a few seconds at this speed.
        assert ended.wait(120), f"{len(recorded)} moves recorded"
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        session.close()
    assert violations == []
    assert recorded == wanted


class Hands:
    """The session and the hands playing in threads of their own, in real time, and the plies
    of the moves recorded, in order."""

    def __init__(self, tmp_path: Path, seed: int) -> None:
        board = SimulatedBoard()
        self.session = Session(Config(storage=StorageConfig(path=str(tmp_path))), board)
        self.played: list[int] = []
        self.violations: list[dict] = []
        self._more = threading.Condition()
        self.session.events.subscribe(MovePlayed, self._moved)
        self.session.events.subscribe(ViolationShown, lambda e: self.violations.append(e.data))
        hands = AutoPlayer(self.session, board, speed=MAX_SPEED, max_plies=PLIES, seed=seed)
        self._stop = threading.Event()
        runs = (self.session.run, hands.run)
        self._threads = [threading.Thread(target=run, args=(self._stop,)) for run in runs]
        for thread in self._threads:
            thread.start()

    def _moved(self, event: MovePlayed) -> None:
        with self._more:
            self.played.append(event.ply)
            self._more.notify_all()

    def wait_for(self, count: int) -> None:
        """Until ``count`` moves are recorded (the bound is for a hang only)."""
        with self._more:
            done = self._more.wait_for(lambda: len(self.played) >= count, 120)
        assert done, f"{len(self.played)} moves recorded"

    def close(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()
        self.session.close()


@pytest.mark.system  # the session and the hands in threads of their own, in real time
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_the_hands_play_on_from_where_the_referee_leaves_the_game(
    tmp_path: Path, seed: int
) -> None:
    """Moves voided while the hands play: they put the pieces back as the record stands and
    go on from there, with no violation."""
    hands = Hands(tmp_path, seed)
    try:
        hands.wait_for(6)
        hands.session.void_moves("referee", 2)
        hands.wait_for(12)
    finally:
        hands.close()
    assert hands.violations == []
    # Ply by ply, but for one step back: the move after the void replaces the first voided.
    steps = [after - before for before, after in itertools.pairwise(hands.played)]
    assert sorted(set(steps)) == [-1, 1] and steps.count(-1) == 1


@pytest.mark.system  # the session and the hands in threads of their own, in real time
@pytest.mark.parametrize("seed", [7, 8, 9])
def test_the_hands_play_on_after_the_referee_corrects_a_move(tmp_path: Path, seed: int) -> None:
    """A move corrected to another while the hands play (the last that had another): the
    record is no longer theirs; they set the board up as it stands and go on."""
    hands = Hands(tmp_path, seed)
    session = hands.session
    try:
        hands.wait_for(6)
        with session.lock:  # the latest ply that had another move (a capture may be forced)
            stack = session.game.board.move_stack
            for ply in range(len(stack), 0, -1):
                before = Board(session.game.start_fen)
                for move in stack[: ply - 1]:
                    before.push(move)
                others = [m for m in before.generate_legal_moves() if m != stack[ply - 1]]
                if others:
                    other, text = others[0], before.notation(others[0])
                    break
        session.correct_move("referee", ply, text)
        hands.wait_for(12)
    finally:
        hands.close()
    assert hands.violations == []
    assert session.game.board.move_stack[ply - 1] == other
