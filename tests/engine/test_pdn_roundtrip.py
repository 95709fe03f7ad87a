"""Round trips: a record written then read is the same record; FENs survive Board and PDN."""

from __future__ import annotations

import io
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import STARTING_FEN, Board, Piece
from engine.color import Color
from engine.pdn import RESULTS, GameRecord, read_game, write_game
from engine.pdn.clock import MAX_HOURS, split_clock

_RESERVED = {"Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType"}
_RESERVED |= {"FEN", "SetUp", "ResultOrder"}


@st.composite
def positions(draw: st.DrawFn) -> Board:
    """Any placement of up to 24 pieces, men never on their own crowning row, either to move."""
    board = Board.empty()
    squares = draw(st.lists(st.integers(1, 32), unique=True, max_size=24))
    for square in squares:
        color = draw(st.sampled_from(Color))
        crown_row = range(1, 5) if color is Color.WHITE else range(29, 33)
        king = square in crown_row or draw(st.booleans())
        board.set_piece_at(square, Piece(color, king))
    board.turn = draw(st.sampled_from(Color))
    return board


#: Comment text meant to trip the writer: ``%`` words (a line starting with one is skipped),
#: clock commands whole, broken or glued to other text, ``}`` (which would end a comment), ``;``.
comments = st.lists(
    st.one_of(
        st.sampled_from(["%", "%x", "[%clk", "[%clk 0:00:05]", "[%]", "0:01]", "}", "{", ";"]),
        st.text(string.ascii_letters + string.digits + " .,!?'-()[]:;$*%{}", max_size=12),
        st.text(st.characters(blacklist_categories=["Cs"]), max_size=6),
    ),
    max_size=10,
).map(lambda words: "".join(words))
clocks = (
    st.none()
    | st.integers(0, 3 * 3600)
    | st.integers(0, (MAX_HOURS + 1) * 3600 * 1000 - 1).map(lambda ms: ms / 1000)
)
tag_names = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,12}", fullmatch=True).filter(
    lambda name: name not in _RESERVED
)
#: Every character Python ends a line at (``str.splitlines``) is refused in a tag, as ``\n``.
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
tag_values = st.text(st.characters(blacklist_characters=LINE_BREAKS, blacklist_categories=["Cs"]))


@st.composite
def games(draw: st.DrawFn) -> GameRecord:
    """A random legal game from the start or a random position, annotated at random."""
    record = GameRecord()
    record.headers.update(draw(st.dictionaries(tag_names, tag_values, max_size=4)))
    record.headers["White"] = draw(tag_values)
    if draw(st.booleans()):
        record.setup(draw(positions()).fen())
    record.comment = " ".join(draw(comments).split())
    board = record.starting_board()
    for _ in range(draw(st.integers(0, 40))):
        moves = board.generate_legal_moves()
        if not moves:
            break
        move = draw(st.sampled_from(moves))
        clock, comment = draw(clocks), " ".join(draw(comments).split())
        while clock is None and split_clock(comment)[0] is not None:
            comment = split_clock(comment)[1]  # in a move without a clock it would be the clock
        node = record.add_move(move, comment=comment, clock=clock)
        node.nags.extend(draw(st.lists(st.integers(0, 255), max_size=2)))
        board.push(move)
    record.result = draw(st.sampled_from(RESULTS))
    return record


@settings(max_examples=150, deadline=None)
@given(games())
def test_written_games_read_back_the_same(record: GameRecord) -> None:
    text = write_game(record)
    again = read_game(io.StringIO(text), name="roundtrip.pdn")
    assert again == record
    assert [n.move.path for n in again.moves] == [n.move.path for n in record.moves]
    assert again.board() == record.board()
    assert write_game(again) == text
    assert not any(line.startswith("%") for line in text.splitlines())  # readers skip those


@settings(max_examples=200, deadline=None)
@given(positions())
def test_fen_round_trips_through_board_and_pdn(board: Board) -> None:
    fen = board.fen()
    assert Board(fen) == board
    assert Board(fen).fen() == fen
    record = GameRecord()
    record.setup(fen)
    again = read_game(io.StringIO(write_game(record)))
    assert again.starting_fen == fen
    assert again.board() == board


def test_a_tag_holding_any_line_break_is_refused_not_written_across_lines() -> None:
    """A form feed or U+2028 ends a line for many readers (Python's ``splitlines`` too): a tag
    holding one would put the rest of its value on a line of its own, maybe a ``%`` escape."""
    for brk in LINE_BREAKS:
        record = GameRecord()
        record.headers["White"] = f"Ann{brk}% Lee"
        with pytest.raises(ValueError, match="White holds a line break"):
            write_game(record)


def test_a_written_game_from_the_start_has_no_setup_tags() -> None:
    record = GameRecord()
    record.add_move_text("11-15")
    assert record.starting_fen == STARTING_FEN
    assert "FEN" not in write_game(record)
