"""A remote game's inputs (docs/remote.md): what the far board's link hands this board's core.

The host's clock is the one authority: a guest follows its readings. A result the far board
reached first, or its takeback or correction (``casual``), is followed here so that both records
read the same; each is audited as ``remote``. The rewind the record follows is kept in the
store for a restart. The remote opponent (:mod:`poolboard.remote.opponent`) puts these
on the core's queue; it never calls into the core otherwise.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.board import Board
from engine.clock import Clock, ClockError, ClockState
from engine.color import Color
from engine.game import BLACK_WINS, DRAW
from engine.phrase import Phrase
from poolboard import records
from poolboard.remote.link import ClockReading
from poolboard.session import games, tracking
from poolboard.session.inputs import Input, RefereeError
from poolboard.session.referee import referee_action
from poolboard.storage import StorageError

if TYPE_CHECKING:
    from poolboard.session.core import Session
    from poolboard.session.state import Json

log = logging.getLogger("poolboard.session")


@dataclass(frozen=True)
class HostClock(Input[bool]):
    """The host's clock reading: taken when both boards stand at the same ply with the same
    side's time running, pausing or resuming as the host's referee did; whether it was taken.
    The host charges each side from its own clock, so both boards show and record the same."""

    reading: ClockReading

    def handle(self, core: Session) -> bool:
        reading = self.reading
        plies = len(core.game.board.move_stack) + (core.tracker.expected is not None)
        if reading.ply != plies or core.game.is_over():
            return False
        before = core.clock.to_dict()
        try:
            host_paused = reading.state == ClockState.PAUSED.value
            if host_paused and core.clock.state is ClockState.RUNNING:
                core.clock.pause()
            elif not host_paused and core.clock.state is ClockState.PAUSED:
                core.clock.resume()
            running = None if core.clock.running is None else core.clock.running.value
            if reading.running != running:
                core.clock = Clock.from_dict(before, core.now)
                return False
            with core.stored_together():
                for side, ms in ((Color.BLACK, reading.black_ms), (Color.WHITE, reading.white_ms)):
                    behind = ms / 1000 - core.clock.remaining(side)
                    if abs(behind) >= 0.001:
                        core.clock.adjust(side, behind)
                core.save_clock()
        except (ClockError, StorageError) as error:
            core.clock = Clock.from_dict(before, core.now)
            log.warning("remote: the host's clock was not taken: %s", error)
            return False
        core.announce()
        return True


@dataclass(frozen=True)
class RemoteResult(Input[bool]):
    """End the game as the far board ended it at the same ply (a resignation, a flag, its
    referee's decision), with its reason word for word; whether it was taken."""

    result: str
    reason: str

    def handle(self, core: Session) -> bool:
        if core.game.is_over():
            return False  # over here too (the same last move, R-END-1)
        try:
            with referee_action(core):
                if self.result == DRAW:
                    core.game.declare_draw(self.reason)
                    core.finish_if_over("referee")
                else:
                    winner = Color.BLACK if self.result == BLACK_WINS else Color.WHITE
                    core.end(records.Ending("referee", winner, "", self.reason))
                core.audited("remote", "result", {"result": self.result, "reason": self.reason})
        except RefereeError as error:
            log.warning("remote: the other board's result %s was not taken: %s", self.result, error)
            return False
        return True


@dataclass(frozen=True)
class RemoteRewind(Input[bool]):
    """The far board's takeback or correction, followed here (``casual``): the record becomes
    ``moves`` (PDN from the start), the board is cued to restore its position, and the clock's
    turn follows; ``None``: only the far move cued here is withdrawn. Audited as ``remote``
    with ``words``; whether it was taken."""

    moves: Sequence[str] | None
    words: Phrase

    def handle(self, core: Session) -> bool:
        words = self.words
        if core.game.is_over():
            log.warning("remote: %s; not followed: this game is over here", words)
            return False
        old, before = list(core.game.board.move_stack), core.game.board.fen()
        board = Board(core.game.start_fen)
        try:
            for text in self.moves or ():
                board.push(board.parse_move(text))
        except ValueError as error:
            log.warning("remote: %s; not followed: %s", words, error)
            return False
        new = old if self.moves is None else board.move_stack
        ply = 1
        while ply <= min(len(new), len(old)) and new[ply - 1] == old[ply - 1]:
            ply += 1
        withdrawn = core.tracker.expected
        if new == old and withdrawn is None:
            return True  # nothing here to follow (the far move was executed meanwhile)
        try:
            with referee_action(core):
                if new != old:
                    notations = tracking.notations(core)
                    games.store_record_from(core, ply, new)
                    core.game = games.replay(core, core.game.start_fen, new)
                    games.replace_tracker(core)  # it cues the board back to the record
                    core.finish_if_over()
                    tracking.record_rewritten(core, notations)
                elif withdrawn is not None:
                    core.feed(core.tracker.expect(None, core.now()))
                if withdrawn is not None:  # not cued again after a restart
                    data: Json = {"ply": len(old) + 1, "fen": before, "path": []}
                    core.store.add_event(core.game_id, "opponent-move", data)
                tracking.clock_follows_the_record(core)
                core.save_clock()
                core.audited("remote", "rewind", {"ply": ply, "words": str(words)})
        except RefereeError as error:
            log.warning("remote: %s; not followed: %s", words, error)
            return False
        log.info("game %d: %s: followed here", core.game_id, words)
        return True


@dataclass(frozen=True)
class KeepRewind(Input[None]):
    """Keep the rewind a remote game's record follows (its fields), for a restart."""

    fields: Json

    def handle(self, core: Session) -> None:
        try:
            core.store.add_event(core.game_id, "remote-rewind", dict(self.fields))
        except StorageError as error:
            log.warning("remote: the rewind count was not kept: %s", error)


@dataclass(frozen=True)
class KeptRewind(Input["Json | None"]):
    """The rewind a remote game's record followed when it was last kept."""

    def handle(self, core: Session) -> Json | None:
        kept = [
            data for _, kind, data in core.store.events(core.game_id) if kind == "remote-rewind"
        ]
        return kept[-1] if kept else None


@dataclass(frozen=True)
class OpponentNews(Input[None]):
    """The opponent's own news (a remote link up or down, the boards disagreeing): the pages
    show it now, not at the next change of the game."""

    def handle(self, core: Session) -> None:
        core.announce()
