"""The session's sensor logs on disk: one JSON Lines file per session, rotated by size.

Files are named ``sensor-YYYYmmdd-HHMMSS-NNNN.jsonl`` in ``<storage>/sensor-logs``; when one reaches
the size limit the next part starts, and only the newest ``keep`` files are kept.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import IO

from poolboard.sensor_log import LogEntry, SensorLogWriter

log = logging.getLogger("poolboard.sensor_log")


class RotatingSensorLog:
    """Appends every sensor event of a session, flushing each line, rotating by size."""

    def __init__(self, directory: Path, max_bytes: int, keep: int) -> None:
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.max_bytes = max_bytes
        self.keep = keep
        self._stem = time.strftime("sensor-%Y%m%d-%H%M%S")
        self._part = 0
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
