"""The board's state as every screen shows it: GET /api/state, the pages' WebSocket, the hall."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.board import Board
from engine.color import Color
from poolboard import records

if TYPE_CHECKING:
    from poolboard.session.core import Session

#: A JSON object as the pages and the hall show it (a violation, a fault, a clock event...).
Json = dict[str, object]
BoardState = Json


def board_state(core: Session) -> BoardState:
    """Everything a screen shows, as JSON-ready data (core's lock held)."""
    from poolboard.session import hints, opponent

    game = core.game
    board = game.board
    stack = board.move_stack
    replay = Board(game.start_fen)
    moves = []
    for move in stack:
        moves.append(replay.notation(move))
        replay.push(move)
    last = stack[-1] if stack else None
    outcome = game.outcome()
    tracker_state = core.tracker_state
    clock = core.clock
    return {
        "game_id": core.game_id,
        "fen": board.fen(),
        "start_fen": game.start_fen,
        "turn": board.turn.value,
        "moves": moves,
        "last_move": None
        if last is None
        else {"from": last.from_square, "to": last.to_square, "path": list(last.path)},
        "clock": {
            "black": round(clock.remaining(Color.BLACK), 3),
            "white": round(clock.remaining(Color.WHITE), 3),
            "running": None if clock.running is None else clock.running.value,
            "state": clock.state.value,
            "control": str(clock.control),
            "game": clock.game,
            "events": core.clock_events[-5:],
        },
        "cues": core.tracker.cues.to_json(),
        "result": None if outcome is None else outcome.result,
        "result_reason": None if outcome is None else outcome.reason,
        "result_text": None
        if outcome is None
        else records.ended_in_words(
            outcome.winner,
            outcome.reason,
            core.headers.get("White", "?"),
            core.headers.get("Black", "?"),
        ),
        "winner": None if outcome is None or outcome.winner is None else outcome.winner.value,
        "counts": [count.to_json() for count in game.counts()],
        "legal": []
        if outcome is not None
        else [{"from": m.from_square, "path": list(m.path)} for m in board.generate_legal_moves()],
        "pieces": {side.value: board.pieces(side).bit_count() for side in Color},
        "state": None
        if tracker_state is None
        else {"name": tracker_state.state.name.lower(), "detail": tracker_state.detail},
        "violations": core.violations[-10:],
        "violation": core.violation,
        "faults": core.faults[-5:],
        "headers": core.headers,
        "details": core.details,
        "pending": core.pending,
        "match": core.match,
        "link": None
        if core.link is None
        else {"connected": core.link.connected, "detail": core.link.detail},
        "storage": core.storage_error,
        "rules": core.config.rules.profile,
        "opponent": opponent.describe(core),
        "hint": hints.describe(core),
        "hints": hints.allowed(core),
    }
