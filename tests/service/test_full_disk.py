"""A full disk, for real: a tmpfs of 512 KiB filled to the last byte under a running session.

What the store could not keep is never shown: the move stays off ``state()`` (what /api/state
serves), the board is cued back to the recorded position, the failure is a fault naming the
file, and once there is room again the game goes on (issue 14). A referee action that cannot be
stored is refused whole.
"""

import sqlite3

import pytest

from poolboard.session import RefereeError
from poolboard.storage import GameStore, StorageError


def stored_moves(folder) -> list[str]:
    store = GameStore(folder / "games.sqlite3", read_only=True)
    game = store.unfinished_game()
    store.close()
    return [move.notation for move in game.moves]


def test_a_move_that_cannot_be_stored_is_not_shown(tiny_disk, table_in) -> None:
    table = table_in(tiny_disk.folder)
    table.set_up()
    table.move(11, 15)
    assert table.session.state()["moves"] == ["11-15"] == stored_moves(tiny_disk.folder)

    tiny_disk.fill()
    table.move(23, 19)  # the hand moves; the store cannot keep it
    state = table.session.state()
    assert state["moves"] == ["11-15"] == stored_moves(tiny_disk.folder)
    fault = state["faults"][-1]["message"]
    assert "NOT RECORDED" in fault and "games.sqlite3" in fault and "full" in fault
    # Its words apart, for a page in another language: the store's own error as a value.
    said = state["storage_said"]
    assert said["message"].format(**said["values"]) == state["storage"] == fault
    assert said["message"].startswith("NOT RECORDED: {error};")
    assert state["faults"][-1]["said"] == said
    assert {"19", "23"} <= set(state["cues"])  # cued back: 19 to clear, 23 to fill
    assert table.session.storage_error is not None

    tiny_disk.free()
    table.show(table.occupied - {19} | {23})  # the piece goes back
    table.settle()
    table.move(23, 19)
    state = table.session.state()
    assert state["moves"] == ["11-15", "23-19"] == stored_moves(tiny_disk.folder)
    assert table.session.storage_error is None


def test_a_referee_action_that_cannot_be_stored_is_refused_whole(tiny_disk, table_in) -> None:
    table = table_in(tiny_disk.folder)
    table.set_up()
    table.move(11, 15)
    table.move(23, 19)
    before = table.session.state()
    tiny_disk.fill()
    with pytest.raises(RefereeError, match=r"not done, as it could not be stored: .*full"):
        table.session.correct_move("referee", 1, "9-13")
    with pytest.raises(RefereeError, match="not done"):
        table.session.set_position("referee", "B:W18:B14")
    after = table.session.state()
    assert (after["game_id"], after["moves"], after["fen"]) == (
        before["game_id"],
        before["moves"],
        before["fen"],
    )
    tiny_disk.free()
    table.session.correct_move("referee", 1, "9-13")
    assert table.session.state()["moves"][0] == "9-13" == stored_moves(tiny_disk.folder)[0]


def test_a_full_database_takes_none_of_a_transaction(tmp_path) -> None:
    """SQLite's own limit (``max_page_count``): the same "database or disk is full", and the
    rows written before it in the transaction are gone too."""
    store = GameStore(tmp_path / "games.sqlite3")
    game_id = store.create_game("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2", "apca", {})
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")
    full = r"games\.sqlite3: not stored: database or disk is full"
    with pytest.raises(StorageError, match=full), store.transaction():
        for number in range(500):
            store.add_event(game_id, "filler", {"n": number, "text": "x" * 200})
    assert store.events(game_id) == []
    with sqlite3.connect(tmp_path / "games.sqlite3") as other:
        assert other.execute("SELECT count(*) FROM events").fetchone()[0] == 0
