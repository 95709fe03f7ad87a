"""Writing PDN: layout, move numbers, clocks, escaping, and what cannot be written."""

from __future__ import annotations

import io
import re

import pytest

from engine.board import Board, IllegalMoveError
from engine.pdn import GameRecord, read_game, read_games, write_game, write_games
from engine.pdn.clock import format_clock, split_clock


def test_layout_tags_blank_line_movetext_with_numbers_and_clocks() -> None:
    record = GameRecord()
    record.headers.update(Event="Club", White="A", Black="B", TimeControl="900+5")
    record.add_move_text("11-15").clock = 2691
    record.add_move_text("22-18")
    node = record.add_move_text("15x22")
    node.comment = "forced"
    node.nags.append(7)
    record.add_move_text("25x18")
    record.result = "1/2-1/2"
    assert write_game(record) == (
        '[Event "Club"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "A"]\n'
        '[Black "B"]\n[Result "1/2-1/2"]\n[GameType "23"]\n[TimeControl "900+5"]\n\n'
        "1. 11-15 {[%clk 0:44:51]} 1... 22-18 2. 15x22 $7 {forced} 2... 25x18 1/2-1/2\n"
    )


def test_a_game_from_a_white_to_move_position_starts_with_dots() -> None:
    record = GameRecord()
    record.setup("W:W9:B6,7")
    record.add_move_text("9x11")
    text = write_game(record)
    assert '[SetUp "1"]\n[FEN "W:W9:B6,7"]\n' in text
    assert text.endswith("\n1... 9x11 *\n")


def test_the_full_path_only_when_two_captures_share_start_and_end() -> None:
    record = GameRecord()
    record.setup("B:W10,11,17,18,19,27:B21")
    record.add_move(next(m for m in Board(record.starting_fen).legal_moves if len(m.path) == 4))
    assert record.moves[0].notation == "21x14x23x32"
    record.setup("W:W9:B6,7")
    record.add_move_text("9x2x11")
    assert record.moves[0].notation == "9x11"


def test_move_text_lines_stay_within_80_columns_and_clocks_are_never_split() -> None:
    record = GameRecord()
    board = record.board()
    for ply in range(60):
        moves = sorted(board.legal_moves, key=lambda m: m.path)
        if not moves:
            break
        record.add_move(moves[ply % len(moves)], clock=3600 - 7 * ply, comment="ok" * (ply % 3))
        board = record.board()
    record.comment = " ".join(["word"] * 40)
    text = write_game(record)
    movetext = text.split("\n\n", 1)[1].splitlines()
    assert len(movetext) > 5
    assert all(len(line) <= 80 for line in movetext)
    assert all(len(re.findall(r"\[%clk [0-9:]+\]", line)) == line.count("[") for line in movetext)
    assert read_game(io.StringIO(text)) == record


def test_tag_values_are_escaped() -> None:
    record = GameRecord()
    record.headers["Site"] = 'The "Q" \\ Club'
    assert '[Site "The \\"Q\\" \\\\ Club"]' in write_game(record)
    assert read_game(io.StringIO(write_game(record))).headers["Site"] == 'The "Q" \\ Club'


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.headers.update(Site="two\nlines"), "line break"),
        (lambda r: r.headers.update({"Bad Name": "x"}), "tag name"),
        (lambda r: r.headers.update(ResultOrder="White-Black"), "checkers' order"),
        (lambda r: r.add_move_text("11-15").__setattr__("comment", "[%clk 0:01:00]"), "no clock"),
    ],
)
def test_what_pdn_cannot_hold_is_refused(change, message: str) -> None:
    record = GameRecord()
    change(record)
    with pytest.raises(ValueError, match=message):
        write_game(record)


def test_a_comment_word_starting_with_percent_never_starts_a_line() -> None:
    record = GameRecord()
    record.add_move_text("11-15").comment = "x" * 70 + " %bc %de"  # the % word is what overflows
    record.add_move_text("23-19").comment = "%" * 90 + " %fg"  # one long word leads the % word
    text = write_game(record)
    movetext = text.split("\n\n", 1)[1].splitlines()
    assert movetext == [
        "1. 11-15",
        "{" + "x" * 70 + " %bc %de}",
        "1... 23-19",
        "{" + "%" * 90 + " %fg}",
        "*",
    ]
    assert read_game(io.StringIO(text)) == record


def test_a_comment_holding_a_closing_brace_is_written_as_a_line_comment() -> None:
    record = GameRecord()
    record.comment = "set-up {from the book}"
    record.add_move_text("11-15").comment = "a } b"
    record.moves[0].clock = 61
    text = write_game(record)
    assert text.endswith("\n; set-up {from the book}\n1. 11-15 ; [%clk 0:01:01] a } b\n*\n")
    assert read_game(io.StringIO(text)) == record


def test_a_clock_time_split_over_two_comments_is_the_clock() -> None:
    (record,) = read_games(io.StringIO("1. 11-15 {a [%clk} {0:00:05]} *"))
    assert (record.moves[0].clock, record.moves[0].comment) == (5, "a")


def test_bad_model_values_are_refused() -> None:
    record = GameRecord()
    with pytest.raises(ValueError, match="result must be one of"):
        record.result = "2-0"
    with pytest.raises(IllegalMoveError):
        record.add_move_text("11-18")
    for bad in (-1, float("nan"), float("inf"), 100_000 * 3600):
        with pytest.raises(ValueError, match="number of seconds from 0 to 99999 hours"):
            format_clock(bad)


def test_clock_text_forms() -> None:
    assert format_clock(2691) == "[%clk 0:44:51]"
    assert format_clock(36000.25) == "[%clk 10:00:00.25]"
    assert split_clock("[%clk 1:02:03.5] well played") == (3723.5, "well played")
    assert split_clock("no clock [%clk 99]") == (None, "no clock [%clk 99]")


def test_several_games_are_separated_by_a_blank_line() -> None:
    first, second = GameRecord(), GameRecord()
    second.headers["Round"] = "2"
    text = write_games([first, second])
    assert "*\n\n[Event" in text
    handle = io.StringIO(text)
    assert [read_game(handle), read_game(handle), read_game(handle)] == [first, second, None]


def test_the_module_examples_run() -> None:
    import doctest

    import engine.pdn
    from engine import quote
    from engine.pdn import model, reader

    for module in (engine.pdn, model, reader, quote):
        assert doctest.testmod(module).failed == 0
