"""The game store: a real SQLite file; moves durable, corrections, damage reported."""

import sqlite3
from pathlib import Path

import pytest

from engine.board import Board, Move
from engine.pdn import read_game, write_game
from poolboard.config import RulesConfig
from poolboard.storage import GameStore, StorageError


def play(store: GameStore, game_id: int, texts: list[str]) -> Board:
    board = Board()
    for ply, text in enumerate(texts, start=1):
        move = board.parse_move(text)
        store.add_move(game_id, ply, move, board.notation(move), (600.0 - ply, 590.0))
        board.push(move)
    return board


def test_moves_are_stored_and_the_game_resumes(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    game_id = store.create_game(Board().fen(), "apca", {"Event": "Club"})
    board = play(store, game_id, ["11-15", "23-19", "8-11"])
    store.close()
    again = GameStore(tmp_path / "games.sqlite3")  # a new process after a crash
    game = again.unfinished_game()
    assert game is not None and game.id == game_id
    assert [m.notation for m in game.moves] == ["11-15", "23-19", "8-11"]
    assert game.board() == board
    assert again.unfinished_game() is not None
    again.set_result(game_id, "0-1", "R-END-1")
    assert again.unfinished_game() is None


def test_wal_and_full_sync_are_on(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_correction_replaces_the_move_at_its_ply(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    game_id = store.create_game(Board("B:W30:BK1").fen(), "apca", {})
    store.add_move(game_id, 1, Move((1, 10)), "1-10")
    store.add_move(game_id, 1, Move((1, 19)), "1-19")
    assert [m.notation for m in store.game(game_id).moves] == ["1-19"]
    store.delete_moves_from(game_id, 1)
    assert store.game(game_id).moves == []


def test_pdn_export_carries_clock_times_and_tags(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    game_id = store.create_game(Board().fen(), "apca", {"Event": "Club", "Black": "Ann"})
    play(store, game_id, ["11-15", "23-19"])
    text = write_game(store.game(game_id).record())
    assert '[Event "Club"]' in text and '[Black "Ann"]' in text
    assert "{[%clk 0:09:59]}" in text and "{[%clk 0:09:50]}" in text
    import io

    assert [n.notation for n in read_game(io.StringIO(text)).moves] == ["11-15", "23-19"]


def test_a_damaged_move_row_is_reported_not_played(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    store = GameStore(path)
    game_id = store.create_game(Board().fen(), "apca", {})
    play(store, game_id, ["11-15"])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE moves SET path = '[11, 20]'")
    with pytest.raises(StorageError, match="ply 1"):
        store.game(game_id).board()


def test_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StorageError, match="not a usable poolboard database"):
        GameStore(path)


def test_events_and_audit_are_kept(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    game_id = store.create_game(Board().fen(), "apca", {})
    store.add_event(game_id, "violation", {"rule": "R-ILL-1"})
    store.audit(game_id, "referee", "pause", {})
    assert store.events(game_id)[0][1:] == ("violation", {"rule": "R-ILL-1"})
    assert store.audit_log()[0][1:] == ("referee", "pause", {})


def test_pdn_notes_name_a_violations_rule_once_and_say_when_it_was_mended(
    tmp_path: Path,
) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    game_id = store.create_game("B:W18,27,5:B14", "apca", {})
    cited = "incomplete jump (R-CAP-3): the capture stopped on 23 and the clock was pressed"
    store.add_event(game_id, "violation", {"rule": "R-CAP-3", "message": cited, "ply": 0})
    store.add_event(game_id, "violation", {"rule": "R-ILL-1", "message": "no such move", "ply": 0})
    mended = {"rule": "R-CAP-3", "message": "mended at once: 14x32 finished the capture"}
    store.add_event(game_id, "mended", {**mended, "ply": 1})
    assert store.notes(game_id) == {
        0: [cited, "R-ILL-1: no such move"],
        1: ["R-CAP-3 mended at once: 14x32 finished the capture"],
    }


def test_a_transaction_that_fails_half_way_leaves_nothing(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    game_id = store.create_game(Board().fen(), "apca", {})
    play(store, game_id, ["11-15", "23-19"])
    with pytest.raises(RuntimeError, match="power cut"), store.transaction():
        store.delete_moves_from(game_id, 1)
        store.add_move(game_id, 1, Board().parse_move("9-13"), "9-13")
        with store.transaction():  # nested: part of the outer one
            store.set_result(game_id, "1-0", "R-END-3")
        raise RuntimeError("power cut")
    with sqlite3.connect(tmp_path / "g.sqlite3") as other:  # what is on disk
        assert other.execute("SELECT path FROM moves ORDER BY ply").fetchall() == [
            ("[11, 15]",),
            ("[23, 19]",),
        ]
        assert other.execute("SELECT result FROM games").fetchall() == [(None,)]


def commits_during(table, action) -> list[str]:
    """The COMMITs SQLite runs on the session's connection while ``action`` runs."""
    statements: list[str] = []
    table.session.store._db.set_trace_callback(statements.append)
    action()
    table.session.store._db.set_trace_callback(None)
    return [s for s in statements if s.startswith(("COMMIT", "BEGIN"))]


def test_each_change_of_a_session_is_one_transaction(make_table) -> None:
    table = make_table(rules=RulesConfig(profile="casual"))
    table.set_up()
    assert commits_during(table, lambda: table.move(11, 15)) == ["BEGIN IMMEDIATE", "COMMIT"]
    table.move(23, 19)
    table.move(8, 11)
    one = ["BEGIN IMMEDIATE", "COMMIT"]
    correct = commits_during(table, lambda: table.session.correct_move("referee", 1, "9-13"))
    assert correct == one  # three moves rewritten, an audit row: one transaction
    assert commits_during(table, lambda: table.session.declare_result("r", "1-0", "x")) == one
    assert commits_during(table, lambda: table.session.next_game("referee")) == one
    new = commits_during(table, lambda: table.session.set_position("referee", "B:W18:B14"))
    assert new == one


def _old_file_with_results(path: Path) -> None:
    """A file as poolboard wrote it before results followed checkers' order (schema 0):
    Black's win stored as ``0-1``, White's as ``1-0``."""
    store = GameStore(path)
    black_won = store.create_game(Board().fen(), "apca", {})
    store.set_result(black_won, "0-1", "R-END-1")
    white_won = store.create_game(Board().fen(), "apca", {})
    store.set_result(white_won, "1-0", "R-END-1")
    drawn = store.create_game(Board().fen(), "apca", {})
    store.set_result(drawn, "1/2-1/2", "R-END-2")
    store._db.execute("PRAGMA user_version = 0")
    store.close()


def test_an_old_file_is_read_in_checkers_result_order_without_writing(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    _old_file_with_results(path)
    before = path.read_bytes()
    reader = GameStore(path, read_only=True)
    assert [g.result for g in reader.games()] == ["1-0", "0-1", "1/2-1/2"]
    assert reader.game(1).result == "1-0"
    reader.close()
    assert path.read_bytes() == before


def test_an_old_file_is_converted_once_when_opened_for_writing(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    _old_file_with_results(path)
    for _ in range(2):  # a second open must not swap them back
        store = GameStore(path)
        assert [g.result for g in store.games()] == ["1-0", "0-1", "1/2-1/2"]
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == 1
        store.close()


def test_a_file_from_a_newer_poolboard_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    GameStore(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 7")
    db.close()
    for read_only in (False, True):
        with pytest.raises(StorageError, match="newer poolboard"):
            GameStore(path, read_only=read_only)
