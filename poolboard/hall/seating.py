"""Tables that were offline when their round started are seated when they come back.

Starting a round sends each table its players (docs/hall.md, "Running a round"); a table that
is off at that moment (a Pi still booting, a cable out) would otherwise keep the last round's
names until the director starts the round again. The hall watches each table: once it is
online with a state that does not carry the started round and its pairing's names, the hall
seats it (once each time it comes back) and audits it as the hall's own action.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from poolboard.hall.event import EventStore, Pairing
from poolboard.hall.monitor import HallMonitor
from poolboard.session.state import BoardState
from poolboard.web.referee import Refused

log = logging.getLogger(__name__)

#: The actor the audit names for what the hall does unasked.
HALL = "hall"

#: (actor, round, table, first, second) -> None once seated, else the table's refusal.
Seat = Callable[[str, int, str, str, str], Refused | None]


def seating_words(refusal: Refused | None) -> str:
    """What came of seating a table, in English: "seated" or "not seated: " and why."""
    return "seated" if refusal is None else f"not seated: {refusal.detail}"


def seated_for(state: BoardState, round_number: int, pairing: Pairing) -> bool:
    """Whether a table's state already carries the round and its pairing's two players (in
    either colour: the second game of a match swaps them, R-TRN-2)."""
    details = state.details
    players = {details.get("black"), details.get("white")}
    return details.get("round") == str(round_number) and players == {
        pairing.first,
        pairing.second,
    }


class LateSeating:
    """Seats, off the broker's thread, each table that comes back unseated for the round."""

    def __init__(self, monitor: HallMonitor, event: EventStore, seat: Seat) -> None:
        self.monitor = monitor
        self.event = event
        self.seat = seat
        #: Tables offline (or not heard from) since the hall last saw them online with a state:
        #: a round's start seated the others itself.
        self._away: set[str] = set(monitor.tables)
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="hall-seating")
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        """Follow the tables."""
        self._unsubscribe = self.monitor.subscribe(self._on_change)

    def stop(self) -> None:
        """Stop following; seatings under way finish."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _on_change(self, table: str) -> None:
        """On the broker's thread: decide quickly, seat on the pool."""
        with self.monitor.lock:
            view = self.monitor.tables[table]
            online, state = view.online, view.state
        if not online or state is None:
            self._away.add(table)
            return
        if table not in self._away:
            return
        self._away.discard(table)
        round_number = self.event.started_round
        pairing = self.event.pairing(round_number, table) if round_number else None
        if pairing is not None and not seated_for(state, round_number, pairing):
            self._pool.submit(self._seat, table, round_number, pairing)

    def _seat(self, table: str, round_number: int, pairing: Pairing) -> None:
        outcome = seating_words(self.seat(HALL, round_number, table, pairing.first, pairing.second))
        self.event.audit(
            HALL, "late-seat", {"round": round_number, "table": table, "outcome": outcome}
        )
        log.info(
            "hall: table %s came online after round %d started: %s", table, round_number, outcome
        )
