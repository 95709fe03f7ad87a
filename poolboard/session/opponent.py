"""The opponent off the board (``[opponent]``: the computer, a remote board; docs/opponents.md):
told the game after every change, it answers with a move, an input like any other.

The answer is stored (an ``opponent-move`` event, so a restart re-shows it), the opponent's clock
stops (the player here runs while executing it) and the move is cued for the player here to
execute on the board; the tracker records it once the board shows exactly that move.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.board import Move
from engine.color import Color
from engine.phrase import Phrase
from engine.search import claims_count
from poolboard.opponents import Position
from poolboard.session import tracking
from poolboard.session.inputs import Input, RefereeError
from poolboard.storage import StorageError

if TYPE_CHECKING:
    from poolboard.session.core import Session
    from poolboard.session.state import Json

log = logging.getLogger("poolboard.session")


def follow_up(core: Session) -> None:
    """After a change is stored and announced: tell the opponent, drop a stale hint search."""
    _tell(core)
    if core.hint_for is not None and core.hint_for != position_key(core):
        core.hint_for = None
        if core.hinter is not None:
            core.hinter.cancel()


def position_key(core: Session) -> tuple[object, ...]:
    """The game and its moves: what a hint or an answer was sought for."""
    return (core.game_id, tuple(core.game.board.move_stack))


def to_move(core: Session) -> bool:
    """Whether the opponent must choose a move now: its turn in a running game whose position
    stands on the board, and no move of its own already waiting to be executed."""
    return (
        core.opponent is not None
        and not core.game.is_over()
        and core.tracker.started
        and core.game.board.turn is core.opponent.side
        and core.tracker.expected is None
    )


def _tell(core: Session) -> None:
    """Send the opponent the game if it changed since it was last told (a new serial
    supersedes, and so cancels, whatever it was doing)."""
    opponent = core.opponent
    if opponent is None:
        return
    if opponent.claims_counts and to_move(core) and claims_count(core.game, opponent.side):
        try:  # its own follow-up tells the opponent the game with the count running
            core.invoke_count(opponent.player_name(), opponent.side)
        except RefereeError as error:
            log.warning("game %d: the opponent's count claim failed: %s", core.game_id, error)
    told = (
        core.game_id,
        tuple(core.game.board.move_stack),
        core.game.result,
        to_move(core),
        core.tracker.expected,
        core.clock_actions,  # a remote host publishes its clock after each
    )
    if told == core.opponent_told:
        return
    core.opponent_told = told
    core.opponent_serial += 1
    game, outcome = core.game, core.game.outcome()
    position = Position(
        serial=core.opponent_serial,
        game_id=core.game_id,
        start_fen=game.start_fen,
        profile=game.profile.name,
        moves=tuple(game.board.move_stack),
        counts=tuple(game.counts()),
        result=None if outcome is None else outcome.result,
        reason=None if outcome is None else outcome.reason,
        side=opponent.side,
        to_move=to_move(core),
        chosen=core.tracker.expected,
        clock=core.clock.to_dict(),
    )
    opponent.update(position, lambda serial, move: core.submit(OpponentMove(serial, move)))


@dataclass(frozen=True)
class OpponentMove(Input[bool]):
    """The opponent's answer to update ``serial``. ``False``: the position changed meanwhile,
    or the move is not legal (logged), or it could not be stored (the opponent is asked
    again)."""

    serial: int
    move: Move

    def handle(self, core: Session) -> bool:
        if self.serial != core.opponent_serial or not to_move(core):
            return False
        assert core.opponent is not None
        board = core.game.board
        if self.move not in board.generate_legal_moves():
            log.error("game %d: the opponent's move %s is not legal", core.game_id, self.move.path)
            return False
        data: Json = {
            "ply": len(board.move_stack) + 1,
            "fen": board.fen(),
            "move": board.notation(self.move),
            "path": list(self.move.path),
        }
        try:
            with core.stored_together():
                core.store.add_event(core.game_id, "opponent-move", data)
                tracking.switch_clock(core, core.opponent.side)
                core.save_clock()
                core.feed(core.tracker.expect(self.move, core.now()))
        except StorageError as error:
            core.not_stored(error)
            if core.tracker.expected is not None:  # the commit itself failed: not shown
                core.feed(core.tracker.expect(None, core.now()))
            # Asked again with the next change: at the latest when the store takes writes
            # again (the clock is saved every CLOCK_SAVE_SECONDS meanwhile).
            core.opponent_told = None
            core.announce()
            return False
        log.info("game %d: the opponent plays %s", core.game_id, data["move"])
        core.announce()
        follow_up(core)
        return True


def expect_stored_move(core: Session) -> None:
    """After a restart: the opponent's move chosen for this very position and not yet executed
    on the board is cued again (not thought about again)."""
    if core.opponent is None or core.game.is_over():
        return
    board = core.game.board
    if board.turn is not core.opponent.side:
        return
    ply, fen = len(board.move_stack) + 1, board.fen()
    for _, kind, data in reversed(core.store.events(core.game_id)):
        if kind != "opponent-move" or data.get("ply") != ply or data.get("fen") != fen:
            continue
        path = tuple(data.get("path", ()))
        move = next((m for m in board.generate_legal_moves() if m.path == path), None)
        if move is not None:
            core.feed(core.tracker.expect(move, core.now()))
        return


def describe(core: Session) -> Json | None:
    """What the pages show of the opponent: who, and what it is doing."""
    opponent = core.opponent
    if opponent is None:
        return None
    expected = core.tracker.expected
    move = None if expected is None else core.game.board.notation(expected)
    said: Phrase | None
    if core.game.is_over():
        status, said = "idle", None
    elif move is not None:
        status, said = "execute", Phrase("plays {move}", move=move)
    elif not core.tracker.started:
        status, said = "setup", Phrase("set up the position on the board")
    elif to_move(core):
        status, said = "thinking", opponent.waiting_text
    elif opponent.side is Color.WHITE:
        status, said = "waiting", Phrase("waiting for Black")
    else:
        status, said = "waiting", Phrase("waiting for White")
    words = (
        {"text": "", "said": None} if said is None else {"text": str(said), "said": said.to_json()}
    )
    return {**opponent.describe(), "status": status, **words, "move": move}
