"""The game store: a real SQLite file; moves durable, corrections, damage reported."""

import sqlite3
from pathlib import Path

import pytest

from engine.board import Board, Move
from engine.color import Color
from engine.pdn import read_game, write_game
from engine.phrase import Phrase
from poolboard import records
from poolboard.config import RulesConfig
from poolboard.storage import GameStore, StorageError
from poolboard.words import said


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


#: The tables of a file written before results kept their words (schema 1, no result_said), as
#: that poolboard created them.
SCHEMA_1 = """
CREATE TABLE games (id INTEGER PRIMARY KEY, created TEXT NOT NULL, start_fen TEXT NOT NULL,
    rules TEXT NOT NULL, headers TEXT NOT NULL, result TEXT, result_reason TEXT, clock TEXT);
CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
    path TEXT NOT NULL, captures TEXT NOT NULL, crowns INTEGER NOT NULL, notation TEXT NOT NULL,
    recorded TEXT NOT NULL, clock_black REAL, clock_white REAL, PRIMARY KEY (game_id, ply));
CREATE TABLE events (id INTEGER PRIMARY KEY, game_id INTEGER REFERENCES games(id),
    recorded TEXT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE audit (id INTEGER PRIMARY KEY, game_id INTEGER REFERENCES games(id),
    recorded TEXT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL, data TEXT NOT NULL);
PRAGMA user_version = 1;
"""


def _schema_1_file(path: Path) -> None:
    """A file as the poolboard before this one left it: a game won on resignation after
    11-15, its reason stored as English text alone, and an unfinished game."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA_1)
    db.execute("PRAGMA journal_mode=WAL")
    for headers in ('{"Black": "Ann"}', "{}"):
        db.execute(
            "INSERT INTO games (created, start_fen, rules, headers) VALUES (?, ?, 'apca', ?)",
            ("2026-11-01T10:00:00+00:00", Board().fen(), headers),
        )
    db.execute(
        "INSERT INTO moves VALUES (1, 1, '[11, 15]', '[]', 0, '11-15', '2026-11-01', 599, 600)"
    )
    db.execute("UPDATE games SET result = '1-0', result_reason = 'White resigned' WHERE id = 1")
    db.commit()
    db.close()


def test_a_file_from_before_results_kept_their_words_is_read_without_writing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.sqlite3"
    _schema_1_file(path)
    before = path.read_bytes()
    reader = GameStore(path, read_only=True)
    won = reader.game(1)
    assert (won.result, won.result_reason, won.result_said) == ("1-0", "White resigned", None)
    assert [m.notation for m in won.moves] == ["11-15"]
    assert [found[3] for found in reader.match_games(2, range(1, 0, -1))] == [None]
    reader.close()
    assert path.read_bytes() == before
    # Its reason is still said in Spanish, its words found back from the English.
    ended = records.ended_said(Color.BLACK, str(won.result_reason), "?", "Ann", won.result_said)
    assert said(ended, "es") == "Gana Ann (Negras) — Blancas abandonan"


def test_such_a_file_gains_the_column_and_keeps_every_record(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    _schema_1_file(path)
    old = sqlite3.connect(path)
    rows_before = old.execute("SELECT * FROM games ORDER BY id").fetchall()
    moves_before = old.execute("SELECT * FROM moves").fetchall()
    old.close()
    for _ in range(2):  # added once; a second open finds it there
        store = GameStore(path)
        assert store._has_said()
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == 1
        store.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT * FROM games ORDER BY id").fetchall() == [
        (*row, None) for row in rows_before
    ]
    assert db.execute("SELECT * FROM moves").fetchall() == moves_before
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()
    # The unfinished game goes on and ends with its words kept.
    store = GameStore(path)
    ending = records.resignation(Color.BLACK)
    store.set_result(2, "0-1", ending.reason, ending.said)
    store.close()
    reader = GameStore(path, read_only=True)
    assert reader.game(1).result_said is None and reader.game(1).result_reason == "White resigned"
    stored = reader.game(2)
    assert stored.result_reason == "Black resigned" and stored.result_said == ending.said
    assert stored.result_said == records.RESIGNED.fill(side=Phrase("Black"))
    reader.close()


def test_words_that_no_longer_say_the_reason_are_not_used(tmp_path: Path) -> None:
    """An older poolboard writing a result into a newer file leaves the last words in place:
    they are said only while they say the stored reason."""
    store = GameStore(tmp_path / "games.sqlite3")
    game_id = store.create_game(Board().fen(), "apca", {})
    ending = records.resignation(Color.WHITE)
    store.set_result(game_id, "1-0", ending.reason, ending.said)
    store._db.execute("UPDATE games SET result = '0-1', result_reason = 'Black resigned'")
    game = store.game(game_id)
    store.close()
    ended = records.ended_said(Color.WHITE, str(game.result_reason), "?", "?", game.result_said)
    assert str(ended) == "White wins — Black resigned"
    assert said(ended, "es") == "Ganan las blancas — Negras abandonan"


def test_a_session_stores_each_ending_with_its_words(make_table) -> None:
    """A referee's reason is kept as typed, even one that reads like a reason of our own: the
    stored words say so, where the English alone would be taken for a resignation."""
    table = make_table()
    table.set_up()
    table.session.end_game("referee", "referee-win", Color.BLACK, "White resigned")
    store = table.session.store
    stored = store.game(table.session.game_id)
    assert stored.result_reason == "the referee's decision: White resigned"
    assert stored.result_said == records.REFEREE_DECISION.fill(reason="White resigned")
    (found,) = store.match_games(table.session.game_id, range(1, 0, -1))
    assert found[3] == stored.result_said
    result = table.session.state()["match"]["results"][0]
    assert result["said"]["values"]["reason"]["values"]["reason"] == "White resigned"


@pytest.mark.parametrize(
    "words",
    [
        "not json {",
        '"White resigned"',
        '{"values": {}}',
        '{"message": "{side} resigned", "values": []}',
        '{"message": "{side} resigned", "values": {"who": "White"}}',
        '{"message": "{side} resigned", "values": {"side": {"text": "White"}}}',
        '{"message": "{side} resigned", "values": {"side": null}}',
    ],
)
def test_words_that_cannot_be_read_leave_the_game_whole(tmp_path: Path, words: str) -> None:
    """Damaged words beside a result (a disk error, a hand-edited file) are not read: the game,
    its moves and its reason are, and the reason is said from its English."""
    path = tmp_path / "games.sqlite3"
    store = GameStore(path)
    game_id = store.create_game(Board().fen(), "apca", {"Round": "1.1"})
    play(store, game_id, ["11-15", "23-19"])
    ending = records.resignation(Color.WHITE)
    store.set_result(game_id, "0-1", ending.reason, ending.said)
    store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET result_said = ? WHERE id = ?", (words, game_id))
    db.commit()
    db.close()
    reader = GameStore(path, read_only=True)
    (listed,) = reader.games()
    game = reader.game(game_id)
    assert listed == game  # not a damaged game
    assert (game.result, game.result_reason, game.result_said) == ("0-1", "White resigned", None)
    assert [move.notation for move in game.moves] == ["11-15", "23-19"]
    assert [found[3] for found in reader.match_games(game_id, range(1, 0, -1))] == [None]
    reader.close()
    ended = records.ended_said(Color.BLACK, str(game.result_reason), "?", "Ann", game.result_said)
    assert said(ended, "es") == "Gana Ann (Negras) — Blancas abandonan"
