"""The live PDN feed: one file per table and one for the round, updated on every move.

Built from the tables' states (every move, the result) with the hall's pairing in the tags and the
clock times the move events carried as ``[%clk]``. The public feed may run ``delay`` seconds
behind (a broadcast delay against cheating); it is served over HTTP and, if a folder is given,
written there for a static host or a relay to pull (docs/hall.md).
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from engine.board import Board
from engine.pdn import GameRecord, write_game
from engine.pdn.clock import to_tenths
from poolboard import records
from poolboard.hall import topics
from poolboard.hall.monitor import HallMonitor


def round_file(round_number: int) -> str:
    """The round's feed file name."""
    return f"round-{round_number}.pdn"


def table_file(round_number: int, table: str) -> str:
    """A table's feed file name."""
    return f"round-{round_number}-{table}.pdn"


class Broadcast:
    """Keeps every game of the round as PDN, and the feed as it was ``delay`` seconds ago."""

    def __init__(
        self,
        monitor: HallMonitor,
        *,
        delay: float = 0.0,
        folder: Path | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.monitor = monitor
        self.delay = delay
        self.folder = folder
        self.now = now
        self.lock = threading.Lock()
        self._round = monitor.event.current_round
        self._games: dict[str, dict[int, str]] = {}  # table -> game id -> PDN, this round
        self._earlier: set[tuple[str, int]] = set()  # (table, game id) of earlier rounds
        self._history: dict[str, deque[tuple[float, str]]] = {}  # file -> (time, text)
        self._written: dict[str, str] = {}
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        """Follow the monitor: every change of a table updates its files."""
        self._unsubscribe = self.monitor.subscribe(self.update)
        for table in self.monitor.tables:
            self.update(table)

    def stop(self) -> None:
        """Stop following the monitor."""
        if self._unsubscribe is not None:
            self._unsubscribe()

    def game_pdn(self, table: str) -> tuple[int, str] | None:
        """``(game id, PDN)`` of the game at ``table`` now, tagged with the hall's names."""
        monitor = self.monitor
        with monitor.lock:
            view = monitor.tables[table]
            state = view.state
            clocks = dict(view.clocks)
        if state is None:
            return None
        tile = monitor.summary(table)
        record = GameRecord()
        for key, value in state.headers.items():
            record.headers[key] = records.one_line(value)
        record.headers.update(
            Event=monitor.config.hall.event,
            Round=f"{tile['round']}.{tile['game']}",
            Black=tile["black"],
            White=tile["white"],
            Board=table,
        )
        game_id = state.game_id
        try:  # the schema checked the types; only replaying and writing check the rest
            start = state.start_fen
            if start != Board().fen():
                record.setup(start)
            board = Board(start)
            for ply, notation in enumerate(state.moves, start=1):
                move = board.parse_move(notation)
                times = clocks.get((game_id, ply))
                mover = None if times is None else to_tenths(times[board.turn.value != "black"])
                record.add_move(move, clock=mover)
                board.push(move)
            if state.result:
                record.result = state.result
            text = write_game(record)  # a tag's name may still be one PDN cannot hold
        except ValueError as error:
            where = topics.topic(table, topics.STATE)
            monitor.condition(table, "protocol", f"{where}: the game cannot be written: {error}")
            return None
        monitor.condition(table, "protocol", None)
        return game_id, text

    def update(self, table: str) -> None:
        """Table ``table`` changed: rebuild its file and the round's."""
        round_number = self.monitor.event.current_round
        game = self.game_pdn(table)
        with self.lock:
            if round_number != self._round:
                self._earlier |= {(t, g) for t, games in self._games.items() for g in games}
                self._round, self._games = round_number, {}
            if game is not None and (table, game[0]) not in self._earlier:
                self._games.setdefault(table, {})[game[0]] = game[1]
            now = self.now()
            self._remember(table_file(round_number, table), self._table_text(table), now)
            self._remember(round_file(round_number), self._round_text(), now)
        self.flush()

    def _table_text(self, table: str) -> str:
        return "\n".join(self._games.get(table, {}).values())

    def _round_text(self) -> str:
        order = self.monitor.config.table_names
        return "\n".join(self._table_text(t) for t in order if self._games.get(t))

    def _remember(self, name: str, text: str, now: float) -> None:
        history = self._history.setdefault(name, deque())
        if history and history[-1][1] == text:
            return
        history.append((now, text))
        # Keep only what the delayed feed can still show: the newest entry older than the delay.
        while len(history) > 1 and history[1][0] <= now - self.delay:
            history.popleft()

    def text(self, name: str, *, delayed: bool = True) -> str | None:
        """The feed file ``name`` now (``delayed``: as it was ``delay`` seconds ago; empty
        before anything is that old); ``None`` if there is no such file."""
        with self.lock:
            history = self._history.get(name)
            if history is None:
                return None
            if not delayed or self.delay == 0:
                return history[-1][1]
            cutoff = self.now() - self.delay
            shown = [text for at, text in history if at <= cutoff]
            return shown[-1] if shown else ""

    def names(self) -> list[str]:
        """The feed's file names."""
        with self.lock:
            return sorted(self._history)

    def flush(self) -> None:
        """Write the delayed feed into the folder (atomically, only what changed)."""
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        for name in self.names():
            text = self.text(name)
            if text is None or self._written.get(name) == text:
                continue
            temporary = self.folder / f".{name}.tmp"
            temporary.write_text(text)
            os.replace(temporary, self.folder / name)
            self._written[name] = text

    def run(self, stop: threading.Event) -> None:
        """With a delay, write the folder once a second as entries come of age."""
        while not stop.wait(1.0):
            self.flush()
