"""Board, FEN and move text (R-BRD-1..4)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import (
    STARTING_FEN,
    AmbiguousMoveError,
    Board,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
)
from engine.color import Color
from engine.geometry import LONG_DIAGONAL, RAYS, row_col, square_at


def test_r_brd_1_near_left_corner_is_dark_and_is_square_29() -> None:
    assert square_at(7, 0) == 29
    assert square_at(7, 1) is None


def test_r_brd_2_numbering_and_long_diagonal() -> None:
    assert [row_col(s) for s in (1, 4, 5, 29, 32)] == [(0, 1), (0, 7), (1, 0), (7, 0), (7, 6)]
    assert RAYS[29][1] == tuple(reversed(LONG_DIAGONAL[:-1]))


def test_r_brd_3_start_position_black_moves_first() -> None:
    board = Board()
    assert board.turn is Color.BLACK
    assert board.occupied_squares() == frozenset(range(1, 13)) | frozenset(range(21, 33))
    assert board.piece_at(12).color is Color.BLACK
    assert board.piece_at(21).color is Color.WHITE
    assert board.fen() == STARTING_FEN


def test_r_brd_4_notation_simple_capture_and_full_path() -> None:
    board = Board("B:W18:B14")
    (move,) = board.generate_legal_moves()
    assert board.notation(move) == "14x23"
    # Two king captures from 12 to 2 taking different pieces need the full path; 12x1 does not.
    board = Board("B:W6,14,19,22:BK12")
    texts = sorted(board.notation(m) for m in board.generate_legal_moves())
    assert texts == ["12x1", "12x23x9x2", "12x26x13x2"]
    for text in texts:
        assert (
            board.parse_move(text).key()
            == next(m for m in board.generate_legal_moves() if board.notation(m) == text).key()
        )


def test_fen_ranges_and_kings_are_read() -> None:
    board = Board("B:W21-32:BK1,2-12")
    assert board.piece_at(1).king and not board.piece_at(2).king
    assert board.fen() == "B:W" + ",".join(map(str, range(21, 33))) + ":BK1," + ",".join(
        map(str, range(2, 13))
    )


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("B:W21", "three"),
        ("X:W21:B1", "side to move"),
        ("B:W33:B1", "not a dark square"),
        ("B:W5:B5", "given twice"),
        ("B:W5:W6", "listed twice"),
        ("B:Wa:B1", "not a square"),
        ("B:W9-5:B1", "backwards"),
        ("B:Q1:B2", "must start with W or B"),
    ],
)
def test_bad_fen_names_what_is_wrong(fen: str, message: str) -> None:
    with pytest.raises(FenError, match=message):
        Board(fen)


def test_move_text_errors() -> None:
    board = Board()
    with pytest.raises(InvalidMoveError, match="not a move"):
        board.parse_move("11/15")
    with pytest.raises(InvalidMoveError, match="33"):
        board.parse_move("11-33")
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        board.parse_move("11-18")
    with pytest.raises(IllegalMoveError):
        board.parse_move("21-17")
    capture = Board("B:W18:B14")
    assert capture.parse_move("14:23") == capture.parse_move("14x23")


def test_ambiguous_capture_asks_for_the_path() -> None:
    board = Board("B:W6,14,19,22:BK12")
    by_ends: dict[tuple[int, int], list[Move]] = {}
    for move in board.generate_legal_moves():
        by_ends.setdefault((move.from_square, move.to_square), []).append(move)
    start, end = next(k for k, v in by_ends.items() if len(v) > 1)
    with pytest.raises(AmbiguousMoveError, match="give the path"):
        board.parse_move(f"{start}x{end}")


def test_x_must_name_a_capture_and_an_exact_path_wins() -> None:
    board = Board()
    for text in ["11-15", "23-19", "8-11"]:
        board.push_notation(text)
    with pytest.raises(IllegalMoveError):
        board.parse_move("24x20")
    assert board.parse_move("24-20") == Move((24, 20))
    # 15x6 is a one-leg jump; a loop with the same ends takes other pieces.
    board = Board("B:W10,12,18,19,26,27:B15")
    assert board.parse_move("15x6").captures == (10,)
    assert board.notation(board.parse_move("15x6")) == "15x6"


def test_captured_mark_says_capture_is_compulsory() -> None:
    board = Board("B:W18:B14,1")
    with pytest.raises(IllegalMoveError, match="R-CAP-1"):
        board.parse_move("1-5")


def test_push_pop_restores_position_and_stack() -> None:
    board = Board()
    for text in ["11-15", "23-19", "8-11", "22-17", "9-13"]:
        board.push_notation(text)
    assert board.peek() == Move((9, 13))
    assert len(board.move_stack) == 5
    for _ in range(5):
        board.pop()
    assert board == Board()


def test_result_occupancy_is_the_board_after_the_move() -> None:
    board = Board("B:W18,27:B14")
    for move in board.generate_legal_moves():
        expected = board.copy()
        expected.push(move)
        assert board.result_occupancy(move) == expected.occupied_squares()


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_games_push_pop_and_fen_round_trip(rng) -> None:
    board = Board()
    history = []
    for _ in range(rng.randint(0, 80)):
        moves = board.generate_legal_moves()
        if not moves:
            break
        history.append((board.fen(), board.transposition_key()))
        board.push(rng.choice(moves))
        assert Board(board.fen()) == board
    while history:
        fen, key = history.pop()
        board.pop()
        assert board.fen() == fen and board.transposition_key() == key
