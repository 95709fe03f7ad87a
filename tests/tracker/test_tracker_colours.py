"""A sensor that sees colours (a camera): set-ups checked piece by piece, swapped pieces caught,
crowning seen; legal play still comes back exactly with no violation."""

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.color import Color
from engine.events import TrackerState
from engine.sensing import SensorFault, Snapshot
from engine.tracker import Tracker, TrackerConfig
from poolboard.simulator import HumanStyle, random_game
from tests.tracker.colour_hands import ColourHands, ColourSimulator, symbols
from tests.tracker.conftest import Hands

KING_POSITIONS = [
    "B:WK30,K27,22,K18:BK1,K3,9,K11",
    "W:WK29,K32,21:BK4,K6,10,14",
    "B:W21,22,23,K31:B5,6,7,K2",
]


def play_simulated(seed: int, board: Board, sees_kings: bool, style: HumanStyle) -> None:
    rng = random.Random(seed)
    moves = random_game(rng, 60, board)
    events = ColourSimulator(rng, style, sees_kings=sees_kings).play(board, moves)
    assert all(isinstance(e, Snapshot) and e.pieces is not None for e in events[:1])
    tracker = Tracker(board)
    out = []
    for event in events:
        out += tracker.feed(event)
    out += tracker.advance(events[-1].t + 10)
    assert [e for e in out if e.kind in ("violation", "fault")] == []
    assert tracker.board.move_stack == moves


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**9), st.booleans())
def test_random_games_seen_in_colour_come_back_exactly(seed: int, sees_kings: bool) -> None:
    play_simulated(seed, Board(), sees_kings, HumanStyle())


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**9), st.sampled_from(KING_POSITIONS))
def test_kings_and_clumsy_hands_seen_in_colour(seed: int, fen: str) -> None:
    clumsy = HumanStyle(bounce=0.6, arrive_first=0.4, slide=0.8, crown_lift=1.0)
    play_simulated(seed, Board(fen), True, clumsy)


def colour_setup(fen: str | None, pieces: dict[int, str]) -> Tracker:
    tracker = Tracker(Board(fen) if fen else Board(), TrackerConfig(debounce=0))
    tracker.feed(Snapshot.from_pieces(0.0, pieces))
    return tracker


def test_a_set_up_with_pieces_of_the_wrong_colour_names_them_and_waits() -> None:
    pieces = symbols(Board())
    pieces[9], pieces[22] = "w", "b"  # two pieces swapped: occupancy alone sees nothing wrong
    tracker = Tracker(config=TrackerConfig(debounce=0))
    events = tracker.feed(Snapshot.from_pieces(0.0, pieces))
    assert tracker.state is TrackerState.SETUP and not tracker.started
    assert tracker.cues.to_json() == {"9": "wrong-piece", "22": "wrong-piece"}
    (state,) = [e for e in events if e.kind == "state"]
    assert state.detail == (
        "set up the position: replace the white piece on 9 with a black man; "
        "replace the black piece on 22 with a white man"
    )
    pieces[9], pieces[22] = "b", "w"
    events = tracker.feed(Snapshot.from_pieces(1.0, pieces))
    assert events[0].kind == "start" and tracker.started


def test_a_set_up_names_a_wrong_piece_beside_the_squares_to_fill_and_clear() -> None:
    pieces = symbols(Board())
    del pieces[1]
    pieces[17] = "b"
    pieces[30] = "W"  # a king where a white man belongs
    tracker = colour_setup(None, pieces)
    assert tracker.cues.to_json() == {
        "1": "restore-fill",
        "17": "restore-clear",
        "30": "wrong-piece",
    }
    assert tracker.state is TrackerState.SETUP


def test_a_king_seen_where_a_man_belongs_is_named_but_never_holds_the_start() -> None:
    """R-PRO-3: moves are matched by colour, so a camera that calls a man a king (or a stack left
    from the last game) cannot lock the players out; it is cued while the board is set up."""
    pieces = symbols(Board())
    pieces[5] = "B"
    del pieces[12]
    tracker = Tracker(config=TrackerConfig(debounce=0))
    (state,) = [e for e in tracker.feed(Snapshot.from_pieces(0.0, pieces)) if e.kind == "state"]
    assert tracker.state is TrackerState.SETUP
    assert tracker.cues.to_json() == {"5": "wrong-piece", "12": "restore-fill"}
    assert "replace the black king on 5 with a black man" in state.detail
    pieces[12] = "b"
    events = tracker.feed(Snapshot.from_pieces(1.0, pieces))
    assert events[0].kind == "start" and tracker.started
    assert tracker.board == Board() and tracker.cues.to_json() == {}
    del pieces[9]
    pieces[13] = "b"
    moves = [
        e.notation for e in tracker.feed(Snapshot.from_pieces(2.0, pieces)) if e.kind == "move"
    ]
    assert moves == ["9-13"]


def test_a_king_shown_as_a_man_at_set_up_is_still_a_king_and_play_starts() -> None:
    """R-PRO-3: an uncrowned king is a king; a camera that sees kings cues "crown" on it."""
    fen = "B:WK30,22:BK1,9"
    pieces = symbols(Board(fen))
    pieces[30] = "w"
    tracker = colour_setup(fen, pieces)
    assert tracker.started
    assert tracker.cues.to_json() == {"30": "crown"}


def swap_capture(hands: Hands) -> Hands:
    """Black captures 14x23 over 18, but sets the captured white piece down on 23."""
    return hands.lift(14, 18).place(23).wait(1)


def test_a_swapped_piece_is_not_a_legal_move() -> None:
    fen = "B:W18,30:B14,1"
    occupancy_only = swap_capture(Hands(fen, TrackerConfig()))
    assert occupancy_only.notations() == ["14x23"]  # what an occupancy sensor must conclude

    seen = swap_capture(ColourHands(fen, TrackerConfig()))
    assert seen.notations() == []
    (violation,) = seen.of("violation")
    assert violation.rule == "R-ILL-1" and 23 in violation.squares
    assert "14x23 cannot leave a white piece on 23" in violation.message
    assert seen.tracker.state is TrackerState.RESTORE
    # The player puts the black man on 23 and the white one off the board: the capture stands.
    seen.lift(23).place(23, piece="b").wait(1)
    assert seen.notations() == ["14x23"]


def test_pieces_swapped_in_place_are_cued_and_flagged_then_play_goes_on() -> None:
    hands = ColourHands(config=TrackerConfig())
    hands.show(11, "w").show(22, "b", step=0.01).wait(1)
    assert hands.notations() == []
    assert hands.tracker.cues.to_json() == {"11": "wrong-piece", "22": "wrong-piece"}
    assert hands.rules() == ["R-ILL-1"]
    hands.show(11, "b").show(22, "w", step=0.01).wait(1)
    assert hands.tracker.state is TrackerState.TO_MOVE
    hands.move(11, 15).wait(1)
    assert hands.notations() == ["11-15"] and hands.rules() == ["R-ILL-1"]


def test_a_move_out_of_turn_is_charged_to_the_side_that_moved() -> None:
    """After 11-15 Black moves again (9-14): a camera sees a black piece move, so the
    illegal move is Black's (R-BRD-3), not White's, whose offences lead to a forfeit.
    An occupancy sensor cannot tell and charges the side to move, as before."""
    seen = ColourHands(config=TrackerConfig())
    seen.move(11, 15).wait(1).move(9, 14).wait(1)
    assert seen.notations() == ["11-15"]
    (violation,) = seen.of("violation")
    assert (violation.rule, violation.side) == ("R-ILL-1", Color.BLACK)
    assert violation.message == (
        "9-14 is out of turn: it is White's move (R-BRD-3): restore the position: put a piece "
        "on 9; clear 14"
    )
    seen.move(14, 9).wait(1)
    (mended,) = seen.of("mended")  # put back by the side that moved out of turn
    assert (mended.side, mended.raised) == (Color.BLACK, violation.t)
    seen.move(22, 18).wait(1)
    assert seen.notations() == ["11-15", "22-18"]
    occupancy_only = Hands(config=TrackerConfig())
    occupancy_only.move(11, 15).wait(1).move(9, 14).wait(1)
    (violation,) = occupancy_only.of("violation")
    assert violation.side is Color.WHITE
    assert violation.message.startswith("9-14 is not a legal move (R-ILL-1): restore the position")


def test_a_king_seen_on_the_new_kings_square_is_its_crowning() -> None:
    hands = ColourHands("B:W30,21:B27,3", TrackerConfig())
    hands.move(27, 32).wait(1)
    assert hands.notations() == ["27-32"]
    assert hands.tracker.cues.to_json()["32"] == "crown"
    assert hands.tracker.state is TrackerState.CROWNING
    hands.show(32, "B").wait(1)  # White puts a crown on: the square never read empty
    assert "32" not in hands.tracker.cues.to_json() or hands.tracker.cues.to_json()["32"] != "crown"
    assert hands.tracker.state is TrackerState.TO_MOVE
    hands.move(21, 17).wait(1)
    assert hands.notations() == ["27-32", "21-17"] and hands.rules() == []


def test_an_uncrowned_king_on_a_king_seeing_camera_is_a_gentle_cue_never_a_false_move() -> None:
    # The camera has shown a king (on 1), so a king it shows as a man has not been crowned.
    hands = ColourHands("B:W30,21:BK1,27", TrackerConfig())
    hands.move(27, 32).wait(1)
    hands.lift(32).place(32).wait(1)  # lifted and put back, still a man: no crown on it
    assert hands.tracker.cues.to_json()["32"] == "crown"
    hands.move(21, 17).wait(1)  # White plays on without crowning: allowed, no alarm (R-PRO-3)
    assert hands.tracker.cues.to_json()["32"] == "crown"
    hands.move(32, 23).wait(1)  # the uncrowned king moves backwards, as a king may
    assert hands.notations() == ["27-32", "21-17", "32-23"]
    assert hands.rules() == [] and hands.of("fault") == []
    hands.show(23, "B").wait(1)
    assert "crown" not in hands.tracker.cues.to_json().values()


def test_a_colour_camera_that_cannot_tell_kings_crowns_by_lift_and_put_back() -> None:
    hands = ColourHands("B:W30,21:B27,3", TrackerConfig())
    hands.move(27, 32).wait(1)
    hands.lift(32).place(32).wait(1)
    assert hands.tracker.state is TrackerState.TO_MOVE
    assert "crown" not in hands.tracker.cues.to_json().values()
    hands.move(21, 17).lever(Color.WHITE).wait(1)
    assert hands.rules() == []


def test_a_spare_whose_side_the_camera_cannot_see_crowns_and_plays_by_occupancy() -> None:
    """A spare of another colour (one set's green "crowned" piece) stands in for the crown:
    the camera sees a piece there but not whose (``?``). Lifting the new king and putting the
    spare down crowns it, as on a reed board, though the camera has shown kings before
    (R-PRO-1); the spare then moves by occupancy, and the colours seen elsewhere still count."""
    hands = ColourHands("B:W30,21:BK1,27", TrackerConfig())
    hands.move(27, 32).wait(1)
    assert hands.tracker.state is TrackerState.CROWNING
    hands.lift(32).place(32, piece="?").wait(1)
    assert hands.tracker.state is TrackerState.TO_MOVE
    assert "crown" not in hands.tracker.cues.to_json().values()
    hands.move(21, 17).wait(1)
    hands.move(32, 28).wait(1)  # backwards: the spare is the king it stands for
    assert hands.notations() == ["27-32", "21-17", "32-28"]
    assert hands.rules() == [] and hands.of("fault") == []
    hands.show(17, "b").wait(1)  # a colour seen wrong elsewhere is still caught
    assert hands.tracker.cues.to_json()["17"] == "wrong-piece"


def test_a_set_up_with_a_spare_of_neither_colour_starts_on_occupancy_there() -> None:
    pieces = symbols(Board())
    pieces[30] = "?"  # a lost white man replaced by a coin the camera cannot place
    tracker = colour_setup(None, pieces)
    assert tracker.started and tracker.state is TrackerState.TO_MOVE
    assert Snapshot.from_pieces(0.0, pieces).piece_map() == pieces
    snapshot = tracker.settled_snapshot(1.0)  # the colours do not cover 30: occupancy alone
    assert snapshot == Snapshot(1.0, frozenset(pieces))


@pytest.mark.parametrize("fen", [None, "B:WK30,22:BK1,9"])
def test_the_settled_board_hands_its_colours_to_a_fresh_tracker(fen: str | None) -> None:
    hands = ColourHands(fen, TrackerConfig())
    snapshot = hands.tracker.settled_snapshot(5.0)
    assert snapshot is not None and snapshot.t == 5.0
    assert snapshot.piece_map() == symbols(hands.board)
    assert Hands(fen).tracker.settled_snapshot(1.0) == Snapshot(1.0, hands.board.occupied_squares())


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10**9), st.floats(min_value=0.0, max_value=0.3))
# A move shown finished, then recorded when the opponent's move began, was recorded again.
@example(seed=323919094, misread=0.234375)
def test_misread_colours_never_break_the_tracker_nor_record_an_illegal_move(
    seed: int, misread: float
) -> None:
    """A camera that misreads colours and kings now and then (or sees no side, ``?``):
    whatever it concludes, the recorded game is legal play and nothing but tracker events
    comes out."""
    rng = random.Random(seed)
    board = Board(rng.choice([None, *KING_POSITIONS]))
    events = ColourSimulator(rng, HumanStyle()).play(board, random_game(rng, 30, board))
    tracker = Tracker(board)
    for event in events:
        if isinstance(event, Snapshot) and event.pieces and rng.random() < misread:
            wrong = dict(event.pieces)
            square = rng.choice(sorted(wrong))
            wrong[square] = rng.choice("bwBW?")
            event = Snapshot.from_pieces(event.t, wrong)
        tracker.feed(event)
    tracker.advance(events[-1].t + 10)
    check = board.copy()
    for move in tracker.board.move_stack:
        check.push_legal(move)


def test_squares_a_sensor_cannot_read_blink_as_errors_until_it_reads_them_again() -> None:
    """A camera that sees something no piece on squares 15 and 18 (a coin) names them in a
    fault and sends no reading until they read: the squares blink `error` (docs/cues.md) so the
    players see why no move is recorded, and the next reading clears them."""
    tracker = Tracker(config=TrackerConfig(debounce=0))
    pieces = symbols(Board())
    tracker.feed(Snapshot.from_pieces(0.0, pieces))
    assert tracker.started and tracker.cues.to_json() == {}
    events = tracker.feed(SensorFault(1.0, "squares 15, 18 fit no colour learnt", {15, 18}))
    assert [e.kind for e in events if e.kind == "fault"] == ["fault"]
    assert tracker.cues.to_json() == {"15": "error", "18": "error"}
    tracker.feed(Snapshot.from_pieces(2.0, pieces))
    assert tracker.cues.to_json() == {}
