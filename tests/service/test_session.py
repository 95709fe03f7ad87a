"""The session end to end on the simulated board: recording, resume, clock, referee."""

import random
import sqlite3
from pathlib import Path

import pytest

from engine.board import Board
from engine.color import Color
from poolboard.config import ClockConfig, RefereeConfig, RulesConfig
from poolboard.session import RefereeError
from poolboard.simulator import HumanSimulator, random_game


def moves_on_disk(tmp_path: Path) -> int:
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        return db.execute("SELECT COUNT(*) FROM moves").fetchone()[0]


def test_a_simulated_game_is_recorded_and_every_move_is_on_disk_first(
    tmp_path: Path, make_table
) -> None:
    table = make_table()
    announced: list[int] = []

    def spectator(state: dict) -> None:  # sees a move only once it is stored
        assert moves_on_disk(tmp_path) >= len(state["moves"])
        announced.append(len(state["moves"]))

    table.session.subscribe(spectator)
    rng = random.Random(4)
    moves = random_game(rng, 40)
    for event in HumanSimulator(rng).play(Board(), moves):
        table.time.now = 100.0 + event.t
        table.board._events.put(event)
        table.session.process(table.board.read(0))
    table.settle(5)
    stored = table.session.store.game(table.session.game_id)
    assert [m.move for m in stored.moves] == moves
    assert max(announced) == len(moves)
    assert table.session.state()["moves"][0] == Board().notation(moves[0])


def test_a_failing_spectator_neither_stops_the_record_nor_the_other_spectators(
    make_table, caplog
) -> None:
    table = make_table()
    heard: list[list[str]] = []

    def broken(state: dict) -> None:  # a page whose connection died mid-send
        raise ConnectionResetError("the spectator's socket is gone")

    table.session.subscribe(broken)
    stop = table.session.subscribe(lambda state: heard.append(state["moves"]))
    table.set_up()
    table.move(11, 15)
    assert table.session.state()["moves"] == ["11-15"] and heard[-1] == ["11-15"]
    assert [m.notation for m in table.session.store.game(table.session.game_id).moves] == ["11-15"]
    assert "session: a listener failed" in caplog.text
    stop()
    count = len(heard)
    table.move(23, 19)
    assert len(heard) == count  # unsubscribed: hears nothing more


def test_resume_after_a_crash_cues_the_position_and_does_not_charge_the_outage(
    tmp_path: Path, make_table
) -> None:
    table = make_table(clock=ClockConfig(time_control="600"))
    table.set_up()
    table.move(11, 15)
    table.move(23, 19)
    black_left = table.session.clock.remaining(Color.BLACK)
    table.settle(3)  # Black thinks for 3 s, then the power goes
    thought = table.session.clock.remaining(Color.BLACK)
    assert thought == pytest.approx(black_left - 3, abs=0.01)
    table.time.now += 3600.0  # an hour without power
    table.reopen()
    session = table.session
    assert session.state()["moves"] == ["11-15", "23-19"]
    assert session.clock.remaining(Color.BLACK) == pytest.approx(thought, abs=0.01)
    table.show(set(Board().occupied_squares()))  # the board was reset meanwhile
    assert session.state()["state"]["name"] == "setup"
    assert session.state()["cues"]["15"] == "restore-fill"
    table.show(set(session.game.board.occupied_squares()))
    table.move(8, 11)
    assert session.store.game(session.game_id).moves[-1].notation == "8-11"


def test_a_violation_is_kept_with_the_game(tmp_path: Path, make_table) -> None:
    table = make_table()
    table.set_up()
    table.move(12, 17)  # no such move
    table.settle(1)
    events = table.session.store.events(table.session.game_id)
    assert [data["rule"] for _, kind, data in events if kind == "violation"] == ["R-ILL-1"]
    assert table.session.state()["violations"][-1]["rule"] == "R-ILL-1"


def test_the_game_ends_when_a_side_cannot_move(tmp_path: Path, make_table) -> None:
    table = make_table(rules=RulesConfig(fen="B:W18:B14"))
    table.set_up()
    table.move(14, 23, 18)
    stored = table.session.store.game(table.session.game_id)
    assert stored.result == "1-0" and "R-END-1" in stored.result_reason  # Black won
    assert table.session.state()["clock"]["state"] == "stopped"


def test_flag_fall_forfeits_the_game(tmp_path: Path, make_table) -> None:
    table = make_table(clock=ClockConfig(time_control="5"))
    table.set_up()
    table.settle(6)
    stored = table.session.store.game(table.session.game_id)
    assert stored.result == "0-1"  # Black's flag fell: White wins
    assert "R-END-3" in stored.result_reason


def test_lever_switches_the_clock_in_tournament_mode(tmp_path: Path, make_table) -> None:
    table = make_table(clock=ClockConfig(time_control="600", switch_on="lever"))
    table.set_up()
    table.move(11, 15)
    assert table.session.clock.running is Color.BLACK  # recorded, but no lever yet
    table.board.press_lever(Color.BLACK)
    table.session.process(table.board.read(0))
    assert table.session.clock.running is Color.WHITE


def test_referee_actions_are_checked_applied_and_audited(tmp_path: Path, make_table) -> None:
    table = make_table(referee=RefereeConfig(password="x"))
    session = table.session
    table.set_up()
    table.move(11, 15)
    session.pause_clock("ref")
    with pytest.raises(RefereeError, match="cannot pause"):
        session.pause_clock("ref")
    before = session.clock.remaining(Color.WHITE)
    session.adjust_clock("ref", Color.WHITE, 60)
    assert session.clock.remaining(Color.WHITE) == pytest.approx(before + 60)
    session.resume_clock("ref")
    session.correct_move("ref", 1, "11-16")
    assert session.state()["moves"] == ["11-16"]
    with pytest.raises(RefereeError, match="ply 1: '11-18' is not a legal move"):
        session.correct_move("ref", 1, "11-18")
    with pytest.raises(RefereeError, match="ply 5"):
        session.correct_move("ref", 5, "11-15")
    with pytest.raises(RefereeError):
        session.invoke_count("ref", Color.BLACK)  # equal strength: nobody is weaker (R-DRW-6)
    session.penalty("ref", Color.WHITE, "R-TCH-2", "caution")
    session.declare_result("ref", "1/2-1/2", "agreed (R-END-2)")
    with pytest.raises(RefereeError, match="over already"):
        session.declare_result("ref", "1-0", "")
    first = session.game_id
    session.next_game("ref")
    assert session.game_id != first
    assert session.store.game(first).result == "1/2-1/2"
    actions = [action for _, _, action, _ in session.store.audit_log()]
    assert actions == ["pause", "adjust", "resume", "correct", "penalty", "result", "next-game"]


def test_set_position_starts_a_game_from_a_fen(tmp_path: Path, make_table) -> None:
    table = make_table()
    table.session.set_position("ref", "W:WK10:B19,27")
    assert table.session.state()["fen"] == "W:WK10:B19,27"
    with pytest.raises(RefereeError, match="side to move"):
        table.session.set_position("ref", "Q:W1:B2")


def test_setting_up_a_position_keeps_a_finished_games_result(tmp_path: Path, make_table) -> None:
    table = make_table(rules=RulesConfig(fen="B:W18:B14"))
    table.set_up()
    table.move(14, 23, 18)
    finished = table.session.game_id
    table.session.set_position("ref", Board().fen())
    assert table.session.store.game(finished).result == "1-0"
    table.session.set_position("ref", Board().fen())
    assert table.session.store.game(finished + 1).result == "*"
