"""Game analysis judges moves against the search: blunders and mistakes marked with the better
move, forced moves never, evaluations written from Black's view."""

from __future__ import annotations

import io

from engine.analysis import BLUNDER_NAG, analyse, annotate, evaluation_text
from engine.color import Color
from engine.evaluation import WIN
from engine.pdn import GameRecord, read_game, write_game
from engine.profiles import profile
from engine.search import Limits


def test_a_king_left_to_be_taken_is_a_blunder_and_the_winning_move_is_named() -> None:
    # Black's 2-9 lets White's man on 13 take it (13x6); 2-6 wins in two moves instead.
    record = GameRecord()
    record.setup("B:W5,13:BK1,K2")
    record.add_move_text("2-9")
    record.add_move_text("13x6")
    analysis = analyse(record, Limits(depth=4))
    blunder, capture = analysis.verdicts
    assert (blunder.mover, blunder.nag, blunder.best) == (Color.BLACK, BLUNDER_NAG, "2-6")
    assert blunder.comment().endswith("; blunder, 2-6 was better (Black wins in 2)")
    assert capture.nag is None and capture.loss == 0
    assert analysis.marked(Color.BLACK, BLUNDER_NAG) == 1
    assert analysis.marked(Color.WHITE, BLUNDER_NAG) == 0


def test_a_compulsory_capture_is_forced_and_never_marked() -> None:
    # R-CAP-1: after 11-15 24-20 15-19, White's only legal move is 23x16.
    record = GameRecord()
    for text in ("11-15", "24-20", "15-19", "23x16"):
        record.add_move_text(text)
    verdict = analyse(record, Limits(depth=3)).verdicts[-1]
    assert verdict.forced and verdict.loss == 0 and verdict.nag is None


def test_evaluations_are_written_from_blacks_view() -> None:
    assert evaluation_text(35, Color.BLACK) == "+0.35"
    assert evaluation_text(35, Color.WHITE) == "-0.35"
    assert evaluation_text(0, Color.WHITE) == "0.00"
    assert evaluation_text(WIN - 3, Color.WHITE) == "White wins in 2"
    assert evaluation_text(-(WIN - 4), Color.WHITE) == "Black wins in 2"
    assert evaluation_text(WIN, Color.BLACK) == "Black has won"


def test_an_annotated_game_reads_back_with_its_marks_and_remarks() -> None:
    record = GameRecord()
    record.setup("B:W5,13:BK1,K2")
    record.add_move_text("2-9").comment = "hoping for 5-1"
    record.add_move_text("13x6").clock = 61.5
    record.result = "1/2-1/2"
    annotate(record, analyse(record, Limits(depth=4)), "test")
    back = read_game(io.StringIO(write_game(record)))
    assert back is not None
    assert back.headers == record.headers and back.headers["Annotator"] == "test"
    assert [n.nags for n in back.moves] == [[BLUNDER_NAG], []]
    assert back.moves[0].comment.startswith("hoping for 5-1; eval +0.")
    assert back.moves[1].clock == 61.5 and back.moves[1].comment.startswith("eval ")
    assert back.result == "1/2-1/2"


def test_a_record_played_on_past_its_end_is_analysed_on_with_a_note() -> None:
    # Under casual rules the third repetition draws at once (R-DRW-1); this record plays on.
    record = GameRecord()
    record.setup("W:WK1:BK32")
    for text in ["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1", "28-32", "1-5", "32-28"]:
        record.add_move_text(text)
    analysis = analyse(record, Limits(depth=3), profile("casual"))
    assert analysis.notes == [
        "the game was over before ply 9 (1/2-1/2, draw: repetition: this position has occurred "
        "3 of 3 times (R-DRW-1)) under casual rules, but the record plays on: the counts "
        "restart there"
    ]
    assert len(analysis.verdicts) == 10
    assert analyse(record, Limits(depth=3), profile("apca")).notes == []
