"""Hints (docs/opponents.md): asked for on the pages or by a double press of the lever, sought on
a thread of their own, and lit on the board when found, if the position is still the same.

Given in casual play and against the computer, never in a tournament game between two people.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.board import Move
from engine.search import Root
from poolboard.opponents.computer import HINT_LEVEL, Thinker
from poolboard.session.inputs import Input, RefereeError
from poolboard.session.opponent import position_key
from poolboard.storage import StorageError

if TYPE_CHECKING:
    from poolboard.session.core import Session
    from poolboard.session.state import Json

log = logging.getLogger("poolboard.session")


def allowed(core: Session) -> bool:
    """Whether hints are given in this game."""
    engine = core.opponent is not None and core.opponent.kind == "engine"
    return engine or core.config.rules.profile == "casual"


@dataclass(frozen=True)
class HintRequest(Input[None]):
    """Look for a good move for the side to move, lit on the board once found; RefereeError
    says why no hint can be given now."""

    actor: str

    def handle(self, core: Session) -> None:
        refused = ask(core, self.actor)
        if refused is not None:
            raise refused
        core.announce()


@dataclass(frozen=True)
class HintFound(Input[None]):
    """The search's answer for request ``serial``: lit if the position is still the same."""

    serial: int
    move: Move

    def handle(self, core: Session) -> None:
        if self.serial != core.hint_serial or core.hint_for != position_key(core):
            return
        core.hint_for = None
        data: Json = {
            "ply": len(core.game.board.move_stack) + 1,
            "move": core.game.board.notation(self.move),
        }
        try:
            with core.stored_together():
                core.store.add_event(core.game_id, "hint", data)
                core.feed(core.tracker.show_hint(self.move, core.now()))
        except StorageError as error:
            core.not_stored(error)
        core.announce()


def ask(core: Session, actor: str) -> RefereeError | None:
    """Start the hint search; returns why not, if it cannot be given (a refusal the pages say
    in their language)."""
    if core.game.is_over():
        return RefereeError("the game is over ({result})", result=str(core.game.result))
    if not allowed(core):
        return RefereeError(
            "hints are for casual play and games against the computer, not for a game "
            "between two players under the {profile} rules",
            profile=core.config.rules.profile,
        )
    if not core.tracker.started:
        return RefereeError("set up the position first")
    if core.opponent is not None and core.game.board.turn is core.opponent.side:
        return RefereeError("it is the opponent's move")
    if core.tracker.hint is not None or core.hint_for == position_key(core):
        return None  # shown or being sought already
    if core.hinter is None:
        core.hinter = Thinker("hint")
    core.hint_serial += 1
    core.hint_for = position_key(core)
    log.info("game %d: %s asks for a hint", core.game_id, actor)
    core.hinter.think(
        core.hint_serial,
        core.game_id,
        Root.from_game(core.game),
        HINT_LEVEL,
        lambda serial, move: core.post(HintFound(serial, move)),
    )
    return None


def describe(core: Session) -> Json | None:
    """The hint as the pages show it: shown (with its move), being sought, or none."""
    hint = core.tracker.hint
    if hint is not None:
        return {"status": "shown", "move": core.game.board.notation(hint)}
    if core.hint_for is not None and core.hint_for == position_key(core):
        return {"status": "thinking", "move": None}
    return None
