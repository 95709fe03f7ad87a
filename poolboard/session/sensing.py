"""The sensor's input: a reading (a snapshot, a lever press, the link's health) or, with none,
time passing (the tracker's settling, the clock's warnings and flag)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.phrase import Phrase
from engine.sensing import LeverPress, LinkHealth, SensorEvent
from poolboard.session import hints, tracking
from poolboard.session.inputs import Input
from poolboard.session.opponent import follow_up
from poolboard.storage import StorageError

if TYPE_CHECKING:
    from poolboard.session.core import Session

log = logging.getLogger("poolboard.session")

#: Two presses of the same lever within this many seconds ask for a hint (docs/opponents.md).
DOUBLE_PRESS_SECONDS = 0.8

#: While a clock runs its state is saved this often, so a crash refunds at most this much of the
#: running side's thinking time (the outage itself is never charged).
CLOCK_SAVE_SECONDS = 2.0


@dataclass(frozen=True)
class Sensed(Input[None]):
    """One sensor event, or ``None``: time passing. What it changed is stored in one
    transaction, then announced; what cannot be stored is undone and shown as a fault."""

    event: SensorEvent | None

    def handle(self, core: Session) -> None:
        writes = core.store.writes
        try:
            with core.stored_together():
                changed = self._apply(core)
        except StorageError as error:
            core.not_stored(error)
            changed = True
        else:
            if core.store.writes != writes:
                changed |= core.stored_again()
        if changed:
            core.announce()
            follow_up(core)

    def _apply(self, core: Session) -> bool:
        event = self.event
        changed = False
        seen = core.tracker.occupied
        if isinstance(event, LinkHealth):
            changed = _link_changed(core, event)
        if event is not None:
            core.sensor_log.write(event)
            tracker_events = core.tracker.feed(event)
            changed |= bool(tracker_events)
            core.feed(tracker_events)
            if isinstance(event, LeverPress) and core.config.clock.switch_on == "lever":
                changed |= tracking.switch_clock(core, event.side)
            elif isinstance(event, LeverPress) and _double_press(core, event):
                refused = hints.ask(core, "lever")
                if refused is not None:
                    log.info("no hint for %s's double press: %s", event.side.value, refused)
                changed = True
        else:
            tracker_events = core.tracker.advance(core.now())
            changed |= bool(tracker_events)
            core.feed(tracker_events)
        # The pages draw the board as the sensor sees it (a move in progress): a change of
        # what stands on it is news even when the tracker has nothing to say.
        changed |= core.tracker.occupied != seen
        for clock_event in core.clock.poll():
            tracking.clock_said(core, clock_event)
            changed = True
        if core.clock.running is not None and core.now() >= core.clock_saved + CLOCK_SAVE_SECONDS:
            core.clock_saved = core.now()  # on a full disk, tried again in as long
            core.save_clock()
        return changed


def _link_changed(core: Session, event: LinkHealth) -> bool:
    """The Pico or camera link went down or came back: shown to players and the referee."""
    if core.link is not None and core.link.connected == event.connected:
        return False
    core.link = event
    detail = event.detail if event.said is None else event.said
    said = (
        Phrase("sensor link up: {detail}", detail=detail)
        if event.connected
        else Phrase("sensor link DOWN: {detail}", detail=detail)
    )
    text = str(said)
    fault = {"event": "link", "t": event.t, "squares": [], "message": text}
    core.show_fault(fault | {"said": said.to_json()})
    core.store.add_event(
        core.game_id, "link", {"connected": event.connected, "detail": event.detail}
    )
    (log.info if event.connected else log.error)(text)
    return True


def _double_press(core: Session, press: LeverPress) -> bool:
    """Whether ``press`` is the second of two quick presses of the same lever by the side to
    move (with the clock switched on moves, the lever is free for this)."""
    before = core.lever_pressed.get(press.side)
    core.lever_pressed[press.side] = press.t
    double = before is not None and press.t - before <= DOUBLE_PRESS_SECONDS
    if double:
        del core.lever_pressed[press.side]
    return double and press.side is core.game.board.turn
