"""``poolboard replay``: feed recorded sensor logs to the tracker and print what it concluded."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.board import STARTING_FEN, Board, FenError
from engine.events import TrackerEvent
from engine.pdn import GameRecord, write_games
from engine.profiles import PROFILES
from engine.tracker import Tracker, TrackerConfig
from poolboard.sensor_log import GameMarker, SensorLogError
from poolboard.sensor_log_files import read_parts, session_parts

#: The end of a log counts as this much time passing with no change, so every pending decision
#: (settle window, stuck square) is taken; a capture standing unfinished is not judged
#: incomplete by it (that takes ``incomplete_jump``, a minute: the live board never saw it).
END_OF_LOG_SECONDS = 10.0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay sensor logs through the occupancy tracker",
        description=(
            "Feed each sensor log (JSON Lines, see docs/sensor-log.md) to a fresh tracker and "
            "print the moves, corrections, violations and states it reports."
        ),
    )
    parser.add_argument(
        "logs",
        nargs="+",
        metavar="LOG",
        help="sensor log files (the consecutive parts of one session's log are one stream)",
    )
    parser.add_argument("--fen", default=None, help="start position as PDN FEN (default: start)")
    parser.add_argument(
        "--rules",
        default="apca",
        choices=sorted(PROFILES),
        help="rule profile (default: apca)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per event")
    parser.add_argument(
        "--pdn", metavar="OUT", default=None, help="write the recorded games as PDN"
    )
    parser.set_defaults(handler=run)


def replay_log(
    path: str | list[str], board: Board, config: TrackerConfig
) -> list[tuple[Tracker, list[TrackerEvent]]]:
    """Run one log (or the parts of one, in order) through a tracker: one (tracker, events) per
    game. A game marker in the log (written by the service when a game starts or resumes)
    starts a fresh tracker from its FEN; one the running service made (not a resume after a
    restart) is told the board as the previous tracker last judged it, as the service did.
    Before any marker, ``board`` is the start."""
    parts = [path] if isinstance(path, str) else path
    games: list[tuple[Tracker, list[TrackerEvent]]] = [(Tracker(board, config), [])]
    last_t = 0.0
    for entry in read_parts(parts):
        tracker, events = games[-1]
        if isinstance(entry, GameMarker):
            events += tracker.advance(entry.t)
            try:
                start = Board(entry.fen)
            except ValueError as error:  # FenError, or any other refusal of the FEN
                raise SensorLogError(f"{path}: game {entry.game}: {error}") from None
            fresh = Tracker(start, config, resuming=entry.resume)
            fresh_events: list[TrackerEvent] = []
            board_now = None if entry.resume else tracker.settled_snapshot(entry.t)
            if board_now is not None:
                fresh_events += fresh.feed(board_now)
            if tracker.started or events:
                games.append((fresh, fresh_events))
            else:
                games[-1] = (fresh, fresh_events)
            last_t = max(last_t, entry.t)
            continue
        events += tracker.feed(entry)
        last_t = max(last_t, entry.t)
    tracker, events = games[-1]
    events += tracker.advance(last_t + END_OF_LOG_SECONDS)
    return games


def _text(event: TrackerEvent) -> str | None:
    data = event.to_json()
    match event.kind:
        case "move" | "takeback":
            return f"{event.kind} {data['ply']}. {data['notation']}"
        case "correction":
            return f"correction {data['ply']}. {data['old']['notation']} -> {data['notation']}"
        case "violation":
            return f"violation {data['rule']} ({data['severity']}): {data['message']}"
        case "mended":
            return f"mended {data['rule']} ({data['side']}): {data['message']}"
        case "state":
            return f"state {data['detail']}"
        case "fault":
            return f"fault {data['message']}"
        case "start":
            return f"start {data['fen']}"
    return None  # cues: only in --json


def run(args: argparse.Namespace) -> int:
    try:
        board = Board(args.fen) if args.fen else Board()
    except FenError as error:
        print(f"poolboard replay: {error}", file=sys.stderr)
        return 2
    config = TrackerConfig.for_profile(args.rules)
    if args.pdn and not Path(args.pdn).resolve().parent.is_dir():
        folder = Path(args.pdn).resolve().parent
        print(
            f"poolboard replay: --pdn {args.pdn}: folder {folder} does not exist", file=sys.stderr
        )
        return 2
    games: list[tuple[str, Tracker]] = []
    status = 0
    for parts in session_parts(args.logs):
        path = parts[0]
        try:
            replayed = replay_log(parts, board, config)
        except (OSError, SensorLogError) as error:
            print(f"poolboard replay: {error}", file=sys.stderr)
            status = 1
            continue
        for tracker, events in replayed:
            games.append((path, tracker))
            for event in events:
                if args.json:
                    print(json.dumps({"file": path, **event.to_json()}))
                elif (text := _text(event)) is not None:
                    print(f"{path}  {event.t:9.3f}  {text}")
    if args.pdn:
        try:
            write_pdn(args.pdn, games, args.rules)
        except OSError as error:
            print(f"poolboard replay: --pdn {args.pdn}: {error.strerror or error}", file=sys.stderr)
            return 1
    return status


def write_pdn(out: str, games: list[tuple[str, Tracker]], rules: str) -> None:
    """Write each replayed game as a PDN game named after its log."""
    records = []
    for path, tracker in games:
        record = GameRecord()
        record.headers["Event"] = f"replay of {path}"
        record.headers["Rules"] = rules
        first = tracker.board.copy()
        while first.move_stack:
            first.pop()
        if first.fen() != STARTING_FEN:
            record.setup(first.fen())
        for move in tracker.board.move_stack:
            record.add_move(move)
        records.append(record)
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(write_games(records))
