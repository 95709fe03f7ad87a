"""Reading PDN: the sample files, every tolerance, and every error with its exact position."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from engine.board import Board
from engine.pdn import BaseVisitor, GameBuilder, PdnError, read_game, read_games, write_game

DATA = Path(__file__).parents[1] / "data" / "pdn"


def read_text(text: str) -> list:
    return list(read_games(io.StringIO(text), name="games.pdn"))


def notations(record) -> list[str]:
    return [node.notation for node in record.moves]


def test_club_night_sample_replays_to_its_recorded_ends() -> None:
    with open(DATA / "club_night.pdn", encoding="utf-8") as handle:
        games = list(read_games(handle))
    assert [g.result for g in games] == ["1-0", "0-1", "1/2-1/2"]  # 1-0: Black, who moves first
    assert [len(g.moves) for g in games] == [51, 30, 40]
    first = games[0]
    assert first.headers["White"] == "Okafor, Ada"
    assert first.headers["TimeControl"] == "900+5"
    assert first.moves[0].clock == 14 * 60 + 27
    assert first.moves[0].comment == "a quiet opening"
    assert first.board().fen() == "W:W13:B1,5,6,8,9,10,K25,27,28"
    assert not first.board().legal_moves  # White is blocked: the game really is over
    study = games[2]
    assert study.starting_fen == "W:WK25,K32:BK1,K3,20"
    assert study.comment == "kings ending from a set-up position"


def test_tolerant_sample_bom_crlf_colons_variations_comments_nags() -> None:
    with open(DATA / "tolerant.pdn", encoding="utf-8", newline="") as handle:
        first, second = read_games(handle, name="tolerant.pdn")
    assert first.headers["GameType"] == "23"  # missing: taken as pool checkers
    assert first.headers["Event"] == "Practice"  # the BOM is not part of the first tag
    assert first.result == "0-0"
    assert notations(first)[:4] == ["10-14", "23-19", "9-13", "27-23"]
    assert "21x14" in notations(first) and "10x17" in notations(first)  # written 21:14, 10:17
    assert first.moves[3].nags == [1]  # 27-23!
    assert first.moves[4].nags == [1]  # $1
    assert first.moves[6].comment == "a slow build-up"  # two lines, whitespace collapsed
    assert first.moves[11].comment == "both players keep the centre"  # ; comment
    assert first.moves[20].clock == 302
    assert "24-20" not in notations(first)[:8]  # the variation is skipped
    assert notations(second) == ["15x22x31x24x15x6"]
    assert second.comment == "Black takes five with the full path"
    assert second.board() == Board("W:W12:B6")


@pytest.mark.parametrize(
    "movetext",
    ["1. 11-15 23-19", "1.11-15 23-19", "1. 11-15 1... 23-19", "11-15 23-19", "1. 11-15 2. 23-19"],
)
def test_move_numbers_are_optional_and_not_checked(movetext: str) -> None:
    (record,) = read_text(movetext + " *")
    assert notations(record) == ["11-15", "23-19"]


def test_single_jump_written_as_its_full_path_when_a_longer_capture_shares_its_ends() -> None:
    (record,) = read_text('[FEN "B:W10,12,18,19,26,27:B15"]\n1. 15x6 *')
    assert record.moves[0].move.captures == (10,)
    assert record.moves[0].notation == "15x6"


def test_dash_is_tolerated_for_a_capture_but_x_is_not_for_a_simple_move() -> None:
    (record,) = read_text('[FEN "W:W9:B6,7"]\n1... 9-11 *')
    assert record.moves[0].notation == "9x11"
    with pytest.raises(PdnError, match=r"^games\.pdn:1:10: move 1\.\.\. 24x20 is not legal"):
        read_text("1. 11-15 24x20 *")


def test_all_five_results_and_result_from_header_or_marker() -> None:
    for result in ("1-0", "0-1", "1/2-1/2", "0-0", "*"):
        (record,) = read_text(f"1. 11-15 {result}")
        assert record.result == result
    (record,) = read_text('[Result "1-0"]\n1. 11-15')  # no marker: the tag stands
    assert record.result == "1-0"
    (record,) = read_text('[Result "*"]\n1. 11-15 0-1')  # an unknown tag gives way
    assert record.result == "0-1"
    (record,) = read_text('[Result "1/2-1/2"]\n1. 11-15 *')
    assert record.result == "1/2-1/2"


@pytest.mark.parametrize(
    ("order", "black_won"),
    [("", "1-0"), ('[ResultOrder "Black-White"]', "1-0"), ('[ResultOrder "White-Black"]', "0-1")],
)
def test_results_are_read_in_the_order_the_result_order_tag_names(
    order: str, black_won: str
) -> None:
    """Checkers writes the first mover's (Black's) score first (PDN 2.0 §6.1.1.1.1.5); a file
    that writes White's first, as chess does, says so in its ResultOrder tag."""
    blocked = '[FEN "B:W18:B14"]'  # Black jumps 14x23 and White, without pieces, has lost (R-END-1)
    text = f'{blocked}\n[Result "{black_won}"]\n{order}\n1. 14x23 {black_won}\n'
    (record,) = read_text(text)
    assert record.result == "1-0" and "ResultOrder" not in record.headers
    assert record.board().legal_moves.count() == 0
    assert read_game(io.StringIO(write_game(record))) == record  # written in checkers' order
    assert '[Result "1-0"]' in write_game(record) and "ResultOrder" not in write_game(record)
    (draw,) = read_text(f'{order}\n[Result "1/2-1/2"]\n1. 11-15 *')
    assert draw.result == "1/2-1/2"


def test_games_split_on_results_and_on_tags_and_positions_run_on() -> None:
    text = '[Event "a"]\n1. 11-15 1-0 [Event "b"]\n1. 9-13\n[Event "c"]\n1. 10-14 24x20 *'
    handle = io.StringIO(text)
    first = read_game(handle, name="games.pdn")
    second = read_game(handle, name="games.pdn")
    assert (first.headers["Event"], second.headers["Event"]) == ("a", "b")
    assert notations(second) == ["9-13"]
    with pytest.raises(PdnError) as error:
        read_game(handle, name="games.pdn")
    assert (error.value.line, error.value.column) == (5, 10)
    assert read_game(io.StringIO("  \n{just a comment}\n"), name="x") is None
    handle.seek(0)  # read afresh: positions start again at line 1
    assert read_game(handle, name="games.pdn") == first
    assert read_game(handle, name="games.pdn") == second
    with pytest.raises(PdnError, match=r"^games\.pdn:5:10: "):
        read_game(handle, name="games.pdn")


def test_gametype_with_extra_fields_and_escaped_tag_values() -> None:
    (record,) = read_text('[GameType "23,B,8,8,N1,0"]\n[Site "the \\"Q\\" club \\\\ hall"]\n*')
    assert record.headers["Site"] == 'the "Q" club \\ hall'
    assert record.moves == []


def test_a_file_name_from_the_handle(tmp_path: Path) -> None:
    path = tmp_path / "mine.pdn"
    path.write_text("1. 11-15 12-16 *\n", encoding="utf-8")
    with open(path, encoding="utf-8") as handle, pytest.raises(PdnError) as error:
        read_game(handle)
    assert str(error.value).startswith(f"{path}:1:10: move 1... 12-16 is not legal")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[Event "x"]\n\n1. 11-15 23-19\n2. 8-11 11/15 *',
            "games.pdn:4:9: expected a move or a result, got '11/15'",
        ),
        ("hello", "games.pdn:1:1: expected a tag, a move or a result, got 'hello'"),
        (
            "1. 11-15 23-19 2. 8-11 22-17\n3. 9-13 24x20 *",
            "games.pdn:2:9: move 3... 24x20 is not legal in FEN "
            "W:W17,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,10,11,12,13,15",
        ),
        (
            "1. 11-15 22-18 2. 9-13 *",
            "games.pdn:1:19: move 2. 9-13 is not legal in FEN "
            "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15 "
            "(a capture is compulsory, R-CAP-1)",
        ),
        ("1. 33-37 *", "games.pdn:1:4: move 1. 33-37: '33-37': square 33 is not a dark square"),
        (
            '[FEN "B:W10,11,17,18,19,27:B21"]\n1. 21x32 *',
            "games.pdn:2:4: move 1. 21x32 is ambiguous in FEN B:W10,11,17,18,19,27:B21: write "
            "the full path, one of 21x14x7x16x23x32, 21x14x23x32",
        ),
        ('[GameType "20"]\n', "games.pdn:1:1: GameType '20' is not American pool checkers"),
        (
            '[GameType "23,W,8,8,A0,0"]\n',  # pool checkers with White first, algebraic squares
            "games.pdn:1:1: GameType '23,W,8,8,A0,0' is not American pool checkers: "
            'expected "23" or "23,B,8,8,N1,0"',
        ),
        ('[Event "x"]\n[FEN "B:W5:B5"]\n', "games.pdn:2:1: [FEN]: FEN 'B:W5:B5': square 5"),
        (
            '[FEN "B:W20:B30"]\n',
            "games.pdn:1:1: [FEN]: FEN 'B:W20:B30': a Black man on 30 stands on the row where it "
            "is crowned (R-PRO-1): write it as a king, K30",
        ),
        ('[SetUp "1"]\n1. 11-15 *', 'games.pdn:1:1: expected a [FEN "..."] tag with [SetUp "1"]'),
        ('[Result "2-0"]', "games.pdn:1:1: expected a result (1-0, 0-1, 1/2-1/2, 0-0, *)"),
        (
            '[ResultOrder "chess"]',
            'games.pdn:1:1: expected [ResultOrder "Black-White"] (the default) or '
            "[ResultOrder \"White-Black\"], got 'chess'",
        ),
        (
            '[Result "1-0"]\n1. 11-15 0-1',
            'games.pdn:2:10: result 0-1 disagrees with [Result "1-0"] at line 1',
        ),
        ("[Event x]", "games.pdn:1:1: expected a tag like [Event \"...\"], got '[Event x]'"),
        ("1. 11-15 {never closed\n23-19 *", "games.pdn:1:10: comment not closed: expected '}'"),
        ("1. 11-15 (1... 22-18 *", "games.pdn:1:10: variation not closed: expected ')'"),
        ('1. 11-15 (1... 22-18\n[Event "b"]', "games.pdn:1:10: variation not closed: expected ')'"),
        ("1. 11-15 ) *", "games.pdn:1:10: expected a move or a result, got ')'"),
        ("1. 11-15 (1... 22/18) *", "games.pdn:1:16: expected a move or a result, got '22/18'"),
        ("1. 11-15 } *", "games.pdn:1:10: '}' with no '{' open before it"),
        ('[Event "x"]]\n1. 11-15 *', "games.pdn:1:12: ']' with no '[' open before it"),
        ("1. 11-15 $256 *", "games.pdn:1:10: NAG '$256' is out of range: expected $0 to $255"),
        (
            "1. 11-15 $" + "9" * 5000,
            "games.pdn:1:10: NAG '$" + "9" * 39 + "...' (5001 characters) is out of range",
        ),
        (
            "1. 1-2-3-4-5-6-7-8-9-10-11-12-13-14 *",
            "games.pdn:1:4: expected a move or a result, got '1-2-3-4-5-6-7-8-9-10-11-12-13-14'",
        ),
    ],
)
def test_errors_name_file_line_column_and_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(PdnError) as error:
        read_text(text)
    assert str(error.value).startswith(message)
    assert isinstance(error.value, ValueError)
    name, line, column = message.split(":")[:3]
    assert (error.value.name, error.value.line, error.value.column) == (
        name,
        int(line),
        int(column),
    )


@pytest.mark.system  # 30 MB of input
def test_error_messages_quote_a_short_excerpt_of_a_huge_token() -> None:
    for text in ("x" * 10_000_000, '[Event "' + "x" * 10_000_000, "1. 11-15 " + "y" * 10_000_000):
        with pytest.raises(PdnError) as error:
            read_text(text)
        assert len(str(error.value)) < 200
        assert "(10000" in str(error.value)  # the length is told, not the text


def test_clock_times_out_of_range_stay_comment_text() -> None:
    huge = "[%clk " + "9" * 400 + ":00:00]"
    (record,) = read_text(f"1. 11-15 {{{huge}}} 23-19 {{[%clk 0:61:00]}} *")
    assert [node.clock for node in record.moves] == [None, None]
    assert record.moves[0].comment == huge
    (record,) = read_text("1. 11-15 {[%clk 99999:59:59.999]} *")
    assert record.moves[0].clock == 99999 * 3600 + 3599.999


def test_error_columns_count_from_the_line_start_after_a_bom_and_crlf() -> None:
    handle = io.StringIO("\ufeff1. 11-15\r\n   23-19 9/14 *\r\n", newline="")
    with pytest.raises(PdnError, match=r"^g:2:10: expected a move or a result, got '9/14'"):
        read_game(handle, name="g")


def test_a_custom_visitor_sees_the_board_before_each_move() -> None:
    class Counter(BaseVisitor[list[str]]):
        def begin_game(self) -> None:
            self.seen: list[str] = []

        def visit_move(self, board, move, notation) -> None:
            self.seen.append(f"{board.turn.letter}{notation}")

        def result(self) -> list[str]:
            return self.seen

    assert read_game(io.StringIO("1. 11-15 23-19 *"), Visitor=Counter) == ["B11-15", "W23-19"]
    assert isinstance(read_game(io.StringIO("*"), Visitor=GameBuilder).moves, list)
