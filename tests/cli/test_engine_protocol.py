"""``poolboard engine`` driven over real pipes by a client written from docs/engine.md: legal
answers, ``stop``, compulsory captures, full-path notation, errors that keep it alive,
the game's end, and a clean exit on end of input."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

from engine.board import Board
from engine.endgame import KingsEnding
from engine.game import Game
from engine.profiles import PROFILES
from poolboard.commands.engine import serve
from tests.cli.engine_client import EngineClient, parse_bestmove

#: Every legal move of this position is a capture by the king on 1 ending on 13 by two paths.
TWIN_CAPTURES = "B:W10,17,18,23:BK1"


@pytest.fixture
def engine() -> Iterator[EngineClient]:
    client = EngineClient()
    assert client.ready(timeout=30) == []
    yield client
    client.quit()


def play_line(fen: str | None, moves: list[str] | tuple[str, ...]) -> Board:
    """Plays move text on our own board; fails on any illegal or ambiguous move."""
    board = Board(fen) if fen else Board()
    for text in moves:
        move = board.parse_move(text)
        assert board.notation(move) == text, f"{text} is not written as PDN writes it"
        board.push(move)
    return board


def test_bestmove_is_legal_and_reported_with_its_line(engine: EngineClient) -> None:
    opening = ["11-15", "23-19", "8-11", "22-17"]
    engine.send("position startpos moves " + " ".join(opening))
    infos, best = engine.search("go movetime 300")
    board = play_line(None, opening)
    assert best.move is not None and board.parse_move(best.move) in board.generate_legal_moves()
    assert best.pv[0] == best.move
    play_line(board.fen(), best.pv)
    assert infos, "no info line before bestmove"
    assert [i.depth for i in infos] == list(range(1, len(infos) + 1))
    assert best.depth == infos[-1].depth
    for info in infos:
        assert info.score.kind == "cp" and abs(info.score.value) < 300  # an even opening
        play_line(board.fen(), info.pv)
    assert infos[-1].nodes > 0  # the overrun past 300 ms: bench/engine_protocol.py


@pytest.mark.parametrize("go", ["go infinite", "go movetime 60000"])
def test_stop_is_answered_with_a_legal_move(engine: EngineClient, go: str) -> None:
    # How soon (docs/engine.md promises 100 ms) is bench/engine_protocol.py's to measure.
    engine.send("position startpos")
    engine.send(go)
    assert engine.read().startswith("info depth 1 ")
    while not engine.read().startswith("info depth 3 "):  # well under way
        pass
    assert all(line.startswith("info ") for line in engine.ready())  # answered mid-search
    engine.send("stop")
    while not (line := engine.read()).startswith("bestmove"):
        assert line.startswith("info ")
    assert Board().parse_move(line.split()[1]) in Board().generate_legal_moves()
    engine.send("stop")  # nothing runs: no answer
    assert engine.ready() == []


def test_a_compulsory_capture_is_played(engine: EngineClient) -> None:
    # R-CAP-1: Black's man on 14 must take the man on 18, whatever else looks good.
    engine.send("position B:W18,30:B14,1")
    _, best = engine.search("go depth 6")
    assert best.move == "14x23"
    engine.send("position fen B:W18,30:B14,1")  # the UCI spelling is the same position
    _, best = engine.search("go depth 6")
    assert best.move == "14x23"
    # White to move after 11-15 24-20 15-18 must take the man on 18 (R-CAP-1).
    engine.send("position startpos moves 11-15 24-20 15-18")
    _, best = engine.search("go movetime 200")
    assert best.move in ("22x15", "23x14")


def test_two_captures_sharing_start_and_end_are_written_in_full(engine: EngineClient) -> None:
    # R-BRD-4: 1x15x22x13 and 1x19x26x13 both run 1 to 13, so only the full path says which.
    engine.send(f"position {TWIN_CAPTURES}")
    infos, best = engine.search("go depth 4")
    assert best.move in ("1x15x22x13", "1x19x26x13")
    assert all(info.pv[0] in ("1x15x22x13", "1x19x26x13") for info in infos)
    play_line(TWIN_CAPTURES, best.pv)
    engine.send(f"position {TWIN_CAPTURES} moves 1x19x26x13")
    assert engine.ready() == []
    engine.send(f"position {TWIN_CAPTURES} moves 1x13")
    assert engine.ready() == [
        "error position: move '1x13' at ply 1: '1x13' fits several captures: "
        "1x15x22x13, 1x19x26x13; give the path"
    ]


BAD_LINES = [
    ("foo", "error unknown command 'foo'"),
    ("GO depth 3", "error unknown command 'GO'"),
    ("position", "error position: expected 'startpos' or a FEN"),
    ("position B:W1:B9", "error position: FEN 'B:W1:B9': a White man on 1"),
    ("position X:W1:B9", "error position: FEN 'X:W1:B9': side to move must be B or W"),
    ("position startpos moves", "error position: 'moves' must be followed by"),
    (
        "position startpos moves 11-15 24-20 15-18 22-17",
        "error position: move '22-17' at ply 4: '22-17' is not a legal move",
    ),
    ("position startpos moves 11-15 23-19 11/16", "error position: move '11/16' at ply 3"),
    ("position startpos moves 11-15 40-36", "error position: move '40-36' at ply 2"),
    ("go", "error go: expected movetime MS, depth N, nodes N (any of them), level N or infinite"),
    ("setoption profile fide", "error setoption: unknown rule profile 'fide'"),
    ("setoption hash 64", "error setoption: expected 'setoption profile NAME'"),
    ("isready now", "error isready takes nothing after it"),
    ("\xff\xfe\x00", "error unknown command"),
    ("position startpos moves" + " 11-15" * 12_000, "error line longer than 65536 bytes, skipped"),
]


@pytest.fixture(scope="module")
def one_engine() -> Iterator[EngineClient]:
    """One engine for every bad line, which must survive them all."""
    client = EngineClient()
    assert client.ready(timeout=30) == []
    yield client
    client.quit()


@pytest.mark.parametrize(("line", "answer"), BAD_LINES, ids=[line[:40] for line, _ in BAD_LINES])
def test_a_bad_line_gets_one_error_line_and_the_engine_lives_on(
    one_engine: EngineClient, line: str, answer: str
) -> None:
    one_engine.send(line)
    before = one_engine.ready()
    assert len(before) == 1 and before[0].startswith(answer), before
    one_engine.send("position startpos")
    _, best = one_engine.search("go depth 2")
    assert best.move is not None


def test_bad_go_bounds_are_named(engine: EngineClient) -> None:
    engine.send("position startpos")
    for line, answer in [
        ("go depth 0", "error go: depth must be a whole number 1-64, got '0'"),
        ("go depth 70", "error go: depth must be a whole number 1-64, got '70'"),
        ("go movetime -5", "error go: movetime must be a whole number 1-86400000, got '-5'"),
        ("go movetime", "error go: movetime must be a whole number 1-86400000, got nothing"),
        ("go level 11", "error go: level must be a whole number 1-10, got '11'"),
        ("go depth 3 depth 4", "error go: depth given twice"),
        ("go infinite depth 4", "error go: infinite and level stand alone, without other bounds"),
        (
            "go ponder",
            "error go: unknown bound 'ponder': expected movetime MS, depth N, nodes N "
            "(any of them), level N or infinite",
        ),
    ]:
        engine.send(line)
        assert engine.ready() == [answer]
    _, best = engine.search("go level 1")
    assert best.move is not None


def test_a_search_refuses_a_new_position_until_its_bestmove(engine: EngineClient) -> None:
    engine.send("position startpos")
    engine.send("go infinite")
    engine.send("position startpos moves 11-15")
    engine.send("go depth 1")
    lines = engine.ready()
    assert "error position: a search is running; send stop and wait for bestmove" in lines
    assert "error go: a search is running; send stop and wait for bestmove" in lines
    engine.send("stop")
    while not engine.read().startswith("bestmove"):
        pass
    engine.send("go depth 1")  # the refused position line left no position set
    assert engine.ready() == ["error go: no position set: send 'position startpos' or a FEN first"]


def test_a_game_already_over_answers_bestmove_none(engine: EngineClient) -> None:
    engine.send("position B:W10:B")
    infos, best = engine.search("go depth 4")
    assert infos == []
    assert (best.move, best.result) == (None, "0-1")
    assert best.reason == "Black has no pieces left (R-END-1)"
    engine.send("position W:W29:B25,K22")  # White's man on 29 is blocked: it cannot move
    _, best = engine.search("go depth 4")
    assert best.result == "1-0" and best.reason is not None and "(R-END-1)" in best.reason


def test_a_count_run_out_is_a_draw(engine: EngineClient) -> None:
    # R-DRW-2: three kings v one king; the lone king's 13th move ends the game drawn. The moves
    # shuffle the kings without capturing and without repeating a position.
    game = Game("W:WK1,K2,K3:BK32", profile="casual")
    moves: list[str] = []
    seen = {game.board.fen()}
    while not game.is_over():
        board = game.board
        for move in sorted(board.generate_legal_moves(), key=lambda m: m.path):
            after = board.copy(stack=False)
            after.push(move)
            if move.captures or after.fen() in seen or after.has_capture():
                continue
            moves.append(board.notation(move))
            game.push(move)
            seen.add(game.board.fen())
            break
        else:
            pytest.fail(f"no quiet move from {board.fen()}")
    outcome = game.outcome()
    assert outcome is not None and outcome.rule == "R-DRW-2"
    engine.send("setoption profile casual")
    engine.send("position W:WK1,K2,K3:BK32 moves " + " ".join(moves))
    _, best = engine.search("go depth 3")
    assert best.result == "1/2-1/2" and best.reason == outcome.reason
    engine.send("position W:WK1,K2,K3:BK32 moves " + " ".join(moves[:-1]))
    _, best = engine.search("go depth 3")  # one lone-king move before the count runs out
    assert best.move is not None


def test_end_of_input_ends_the_engine_cleanly() -> None:
    client = EngineClient()
    try:
        client.send("position startpos")
        client.send("go infinite")
        assert client.read(timeout=30).startswith("info depth 1 ")
        assert client.close_input() == 0
        lines = client.rest()
        assert lines and lines[-1].startswith("bestmove ")  # the running search still answers
        assert client.stderr() == ""
    finally:
        client.quit()


def test_quit_exits_with_status_0() -> None:
    client = EngineClient()
    try:
        client.send("quit")
        assert client.process.wait(30) == 0
        assert client.stderr() == ""
    finally:
        client.quit()


def test_forced_wins_and_losses_are_scored_in_moves(engine: EngineClient) -> None:
    # Two Black kings against a White man on 21 that cannot escape.
    engine.send("position B:W21:BK6,K15")
    infos, best = engine.search("go depth 12")
    assert best.score is not None and best.score.kind == "win" and best.score.value >= 1
    assert infos[-1].score == best.score
    engine.send("position W:W22:BK6,K15")  # White to move, two moves, both lose
    _, best = engine.search("go depth 12")
    assert best.score is not None and best.score.kind == "loss" and best.score.value >= 1


def test_three_kings_v_one_is_won_from_the_solved_endings(solved_endings: KingsEnding) -> None:
    # A win in 11 moves inside the 13 count (R-DRW-2), past any depth: the engine answers from
    # the solved endings once its process has them. In this process, so that the run builds the
    # table once (tests/conftest.py); the protocol over pipes is the other tests' job.
    answers = io.StringIO()
    commands = b"position W:WK22,K29,K30:BK2\ngo movetime 200\n"
    assert serve(io.BytesIO(commands), answers, PROFILES["apca"]) == 0
    best = parse_bestmove(answers.getvalue().splitlines()[-1])
    assert best.score is not None and best.score.kind == "win"
    assert (best.move, best.score.value) == ("22-13", 11)


def test_crlf_lines_blank_lines_and_tabs_are_read(engine: EngineClient) -> None:
    engine.send("")
    engine.send("position\tstartpos  moves 11-15\r")
    infos, best = engine.search("go depth 2\r")
    assert infos and best.move is not None
    assert play_line(None, ["11-15", best.move]).turn.letter == "B"
