"""The session where a game ends, is corrected, resumes, or loses its sensor."""

import sqlite3
from pathlib import Path

import pytest

from engine.color import Color
from engine.phrase import Phrase
from engine.sensing import LinkHealth, SensorEvent
from poolboard import words
from poolboard.config import ClockConfig, Config, RefereeConfig, RulesConfig, StorageConfig
from poolboard.service import serve
from poolboard.session import RefereeError, Session


def test_moves_after_a_declared_result_are_not_recorded_and_nothing_breaks(make_table) -> None:
    table = make_table(referee=RefereeConfig(password="x"))
    table.set_up()
    table.move(11, 15)
    table.session.declare_result("ref", "1/2-1/2", "agreed (R-END-2)")
    table.move(22, 18)  # people play on, or reset the pieces
    table.move(15, 22, 18)
    assert table.session.state()["moves"] == ["11-15"]
    assert table.session.state()["result"] == "1/2-1/2"


def test_moves_after_a_flag_fall_are_not_recorded(make_table) -> None:
    table = make_table(clock=ClockConfig(time_control="60"))
    table.set_up()
    table.move(11, 15)
    table.settle(61)  # White's flag falls
    table.move(22, 18)
    state = table.session.state()
    assert state["moves"] == ["11-15"] and state["result"] is not None
    assert state["result_reason"].count("R-END-3") == 1


def test_after_a_correction_the_next_move_is_read_normally(make_table) -> None:
    table = make_table(referee=RefereeConfig(password="x"))
    table.set_up()
    table.move(11, 15)
    table.move(23, 19)
    # The referee records that White really played 22-18; the players fix the board.
    table.session.correct_move("ref", 2, "22-18")
    assert table.session.state()["cues"] == {
        "18": "restore-fill",
        "19": "restore-clear",
        "22": "restore-clear",
        "23": "restore-fill",
    }
    table.show((table.occupied - {19}) | {23})
    table.show((table.occupied - {22}) | {18})
    table.move(15, 22, 18)
    assert table.session.state()["moves"] == ["11-15", "22-18", "15x22"]
    stored = table.session.store.game(table.session.game_id).moves
    assert stored[0].clock_black is not None  # clock times survive the correction


def test_a_correction_before_any_move_says_there_is_none_to_correct(make_table) -> None:
    """Not "the game has moves 1 to 0": a referee who corrects too early is told why."""
    table = make_table(referee=RefereeConfig(password="x"))
    table.set_up()
    with pytest.raises(RefereeError) as refused:
        table.session.correct_move("ref", 5, "11-15")
    assert str(refused.value) == "ply 5: the game has no move to correct yet"
    assert words.said(refused.value.phrase, "es") == (
        "media jugada 5: la partida aún no tiene jugadas que corregir"
    )
    table.move(11, 15)
    with pytest.raises(RefereeError, match=r"ply 5: the game has moves 1 to 1"):
        table.session.correct_move("ref", 5, "11-15")


def test_an_invoked_count_survives_a_restart(make_table) -> None:
    # Black has two kings against White's king and man: White (weaker) invokes R-DRW-4.
    table = make_table(
        rules=RulesConfig(fen="W:WK30,21:BK1,K3"), referee=RefereeConfig(password="x")
    )
    table.set_up()
    table.session.invoke_count("ref", Color.WHITE)
    table.move(30, 26)
    before = table.session.state()["counts"]
    assert before and before[0]["rule"] == "R-DRW-4"
    table.reopen()
    assert table.session.state()["counts"] == before


def test_a_game_ended_just_before_a_crash_is_closed_on_restart(make_table, tmp_path: Path) -> None:
    table = make_table(rules=RulesConfig(fen="B:W18:B14"))
    table.set_up()
    table.move(14, 23, 18)
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:  # the crash came before the result
        db.execute("UPDATE games SET result = NULL, result_reason = NULL")
    table.reopen()
    assert table.session.store.game(1).result == "1-0"  # Black won (R-END-1): Black's score first
    assert table.session.store.unfinished_game() is None


def test_a_lost_sensor_link_is_shown_and_its_return_too(make_table) -> None:
    table = make_table()
    table.session.process(LinkHealth(table.time.now, False, "unplugged"))
    state = table.session.state()
    # A sensor that words only its detail: the detail as it is within the line's words.
    assert state["link"] == {"connected": False, "detail": "unplugged", "said": None}
    assert state["faults"][-1]["message"] == "sensor link DOWN: unplugged"
    assert state["faults"][-1]["said"] == {
        "message": "sensor link DOWN: {detail}",
        "values": {"detail": "unplugged"},
    }
    back = Phrase("board restarted (its boot id changed)")
    table.session.process(LinkHealth(table.time.now, True, str(back), back))
    state = table.session.state()
    assert state["link"]["connected"] and state["link"]["said"] == back.to_json()
    assert state["faults"][-1]["said"]["values"]["detail"] == back.to_json()


class BrokenSensor:
    """A sensor whose device vanished."""

    def read(self, timeout: float | None = None) -> SensorEvent | None:
        raise OSError(5, "Input/output error")

    def close(self) -> None:
        pass


def test_the_service_stops_with_an_error_when_its_session_dies(tmp_path: Path) -> None:
    session = Session(Config(storage=StorageConfig(path=str(tmp_path))), BrokenSensor())
    assert serve(session, web=False, announce=lambda text: None) == 1


def test_declare_result_rejects_nonsense(make_table) -> None:
    from poolboard.session import RefereeError

    table = make_table(referee=RefereeConfig(password="x"))
    with pytest.raises(RefereeError, match="result must be"):
        table.session.declare_result("ref", "2-0", "")


def test_the_sessions_sensor_log_replays_into_the_same_games(make_table, tmp_path: Path) -> None:
    """Game markers in the log let `poolboard replay` restart from a resumed position."""
    from engine.board import Board
    from engine.tracker import TrackerConfig
    from poolboard.commands.replay import replay_log

    table = make_table()
    table.set_up()
    table.move(11, 15)
    table.move(23, 19)
    table.reopen()  # a restart: the log gets a marker at the stored position
    table.set_up()
    table.move(8, 11)
    table.session.sensor_log.close()
    replayed = []
    for log in sorted((tmp_path / "sensor-logs").glob("sensor-*.jsonl")):
        for tracker, _events in replay_log(str(log), Board(), TrackerConfig()):
            replayed.append([m.path for m in tracker.board.move_stack])
    assert replayed[0] == [(11, 15), (23, 19)]
    assert replayed[-1][-1] == (8, 11)


def test_clearing_the_board_and_setting_it_up_again_is_no_touch(make_table) -> None:
    """Lifting every piece (clearing the board) is not a touch of the first one (R-TCH-1): once
    the position stands again no touch-move cue is lit and the status waits for the move."""
    table = make_table()
    table.set_up()
    table.move(11, 15)
    standing = set(table.occupied)
    table.show(set())
    table.settle(1)
    assert table.session.state()["state"]["name"] == "restore"
    for square in sorted(standing):  # put back one at a time, White's 21 last
        table.show(table.occupied | {square})
    table.settle(1)
    state = table.session.state()
    assert "touch-move" not in state["cues"].values()
    assert state["state"]["detail"] == "White to move"
    table.show(standing - {22})  # a real touch afterwards still counts
    table.show(standing)
    table.settle(1)
    assert table.session.state()["cues"].get("22") == "touch-move"
