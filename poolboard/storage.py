"""Every game in SQLite: moves with clock times, results, violations, referee actions.

The database runs in WAL mode with ``synchronous=FULL``: when :meth:`GameStore.add_move` returns,
the move is on disk, and only then is it announced anywhere. A ``kill -9`` or a power cut at any
moment loses no recorded move, and the unfinished game is found again on restart
(:meth:`GameStore.unfinished_game`). Moves are stored as their full path and captured squares and
re-validated against the rules when loaded, so a damaged row is reported, never played.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.board import Board, IllegalMoveError, Move
from engine.pdn import GameRecord

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    rules TEXT NOT NULL,
    headers TEXT NOT NULL,
    result TEXT,
    result_reason TEXT,
    clock TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    path TEXT NOT NULL,
    captures TEXT NOT NULL,
    crowns INTEGER NOT NULL,
    notation TEXT NOT NULL,
    recorded TEXT NOT NULL,
    clock_black REAL,
    clock_white REAL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    game_id INTEGER REFERENCES games(id),
    recorded TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY,
    game_id INTEGER REFERENCES games(id),
    recorded TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    data TEXT NOT NULL
);
"""


class StorageError(RuntimeError):
    """The database is unusable or holds something that is not a legal game."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class StoredMove:
    """One recorded move with the clock times left after it (seconds, if a clock ran)."""

    ply: int
    move: Move
    notation: str
    recorded: str
    clock_black: float | None = None
    clock_white: float | None = None


@dataclass
class StoredGame:
    """A game as stored: headers, start, rules, moves, result and the saved clock state."""

    id: int
    created: str
    start_fen: str
    rules: str
    headers: dict[str, str]
    moves: list[StoredMove] = field(default_factory=list)
    result: str | None = None
    result_reason: str | None = None
    clock: dict[str, Any] | None = None

    def board(self) -> Board:
        """The final position, every move re-validated (``StorageError`` if one is illegal)."""
        board = Board(self.start_fen)
        for stored in self.moves:
            try:
                board.push_legal(stored.move)
            except IllegalMoveError as error:
                raise StorageError(f"game {self.id} ply {stored.ply}: {error}") from None
        return board

    def record(self) -> GameRecord:
        """The game as a PDN record, with ``[%clk]`` times of the side that moved."""
        record = GameRecord()
        for key, value in self.headers.items():
            record.headers[key] = value
        if self.start_fen != Board().fen():
            record.setup(self.start_fen)
        board = Board(self.start_fen)
        for stored in self.moves:
            mover_clock = stored.clock_black if board.turn.value == "black" else stored.clock_white
            record.add_move(stored.move, clock=mover_clock)
            board.push(stored.move)
        if self.result:
            record.result = self.result
        return record


class GameStore:
    """The SQLite file holding every game; safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise StorageError(f"{self.path}: not a usable poolboard database: {error}") from None

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- writing -------------------------------------------------------------------------------

    def create_game(self, start_fen: str, rules: str, headers: dict[str, str]) -> int:
        """Start a new game; returns its id."""
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (created, start_fen, rules, headers) VALUES (?, ?, ?, ?)",
                (_now(), start_fen, rules, json.dumps(headers)),
            )
            return int(cursor.lastrowid)

    def add_move(
        self,
        game_id: int,
        ply: int,
        move: Move,
        notation: str,
        clock: tuple[float, float] | None = None,
        clock_state: dict[str, Any] | None = None,
    ) -> None:
        """Store move ``ply`` (1-based), replacing any stored at that ply (a correction), with
        the clock state after it; on disk when this returns."""
        black, white = clock if clock is not None else (None, None)
        with self._transaction() as db:
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))
            db.execute(
                "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    ply,
                    json.dumps(list(move.path)),
                    json.dumps(list(move.captures)),
                    int(move.crowns),
                    notation,
                    _now(),
                    black,
                    white,
                ),
            )
            if clock_state is not None:
                db.execute(
                    "UPDATE games SET clock = ? WHERE id = ?", (json.dumps(clock_state), game_id)
                )

    def delete_moves_from(self, game_id: int, ply: int) -> None:
        """Remove move ``ply`` and every later one (a takeback or a referee's correction)."""
        with self._transaction() as db:
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))

    def save_clock(self, game_id: int, state: dict[str, Any]) -> None:
        """Keep the clock's state, so a restart resumes it."""
        with self._transaction() as db:
            db.execute("UPDATE games SET clock = ? WHERE id = ?", (json.dumps(state), game_id))

    def set_result(self, game_id: int, result: str, reason: str) -> None:
        """Close a game with its PDN result and the reason (with the rule ID)."""
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET result = ?, result_reason = ? WHERE id = ?",
                (result, reason, game_id),
            )

    def set_headers(self, game_id: int, headers: dict[str, str]) -> None:
        """Replace a game's PDN tags."""
        with self._transaction() as db:
            db.execute("UPDATE games SET headers = ? WHERE id = ?", (json.dumps(headers), game_id))

    def add_event(self, game_id: int | None, kind: str, data: dict[str, Any]) -> None:
        """Keep a game event (violation, correction, fault) for the record."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO events (game_id, recorded, kind, data) VALUES (?, ?, ?, ?)",
                (game_id, _now(), kind, json.dumps(data)),
            )

    def audit(self, game_id: int | None, actor: str, action: str, data: dict[str, Any]) -> None:
        """Log a referee action."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO audit (game_id, recorded, actor, action, data) VALUES (?, ?, ?, ?, ?)",
                (game_id, _now(), actor, action, json.dumps(data)),
            )

    # -- reading -------------------------------------------------------------------------------

    def game(self, game_id: int) -> StoredGame:
        """One game with its moves (``KeyError`` if there is none with that id)."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, created, start_fen, rules, headers, result, result_reason, clock "
                "FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                raise KeyError(f"no game {game_id}")
            moves = self._db.execute(
                "SELECT ply, path, captures, crowns, notation, recorded, clock_black, clock_white "
                "FROM moves WHERE game_id = ? ORDER BY ply",
                (game_id,),
            ).fetchall()
        game = StoredGame(
            id=row[0],
            created=row[1],
            start_fen=row[2],
            rules=row[3],
            headers=json.loads(row[4]),
            result=row[5],
            result_reason=row[6],
            clock=json.loads(row[7]) if row[7] else None,
        )
        for ply, path, captures, crowns, notation, recorded, black, white in moves:
            move = Move(tuple(json.loads(path)), tuple(json.loads(captures)), bool(crowns))
            game.moves.append(StoredMove(ply, move, notation, recorded, black, white))
        if [m.ply for m in game.moves] != list(range(1, len(game.moves) + 1)):
            raise StorageError(f"game {game_id}: its moves are not numbered 1..n")
        return game

    def games(self) -> list[StoredGame]:
        """Every game, oldest first, with its moves."""
        with self._lock:
            ids = [row[0] for row in self._db.execute("SELECT id FROM games ORDER BY id")]
        return [self.game(game_id) for game_id in ids]

    def unfinished_game(self) -> StoredGame | None:
        """The newest game without a result: the one to resume after a restart."""
        with self._lock:
            row = self._db.execute(
                "SELECT id FROM games WHERE result IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return self.game(row[0]) if row else None

    def events(self, game_id: int) -> list[tuple[str, str, dict[str, Any]]]:
        """A game's events: (time, kind, data), oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT recorded, kind, data FROM events WHERE game_id = ? ORDER BY id", (game_id,)
            ).fetchall()
        return [(recorded, kind, json.loads(data)) for recorded, kind, data in rows]

    def audit_log(self) -> list[tuple[str, str, str, dict[str, Any]]]:
        """Every referee action: (time, actor, action, data), oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT recorded, actor, action, data FROM audit ORDER BY id"
            ).fetchall()
        return [
            (recorded, actor, action, json.loads(data)) for recorded, actor, action, data in rows
        ]
