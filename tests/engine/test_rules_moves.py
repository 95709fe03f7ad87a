"""The board rules of RULES.md, one test per rule ID (R-BRD, R-MAN, R-KNG, R-CAP, R-PRO), on the
rules texts' own cases where they give one."""

import pytest

from engine.board import STARTING_FEN, Board, IllegalMoveError
from engine.color import Color
from engine.game import Game
from engine.geometry import LONG_DIAGONAL, RAYS, SQUARES, row_col, square_at


def texts(fen: str) -> set[str]:
    """The legal moves of a position as move text with full paths."""
    board = Board(fen)
    return {("x" if m.captures else "-").join(map(str, m.path)) for m in board.legal_moves}


def test_r_brd_1_dark_squares_only_with_a_dark_near_left_corner() -> None:
    assert len(SQUARES) == 32
    assert all((row + col) % 2 == 1 for row, col in map(row_col, SQUARES))
    assert square_at(7, 0) == 29  # White's near-left corner is dark
    assert square_at(0, 7) == 4  # and so is Black's
    assert square_at(7, 7) is None


def test_r_brd_2_numbering_and_the_long_diagonal() -> None:
    assert [row_col(s) for s in (1, 4, 5, 29, 32)] == [(0, 1), (0, 7), (1, 0), (7, 0), (7, 6)]
    assert LONG_DIAGONAL == (4, 8, 11, 15, 18, 22, 25, 29)
    assert RAYS[29][1] == (25, 22, 18, 15, 11, 8, 4)


def test_r_brd_3_black_on_1_to_12_white_on_21_to_32_black_first() -> None:
    board = Board()
    assert board.fen() == STARTING_FEN
    assert {s for s in SQUARES if board.piece_at(s) == (Color.BLACK, False)} == set(range(1, 13))
    assert {s for s in SQUARES if board.piece_at(s) == (Color.WHITE, False)} == set(range(21, 33))
    game = Game()
    assert game.board.turn is Color.BLACK
    game.push_notation("11-15")
    assert game.board.turn is Color.WHITE
    with pytest.raises(IllegalMoveError):
        game.push_notation("15-19")  # Black cannot move twice in a row


def test_r_brd_4_move_text_dash_x_and_full_path_only_when_needed() -> None:
    board = Board()
    assert board.notation(board.parse_move("11-15")) == "11-15"
    board = Board("B:W18:B14")
    assert board.notation(board.parse_move("14x23")) == "14x23"
    board = Board("B:W6,14,19,22:BK12")
    assert sorted(board.notation(m) for m in board.legal_moves) == [
        "12x1",
        "12x23x9x2",
        "12x26x13x2",
    ]


def test_r_man_1_a_man_steps_one_square_forward_only() -> None:
    assert texts("B:W32:B14") == {"14-17", "14-18"}
    assert texts("W:W22:B1") == {"22-17", "22-18"}


def test_r_man_2_a_man_captures_backward_and_keeps_jumping() -> None:
    assert texts("B:W14:B18") == {"18x9"}  # backward for Black
    assert texts("B:W17,18,26:B13") == {"13x22x15", "13x22x31"}  # on past the first jump


def test_r_kng_1_a_king_flies_along_empty_diagonals() -> None:
    assert texts("B:WK32:BK4") == {f"4-{s}" for s in (8, 11, 15, 18, 22, 25, 29)}


def test_r_kng_2_a_king_captures_from_afar_and_lands_on_any_square_beyond() -> None:
    assert texts("B:W18:BK4") == {"4x22", "4x25", "4x29"}


def test_r_kng_3_a_king_must_land_where_it_can_capture_on() -> None:
    """4x15 could land on 18, 22, 25 or 29; only from 22 can it go on (over 26), so it must."""
    assert texts("B:W15,26:BK4") == {"4x22x31"}


def test_r_cap_1_capturing_is_compulsory() -> None:
    board = Board("B:W15:B10,1")
    assert all(m.captures for m in board.legal_moves)
    with pytest.raises(IllegalMoveError, match="R-CAP-1"):
        board.parse_move("1-5")


def test_r_cap_2_free_choice_not_the_longest_capture() -> None:
    """14x21 takes one piece while four other captures take two: 14x21 is still legal."""
    assert texts("B:W17,18,26:B13,14") == {"14x21", "14x23x30", "13x22x15", "13x22x31"}


def test_r_cap_3_a_sequence_must_be_completed() -> None:
    """``W:W9:B6,7``: 9x2 would stop on the king row while 7 can still be jumped."""
    board = Board("W:W9:B6,7")
    with pytest.raises(IllegalMoveError):
        board.parse_move("9x2")
    assert texts("W:W9:B6,7") == {"9x2x11"}


def test_r_cap_4_captured_pieces_stay_and_block_the_path() -> None:
    """9x23x16x7 takes 14, 19 and 11; from 7 the line to 17 runs through the captured 14, which
    stays on the board until the end, so 17 cannot be taken on the same move."""
    with_17 = texts("B:W11,14,17,19:BK9")
    assert with_17 == texts("B:W11,14,19:BK9")
    assert with_17 == {"9x18x4", "9x18x8", "9x23x16x2", "9x23x16x7"}
    assert not any(m.captures.count(14) > 1 for m in Board("B:W11,14,17,19:BK9").legal_moves)


def test_r_cap_5_no_jumping_own_pieces() -> None:
    assert texts("B:W32:B14,18") == {"14-17", "18-22", "18-23"}
    assert texts("B:W32:BK1,10") == {"1-5", "1-6", "10-14", "10-15"}


def test_r_pro_1_crowning_ends_the_move() -> None:
    """22x31 reaches the king row; as a king it could take 24 from afar, as a man it stops."""
    game = Game("B:W24,26:B22")
    move = game.push_notation("22x31")
    assert move.crowns and move.captures == (26,)
    assert game.board.piece_at(31) == (Color.BLACK, True)
    assert game.board.piece_at(24) is not None
    assert game.board.turn is Color.WHITE


def test_r_pro_2_passing_the_king_row_mid_capture_stays_a_man() -> None:
    """``W:W9:B6,7`` has only 9x2x11: through the king row and back out, still a man."""
    game = Game("W:W9:B6,7")
    move = game.push_notation("9x2x11")
    assert not move.crowns
    assert game.board.piece_at(11) == (Color.WHITE, False)


def test_r_pro_3_a_crowned_man_is_a_king_at_once() -> None:
    """The status is the game's: the new king flies on its next move, crowned or not."""
    game = Game("B:W5:B27")
    game.push_notation("27-32")
    game.push_notation("5-1")
    assert {m.to_square for m in game.board.legal_moves} == {27, 23, 18, 14, 9, 5, 28}
