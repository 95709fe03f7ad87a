"""Sensor logs: every session's raw sensor events as JSON Lines, replayable (docs/sensor-log.md).

One object per line; sensor lines carry the time they were sensed (``t``, seconds, never going
back), game markers the service's time when they were written::

    {"t": 0.0, "occupied": [1, 2, 3, ...]}
    {"t": 0.0, "occupied": [1, 2, 21], "pieces": {"1": "b", "2": "B", "21": "w"}}   # a camera
    {"t": 4.21, "lever": "black"}
    {"t": 9.5, "adjust": "white"}
    {"t": 12.0, "fault": "square 13 flickers", "squares": [13], "said": {"message": ...}}
    {"t": 0.0, "game": 12, "fen": "B:W21-32:B1-12", "resume": true}   # a game (re)starts here

Any misread on a real board can be replayed (``poolboard replay``) and turned into a test.
Reading never trusts a line: anything wrong is a ``SensorLogError`` naming the file, the line
and what was wrong.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from engine.color import Color
from engine.phrase import Phrase
from engine.sensing import (
    PIECE_SYMBOLS,
    AdjustNotice,
    LeverPress,
    LinkHealth,
    SensorEvent,
    SensorFault,
    Snapshot,
)

#: A longer line is refused rather than read into memory: a full snapshot with pieces is ~400.
MAX_LINE_BYTES = 64 * 1024
#: Integers longer than this are refused while parsing (no line needs more than a game id).
MAX_DIGITS = 20
#: The keys that say what a line is; exactly one per line.
KINDS = ("occupied", "lever", "adjust", "fault", "link", "game")


class SensorLogError(ValueError):
    """A sensor log line that is not valid; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class GameMarker:
    """Not a sensor event: the session started game ``game`` here (or resumed it after a
    restart: ``resume``), the board then to be judged from ``fen``. Replays start a fresh
    tracker from it, as the session did."""

    t: float
    game: int
    fen: str
    resume: bool = True


LogEntry = SensorEvent | GameMarker


def event_to_json(event: LogEntry) -> dict[str, object]:
    """One sensor event (or game marker) as the JSON object logs and ``poolboard monitor`` use."""
    match event:
        case GameMarker(t, game, fen, resume):
            return {"t": round(t, 4), "game": game, "fen": fen, "resume": resume}
        case Snapshot(t, occupied, pieces):
            line: dict[str, object] = {"t": round(t, 4), "occupied": sorted(occupied)}
            if pieces is not None:
                line["pieces"] = {str(square): symbol for square, symbol in pieces}
            return line
        case LeverPress(t, side):
            return {"t": round(t, 4), "lever": side.value}
        case AdjustNotice(t, side):
            return {"t": round(t, 4), "adjust": side.value}
        case SensorFault(t, message, squares, said):
            line = {"t": round(t, 4), "fault": message, "squares": sorted(squares)}
            return line if said is None else line | {"said": said.to_json()}
        case LinkHealth(t, connected, detail, said):
            line = {"t": round(t, 4), "link": "up" if connected else "down", "detail": detail}
            return line if said is None else line | {"said": said.to_json()}
    raise TypeError(f"not a sensor event: {event!r}")


def _shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, so a message never echoes a huge token."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _square(value: object, key: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 32:
        return value
    raise ValueError(f'"{key}": {_shown(value)} is not a dark square 1-32 (R-BRD-2)')


def _squares(value: object, key: str) -> frozenset[int]:
    if not isinstance(value, list):
        raise ValueError(f'"{key}" must be a list of squares 1-32, got {_shown(value)}')
    return frozenset(_square(item, key) for item in value)


def _pieces(value: object, occupied: frozenset[int]) -> dict[int, str]:
    if not isinstance(value, dict):
        raise ValueError(
            f'"pieces" must be an object {{"square": "b|w|B|W|?"}}, got {_shown(value)}'
        )
    pieces = {}
    for key, symbol in value.items():
        square = _square(
            int(key) if key.isascii() and key.isdigit() and len(key) <= 2 else key, "pieces"
        )
        if not isinstance(symbol, str) or symbol not in PIECE_SYMBOLS:
            raise ValueError(f'"pieces": square {square}: {_shown(symbol)} is not b, w, B, W or ?')
        pieces[square] = symbol
    if frozenset(pieces) != occupied:
        differ = sorted(frozenset(pieces) ^ occupied)
        raise ValueError(
            f'"pieces" must name exactly the "occupied" squares; they differ on {differ}'
        )
    return pieces


def _side(value: object, key: str) -> Color:
    if value not in ("black", "white"):
        raise ValueError(f'"{key}" must be "black" or "white", got {_shown(value)}')
    return Color(value)


def _text(data: Mapping[str, object], key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise ValueError(f'"{key}" must be a string, got {_shown(value)}')
    return value


def _said(data: Mapping[str, object], key: str, text: str) -> Phrase | None:
    """A fault's or a link's words (``"said"``, left out by older logs), which must say its
    English ``text`` (the line's ``key``)."""
    if "said" not in data:
        return None
    try:
        said = Phrase.from_json(data["said"])
    except ValueError as error:
        raise ValueError(f'"said": {error}') from None
    if str(said) != text:
        raise ValueError(f'"said" says {_shown(str(said))}, not the "{key}" {_shown(text)}')
    return said


def event_from_json(data: object) -> LogEntry:
    """The sensor event (or game marker) a log object describes; ``ValueError`` says what is
    wrong with it."""
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {_shown(data)}")
    t = data.get("t")
    if not isinstance(t, int | float) or isinstance(t, bool) or not math.isfinite(t) or t < 0:
        raise ValueError(f'"t" must be a finite number of seconds >= 0, got {_shown(t)}')
    t = float(t)
    kinds = [key for key in KINDS if key in data]
    if len(kinds) != 1:
        raise ValueError(
            "a line needs exactly one of the keys "
            + ", ".join(f'"{k}"' for k in KINDS)
            + (f"; it has {', '.join(kinds)}" if kinds else "")
        )
    match kinds[0]:
        case "occupied":
            occupied = _squares(data["occupied"], "occupied")
            if "pieces" not in data:
                return Snapshot(t, occupied)
            return Snapshot.from_pieces(t, _pieces(data["pieces"], occupied))
        case "lever":
            return LeverPress(t, _side(data["lever"], "lever"))
        case "adjust":
            return AdjustNotice(t, _side(data["adjust"], "adjust"))
        case "fault":
            message = _text(data, "fault")
            squares = _squares(data.get("squares", []), "squares")
            return SensorFault(t, message, squares, _said(data, "fault", message))
        case "link":
            if data["link"] not in ("up", "down"):
                raise ValueError(f'"link" must be "up" or "down", got {_shown(data["link"])}')
            detail = _text(data, "detail")
            return LinkHealth(t, data["link"] == "up", detail, _said(data, "detail", detail))
    game, fen, resume = data["game"], data.get("fen"), data.get("resume", True)
    if not isinstance(game, int) or isinstance(game, bool) or game < 0:
        raise ValueError(f'a game marker\'s "game" must be a game number, got {_shown(game)}')
    if not isinstance(fen, str):
        raise ValueError(f'a game marker needs "fen" (a PDN FEN), got {_shown(fen)}')
    if not isinstance(resume, bool):
        raise ValueError(f'a game marker\'s "resume" must be true or false, got {_shown(resume)}')
    return GameMarker(t, game, fen, resume)


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} digits, longer than any a log holds")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{_shown(text)[1:-1]} is too large a number")
    return value


def _parse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number a log may hold")


def parse_line(raw: bytes) -> LogEntry:
    """One log line (UTF-8 bytes) as an event; ``ValueError`` says what is wrong with it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"not UTF-8 text (byte 0x{raw[error.start]:02x} at column {error.start + 1})"
        ) from None
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except RecursionError:
        raise ValueError("not a sensor event: JSON nested too deeply") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON: {error.msg} at column {error.colno}") from None
    return event_from_json(data)


def read_sensor_log(path: str | Path) -> Iterator[LogEntry]:
    """The events of a log file, checked line by line (``SensorLogError`` names file:line).
    Sensor lines may never go back in time, nor may game markers; a sensor line may be earlier
    than the marker before it (sensed before the service started that game, handled after)."""
    last_sensed = last_marker = 0.0
    with open(path, "rb") as handle:
        for number in itertools.count(1):
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            where = f"{path}:{number}"
            if len(raw) > MAX_LINE_BYTES:
                raise SensorLogError(f"{where}: line longer than {MAX_LINE_BYTES} bytes")
            if number == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")  # a byte-order mark some editors add
            if not raw.strip():
                continue
            try:
                event = parse_line(raw)
            except ValueError as error:
                raise SensorLogError(f"{where}: {error}") from None
            last = last_marker if isinstance(event, GameMarker) else last_sensed
            if event.t < last:
                what = "game marker" if isinstance(event, GameMarker) else "sensor line"
                raise SensorLogError(
                    f"{where}: t went back from {last:g} to {event.t:g}; a {what}'s t must "
                    "never decrease"
                )
            if isinstance(event, GameMarker):
                last_marker = event.t
            else:
                last_sensed = event.t
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
