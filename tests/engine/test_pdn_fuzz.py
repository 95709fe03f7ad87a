"""Hostile input: any text gives games or one clean ``PdnError`` (FEN: a board or a ``FenError``),
and whatever the reader accepts is written back and read again unchanged. How fast the reader
gets through hostile and huge input is measured by bench/pdn.py, not here."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board, FenError
from engine.pdn import GameRecord, PdnError, read_games, write_games

#: Pieces of PDN, right and wrong, for texts that get past the first token.
_PIECES = [
    '[Event "x"]', '[FEN "B:W21-32:B1-12"]', '[FEN "W:W9:B6,7"]', '[FEN "B:W1:B5"]',
    '[Result "1-0"]', '[Result "*"]', '[SetUp "1"]', '[GameType "23"]', '[GameType "20"]',
    '[Site "a \\" b"]', "1.", "2...", "11-15", "23-19", "8-11", "22-17", "15x22", "9x11", "9-11",
    "26x17", "24x20", "4-8", "11x18x25", "33-1", "{", "}", "[", "]", "(", ")", "{note}",
    ";c\n", ";", "$1", "$256", "$" + "9" * 30, "!", "?!", "1-0", "0-1", "1/2-1/2", "0-0", "*", "%",
    "\n%", "[%clk 0:00:05]", "{[%clk 1:02:03.5]}", "[%clk " + "9" * 40 + ":00:00]", "\ufeff",
    "\r", "\n", "\r\n", "\t", "x", '"', "\\", "1. 11-15 23-19 2. 8-11 22-17 ",
]  # fmt: skip
#: Comment text built to trip a writer: ``%`` words, clock commands whole and broken, brackets.
remark_texts = st.lists(
    st.one_of(
        st.sampled_from(["%", "%x", "[%clk", "[%clk 0:00:05]", "0:01:02]", "[", "]", "{", ";"]),
        st.text(st.characters(blacklist_characters="}", blacklist_categories=["Cs"]), max_size=9),
    ),
    max_size=12,
).map(" ".join)


annotations = st.one_of(
    remark_texts.map(lambda text: "{" + text + "}"),
    remark_texts.map(lambda text: "; } " + " ".join(text.split()) + "\n"),
    remark_texts.map(lambda text: "\n%" + " ".join(text.split()) + "\n"),  # an escape line
    st.integers(0, 255).map(lambda nag: f"${nag}"),
    st.sampled_from(["(1... 22-18)", "({x})", "()"]),
    st.tuples(st.integers(0, 59), st.integers(0, 59), st.integers(0, 999)).map(
        lambda t: f"{{[%clk 0:{t[0]:02d}:{t[1]:02d}.{t[2]:03d}]}}"
    ),
)


@st.composite
def annotated_games(draw: st.DrawFn) -> str:
    """A legal game as text, annotated at random, then perhaps broken by one stray piece."""
    parts = draw(st.lists(st.sampled_from(_PIECES[:10]), max_size=2))
    board = Board("W:W9:B6,7") if '[FEN "W:W9:B6,7"]' in parts else Board()
    for _ in range(draw(st.integers(0, 30))):
        moves = sorted(board.generate_legal_moves(), key=lambda move: move.path)
        if not moves:
            break
        move = draw(st.sampled_from(moves))
        full_path = draw(st.booleans()) and move.captures
        text = "x".join(map(str, move.path)) if full_path else board.notation(move)
        parts.append(text + draw(st.sampled_from(["", "", "!", "?", "!!", "??", "!?", "?!"])))
        board.push(move)
        parts.extend(draw(st.lists(annotations, max_size=2)))
    parts.append(draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "0-0", "*", ""])))
    gaps = draw(st.lists(st.sampled_from([" ", "\n", "\r\n", "\t "]), min_size=len(parts)))
    text = "".join(part + gap for part, gap in zip(parts, gaps, strict=False))
    if draw(st.booleans()):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(_PIECES)) + text[at:]
    return text


pdn_texts = st.one_of(
    st.text(max_size=200),
    st.lists(
        st.tuples(st.sampled_from(_PIECES), st.sampled_from(["", " ", "\n"])), max_size=40
    ).map(lambda parts: "".join(piece + gap for piece, gap in parts)),
    st.lists(annotated_games(), min_size=1, max_size=3).map("\n".join),
)


def read_all(text: str) -> list[GameRecord] | PdnError:
    """Every game of the text (lines ending in LF, CR or CRLF), or the error that stopped it."""
    try:
        return list(read_games(io.StringIO(text, newline=""), name="fuzz.pdn"))
    except PdnError as error:
        return error


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pdn_texts)
def test_any_text_reads_as_games_or_one_clean_error(text: str) -> None:
    got = read_all(text)
    if isinstance(got, PdnError):
        assert (got.name, got.line >= 1, got.column >= 1) == ("fuzz.pdn", True, True)
        assert len(str(got)) < 2000  # excerpts: at most 100 characters, escaped
        return
    for record in got:
        record.board()  # every move replays


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pdn_texts)
def test_what_the_reader_accepts_is_written_and_read_back_unchanged(text: str) -> None:
    records = read_all(text)
    if isinstance(records, PdnError):
        return
    written = write_games(records)
    again = read_all(written)
    assert again == records
    assert isinstance(again, list) and write_games(again) == written


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(max_size=80), st.from_regex(r"[BW]:[BW][K0-9,\- ]*:[BW][K0-9,\- ]*")))
def test_any_text_is_a_board_or_a_fen_error(text: str) -> None:
    try:
        board = Board(text)
    except FenError as error:
        assert len(str(error)) < 2000
        return
    assert Board(board.fen()) == board
    assert Board(board.fen()).fen() == board.fen()


#: Huge hostile texts: each is read to its games or one short error (bench/pdn.py times them).
HUGE_INPUTS = (
    "1. 11-15 " + "9-" * 2_000_000 + "9 *",
    "{" + "x" * 5_000_000,
    "(" * 100_000,
    "1. 11-15 23-19 " + "$1 " * 100_000 + "*",
    '[FEN "' + "B:W1," * 1_000_000 + '"]',
    "1. 11-15 " + "{x} " * 100_000 + "*",  # comments are joined once, not one by one
    "; x\n" * 100_000 + "1. 11-15 *",
    "1. 11-15 {" + "a" * 70 + " %x" * 100_000 + "} *",  # % words the writer must carry
)


@pytest.mark.system
def test_huge_inputs_fail_with_short_messages() -> None:
    for text in HUGE_INPUTS:
        got = read_all(text)
        if isinstance(got, list):
            assert read_all(write_games(got)) == got
        if isinstance(got, PdnError):
            assert len(str(got)) < 2000


@pytest.mark.system
def test_many_games_on_one_line_are_all_read() -> None:
    """16,000 games of 1 KB on one 16 MB line: a reader that copied the rest of the line per game
    would copy 128 GB and never finish; bench/pdn.py shows the time per game stays flat."""
    game = "1. 11-15 {" + "a" * 1000 + "} *"
    text = " ".join([game] * 16_000)
    assert sum(1 for _ in read_games(io.StringIO(text), name="line.pdn")) == 16_000
