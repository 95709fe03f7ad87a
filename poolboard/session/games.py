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
from engine.clock import Clock, ClockError, ClockState, TimeControl
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


def open_game(core: Session, *, resume: bool = True) -> None:
    """Resume the unfinished game from the store, or start a new one: a new one too where
    ``resume`` is false or the stored game was played against another opponent (each game
    records its own, :func:`opponent_record`); that game is then set aside unfinished."""
    stored = core.store.unfinished_game()
    if isinstance(stored, DamagedGame):
        log.error("game %d is damaged, so not resumed: %s", stored.id, stored.reason)
        stored = None
    same = stored is not None and _played_against(core, stored.id) == opponent_record(core)
    if stored is not None and not (resume and same):
        why = "the opponent changed" if resume else "a new game was started"
        log.info("game %d is set aside unfinished: %s", stored.id, why)
        core.store.set_result(stored.id, "*", f"unfinished: {why}")
        stored = None
    if stored is None:
        new_game(core, core.config.rules.fen or Board().fen())
    else:
        _resume(core, stored)


def opponent_record(core: Session) -> Json | None:
    """Who plays the other side off the board, as each game records it (``None``: nobody)."""
    opponent = core.opponent
    if opponent is None:
        return None
    return {"kind": opponent.kind, "side": opponent.side.value, "name": opponent.player_name()}


def _played_against(core: Session, game_id: int) -> Json | None:
    """The opponent game ``game_id`` was recorded against (``None``: two players at the board)."""
    found = [data for _, kind, data in core.store.events(game_id) if kind == "opponent"]
    return found[-1] if found else None


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
    played_against = opponent_record(core)
    if played_against is not None:
        core.store.add_event(core.game_id, "opponent", played_against)
    core.game = Game(fen, profile=core.config.rules.profile)
    core.clock = clock or Clock(TimeControl.from_string(core.details["time_control"]), core.now)
    core.save_clock()
    core.violations, core.faults, core.clock_events = [], [], []
    core.violation = None
    core.emit(GameOpened(core.game_id, core.game.start_fen, dict(core.headers)))
    replace_tracker(core)
    score_match(core)


def start_next(core: Session, fen: str, *, new_match: bool = False) -> None:
    """Start the match's next game from ``fen`` (or game 1 of a new match): the one way every
    command does it. The players change colours (R-TRN-2) unless an opponent off the board
    keeps its side ([opponent] side); the match clock carries on, each player keeping their
    own time on the colour they now play (R-TIM-4); details set for the next game apply. A
    new match, or a new time control, starts a fresh clock."""
    details = dict(core.details)
    if not new_match and core.opponent is None:
        details["black"], details["white"] = details["white"], details["black"]
    details.update(core.pending)
    same_clock = details["time_control"] == core.details["time_control"]
    clock: Clock | None = None
    if not new_match and same_clock and core.clock.state is not ClockState.READY:
        core.clock.new_game(swap_sides=core.opponent is None)
        clock = core.clock
    if new_match:
        core.game_number, core.match_games = 1, 2
    else:
        core.game_number += 1
    core.details, core.pending = details, {}
    new_game(core, fen, clock)


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
    points of each player (:mod:`poolboard.match`), kept until the next change. The points
    follow the players, not the colours: each player is known by the name they were last
    given in the match (a name set during a game counts), else by their colour in game 1."""
    numbers = range(core.game_number, 0, -1)
    found = core.store.match_games(core.game_id, numbers)
    swaps = core.opponent is None  # an opponent off the board keeps its side
    names: dict[match.Player, str] = {}
    points = dict.fromkeys(match.PLAYERS, 0)
    results: list[Json] = []
    for number, (tags, result, reason, said) in zip(numbers, found, strict=False):
        for side in Color:
            player = match.player_of(side, number, swaps=swaps)
            name = known(tags.get(side.value.capitalize()))
            if name and player not in names:  # the newest game's name stands
                names[player] = name
        scored = match.points(result)
        if scored is None or result is None:
            continue
        for side in Color:
            points[match.player_of(side, number, swaps=swaps)] += scored[side]
        ended = records.ended_said(
            match.winner(result),
            reason or "",
            tags.get("White", "?"),
            tags.get("Black", "?"),
            said,
        )
        results.append(
            {"game": number, "result": result, "text": str(ended), "said": ended.to_json()}
        )
    results.reverse()
    over = core.game.is_over() and core.game_number >= core.match_games
    score: list[Json] = []
    for side in Color:  # Black of this game first
        player = match.player_of(side, core.game_number, swaps=swaps)
        name = names.get(player) or player.value
        score.append({"name": name, "points": points[player], "side": side.value})
    core.match = {
        "game": core.game_number,
        "games": core.match_games,
        "round": core.details["round"],
        "score": score,
        "results": results,
        "over": over,
    }
