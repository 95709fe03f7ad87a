"""The computer as an opponent: the engine (engine/search.py) at a level, on its own thread.

A :class:`Thinker` runs one search at a time on a worker thread and hands the move to a
callback; a newer request or :meth:`Thinker.cancel` stops the current search within a few
hundred nodes (the searcher polls ``stop``). :class:`ComputerOpponent` plays a side with it;
the session's hints (docs/opponents.md) use one too.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from engine.board import Board, Move
from engine.color import Color
from engine.endgame import KingsEnding
from engine.levels import LEVELS, Level
from engine.phrase import Phrase
from engine.search import Root, Searcher
from poolboard.opponents.base import Answer, Opponent, Position

log = logging.getLogger("poolboard.opponents")

#: How hard a hint looks: level 7 (depth 8, at most 1 s, no noise).
HINT_LEVEL = LEVELS[7]
#: Table entries one thinker keeps (about 370 bytes each: some 75 MB), so the computer and the
#: hints together stay within what a Pi with 1 GB can spare beside the service.
TABLE_LIMIT = 200_000
#: Bytes one table entry takes in CPython (measured: docs/engine.md).
TABLE_ENTRY_BYTES = 370
#: The least a table is given however short memory is: a few MB, still some depth.
TABLE_FLOOR = 10_000


class _Endings:
    """The solved kings-v-lone-king endings (engine/endgame.py), built once per process on a
    thread of their own the first time a game comes near one: some seconds of one core here
    (more on a Pi) and a few hundred MB while building, a few tens of MB kept."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._table: KingsEnding | None = None
        self._building = False

    def get(self) -> KingsEnding | None:
        """The table if it is built; otherwise start building it (if the machine has the memory
        to spare) and return ``None``."""
        with self._lock:
            if self._table is None and not self._building:
                self._building = True
                spare = _available_memory()
                if spare is not None and spare < ENDINGS_MEMORY:
                    log.warning(
                        "the kings endings need about %d MB and %d MB are available: the "
                        "computer plays them by search alone",
                        ENDINGS_MEMORY >> 20,
                        spare >> 20,
                    )
                else:
                    threading.Thread(target=self._build, name="kings-endings", daemon=True).start()
            return self._table

    def _build(self) -> None:
        table = KingsEnding()
        with self._lock:
            self._table = table
        log.info("the kings endings are solved: the computer plays them perfectly now")


#: Shared by every thinker of the process (the computer and the hints).
ENDINGS = _Endings()
#: What building the endings may take at its peak, with room to spare (280 MB measured).
ENDINGS_MEMORY = 400 << 20


def _available_memory() -> int | None:
    """Bytes the kernel says can be had without swapping (Linux), else ``None``."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def table_limit(ceiling: int = TABLE_LIMIT, share: int = 8) -> int:
    """Entries a search table may keep: ``ceiling``, or fewer where they would take more than
    one ``share``-th of the memory available now (a Pi Zero 2 W has about 400 MB for
    everything), so thinking never pushes the service into swap or the OOM killer."""
    spare = _available_memory()
    if spare is None:
        return ceiling
    return max(TABLE_FLOOR, min(ceiling, spare // share // TABLE_ENTRY_BYTES))


def near_kings_ending(board: Board) -> bool:
    """Kings only and at most five pieces: a kings-v-lone-king ending is near or here."""
    pieces = board.white | board.black
    return board.kings == pieces and pieces.bit_count() <= 5


@dataclass(frozen=True)
class _Job:
    serial: int
    game_id: int
    root: Root
    level: Level
    done: Callable[[int, Move], object]
    stop: threading.Event = field(default_factory=threading.Event, compare=False)


class Thinker:
    """A worker thread that searches one position at a time; the latest request wins."""

    def __init__(self, name: str, seed: int | None = None) -> None:
        self._seed = random.randrange(1 << 30) if seed is None else seed
        self._searcher: Searcher | None = None
        self._game_id: int | None = None
        self._wake = threading.Condition()
        self._job: _Job | None = None  # waiting to start
        self._running: _Job | None = None  # being searched
        self._closed = False
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def think(
        self,
        serial: int,
        game_id: int,
        root: Root,
        level: Level,
        done: Callable[[int, Move], object],
    ) -> None:
        """Search ``root`` (a position of game ``game_id``, this thinker's from now on) at
        ``level``, then call ``done(serial, move)`` from the worker thread; cancels any search
        still going. Returns at once."""
        with self._wake:
            self._drop()
            self._job = _Job(serial, game_id, root, level, done)
            self._wake.notify()

    def cancel(self) -> None:
        """Drop the waiting request and stop the running search; no answer follows for them."""
        with self._wake:
            self._drop()

    def _drop(self) -> None:
        self._job = None
        if self._running is not None:
            self._running.stop.set()

    @property
    def busy(self) -> bool:
        """Whether a search is waiting or still running (a stopped one until it has unwound)."""
        with self._wake:
            return self._job is not None or self._running is not None

    def close(self, timeout: float = 5.0) -> None:
        """Stop searching for good and wait (up to ``timeout`` seconds) for the thread."""
        with self._wake:
            self._closed = True
            self._drop()
            self._wake.notify()
        self._thread.join(timeout)

    def _work(self) -> None:
        while True:
            with self._wake:
                while self._job is None and not self._closed:
                    self._wake.wait()
                if self._closed:
                    return
                job, self._job = self._job, None
                self._running = job
            assert job is not None
            move = self._search(job)
            with self._wake:
                self._running = None
            if move is not None:
                try:
                    job.done(job.serial, move)
                except Exception:  # the session logs its own failures; the thread goes on
                    log.exception("the answer to search %d failed", job.serial)

    def _search(self, job: _Job) -> Move | None:
        level = job.level
        if self._searcher is None or self._searcher.noise != level.noise:
            self._searcher = Searcher(noise=level.noise, seed=self._seed, table_limit=table_limit())
            self._game_id = job.game_id
        elif self._game_id != job.game_id:
            self._searcher.new_game()  # nothing learnt in one game misleads the next
            self._game_id = job.game_id

        if level.noise == 0 and near_kings_ending(job.root.board):  # the unerring levels
            self._searcher.endgame = ENDINGS.get()
        result = self._searcher.search(job.root, level.limits(), stop=job.stop.is_set)
        return None if job.stop.is_set() else result.best


class ComputerOpponent(Opponent):
    """The engine playing ``side`` at ``level`` (1-10, engine/levels.py)."""

    kind: ClassVar[str] = "engine"
    waiting_text: ClassVar[Phrase] = Phrase("thinking…")
    claims_counts: ClassVar[bool] = True

    def __init__(self, side: Color, level: int, *, seed: int | None = None) -> None:
        super().__init__(side)
        if level not in LEVELS:
            raise ValueError(f"level {level}: expected 1-10")
        self.level = level
        self._thinker = Thinker(f"computer-{side.value}", seed)

    def update(self, position: Position, answer: Answer) -> None:
        """Think about ``position`` if it is the computer's move; otherwise stop thinking."""
        if position.to_move:
            self._thinker.think(
                position.serial, position.game_id, position.root(), LEVELS[self.level], answer
            )
        else:
            self._thinker.cancel()

    @property
    def thinking(self) -> bool:
        """Whether a search is under way."""
        return self._thinker.busy

    def player_name(self) -> str:
        """``poolboard (level N)``: the engine and its level, as the PDN tag."""
        return f"poolboard (level {self.level})"

    def describe(self) -> dict[str, object]:
        """Kind, side and level, for the pages."""
        return {**super().describe(), "level": self.level}

    def close(self) -> None:
        """Stop thinking and end the worker thread."""
        self._thinker.close()
