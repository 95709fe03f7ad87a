"""Every game in SQLite: moves with clock times, results, violations, referee actions.

The database runs in WAL mode with ``synchronous=FULL``, and every change (a move with its result,
a correction that rewrites the moves after it, a takeback, a new game) is one transaction: after
a ``kill -9`` or a power cut either all of it is on disk or none of it. Only what a transaction
stored is announced (poolboard.session). One process writes to a data folder
(:class:`DataFolderLock`); readers open the file read-only and may run alongside it. Moves are
stored as their full path and captured squares and re-validated against the rules when loaded, so
a damaged game is reported (:class:`DamagedGame`), never played, and never hides the others.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from pydantic import JsonValue

from engine.board import Board, IllegalMoveError, Move
from engine.clock import TimeControl
from engine.pdn import GameRecord
from engine.pdn.clock import to_tenths
from engine.phrase import Phrase
from poolboard.records import game_number, pdn_time_control

#: A value SQLite stores: a query's parameter.
SqlValue = str | int | float | bytes | None

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    rules TEXT NOT NULL,
    headers TEXT NOT NULL,
    result TEXT,
    result_reason TEXT,
    clock TEXT,
    result_said TEXT
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


class DataFolderBusy(StorageError):
    """Another process is the writer of this data folder: ``holder`` is its PID (as the lock
    file says it)."""

    def __init__(self, message: str, holder: str) -> None:
        super().__init__(message)
        self.holder = holder


#: The file whose lock makes a process the one writer of a data folder.
LOCK_NAME = "poolboard.lock"


class DataFolderLock:
    """An exclusive ``flock`` on ``<folder>/poolboard.lock``, held until :meth:`release` or the
    process ends: the kernel drops it even after a ``kill -9``, so a crash never leaves it taken.
    The file holds the PID of the holder, for the message the next process shows."""

    def __init__(self, folder: Path, handle: IO[str]) -> None:
        self.folder = folder
        self._handle: IO[str] | None = handle

    @classmethod
    def acquire(cls, folder: str | Path) -> DataFolderLock:
        """Become the writer of ``folder``; ``DataFolderBusy`` naming the holder's PID if another
        process is, ``StorageError`` if the folder cannot hold the lock file."""
        folder = Path(folder)
        path = folder / LOCK_NAME
        try:
            folder.mkdir(parents=True, exist_ok=True)
            handle = open(path, "a+", encoding="ascii")  # noqa: SIM115 - held for the lifetime
        except OSError as error:
            raise StorageError(f"{folder}: cannot take the data folder's lock: {error}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise DataFolderBusy(
                f"{folder} is in use by another poolboard process (PID {holder}); one service "
                "records into a data folder: stop that one first, or give this one another "
                "[storage] path",
                holder,
            ) from None
        except OSError as error:
            handle.close()
            raise StorageError(f"{path}: cannot lock it: {error}") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        return cls(folder, handle)

    def release(self) -> None:
        """Let another process write here (closing the file drops the lock)."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def _one_line(error: BaseException) -> str:
    """An error's text on one short line: SQLite quotes damaged bytes in its messages."""
    text = " ".join(str(error).split())
    return text if len(text) <= 120 else text[:117] + "..."


def _lenient_text(data: bytes) -> str:
    """Text columns that are not UTF-8 (a damaged page) decode with U+FFFD, so the row is
    reported as damaged instead of failing the whole query."""
    return data.decode("utf-8", "replace")


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
    #: ``result_reason`` as words a page says in its language (None: stored as text alone).
    result_said: Phrase | None = None

    def board(self) -> Board:
        """The final position, every move re-validated (``StorageError`` if one is illegal)."""
        board = Board(self.start_fen)
        for stored in self.moves:
            try:
                board.push_legal(stored.move)
            except IllegalMoveError as error:
                raise StorageError(f"game {self.id} ply {stored.ply}: {error}") from None
        return board

    def record(self, notes: dict[int, list[str]] | None = None) -> GameRecord:
        """The game as a PDN record: ``[%clk]`` times of the side that moved, to the tenth of a
        second; ``notes`` (:meth:`GameStore.notes`: cautions, penalties, corrections) as
        comments after the move they follow (ply 0: before the first move), the time control
        in words where its tag cannot say it all, and how the game ended after the last move."""
        notes = notes or {}
        record = GameRecord()
        for key, value in self.headers.items():
            record.headers[key] = value
        if self.start_fen != Board().fen():
            record.setup(self.start_fen)
        opening = list(notes.get(0, []))
        control = (self.clock or {}).get("control")
        if isinstance(control, str):
            with suppress(ValueError):
                note = pdn_time_control(TimeControl.from_string(control))[1]
                if note:
                    opening.insert(0, note)
        record.comment = "; ".join(opening)
        board = Board(self.start_fen)
        for stored in self.moves:
            mover_clock = stored.clock_black if board.turn.value == "black" else stored.clock_white
            clock = None if mover_clock is None else to_tenths(mover_clock)
            record.add_move(stored.move, clock=clock, comment="; ".join(notes.get(stored.ply, [])))
            board.push(stored.move)
        if self.result:
            record.result = self.result
        if self.result and self.result != "*" and self.result_reason:
            if record.moves:
                last = record.moves[-1]
                last.comment = "; ".join(filter(None, (last.comment, self.result_reason)))
            else:
                record.comment = "; ".join(filter(None, (record.comment, self.result_reason)))
        return record


@dataclass(frozen=True)
class DamagedGame:
    """A game whose row or moves cannot be read as a legal game: listed with the reason, never
    played or exported, and never in the way of the others."""

    id: int
    created: str
    reason: str


#: A game of a match as :meth:`GameStore.match_games` gives it: headers, result, reason and
#: the reason's words.
MatchGame = tuple[dict[str, str], str | None, str | None, Phrase | None]
_GAME_COLUMNS = "id, created, start_fen, rules, headers, result, result_reason, clock, result_said"

#: ``PRAGMA user_version`` of the files this code writes. Version 1 stores results in checkers'
#: order (``1-0``: Black, the first mover, won; PDN 2.0 §6.1.1.1.1.5); a file at 0 holds them in
#: chess's order. Such a file is converted when opened for writing, and read as converted when
#: opened read-only.
SCHEMA_VERSION = 1
_SWAPPED_RESULT = "CASE result WHEN '1-0' THEN '0-1' WHEN '0-1' THEN '1-0' ELSE result END"
_MOVE_COLUMNS = "ply, path, captures, crowns, notation, recorded, clock_black, clock_white"


def _json(text: str, what: str) -> Any:
    """A column's JSON, or ValueError naming the column."""
    try:
        return json.loads(text)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{what} {str(text)[:40]!r} is not JSON ({error})") from None


def _squares(text: str, what: str) -> tuple[int, ...]:
    """A JSON list of board squares (1-32), or ValueError naming ``what``."""
    value = _json(text, what)
    if not isinstance(value, list) or not all(
        isinstance(square, int) and not isinstance(square, bool) and 1 <= square <= 32
        for square in value
    ):
        raise ValueError(f"{what} {text[:40]!r} is not a list of squares 1-32")
    return tuple(value)


def _string_map(text: str) -> dict[str, str]:
    value = _json(text, "headers")
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ValueError(f"headers {text[:40]!r} are not a JSON object of strings")
    return value


def _phrase(text: str | None) -> Phrase | None:
    """A result's words as stored (``Phrase.to_json``); ``None`` for none, or for words that
    cannot be read (not JSON, or not words :meth:`Phrase.from_json` can say): the reason's
    text is still there to say, and the game is read whole."""
    try:
        return Phrase.from_json(json.loads(text)) if text else None
    except (ValueError, RecursionError):
        return None


def _decode_game(row: tuple[Any, ...], move_rows: list[tuple[Any, ...]]) -> StoredGame:
    """A stored game from its rows, every move checked legal in turn; ValueError says what is
    wrong (bad JSON, a square off the board, an illegal move, a gap in the plies)."""
    game_id, created, start_fen, rules, headers, result, reason, clock, said = row
    try:
        board = Board(start_fen)
    except (ValueError, TypeError) as error:
        raise ValueError(f"start position {start_fen!r}: {error}") from None
    game = StoredGame(
        id=game_id,
        created=created,
        start_fen=start_fen,
        rules=rules,
        headers=_string_map(headers),
        result=result,
        result_reason=reason,
        clock=_json(clock, "saved clock") if clock else None,
        result_said=_phrase(said),
    )
    if game.clock is not None and not isinstance(game.clock, dict):
        raise ValueError("the saved clock is not a JSON object")
    for expected, (ply, path, captures, crowns, notation, recorded, black, white) in enumerate(
        move_rows, start=1
    ):
        if ply != expected:
            raise ValueError(f"its moves are not numbered 1..n (ply {expected} is missing)")
        where = f"ply {ply}"
        move = Move(_squares(path, f"{where}: path"), _squares(captures, f"{where}: captures"))
        if len(move.path) < 2:
            raise ValueError(f"{where}: path {path!r} has no destination")
        try:
            legal = board.push_legal(Move(move.path, move.captures, bool(crowns)))
        except IllegalMoveError as error:
            raise ValueError(f"{where}: {error}") from None
        game.moves.append(StoredMove(ply, legal, notation, recorded, black, white))
    return game


class GameStore:
    """The SQLite file holding every game; safe to share between threads.

    The writer (the service) opens it read-write, holding the data folder's lock; every other
    command opens it with ``read_only=True``, which never writes, not even the WAL index, so it
    also works alongside the service and on a read-only medium.
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._lock = threading.RLock()
        self._depth = 0
        self._game_columns = _GAME_COLUMNS
        if read_only:
            self._db = self._open_read_only()
            if self._version() < 1:
                self._game_columns = _GAME_COLUMNS.replace("result,", f"{_SWAPPED_RESULT},", 1)
            if not self._has_said():  # a file from before results kept their words
                self._game_columns = self._game_columns.replace("result_said", "NULL")
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.text_factory = _lenient_text
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            self._upgrade()
            if not self._has_said():
                # A file from before results kept their words: the reasons stay as they are.
                self._db.execute("ALTER TABLE games ADD COLUMN result_said TEXT")
        except (OSError, sqlite3.Error) as error:
            raise StorageError(
                f"{self.path}: not a usable poolboard database: {_one_line(error)}"
            ) from None

    def _open_read_only(self) -> sqlite3.Connection:
        """``mode=ro`` reads the WAL too; where even the WAL index cannot be made (a read-only
        folder after a clean shut-down, no WAL left) the file is opened ``immutable``."""
        if not self.path.is_file():
            raise StorageError(f"no games recorded yet: {self.path} does not exist")
        uri = self.path.resolve().as_uri()
        try:
            return self._connect(f"{uri}?mode=ro")
        except sqlite3.Error as error:
            failure = _one_line(error)
        wal = self.path.with_name(self.path.name + "-wal")
        if wal.exists() and wal.stat().st_size > 0:  # immutable would not see what it holds
            raise StorageError(
                f"{self.path}: cannot be read here ({failure}): its newest moves are in "
                f"{wal.name}, which only a writable folder can read: copy the folder to one"
            )
        try:
            return self._connect(f"{uri}?immutable=1")
        except sqlite3.Error as error:
            raise StorageError(f"{self.path}: cannot be read: {_one_line(error)}") from None

    def _has_said(self) -> bool:
        """Whether the games table has the column for a result's words."""
        columns = self._db.execute("PRAGMA table_info(games)").fetchall()
        return any(column[1] == "result_said" for column in columns)

    def _version(self) -> int:
        """The file's schema version; ``StorageError`` for one written by a newer poolboard."""
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StorageError(
                f"{self.path}: written by a newer poolboard (schema {version}, this one reads "
                f"up to {SCHEMA_VERSION}): upgrade poolboard to read it"
            )
        return version

    def _upgrade(self) -> None:
        """Bring a file written by an older poolboard to ``SCHEMA_VERSION``, in one transaction."""
        if self._version() == SCHEMA_VERSION:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute(f"UPDATE games SET result = {_SWAPPED_RESULT}")
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    @staticmethod
    def _connect(uri: str) -> sqlite3.Connection:
        """A read-only connection to ``uri``, tried on the games table."""
        db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        db.text_factory = _lenient_text
        try:
            db.execute("SELECT count(*) FROM games").fetchone()
        except sqlite3.Error:
            db.close()
            raise
        return db

    @property
    def writes(self) -> int:
        """How many rows this connection has changed: it moves on when a write is stored."""
        with self._lock:
            return self._db.total_changes

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Make every write inside one transaction: on disk all together when the outermost
        one ends, or not at all (``StorageError``: the disk is full, the file damaged). SQLite's
        transaction begins at the first write, so a change that writes nothing costs nothing."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._depth = 1
            try:
                yield
                if self._db.in_transaction:
                    self._db.execute("COMMIT")
            except sqlite3.Error as error:
                self._rollback()
                raise StorageError(f"{self.path}: not stored: {_one_line(error)}") from None
            except BaseException:
                self._rollback()
                raise
            finally:
                self._depth = 0

    def _write(self, sql: str, parameters: tuple[SqlValue, ...]) -> sqlite3.Cursor:
        """Run one write inside the current transaction (one of its own if there is none)."""
        with self.transaction():
            if not self._db.in_transaction:
                self._db.execute("BEGIN IMMEDIATE")
            return self._db.execute(sql, parameters)

    def _rollback(self) -> None:
        # SQLite may already have rolled back itself (a full disk, I/O errors).
        if self._db.in_transaction:
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, for reads: a damaged file is a ``StorageError`` naming it."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as error:
                raise StorageError(f"{self.path}: cannot be read: {_one_line(error)}") from None

    # -- writing -------------------------------------------------------------------------------

    def create_game(self, start_fen: str, rules: str, headers: dict[str, str]) -> int:
        """Start a new game; returns its id."""
        cursor = self._write(
            "INSERT INTO games (created, start_fen, rules, headers) VALUES (?, ?, ?, ?)",
            (_now(), start_fen, rules, json.dumps(headers)),
        )
        assert cursor.lastrowid is not None  # an INSERT into a rowid table sets it
        return cursor.lastrowid

    def add_move(
        self,
        game_id: int,
        ply: int,
        move: Move,
        notation: str,
        clock: tuple[float, float] | None = None,
        clock_state: dict[str, Any] | None = None,
    ) -> None:
        """Store move ``ply`` (1-based), replacing any stored from that ply on (a correction),
        with the clock state after it; on disk when the transaction ends."""
        black, white = clock if clock is not None else (None, None)
        with self.transaction():
            self._write("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))
            self._write(
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
                self.save_clock(game_id, clock_state)

    def delete_moves_from(self, game_id: int, ply: int) -> None:
        """Remove move ``ply`` and every later one (a takeback or a referee's correction)."""
        self._write("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))

    def save_clock(self, game_id: int, state: Mapping[str, object]) -> None:
        """Keep the clock's state, so a restart resumes it."""
        self._write("UPDATE games SET clock = ? WHERE id = ?", (json.dumps(dict(state)), game_id))

    def set_result(
        self, game_id: int, result: str, reason: str, said: Phrase | None = None
    ) -> None:
        """Close a game with its PDN result and the reason (with the rule ID), and the
        reason's words (``said``) when it has them."""
        words = None if said is None else json.dumps(said.to_json())
        self._write(
            "UPDATE games SET result = ?, result_reason = ?, result_said = ? WHERE id = ?",
            (result, reason, words, game_id),
        )

    def set_headers(self, game_id: int, headers: dict[str, str]) -> None:
        """Replace a game's PDN tags."""
        self._write("UPDATE games SET headers = ? WHERE id = ?", (json.dumps(headers), game_id))

    def reopen(self, game_id: int) -> None:
        """Take a game's result away (its last moves were voided): it goes on."""
        self._write(
            "UPDATE games SET result = NULL, result_reason = NULL, result_said = NULL WHERE id = ?",
            (game_id,),
        )

    def add_event(self, game_id: int | None, kind: str, data: Mapping[str, object]) -> None:
        """Keep a game event (violation, correction, fault) for the record."""
        self._write(
            "INSERT INTO events (game_id, recorded, kind, data) VALUES (?, ?, ?, ?)",
            (game_id, _now(), kind, json.dumps(dict(data))),
        )

    def audit(
        self, game_id: int | None, actor: str, action: str, data: Mapping[str, object]
    ) -> str:
        """Log a referee action; the time it is logged at (as :meth:`audit_log` gives it)."""
        recorded = _now()
        self._write(
            "INSERT INTO audit (game_id, recorded, actor, action, data) VALUES (?, ?, ?, ?, ?)",
            (game_id, recorded, actor, action, json.dumps(dict(data))),
        )
        return recorded

    # -- reading -------------------------------------------------------------------------------

    def _load(self, db: sqlite3.Connection, game_id: int) -> StoredGame | DamagedGame:
        row = db.execute(
            f"SELECT {self._game_columns} FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id}")
        return self._load_row(db, row)

    def _load_row(self, db: sqlite3.Connection, row: tuple[Any, ...]) -> StoredGame | DamagedGame:
        game_id = row[0]
        try:
            moves = db.execute(
                f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
            return _decode_game(row, moves)
        except sqlite3.DatabaseError as error:
            reason = f"{self.path}: cannot be read: {_one_line(error)}"
        except (ValueError, TypeError) as error:
            reason = _one_line(error)
        return DamagedGame(game_id, str(row[1]), reason)

    def game(self, game_id: int) -> StoredGame:
        """One game with its moves, each re-validated (``KeyError`` if there is no such game,
        ``StorageError`` saying what is wrong if it is damaged)."""
        with self._reading() as db:
            found = self._load(db, game_id)
        if isinstance(found, DamagedGame):
            raise StorageError(f"game {game_id} is damaged: {found.reason}")
        return found

    def games(self) -> list[StoredGame | DamagedGame]:
        """Every game, oldest first, with its moves; a damaged one as :class:`DamagedGame`."""
        with self._reading() as db:
            rows = db.execute(f"SELECT {self._game_columns} FROM games ORDER BY id").fetchall()
            return [self._load_row(db, row) for row in rows]

    def unfinished_game(self) -> StoredGame | DamagedGame | None:
        """The newest game without a result: the one to resume after a restart."""
        with self._reading() as db:
            row = db.execute(
                "SELECT id FROM games WHERE result IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
            return self._load(db, row[0]) if row else None

    def events(self, game_id: int) -> list[tuple[str, str, dict[str, Any]]]:
        """A game's events: (time, kind, data), oldest first."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT recorded, kind, data FROM events WHERE game_id = ? ORDER BY id", (game_id,)
            ).fetchall()
        try:
            return [(recorded, kind, json.loads(data)) for recorded, kind, data in rows]
        except ValueError as error:
            raise StorageError(
                f"game {game_id} is damaged: an event is not JSON ({error})"
            ) from None

    def match_games(self, game_id: int, numbers: range) -> list[MatchGame]:
        """The games of a match, newest first: game ``game_id`` numbered ``numbers[0]`` in its
        ``[Round]``, then each earlier game numbered one less (games set aside unfinished,
        result ``*``, skipped); (headers, result, reason, the reason's words) each, damaged
        ones leaving a gap."""
        found: list[MatchGame] = []
        expected = iter(numbers)
        want = next(expected, None)
        said = "result_said" if "result_said" in self._game_columns else "NULL"
        with self._reading() as db:
            rows = db.execute(
                f"SELECT headers, result, result_reason, {said} FROM games WHERE id <= ? "
                "ORDER BY id DESC LIMIT 400",
                (game_id,),
            ).fetchall()
        for headers_text, result, reason, words in rows:
            if want is None:
                break
            if result == "*":
                continue
            try:
                headers = _string_map(headers_text)
            except ValueError:
                break
            if game_number(headers.get("Round", "")) != want:
                break
            found.append((headers, result, reason, _phrase(words)))
            want = next(expected, None)
        return found

    def notes(self, game_id: int) -> dict[int, list[str]]:
        """What the PDN says at each ply of a game besides the move (ply 0: before the first):
        violations seen on the board (and their mending), the referee's cautions and penalties,
        corrections and voided moves, clock adjustments."""
        notes: dict[int, list[str]] = {}
        for _, kind, data in self.events(game_id):
            ply = data.get("ply")
            if not isinstance(ply, int):
                continue
            rule, message = str(data.get("rule")), str(data.get("message"))
            if kind == "violation":  # its rule named once (messages mostly cite it)
                text = message if rule in message else f"{rule}: {message}"
            elif kind == "mended":  # the tracker's ViolationMended, kept by the session
                text = f"{rule} {message}"
            elif kind == "penalty":
                note = f": {data['note']}" if data.get("note") else ""
                text = f"{data.get('severity')} to {data.get('side')} ({data.get('rule')}){note}"
            elif kind == "correction":
                text = f"move corrected on the board to {data.get('notation')}"
            else:
                continue
            notes.setdefault(ply, []).append(" ".join(text.replace("}", ")").split()))
        with self._reading() as db:
            rows = db.execute(
                "SELECT actor, action, data FROM audit WHERE game_id = ? ORDER BY id", (game_id,)
            ).fetchall()
        for actor, action, data_text in rows:
            with suppress(ValueError):
                data = json.loads(data_text)
                if action == "correct":
                    ply = data["ply"]
                    text = f"the referee ({actor}) corrected this move (entered {data['move']})"
                elif action == "void":
                    voided = " ".join(data["moves"])
                    ply, text = data["ply"] - 1, f"the referee ({actor}) voided {voided}"
                elif action == "adjust":
                    ply = data.get("ply")
                    text = f"the referee ({actor}) adjusted {data['side']}'s clock by "
                    text += f"{data['seconds']:+g} s"
                else:
                    continue
                if isinstance(ply, int):
                    notes.setdefault(ply, []).append(" ".join(text.replace("}", ")").split()))
        return notes

    def record(self, game: StoredGame) -> GameRecord:
        """``game`` as a PDN record with its notes (:meth:`notes`)."""
        return game.record(self.notes(game.id))

    def audit_log(
        self, game_id: int | None = None
    ) -> list[tuple[str, str, str, dict[str, JsonValue]]]:
        """Every referee action (or those on game ``game_id``): (time, actor, action, data),
        oldest first."""
        with self._reading() as db:
            if game_id is None:
                rows = db.execute(
                    "SELECT recorded, actor, action, data FROM audit ORDER BY id"
                ).fetchall()
            else:
                rows = db.execute(
                    "SELECT recorded, actor, action, data FROM audit WHERE game_id = ? ORDER BY id",
                    (game_id,),
                ).fetchall()
        return [
            (recorded, actor, action, json.loads(data)) for recorded, actor, action, data in rows
        ]

    def integrity(self) -> str:
        """SQLite's own check of the file: ``ok``, or what it found damaged."""
        with self._reading() as db:
            rows = db.execute("PRAGMA integrity_check").fetchall()
        return "; ".join(str(row[0]) for row in rows[:5])
