"""A match as the referee runs it: players named during a game, the score following the players
whatever colour they play (R-TRN-3), and every way of starting the next game changing colours
(R-TRN-2) and carrying the match's clock (R-TIM-4); the game a computer opponent plays is its
own."""

from __future__ import annotations

import pytest

from engine.clock import ClockState
from engine.color import Color
from poolboard.config import ClockConfig, OpponentConfig
from poolboard.session import Session


def score(session: Session) -> dict[str, tuple[int, str]]:
    """Each player's points and the colour they play in this game, as the pages get them."""
    match = session.state()["match"]
    return {entry["name"]: (entry["points"], entry["side"]) for entry in match["score"]}


def test_names_given_during_game_1_are_its_players_and_the_score_follows_them(
    make_table,
) -> None:
    table = make_table()
    session = table.session
    table.set_up()
    table.move(11, 15)
    table.move(23, 19)
    session.set_details("ref", {"black": "Ann Lee", "white": "Bartholomew O'Brien-Smithers"})
    assert session.headers["Black"] == "Ann Lee"
    assert session.store.game(session.game_id).headers["White"] == "Bartholomew O'Brien-Smithers"
    session.end_game("ref", "resign", Color.WHITE)  # Ann Lee (Black) wins game 1
    session.next_game("ref")
    assert (session.headers["Black"], session.headers["White"]) == (
        "Bartholomew O'Brien-Smithers",
        "Ann Lee",
    )
    table.set_up()
    session.end_game("ref", "agree-draw")
    assert score(session) == {
        "Ann Lee": (6, "white"),
        "Bartholomew O'Brien-Smithers": (2, "black"),
    }


def test_an_unnamed_player_is_their_colour_in_game_1_until_named_in_a_later_game(
    make_table,
) -> None:
    table = make_table()
    session = table.session
    table.set_up()
    session.end_game("ref", "resign", Color.WHITE)  # Black of game 1 wins
    session.next_game("ref")
    assert score(session) == {"White of game 1": (0, "black"), "Black of game 1": (4, "white")}
    table.set_up()
    table.move(11, 15)
    session.set_details("ref", {"white": "Cy"})  # the winner of game 1, White now
    assert score(session) == {"White of game 1": (0, "black"), "Cy": (4, "white")}


def test_a_position_set_up_after_game_1_is_game_2_colours_changed_match_clock_on(
    make_table,
) -> None:
    table = make_table(clock=ClockConfig(time_control="apca-match"))
    session = table.session
    session.set_details("ref", {"black": "Ann", "white": "Bo"})
    table.set_up()
    table.settle(30)  # Ann (Black) thinks 30 s
    table.move(11, 15)
    table.settle(10)  # Bo 10 s
    session.end_game("ref", "resign", Color.WHITE)
    ann, bo = (session.clock.remaining(side) for side in (Color.BLACK, Color.WHITE))
    session.set_position("ref", "W:W21,22,23:B9,10")
    state = session.state()
    assert (state["headers"]["Black"], state["headers"]["White"]) == ("Bo", "Ann")
    assert (state["match"]["game"], state["match"]["games"]) == (2, 2)
    # Each player's own match time, on the colour they now play.
    assert (state["clock"]["black"], state["clock"]["white"]) == pytest.approx((bo, ann), abs=0.01)
    assert state["clock"]["game"] == 2
    assert score(session)["Ann"] == (4, "white")


def test_next_game_and_a_set_up_position_start_game_2_alike(make_table, table_in, tmp_path) -> None:
    sessions = []
    for way in ("next-game", "position"):
        table = table_in(tmp_path / way, clock=ClockConfig(time_control="apca-match"))
        session = table.session
        session.set_details("ref", {"black": "Ann", "white": "Bo"})
        table.set_up()
        table.settle(20)
        table.move(11, 15)
        session.end_game("ref", "agree-draw")
        if way == "next-game":
            session.next_game("ref")
        else:
            session.set_position("ref", session.game.start_fen)
        sessions.append(session)
    first, second = (s.state() for s in sessions)
    for key in ("headers", "match"):
        assert {k: v for k, v in first[key].items() if k != "Date"} == {
            k: v for k, v in second[key].items() if k != "Date"
        }
    assert first["clock"] == second["clock"]


def test_a_set_up_position_after_the_last_game_starts_a_new_match(make_table) -> None:
    table = make_table()
    session = table.session
    session.set_details("ref", {"black": "Ann", "white": "Bo"})
    table.set_up()
    session.end_game("ref", "agree-draw")
    session.next_game("ref")
    table.set_up()
    session.end_game("ref", "agree-draw")
    session.set_position("ref", "B:W21,22:B9,10")
    state = session.state()
    assert (state["match"]["game"], state["match"]["games"]) == (1, 2)
    assert (state["headers"]["Black"], state["headers"]["White"]) == ("Bo", "Ann")  # as game 2
    assert state["clock"]["state"] == ClockState.READY.value and state["clock"]["game"] == 1


def test_a_game_against_the_computer_is_not_resumed_by_two_players_nor_the_reverse(
    table_in, tmp_path
) -> None:
    table = table_in(tmp_path)
    table.set_up()
    table.move(11, 15)
    earlier = table.session.game_id
    table.session.close()
    computer = table_in(tmp_path, opponent=OpponentConfig(kind="engine", level=1))
    session = computer.session
    assert session.game_id != earlier and session.game.board.move_stack == []
    assert session.headers["White"] == "poolboard (level 1)"
    assert session.store.game(earlier).result == "*"
    assert session.store.game(earlier).result_reason == "unfinished: the opponent changed"
    playing = session.game_id
    session.close()
    again = table_in(tmp_path, opponent=OpponentConfig(kind="engine", level=1)).session
    assert again.game_id == playing  # the same opponent: the game goes on
    again.close()
