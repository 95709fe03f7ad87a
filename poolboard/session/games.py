"""Opening a game: a new one from the details, or the unfinished one resumed from the store;
its PDN tags, its replay from the stored moves and counts, and the match it belongs to.

A resumed game's tracker waits until the stored position stands on the board again (cueing what
to restore), and its clock, saved with every move, restarts then without charging the outage.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from contextlib import suppress
from typing import TYPE_CHECKING

from engine.board import Board, Move
from engine.clock import Clock, ClockError, TimeControl
from engine.color import Color
from engine.events import CuesChanged, GameStarted, StateChanged
from engine.game import Game
from engine.tracker import Tracker, TrackerConfig
from poolboard import match, records
from poolboard.sensor_log import GameMarker
from poolboard.session.events import GameOpened
from poolboard.session.opponent import expect_stored_move
from poolboard.storage import DamagedGame, StoredGame

if TYPE_CHECKING:
    from poolboard.session.core import Session
    from poolboard.session.state import Json

log = logging.getLogger("poolboard.session")

#: What the referee may set for a game: its PDN tags and its time control.
DETAIL_FIELDS = ("event", "site", "round", "black", "white", "time_control")


def known(name: str | None) -> str:
    """A player's name, or ``""`` where the PDN says it is unknown (``?``, ``-``, empty)."""
    return "" if name is None or name.strip() in ("", "?", "-") else name


def open_game(core: Session) -> None:
    """Resume the unfinished game from the store, or start a new one."""
    stored = core.store.unfinished_game()
    if isinstance(stored, DamagedGame):
        log.error("game %d is damaged, so not resumed: %s", stored.id, stored.reason)
        stored = None
    if stored is None:
        new_game(core, core.config.rules.fen or Board().fen())
    else:
        _resume(core, stored)


def headers(core: Session) -> dict[str, str]:
    """The PDN tags of a new game from the details (docs/service.md, "Records")."""
    details = dict(core.details)
    opponent = core.opponent
    if opponent is not None and not known(details[opponent.side.value]):
        details[opponent.side.value] = opponent.player_name()
    control, _ = records.pdn_time_control(TimeControl.from_string(details["time_control"]))
    return {
        "Event": details["event"],
        "Site": details["site"],
        "Date": time.strftime("%Y.%m.%d"),
        "Round": records.round_tag(details["round"], core.game_number),
        "White": details["white"],
        "Black": details["black"],
        "Result": "*",
        "GameType": "23",
        "TimeControl": control,
        "MatchGames": str(core.match_games),
        # In a hall: which table it was played at (docs/hall.md).
        **({"Board": core.config.hall.table} if core.config.hall.enabled else {}),
    }


def replace_tracker(core: Session, *, resuming: bool = False) -> None:
    """A tracker for the current game, told the board as it stands: sensors report changes
    only, so it must not wait for the next one to know the position (set-up cues at once, and
    the game and its clock start at once if the position already stands). The sensor log gets
    a game marker, so a replay starts from the same position."""
    now = core.now()
    core.sensor_log.write(GameMarker(now, core.game_id, core.game.board.fen(), resuming))
    previous = getattr(core, "tracker", None)
    board_now = None if previous is None else previous.settled_snapshot(now)
    opponent = None if core.opponent is None else core.opponent.side
    timings = core.config.tracker
    config = TrackerConfig.for_profile(
        core.config.rules.profile,
        debounce=timings.debounce,
        settle=timings.settle,
        incomplete_jump=timings.incomplete_jump,
    )
    core.tracker = Tracker(core.game.board, config, resuming=resuming, opponent=opponent)
    core.tracker_state = None
    if board_now is not None:
        for event in core.tracker.feed(board_now):
            if isinstance(event, GameStarted | StateChanged | CuesChanged):
                core.on_tracker_event(event)


def new_game(core: Session, fen: str, clock: Clock | None = None) -> None:
    """Create and store a new game from the details; its clock (``clock``: carried on from the
    match) is saved with it, so a restart resumes the same control."""
    core.headers = headers(core)
    core.game_id = core.store.create_game(fen, core.config.rules.profile, core.headers)
    core.game = Game(fen, profile=core.config.rules.profile)
    core.clock = clock or Clock(TimeControl.from_string(core.details["time_control"]), core.now)
    core.save_clock()
    core.violations, core.faults, core.clock_events = [], [], []
    core.violation = None
    core.emit(GameOpened(core.game_id, core.game.start_fen, dict(core.headers)))
    replace_tracker(core)
    score_match(core)


def _resume(core: Session, stored: StoredGame) -> None:
    """Rebuild an unfinished game from the store; the tracker asks for its position."""
    core.game_id = stored.id
    core.headers = stored.headers
    _details_from_headers(core, stored)
    core.game = replay(core, stored.start_fen, stored.board().move_stack)
    core.clock = Clock(TimeControl.from_string(core.details["time_control"]), core.now)
    if stored.clock is not None:
        # Times left were saved with every move: the running side restarts from now, so the
        # outage is not charged (docs/service.md).
        try:
            core.clock = Clock.from_dict(stored.clock, core.now)
        except ClockError as error:
            log.error("game %d: its saved clock is damaged (%s): a new clock", stored.id, error)
    replace_tracker(core, resuming=True)
    expect_stored_move(core)
    score_match(core)
    core.finish_if_over()  # a crash between the last move and its result


def _details_from_headers(core: Session, stored: StoredGame) -> None:
    """The details, game number and match length of a stored game (a resumed one)."""
    tags = stored.headers
    control = (stored.clock or {}).get("control")
    core.details = {
        "event": tags.get("Event", "?"),
        "site": tags.get("Site", "?"),
        "round": records.round_name(tags.get("Round", "?")),
        "black": tags.get("Black", "?"),
        "white": tags.get("White", "?"),
        "time_control": control if isinstance(control, str) else core.config.clock.time_control,
    }
    # Details the referee set for the next game during this one (audited with it).
    core.pending = {}
    for _, _, action, data in core.store.audit_log(stored.id):
        if action == "details" and data.get("game") == "next":
            core.pending.update(
                {k: v for k, v in data.items() if k in DETAIL_FIELDS and isinstance(v, str)}
            )
    core.game_number = records.game_number(tags.get("Round", ""))
    planned = tags.get("MatchGames", "2")
    core.match_games = max(int(planned) if planned.isdigit() else 2, core.game_number)


def replay(core: Session, start_fen: str, moves: Sequence[Move]) -> Game:
    """The game from its start through ``moves``, with the counts the weaker side invoked
    (stored events) at the plies they were invoked at."""
    invoked = {
        data["ply"]: Color(data["side"])
        for _, kind, data in core.store.events(core.game_id)
        if kind == "count"
    }
    game = Game(start_fen, profile=core.config.rules.profile)
    for ply in range(len(moves) + 1):
        if ply in invoked and not game.is_over():
            with suppress(ValueError):
                game.invoke_count(invoked[ply])
        if ply < len(moves) and not game.is_over():
            game.push(moves[ply])
    return game


def store_record_from(core: Session, ply: int, moves: Sequence[Move]) -> None:
    """Store ``moves`` (the whole record) in place of the stored moves from ``ply`` on; each
    keeps the clock times stored at its ply, if any."""
    times = {m.ply: (m.clock_black, m.clock_white) for m in core.store.game(core.game_id).moves}
    core.store.delete_moves_from(core.game_id, ply)
    board = Board(core.game.start_fen)
    for number, move in enumerate(moves, start=1):
        if number >= ply:
            black, white = times.get(number, (None, None))
            clock = None if black is None or white is None else (black, white)
            core.store.add_move(core.game_id, number, move, board.notation(move), clock)
        board.push(move)


def score_match(core: Session) -> None:
    """The match so far (R-TRN-2, R-TRN-3): each finished game's result in words and the
    points of each player (:mod:`poolboard.match`), kept until the next change."""
    numbers = range(core.game_number, 0, -1)
    found = core.store.match_games(core.game_id, numbers)
    scores: dict[str, int] = {}
    results: list[Json] = []
    for number, (tags, result, reason) in zip(numbers, found, strict=False):
        # Players without a name are told apart by their colour in game 1 (R-TRN-2).
        first, second = ("Black", "White") if number % 2 else ("White", "Black")
        names = {
            Color.BLACK: known(tags.get("Black")) or f"{first} of game 1",
            Color.WHITE: known(tags.get("White")) or f"{second} of game 1",
        }
        for name in names.values():
            scores.setdefault(name, 0)
        scored = match.points(result)
        if scored is None or result is None:
            continue
        for side, name in names.items():
            scores[name] += scored[side]
        words = records.ended_in_words(
            match.winner(result), reason or "", tags.get("White", "?"), tags.get("Black", "?")
        )
        results.append({"game": number, "result": result, "text": words})
    results.reverse()
    over = core.game.is_over() and core.game_number >= core.match_games
    core.match = {
        "game": core.game_number,
        "games": core.match_games,
        "round": core.details["round"],
        "score": [{"name": name, "points": p} for name, p in scores.items()],
        "results": results,
        "over": over,
    }
