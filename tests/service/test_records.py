"""Every way a game ends, from a session on its real SQLite store into the PDN, read back by the
PDN reader: the result in checkers' order (``1-0``: Black, the first mover, won), the reason in
words with its rule, ``[Termination]``, notes at the move, ``[Round "r.g"]``, the PGN-form
``[TimeControl]`` and clock times to the tenth."""

from __future__ import annotations

import io

import pytest

from engine.board import Board
from engine.color import Color
from engine.pdn import GameRecord, read_game, write_game
from poolboard.config import ClockConfig, GameConfig, RulesConfig
from poolboard.session import RefereeError, Session


def exported(session: Session, game_id: int | None = None) -> tuple[str, GameRecord]:
    """The game as ``poolboard export`` writes it, and as the PDN reader reads that text."""
    store = session.store
    text = write_game(store.record(store.game(game_id or session.game_id)))
    return text, read_game(io.StringIO(text))


def opened(table) -> Session:
    table.set_up()
    table.move(11, 15)
    table.move(23, 19)
    return table.session


def test_a_win_on_the_board(make_table) -> None:
    table = make_table(rules=RulesConfig(fen="B:W18:B14"))
    table.set_up()
    table.move(14, 23, 18)  # White has no piece left (R-END-1)
    text, record = exported(table.session)
    assert record.result == "1-0"
    assert '[Termination "normal"]' in text
    assert record.moves[-1].comment == "White has no pieces left (R-END-1)"
    state = table.session.state()
    assert state["winner"] == "black"
    assert state["result_text"] == "Black wins — White has no pieces left (R-END-1)"


def test_a_flag_is_a_time_forfeit_with_its_rule(make_table) -> None:
    table = make_table(clock=ClockConfig(time_control="60"))
    session = opened(table)
    table.settle(61)  # Black thinks past the minute
    text, record = exported(session)
    assert record.result == "0-1"
    assert '[Termination "time forfeit"]' in text
    assert record.moves[-1].comment.endswith("Black ran out of time (R-END-3)")
    assert [node.clock for node in record.moves] == [59.7, 59.3]  # to the tenth
    assert "[%clk 0:00:59.7]" in text


def test_a_resignation_names_who_resigned(make_table) -> None:
    table = make_table(game=GameConfig(black="Ann Long-Surname", white="Bo"))
    session = opened(table)
    session.end_game("ref", "resign", Color.WHITE)
    text, record = exported(session)
    assert record.result == "1-0" and '[Termination "normal"]' in text
    assert record.moves[-1].comment.endswith("White resigned")
    assert session.state()["result_text"] == "Ann Long-Surname (Black) wins — White resigned"


def test_an_agreed_draw(make_table) -> None:
    session = opened(make_table())
    session.end_game("ref", "agree-draw")
    text, record = exported(session)
    assert record.result == "1/2-1/2" and '[Termination "normal"]' in text
    assert record.moves[-1].comment.endswith("draw by agreement (R-END-2)")


@pytest.mark.parametrize(("result", "winner"), [("1-0", "black"), ("0-1", "white")])
def test_a_referee_decision_is_an_adjudication_with_its_reason(make_table, result, winner) -> None:
    session = opened(make_table())
    session.declare_result("ref", result, "the loser left the hall")
    text, record = exported(session)
    assert record.result == result and '[Termination "adjudication"]' in text
    assert record.moves[-1].comment.endswith("the referee's decision: the loser left the hall")
    assert session.state()["winner"] == winner


def test_a_referee_draw_cites_r_end_2(make_table) -> None:
    session = opened(make_table())
    session.end_game("ref", "referee-draw", reason="kings only, no progress")
    _, record = exported(session)
    assert record.result == "1/2-1/2"
    assert "draw declared by the referee: kings only, no progress (R-END-2)" in (
        record.moves[-1].comment
    )


def test_a_forfeit_for_repeated_breaches_keeps_the_caution_at_its_move(make_table) -> None:
    session = opened(make_table())
    session.penalty("ref", Color.BLACK, "R-TCH-2", "caution", "touched 9")
    with pytest.raises(RefereeError, match="resign needs the side"):
        session.end_game("ref", "resign")
    session.penalty("ref", Color.BLACK, "R-TCH-2", "forfeit", "touched 9 again")
    text, record = exported(session)
    assert record.result == "0-1" and '[Termination "rules infraction"]' in text
    comment = record.moves[-1].comment
    assert "caution to black (R-TCH-2): touched 9" in comment
    assert "Black forfeits for repeated breaches of R-TCH-2 (R-END-3): touched 9 again" in comment


def test_an_illegal_move_is_noted_at_its_move_and_its_message_goes_once_restored(
    make_table,
) -> None:
    table = make_table()
    session = opened(table)
    start = set(table.occupied)
    table.show(start - {12})
    table.show(start - {12} | {17})  # 12-17 is no move
    table.settle(1)
    assert session.state()["violation"]["rule"] == "R-ILL-1"
    table.show(start)  # the position restored
    table.settle(1)
    assert session.state()["violation"] is None
    table.move(9, 14)
    _, record = exported(session)
    assert "R-ILL-1" in record.moves[1].comment


def test_a_match_numbers_its_games_scores_them_and_ends_after_two(make_table) -> None:
    table = make_table(game=GameConfig(round="3", black="Ann", white="Bo"))
    session = opened(table)
    session.end_game("ref", "resign", Color.WHITE)  # Ann (Black) wins
    session.next_game("ref")
    assert session.headers["Round"] == "3.2"
    assert (session.headers["Black"], session.headers["White"]) == ("Bo", "Ann")  # R-TRN-2
    table.set_up()
    session.end_game("ref", "agree-draw")
    match = session.state()["match"]
    assert (match["game"], match["games"], match["over"]) == (2, 2, True)
    assert {s["name"]: s["points"] for s in match["score"]} == {"Ann": 6, "Bo": 2}  # R-TRN-3
    assert [r["text"] for r in match["results"]] == [
        "Ann (Black) wins — White resigned",
        "Draw — draw by agreement (R-END-2)",
    ]
    with pytest.raises(RefereeError, match="the match is over after its 2 games"):
        session.next_game("ref")
    session.extend_match("ref")
    session.next_game("ref")
    assert session.headers["Round"] == "3.3" and session.state()["match"]["games"] == 4
    text, _ = exported(session, session.game_id - 2)
    assert '[Round "3.1"]' in text and '[MatchGames "2"]' in text


def test_after_a_flag_in_a_match_the_next_game_starts_on_the_clock(make_table) -> None:
    table = make_table(clock=ClockConfig(time_control="match:60"))
    session = opened(table)
    table.settle(61)  # Black's match time runs out in game 1 (R-TIM-4)
    assert session.game.outcome().winner is Color.WHITE
    table.show(set(Board().occupied_squares()))  # the players set up game 2 first ...
    session.next_game("ref")  # ... then the referee starts it
    state = session.state()
    assert state["state"]["detail"] == "Black to move"
    # The player who ran out now has White and no time left: the clock started, so the flag
    # falls at once and game 2 has its result.
    assert state["clock"]["state"] == "stopped"
    assert state["winner"] == "black"
    assert "White ran out of time (R-TIM-4)" in state["result_reason"]


def test_the_referee_sets_details_for_this_game_until_its_first_move_names_until_its_end(
    make_table,
) -> None:
    table = make_table()
    session = table.session
    session.set_details(
        "ref",
        {
            "black": "Ann",
            "white": "Bo",
            "event": "Club night",
            "round": "2",
            "time_control": "300+5",
        },
    )
    assert session.headers["TimeControl"] == "300+5" and session.headers["Round"] == "2.1"
    assert str(session.clock.control) == "300+5"
    with pytest.raises(RefereeError, match="time control"):
        session.set_details("ref", {"time_control": "fast"})
    opened(table)
    session.set_details("ref", {"site": "Hall B", "black": "Cy"})
    # The name is the game's player's at once; the site waits for the next game.
    assert session.headers["Site"] == "?" and session.pending == {"site": "Hall B"}
    assert session.headers["Black"] == "Cy"
    table.reopen()  # a restart keeps them
    session = table.session
    assert session.pending == {"site": "Hall B"} and session.headers["Black"] == "Cy"
    session.end_game("ref", "agree-draw")
    # After the result: for the next game, as its colours will be (Cy, Black now, is White).
    session.set_details("ref", {"white": "Di"})
    assert session.headers["White"] == "Bo" and session.pending["white"] == "Di"
    session.next_game("ref")
    assert (session.headers["Black"], session.headers["White"], session.headers["Site"]) == (
        "Bo",
        "Di",
        "Hall B",
    )


def test_voided_moves_leave_the_record_audited(make_table) -> None:
    table = make_table()
    session = opened(table)
    session.void_moves("ref", 1)
    assert session.state()["moves"] == ["11-15"]
    assert session.state()["turn"] == "white"
    with pytest.raises(RefereeError, match="the game has 1 moves"):
        session.void_moves("ref", 2)
    table.set_up()
    table.move(22, 18)
    _, record = exported(session)
    assert [node.notation for node in record.moves] == ["11-15", "22-18"]
    assert "the referee (ref) voided 23-19" in record.moves[0].comment
    assert session.store.audit_log()[-1][2:] == ("void", {"ply": 2, "moves": ["23-19"]})


def test_voiding_a_move_gives_back_the_turn_on_the_clock_without_a_bonus(make_table) -> None:
    table = make_table(clock=ClockConfig(time_control="300+5"))
    session = opened(table)  # 11-15 23-19: Black to move, on Black's clock
    clock = session.clock
    table.settle(10.0)
    white = clock.remaining(Color.WHITE)
    black = clock.remaining(Color.BLACK)
    session.void_moves("ref", 1)  # 23-19 was misrecorded: White to move again
    assert clock.running is Color.WHITE
    assert clock.remaining(Color.BLACK) == pytest.approx(black, abs=0.01)  # no increment
    assert clock.remaining(Color.WHITE) == pytest.approx(white, abs=0.01)
    session.void_moves("ref", 1)  # and 11-15 too: Black to move
    assert clock.running is Color.BLACK


def test_a_casual_takeback_gives_back_the_turn_on_the_clock_without_a_bonus(make_table) -> None:
    table = make_table(rules=RulesConfig(profile="casual"), clock=ClockConfig(time_control="300+5"))
    session = opened(table)  # 11-15 23-19
    clock = session.clock
    table.settle(10.0)
    white, black = clock.remaining(Color.WHITE), clock.remaining(Color.BLACK)
    table.move(19, 23)  # White takes 23-19 back
    assert session.state()["moves"] == ["11-15"] and clock.running is Color.WHITE
    # Black's clock ran while the hand took the move back (0.7 s), and earns no increment.
    assert clock.remaining(Color.BLACK) == pytest.approx(black - 0.7, abs=0.01)
    assert clock.remaining(Color.WHITE) == pytest.approx(white, abs=0.01)


@pytest.mark.parametrize(
    ("control", "tag", "note"),
    [
        ("300+5", "300+5", ""),
        ("40/7200:1800", "40/7200:1800", ""),
        ("apca-match", "2700", "match clock: 2700 s a side for the whole match"),
        ("300d5", "300", "US delay of 5 s a move"),
        ("move:300", "-", "per-move limit: time is called after 300 s"),
    ],
)
def test_time_control_is_written_in_the_pgn_form_with_a_note(
    make_table, control, tag, note
) -> None:
    session = make_table(clock=ClockConfig(time_control=control)).session
    text, record = exported(session)
    assert f'[TimeControl "{tag}"]' in text
    assert note in record.comment


def test_a_match_is_found_again_after_a_restart(make_table) -> None:
    table = make_table(game=GameConfig(round="5", black="Ann", white="Bo"))
    session = opened(table)
    session.end_game("ref", "resign", Color.BLACK)  # Bo (White) wins game 1
    session.next_game("ref")
    table.reopen()  # a crash during game 2
    state = table.session.state()
    assert state["headers"]["Round"] == "5.2" and state["details"]["black"] == "Bo"
    assert (state["match"]["game"], state["match"]["games"]) == (2, 2)
    assert {s["name"]: s["points"] for s in state["match"]["score"]} == {"Ann": 0, "Bo": 4}


def test_the_status_follows_a_set_up_position_and_a_correction(make_table) -> None:
    table = make_table()
    session = opened(table)
    session.correct_move("ref", 2, "22-18")  # the board shows 23-19: put it right
    corrected = session.state()["state"]
    assert corrected["name"] == "setup" and "18" in corrected["detail"], corrected
    session.set_position("ref", "W:W18:B14")
    state = session.state()
    assert state["turn"] == "white" and state["state"]["name"] == "setup"
    table.show({18, 14})
    assert session.state()["state"]["detail"] == "White to move"


def test_a_per_move_limit_run_out_is_a_time_forfeit_citing_r_tim_1(make_table) -> None:
    table = make_table(clock=ClockConfig(time_control="move:10+5"))
    session = opened(table)
    table.settle(16)  # "time" at 10 s, the move not made 5 s later
    text, record = exported(session)
    assert record.result == "0-1" and '[Termination "time forfeit"]' in text
    assert record.moves[-1].comment.endswith("Black did not complete the move in time (R-TIM-1)")
    assert '[TimeControl "-"]' in text and "per-move limit" in record.comment


def test_voiding_the_move_that_won_on_the_board_reopens_the_game(make_table) -> None:
    table = make_table(rules=RulesConfig(fen="B:W18:B14"))
    table.set_up()
    table.move(14, 23, 18)
    session = table.session
    assert session.game.is_over()
    session.void_moves("ref", 1)
    stored = session.store.game(session.game_id)
    assert stored.result is None and "Termination" not in stored.headers
    assert session.state()["result"] is None and session.state()["turn"] == "black"
    assert session.clock.state.value == "paused"  # the referee resumes it
    session.resume_clock("ref")
    table.show({14, 18})  # the board put back as cued
    table.move(14, 23, 18)
    assert session.game.outcome().winner is Color.BLACK


@pytest.mark.parametrize("how", ["agree-draw", "resign"])
def test_voiding_cannot_undo_a_result_that_was_not_the_boards(make_table, how) -> None:
    session = opened(make_table())
    session.end_game("ref", how, Color.WHITE)
    with pytest.raises(RefereeError, match="its result stands"):
        session.void_moves("ref", 1)


def test_the_module_examples_run() -> None:
    import doctest

    from poolboard import records

    assert doctest.testmod(records).failed == 0
