"""The session's sensor logs on disk: one JSON Lines file per session, rotated by size.

Files are named ``sensor-YYYYmmdd-HHMMSS-NNNN.jsonl`` in ``<storage>/sensor-logs``; when one reaches
the size limit the next part starts, and only the newest ``keep`` files are kept. The parts of a
session are one stream: ``session_parts`` finds them so a replay reads them as one.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from poolboard.sensor_log import LogEntry, SensorLogWriter, read_sensor_log

_PART = re.compile(r"(sensor-\d{8}-\d{6})-(\d{4})\.jsonl")


def session_parts(paths: Iterable[str]) -> list[list[str]]:
    """``paths`` grouped into streams, in the order given: consecutive parts of one session's
    log (same stem, part numbers following on) form one group, any other file its own."""
    groups: list[list[str]] = []
    previous: tuple[str, int] | None = None
    for path in paths:
        match = _PART.fullmatch(Path(path).name)
        here = None if match is None else (str(Path(path).parent / match[1]), int(match[2]))
        if here is not None and previous is not None and here == (previous[0], previous[1] + 1):
            groups[-1].append(path)
        else:
            groups.append([path])
        previous = here
    return groups


def read_parts(paths: Iterable[str]) -> Iterator[LogEntry]:
    """The entries of the parts of one stream, one after the other (each checked as
    ``read_sensor_log`` checks a file)."""
    for path in paths:
        yield from read_sensor_log(path)


log = logging.getLogger("poolboard.sensor_log")


class RotatingSensorLog:
    """Appends every sensor event of a session, flushing each line, rotating by size."""

    def __init__(self, directory: Path, max_bytes: int, keep: int) -> None:
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.max_bytes = max_bytes
        self.keep = keep
        self._stem = time.strftime("sensor-%Y%m%d-%H%M%S")
        # A service restarted within the same second goes on after the parts already there,
        # never appending to another session's file.
        taken = (_PART.fullmatch(p.name) for p in self.directory.glob(f"{self._stem}-*.jsonl"))
        self._part = max((int(match[2]) for match in taken if match), default=0)
        self._handle: IO[str] | None = None
        self._writer: SensorLogWriter | None = None
        self._failing = False
        self._open_next()

    @property
    def path(self) -> Path:
        """The file being written now."""
        return self.directory / f"{self._stem}-{self._part:04d}.jsonl"

    def _open_next(self) -> None:
        if self._handle is not None:
            self._handle.close()
        self._part += 1
        self._handle = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - held open
        self._writer = SensorLogWriter(self._handle)
        for old in sorted(self.directory.glob("sensor-*.jsonl"))[: -self.keep]:
            old.unlink(missing_ok=True)

    def write(self, event: LogEntry) -> None:
        """Append one event, starting a new file first if this one is full. The log is for
        diagnosis: a full disk loses log lines (said once), never stops the game's recording."""
        assert self._handle is not None and self._writer is not None
        try:
            if self._handle.tell() >= self.max_bytes:
                self._open_next()
            self._writer.write(event)
        except OSError as error:
            if not self._failing:
                log.error(
                    "sensor log %s: lines are lost until it can be written: %s", self.path, error
                )
            self._failing = True
        else:
            self._failing = False

    def close(self) -> None:
        """Close the current file."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None
