"""The event: players, rounds, who sits at which table, game results and the standings.

Kept in the hall's own SQLite file. A match is ``games_per_match`` games (even) with colours
alternating: the pairing's first player has Black, the first move, in odd games (R-TRN-2). Each
game scores 4 for a win, 2 for a draw, 0 for a loss (R-TRN-3). Results come from the tables and
count only once the director confirms them. Standings order: points, then games won, then the
opponents' points (Buchholz), then shared place (docs/hall.md).
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import JsonValue
from typing_extensions import TypedDict

from engine.color import Color
from engine.phrase import Phrase
from engine.refusal import Refusal
from poolboard import match, records, words
from poolboard.locale import LANGUAGES
from poolboard.match import RESULTS
from poolboard.storage import SqlValue

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    club TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS pairings (
    round INTEGER NOT NULL,
    tbl TEXT NOT NULL,
    first INTEGER NOT NULL REFERENCES players(id),
    second INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (round, tbl)
);
CREATE TABLE IF NOT EXISTS games (
    round INTEGER NOT NULL,
    tbl TEXT NOT NULL,
    table_game_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    result TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    confirmed_by TEXT,
    confirmed_at TEXT,
    PRIMARY KEY (round, tbl, table_game_id)
);
CREATE TABLE IF NOT EXISTS rejected (
    tbl TEXT NOT NULL,
    table_game_id INTEGER NOT NULL,
    PRIMARY KEY (tbl, table_game_id)
);
CREATE TABLE IF NOT EXISTS withdrawn (
    player INTEGER PRIMARY KEY REFERENCES players(id)
);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY,
    time TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    data TEXT NOT NULL
);
"""


class EventError(Refusal):
    """Event data that cannot be used; the message names what was wrong (and the CSV line), its
    values apart so that the director's console says it in the hall's language."""


def _on_line(source: str, line: int, error: Phrase) -> EventError:
    """A CSV line's refusal: the file and line, then what was wrong there in words of its own."""
    return EventError("{source} line {line}: {error}", source=source, line=line, error=error)


@dataclass(frozen=True)
class Pairing:
    """Who plays at ``table`` in ``round``: ``first`` has Black in the odd games (R-TRN-2)."""

    round: int
    table: str
    first: str
    second: str

    def colours(self, number: int) -> tuple[str, str]:
        """``(black, white)`` in game ``number`` (1-based) of the match: colours alternate."""
        return (self.first, self.second) if number % 2 == 1 else (self.second, self.first)


@dataclass(frozen=True)
class GameResult:
    """One game's result as a table reported it, and whether the director confirmed it."""

    round: int
    table: str
    table_game_id: int
    number: int
    result: str
    reason: str
    confirmed_by: str | None

    @property
    def ref(self) -> str:
        """The key of its "confirm it" alert, resolved when it is confirmed or rejected."""
        return f"result:{self.round}:{self.table}:{self.number}"


def result_words(
    result: str | None,
    reason: str,
    black: str,
    white: str,
    language: str = "en",
    *,
    codes: bool = True,
) -> str:
    """A result in words with the players' names, as the board's own pages say it
    (:func:`poolboard.records.ended_said`): ``"Ann Lee (Black) wins — White resigned"``,
    ``"Draw — agreed"``, in ``language``; the rule IDs the reason cites left out unless
    ``codes`` (the director's console keeps them, the audience's pages do not); ``""`` while
    the game goes on."""
    if result not in RESULTS:
        return ""
    ended = records.ended_said(match.winner(result), reason, white, black)
    said = words.said(ended, language)
    return said if codes else words.without_rule_codes(said, language)


def result_words_by_language(
    result: str | None, reason: str, black: str, white: str, *, codes: bool = True
) -> dict[str, str]:
    """:func:`result_words` in each language the pages speak: ``{"en": ..., "es": ...}``."""
    return {
        language: result_words(result, reason, black, white, language, codes=codes)
        for language in LANGUAGES
    }


class DescribedResult(TypedDict):
    """A result as the console shows it (:meth:`EventStore.described`): the table's report,
    who had Black and White in that game, and the result in words."""

    round: int
    table: str
    table_game_id: int
    number: int
    result: str
    reason: str
    confirmed_by: str | None
    black: str
    white: str
    words: str
    result_words: dict[str, str]


class AuditRow(TypedDict):
    """One director action: when (ISO 8601), who, what, and its details."""

    time: str
    actor: str
    action: str
    data: dict[str, JsonValue]


@dataclass
class Standing:
    """One player's line in the standings."""

    place: int
    name: str
    club: str
    points: int
    games: int
    wins: int
    draws: int
    losses: int
    buchholz: int


def round_robin(players: list[str]) -> list[list[tuple[str, str]]]:
    """Every player meets every other once: the circle method, one list of pairs per round
    (a bye, omitted, when the number is odd). The player listed first so far fewer times is
    listed first, so Black in game 1 is shared out fairly."""
    if len(players) < 2:
        raise EventError("a round robin needs at least two players")
    seats: list[str | None] = [*players, None] if len(players) % 2 else list(players)
    count = len(seats)
    rounds = []
    firsts = dict.fromkeys(players, 0)
    for number in range(count - 1):
        pairs = []
        for index in range(count // 2):
            a, b = seats[index], seats[count - 1 - index]
            if a is None or b is None:
                continue
            if (firsts[a], number % 2) > (firsts[b], 0):
                a, b = b, a
            firsts[a] += 1
            pairs.append((a, b))
        rounds.append(pairs)
        seats = [seats[0], seats[-1], *seats[1:-1]]  # rotate all but the first
    return rounds


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class EventStore:
    """The event in SQLite; safe to share between threads."""

    def __init__(self, path: Path, tables: list[str], games_per_match: int) -> None:
        self.path = path
        self.tables = tables
        self.games_per_match = games_per_match
        self._lock = threading.RLock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()

    def _write(self, sql: str, args: tuple[SqlValue, ...] = ()) -> None:
        with self._lock:
            self._db.execute(sql, args)

    def _read(self, sql: str, args: tuple[SqlValue, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """All of the block's writes, or none of them."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- the audit log -------------------------------------------------------------------------

    def audit(self, actor: str, action: str, data: Mapping[str, object]) -> None:
        """Write one director action to the audit log."""
        self._write(
            "INSERT INTO audit (time, actor, action, data) VALUES (?, ?, ?, ?)",
            (_now(), actor, action, json.dumps(data)),
        )

    def audit_log(self) -> list[AuditRow]:
        """Every director action, oldest first."""
        return [
            AuditRow(time=t, actor=a, action=act, data=json.loads(d))
            for t, a, act, d in self._read(
                "SELECT time, actor, action, data FROM audit ORDER BY id"
            )
        ]

    # -- players -------------------------------------------------------------------------------

    def add_player(self, name: str, club: str = "") -> None:
        """Register a player; EventError if the name is empty, too long or taken."""
        name, club = records.one_line(name), records.one_line(club)
        if not 1 <= len(name) <= 80:
            raise EventError("player name {name}: expected 1-80 characters", name=repr(name))
        try:
            self._write("INSERT INTO players (name, club) VALUES (?, ?)", (name, club))
        except sqlite3.IntegrityError:
            raise EventError("player {name} is registered already", name=repr(name)) from None

    def players(self) -> list[tuple[str, str]]:
        """``(name, club)`` of every player, in the order registered (withdrawn ones too)."""
        return [(n, c) for n, c in self._read("SELECT name, club FROM players ORDER BY id")]

    def withdrawn(self) -> set[str]:
        """The names of the players who withdrew."""
        return {
            name
            for (name,) in self._read(
                "SELECT p.name FROM players p JOIN withdrawn w ON w.player = p.id"
            )
        }

    def active_players(self) -> list[str]:
        """The players still in the event, in the order registered."""
        gone = self.withdrawn()
        return [name for name, _ in self.players() if name not in gone]

    def rename_player(self, name: str, new_name: str) -> None:
        """Correct a player's name everywhere (pairings and standings follow: they keep the
        player, not the name). EventError if unknown, empty, too long or taken."""
        player = self._player_id(name)
        new_name = records.one_line(new_name)
        if not 1 <= len(new_name) <= 80:
            raise EventError("player name {name}: expected 1-80 characters", name=repr(new_name))
        try:
            self._write("UPDATE players SET name = ? WHERE id = ?", (new_name, player))
        except sqlite3.IntegrityError:
            raise EventError("player {name} is registered already", name=repr(new_name)) from None

    def withdraw_player(self, name: str) -> int:
        """``name`` leaves the event: their results stay, their seats in rounds not started
        are freed (a bye for the opponent); they are paired no more. The seats freed."""
        player = self._player_id(name)
        with self._transaction():
            self._db.execute("INSERT OR IGNORE INTO withdrawn (player) VALUES (?)", (player,))
            freed = self._db.execute(
                "DELETE FROM pairings WHERE round > ? AND (first = ? OR second = ?)",
                (self.started_round, player, player),
            ).rowcount
        return int(freed)

    def _player_id(self, name: str) -> int:
        typed = name.strip()  # a name registered before names were put on one line, as it was
        rows = self._read(
            "SELECT id FROM players WHERE name IN (?, ?) ORDER BY name = ? DESC",
            (typed, records.one_line(name), typed),
        )
        if not rows:
            known = [n for n, _ in self.players()]
            close = difflib.get_close_matches(name, known, n=1)
            if close:
                raise EventError(
                    "player {name} is not registered (did you mean {close}?)",
                    name=repr(name),
                    close=repr(close[0]),
                )
            raise EventError("player {name} is not registered", name=repr(name))
        return int(rows[0][0])

    def import_players(self, text: str, source: str = "players.csv") -> int:
        """Register players from CSV ``name,club`` (a header line is optional); all or none.
        EventError names the line."""
        rows = self._csv(text, source, ("name", "club"), minimum=1)
        names = [row[0] for _, row in rows]
        for line, row in rows:
            if names.count(row[0]) > 1:
                twice = Phrase("player {name} is listed twice", name=repr(row[0]))
                raise _on_line(source, line, twice)
        with self._transaction():
            for line, row in rows:
                try:
                    self.add_player(row[0], row[1] if len(row) > 1 else "")
                except EventError as error:
                    raise _on_line(source, line, error.phrase) from None
        return len(rows)

    @staticmethod
    def _csv(
        text: str, source: str, header: tuple[str, ...], minimum: int
    ) -> list[tuple[int, list[str]]]:
        """Numbered rows of a CSV, the header line skipped, blank lines and ``#`` ignored."""
        rows: list[tuple[int, list[str]]] = []
        for line, row in enumerate(csv.reader(io.StringIO(text)), start=1):
            cells = [cell.strip() for cell in row]
            if not any(cells) or cells[0].startswith("#"):
                continue
            if [c.lower() for c in cells[: len(header)]] == list(header[: len(cells)]) and not rows:
                continue  # the header
            if not minimum <= len(cells) <= len(header):
                fields = ", ".join(header)
                got = (
                    Phrase("expected {fields}; got 1 field", fields=fields)
                    if len(cells) == 1
                    else Phrase("expected {fields}; got {n} fields", fields=fields, n=len(cells))
                )
                raise _on_line(source, line, got)
            rows.append((line, cells))
        if not rows:
            raise EventError(
                "{source}: no rows (expected {fields})", source=source, fields=", ".join(header)
            )
        return rows

    # -- rounds and pairings -------------------------------------------------------------------

    def set_pairing(self, round_number: int, table: str, first: str, second: str) -> None:
        """Seat ``first`` (Black in game 1) and ``second`` at ``table`` in ``round_number``."""
        if round_number < 1:
            raise EventError("round {round}: rounds are numbered from 1", round=round_number)
        if table not in self.tables:
            raise EventError(
                "unknown table {table}; the tables are {tables}",
                table=repr(table),
                tables=", ".join(self.tables),
            )
        self._refuse_started(round_number)
        gone = self.withdrawn() & {first.strip(), second.strip()}
        if gone:
            raise EventError("player {name} has withdrawn", name=repr(gone.pop()))
        if first.strip() == second.strip():
            raise EventError("{name} cannot play themselves", name=repr(first))
        ids = self._player_id(first), self._player_id(second)
        for pairing in self.pairings(round_number):
            busy = {pairing.first, pairing.second} & {first.strip(), second.strip()}
            if busy and pairing.table != table:
                raise EventError(
                    "round {round}: {name} already plays at table {table}",
                    round=round_number,
                    name=repr(busy.pop()),
                    table=pairing.table,
                )
        self._write(
            "INSERT OR REPLACE INTO pairings (round, tbl, first, second) VALUES (?, ?, ?, ?)",
            (round_number, table, *ids),
        )

    def _refuse_started(self, round_number: int) -> None:
        """EventError if ``round_number`` has started: its pairings are what the tables play."""
        if round_number <= self.started_round:
            raise EventError(
                "round {round} has started: its pairings can no longer change", round=round_number
            )

    def remove_pairing(self, round_number: int, table: str) -> None:
        """Nobody plays at ``table`` in ``round_number`` (a round not started yet)."""
        self._refuse_started(round_number)
        if self.pairing(round_number, table) is None:
            raise EventError(
                "round {round}: nobody is paired at table {table}",
                round=round_number,
                table=repr(table),
            )
        self._write("DELETE FROM pairings WHERE round = ? AND tbl = ?", (round_number, table))

    def import_pairings(self, text: str, source: str = "pairings.csv") -> int:
        """Pairings from CSV ``round,table,first,second`` (player names); all or none.
        EventError names the line and what was wrong."""
        rows = self._csv(text, source, ("round", "table", "first", "second"), minimum=4)
        with self._transaction():
            for line, (round_text, table, first, second) in rows:
                try:
                    if not round_text.isdigit():
                        raise EventError("round {round} is not a number", round=repr(round_text))
                    self.set_pairing(int(round_text), table, first, second)
                except EventError as error:
                    raise _on_line(source, line, error.phrase) from None
        return len(rows)

    def generate_round_robin(self) -> int:
        """Pair every registered player with every other, one round per cycle, at the tables
        in the config's order; replaces any pairings. The number of rounds."""
        if self.started_round:
            raise EventError(
                "round {round} has started: a round robin would replace the pairings being "
                "played; change the rounds still to come one by one",
                round=self.started_round,
            )
        names = self.active_players()
        rounds = round_robin(names)
        if len(rounds[0]) > len(self.tables):
            raise EventError(
                "{players} players need {needed} tables; the hall has {have}",
                players=len(names),
                needed=len(rounds[0]),
                have=len(self.tables),
            )
        with self._transaction():
            self._db.execute("DELETE FROM pairings")
            for number, pairs in enumerate(rounds, start=1):
                for table, (first, second) in zip(self.tables, pairs, strict=False):
                    self.set_pairing(number, table, first, second)
        return len(rounds)

    def pairings(self, round_number: int | None = None) -> list[Pairing]:
        """The pairings of one round (or all), by round then table order."""
        rows = self._read(
            "SELECT p.round, p.tbl, a.name, b.name FROM pairings p "
            "JOIN players a ON a.id = p.first JOIN players b ON b.id = p.second "
            + ("WHERE p.round = ? " if round_number is not None else "")
            + "ORDER BY p.round",
            (round_number,) if round_number is not None else (),
        )
        order = {name: index for index, name in enumerate(self.tables)}
        pairings = [Pairing(*row) for row in rows]
        return sorted(pairings, key=lambda p: (p.round, order.get(p.table, len(order))))

    def pairing(self, round_number: int, table: str) -> Pairing | None:
        """Who plays at ``table`` in ``round_number``, if anyone."""
        found = [p for p in self.pairings(round_number) if p.table == table]
        return found[0] if found else None

    @property
    def started_round(self) -> int:
        """The round the director started last (0: none yet); its pairings are fixed."""
        rows = self._read("SELECT value FROM settings WHERE key = 'round'")
        return int(rows[0][0]) if rows else 0

    @property
    def current_round(self) -> int:
        """The round being played (1 until the director starts one)."""
        return self.started_round or 1

    def set_round(self, round_number: int) -> None:
        """Start ``round_number``: it is the round being played, and its pairings and those
        of the rounds before it can no longer change."""
        if round_number < 1:
            raise EventError("round {round}: rounds are numbered from 1", round=round_number)
        self._write(
            "INSERT OR REPLACE INTO settings (key, value) VALUES ('round', ?)",
            (str(round_number),),
        )

    def rounds(self) -> list[int]:
        """Every round that has pairings."""
        return [r for (r,) in self._read("SELECT DISTINCT round FROM pairings ORDER BY round")]

    # -- results -------------------------------------------------------------------------------

    def report_result(
        self, round_number: int, table: str, table_game_id: int, result: str, reason: str
    ) -> GameResult | None:
        """A table finished a game: keep it as the next game of the match, to be confirmed;
        the result kept. A result the table corrected afterwards replaces the unconfirmed one
        (returned too). ``None`` when nobody is paired there, the match is complete, or the
        game is known already with this result (in any round), confirmed, or rejected."""
        if result not in RESULTS or self.pairing(round_number, table) is None:
            return None
        with self._lock:
            if self._read(
                "SELECT 1 FROM rejected WHERE tbl=? AND table_game_id=?", (table, table_game_id)
            ):
                return None
            known = self._read(
                "SELECT result, confirmed_by FROM games WHERE tbl=? AND table_game_id=?",
                (table, table_game_id),
            )
            if known:
                if known[0][0] == result or known[0][1] is not None:
                    return None
                self._write(
                    "UPDATE games SET result=?, reason=? WHERE tbl=? AND table_game_id=?",
                    (result, reason, table, table_game_id),
                )
                changed = self._read(
                    "SELECT round FROM games WHERE tbl=? AND table_game_id=?",
                    (table, table_game_id),
                )[0][0]
                return next(
                    g for g in self.results(changed, table) if g.table_game_id == table_game_id
                )
            count = len(self.results(round_number, table))
            if count >= self.games_per_match:
                return None
            self._write(
                "INSERT INTO games (round, tbl, table_game_id, number, result, reason) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (round_number, table, table_game_id, count + 1, result, reason),
            )
        return self.results(round_number, table)[-1]

    def described(self, result: GameResult) -> DescribedResult:
        """A result as the console shows it: with who had Black and White and in words."""
        pairing = self.pairing(result.round, result.table)
        black, white = pairing.colours(result.number) if pairing else ("?", "?")
        return DescribedResult(
            round=result.round, table=result.table, table_game_id=result.table_game_id,
            number=result.number, result=result.result, reason=result.reason,
            confirmed_by=result.confirmed_by, black=black, white=white,
            words=result_words(result.result, result.reason, black, white),
            result_words=result_words_by_language(result.result, result.reason, black, white),
        )  # fmt: skip

    def confirm(self, actor: str, round_number: int, table: str, number: int) -> GameResult:
        """The director confirms game ``number`` of the match at ``table``."""
        found = [g for g in self.results(round_number, table) if g.number == number]
        if not found:
            raise EventError(
                "round {round} table {table}: no game {game} reported",
                round=round_number,
                table=table,
                game=number,
            )
        self._write(
            "UPDATE games SET confirmed_by=?, confirmed_at=? WHERE round=? AND tbl=? AND number=?",
            (actor, _now(), round_number, table, number),
        )
        described = self.described(found[0])
        self.audit(
            actor,
            "confirm",
            {"round": round_number, "table": table, "game": number, "result": found[0].result}
            | {"words": described["words"], "result_words": dict(described["result_words"])},
        )
        return self.results(round_number, table)[number - 1]

    def reject(self, actor: str, round_number: int, table: str, number: int) -> None:
        """Drop the newest reported result of a match, unconfirmed, that is not a game of the
        match (a warm-up game, a wrong set-up): the next game the table finishes takes its
        number (and its colours, R-TRN-2)."""
        games = self.results(round_number, table)
        found = [g for g in games if g.number == number]
        if not found:
            raise EventError(
                "round {round} table {table}: no game {game} reported",
                round=round_number,
                table=table,
                game=number,
            )
        if found[0].confirmed_by is not None:
            raise EventError(
                "round {round} table {table} game {game} is confirmed already",
                round=round_number,
                table=table,
                game=number,
            )
        if number != games[-1].number:
            raise EventError(
                "round {round} table {table}: only the newest game ({newest}) can be rejected",
                round=round_number,
                table=table,
                newest=games[-1].number,
            )
        with self._transaction():
            self._db.execute(
                "DELETE FROM games WHERE round=? AND tbl=? AND number=?",
                (round_number, table, number),
            )
            self._db.execute(
                "INSERT OR IGNORE INTO rejected (tbl, table_game_id) VALUES (?, ?)",
                (table, found[0].table_game_id),
            )
        described = self.described(found[0])
        self.audit(
            actor,
            "reject",
            {"round": round_number, "table": table, "game": number, "result": found[0].result}
            | {"words": described["words"], "result_words": dict(described["result_words"])},
        )

    def results(
        self, round_number: int | None = None, table: str | None = None
    ) -> list[GameResult]:
        """Reported results (confirmed or not), by round, table and game number."""
        rows = self._read(
            "SELECT round, tbl, table_game_id, number, result, reason, confirmed_by FROM games "
            "WHERE (? IS NULL OR round = ?) AND (? IS NULL OR tbl = ?) "
            "ORDER BY round, tbl, number",
            (round_number, round_number, table, table),
        )
        return [GameResult(*row) for row in rows]

    def standings(self) -> list[Standing]:
        """Every player's confirmed points (4/2/0 a game, R-TRN-3), best first: points, then
        games won, then the opponents' points (Buchholz); equal on all three share a place."""
        lines = {name: Standing(0, name, club, 0, 0, 0, 0, 0, 0) for name, club in self.players()}
        opponents: dict[str, list[str]] = {name: [] for name in lines}
        for game in self.results():
            pairing = self.pairing(game.round, game.table)
            if game.confirmed_by is None or pairing is None:
                continue
            black, white = pairing.colours(game.number)
            scored = match.points(game.result)
            if scored is None:
                continue
            won = match.winner(game.result)
            for name, side in ((black, Color.BLACK), (white, Color.WHITE)):
                line = lines[name]
                line.points += scored[side]
                line.games += 1
                line.wins += won is side
                line.draws += won is None
                line.losses += won is side.opponent
            opponents[black].append(white)
            opponents[white].append(black)
        for name, line in lines.items():
            line.buchholz = sum(lines[o].points for o in set(opponents[name]))
        ordered = sorted(lines.values(), key=lambda s: (-s.points, -s.wins, -s.buchholz, s.name))
        for index, line in enumerate(ordered):
            before = ordered[index - 1] if index else None
            tied = before is not None and (before.points, before.wins, before.buchholz) == (
                line.points,
                line.wins,
                line.buchholz,
            )
            line.place = before.place if tied and before is not None else index + 1
        return ordered
