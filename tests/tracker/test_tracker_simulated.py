"""Property: any legal game, played by simulated hands any of the ways people do, comes back from
the tracker exactly, with no violation and no fault (issue "no false alarms")."""

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.tracker import Tracker, TrackerConfig
from poolboard.simulator import HumanSimulator, HumanStyle, random_game

#: Positions with kings on open boards, so slides and flying captures come up often.
KING_POSITIONS = [
    "B:WK30,K27,22,K18:BK1,K3,9,K11",
    "W:WK29,K32,21:BK4,K6,10,14",
    "B:WK25,19,K31:BK2,K7,13",
]


def replay(events, board, config=None):
    tracker = Tracker(board, config)
    out = []
    for event in events:
        out += tracker.feed(event)
    out += tracker.advance(events[-1].t + 10)
    return tracker, out


def check_game(seed: int, board: Board, style: HumanStyle, config=None, plies: int = 60) -> None:
    rng = random.Random(seed)
    moves = random_game(rng, plies, board)
    events = HumanSimulator(rng, style).play(board, moves)
    tracker, out = replay(events, board, config)
    assert [e for e in out if e.kind in ("violation", "fault")] == []
    assert tracker.board.move_stack == moves


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**9))
def test_random_games_from_the_start_come_back_exactly(seed: int) -> None:
    check_game(seed, Board(), HumanStyle())


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**9), st.sampled_from(KING_POSITIONS))
def test_king_play_with_slides_and_flying_captures(seed: int, fen: str) -> None:
    check_game(seed, Board(fen), HumanStyle(slide=0.8), plies=40)


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_clumsy_hands_bouncing_switches_and_overlapping_moves(seed: int) -> None:
    clumsy = HumanStyle(bounce=0.9, arrive_first=0.5, touch_down_landing=0.9, lever=0.9)
    check_game(seed, Board(), clumsy)


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**9), st.sampled_from(KING_POSITIONS))
def test_slow_slides_are_corrected_into_the_right_move(seed: int, fen: str) -> None:
    """A king that rests longer than the settle window on its way is recorded early and then
    corrected; the game still comes back exactly."""
    slow = HumanStyle(slide=1.0, slide_square=(0.05, 0.6))
    check_game(seed, Board(fen), slow, plies=30)


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**9), st.sampled_from([None, *KING_POSITIONS]))
def test_players_thinking_on_every_landing_square_are_never_charged(
    seed: int, fen: str | None
) -> None:
    """R-CAP-3, APCA 10 and 21: a jump is incomplete only once the turn has ended. Players who
    set the capturing piece down on every landing square of a multi-jump, take captured men off
    meanwhile and stand there for seconds (past the reminder at 10 s) before lifting it on,
    raise no violation, and the game comes back exactly."""
    board = Board(fen) if fen else Board()
    moves = random_game(random.Random(seed), 60, board)
    assume(any(len(move.path) > 2 for move in moves))  # a multi-jump to think in
    thinking = HumanStyle(touch_down_landing=1.0, touch_down=(1.0, 15.0), lever=0.5)
    check_game(seed, board, thinking)


def test_casual_profile_changes_nothing_for_plain_play() -> None:
    for seed in range(5):
        check_game(seed, Board(), HumanStyle(), TrackerConfig.for_profile("casual"))
