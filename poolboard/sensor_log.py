"""Sensor logs: every session's raw sensor events as JSON Lines, replayable (docs/sensor-log.md).

One object per line, ``t`` in seconds never decreasing::

    {"t": 0.0, "occupied": [1, 2, 3, ...]}
    {"t": 4.21, "lever": "black"}
    {"t": 9.5, "adjust": "white"}
    {"t": 0.0, "game": 12, "fen": "B:W21-32:B1-12"}   # a game (re)starts here, from this position

Any misread on a real board can be replayed (``poolboard replay``) and turned into a test.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from engine.color import Color
from engine.sensing import (
    AdjustNotice,
    LeverPress,
    LinkHealth,
    SensorEvent,
    SensorFault,
    Snapshot,
    occupancy,
)


class SensorLogError(ValueError):
    """A sensor log line that is not valid; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class GameMarker:
    """Not a sensor event: the session started (or resumed) game ``game`` here, the board then
    to be judged from ``fen``. Replays start a fresh tracker from it."""

    t: float
    game: int
    fen: str


LogEntry = SensorEvent | GameMarker


def event_to_json(event: LogEntry) -> dict[str, Any]:
    """One sensor event (or game marker) as the JSON object logs and ``poolboard monitor`` use."""
    match event:
        case GameMarker(t, game, fen):
            return {"t": round(t, 4), "game": game, "fen": fen}
        case Snapshot(t, occupied):
            return {"t": round(t, 4), "occupied": sorted(occupied)}
        case LeverPress(t, side):
            return {"t": round(t, 4), "lever": side.value}
        case AdjustNotice(t, side):
            return {"t": round(t, 4), "adjust": side.value}
        case SensorFault(t, message, squares):
            return {"t": round(t, 4), "fault": message, "squares": sorted(squares)}
        case LinkHealth(t, connected, detail):
            return {"t": round(t, 4), "link": "up" if connected else "down", "detail": detail}
    raise TypeError(f"not a sensor event: {event!r}")


def event_from_json(data: object) -> LogEntry:
    """The sensor event (or game marker) a log object describes; ``ValueError`` says what is
    wrong with it."""
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    t = data.get("t")
    if not isinstance(t, int | float) or isinstance(t, bool) or t != t or t < 0:
        raise ValueError(f'"t" must be a number of seconds >= 0, got {t!r}')
    t = float(t)
    if "occupied" in data:
        squares = data["occupied"]
        if not isinstance(squares, list):
            raise ValueError(f'"occupied" must be a list of squares, got {squares!r}')
        return Snapshot(t, occupancy(squares))
    for key, kind in (("lever", LeverPress), ("adjust", AdjustNotice)):
        if key in data:
            side = data[key]
            if side not in ("black", "white"):
                raise ValueError(f'"{key}" must be "black" or "white", got {side!r}')
            return kind(t, Color(side))
    if "fault" in data:
        return SensorFault(t, str(data["fault"]), occupancy(data.get("squares", [])))
    if "game" in data:
        game, fen = data["game"], data.get("fen")
        if not isinstance(game, int) or not isinstance(fen, str):
            raise ValueError('a game marker needs "game" (a number) and "fen" (a PDN FEN)')
        return GameMarker(t, game, fen)
    if "link" in data:
        return LinkHealth(t, data["link"] == "up", str(data.get("detail", "")))
    raise ValueError(
        'expected one of the keys "occupied", "lever", "adjust", "fault", "link", "game"'
    )


def read_sensor_log(path: str | Path) -> Iterator[LogEntry]:
    """The events of a log file, checked line by line (``SensorLogError`` names file:line)."""
    last_t = 0.0
    with open(path, encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                event = event_from_json(json.loads(line))
            except ValueError as error:  # json.JSONDecodeError is a ValueError
                raise SensorLogError(f"{path}:{number}: {error}") from None
            if event.t < last_t:
                raise SensorLogError(
                    f"{path}:{number}: t went back from {last_t:g} to {event.t:g}; "
                    "t must never decrease"
                )
            last_t = event.t
            yield event


class SensorLogWriter:
    """Appends events to a log as they happen; each line is flushed so a crash loses none."""

    def __init__(self, handle: IO[str]) -> None:
        self._handle = handle

    def write(self, event: LogEntry) -> None:
        """Append one event."""
        self._handle.write(json.dumps(event_to_json(event), separators=(",", ":")) + "\n")
        self._handle.flush()

    def write_all(self, events: Iterable[LogEntry]) -> None:
        """Append many events."""
        for event in events:
            self.write(event)
