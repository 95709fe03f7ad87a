"""The bring-up check (``poolboard monitor --check``): a newly wired board, square by square.

It lights one square's LED at a time and asks for a piece on it, then whether the LED was lit.
Pieces stay on for two board rows (eight squares) before it asks to take them off again, so
every column holds closed switches in two rows at once: that is what lets the sensor see a
missing or shorted diode (current flowing back from another row). At the end it names every
square that never closed, that closed together with another or as another (rows or columns
swapped, a short, a ghost), and whose LED stayed dark, with the faults the sensor reported.
The same for the Pi's GPIO route and the Pico: any Sensor, any CueDisplay.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.cues import CueKind, Cues
from engine.sensing import CueDisplay, Sensor, SensorFault, Snapshot

#: Pieces on the board at once: two board rows.
WINDOW = 8


@dataclass(frozen=True, slots=True)
class SquareResult:
    """What happened when a piece was put on ``square``."""

    square: int
    closed: frozenset[int]  # the squares that read occupied anew (only ``square``, if all is well)
    led_lit: bool


@dataclass
class CheckReport:
    """Every square's result, the squares that read occupied on an empty board, the faults."""

    results: list[SquareResult] = field(default_factory=list)
    occupied_when_empty: frozenset[int] = frozenset()
    faults: list[str] = field(default_factory=list)  # the latest of each kind the sensor gave

    @property
    def never_closed(self) -> list[int]:
        """Squares that never read occupied, whichever square the piece was put on."""
        seen = set(self.occupied_when_empty)
        for result in self.results:
            seen |= result.closed
        return [r.square for r in self.results if r.square not in seen]

    @property
    def misread(self) -> list[SquareResult]:
        """Squares whose piece closed another square, alone or together with its own."""
        return [r for r in self.results if r.closed and r.closed != {r.square}]

    @property
    def dark(self) -> list[int]:
        """Squares whose LED was not lit when asked."""
        return [r.square for r in self.results if not r.led_lit]

    @property
    def ok(self) -> bool:
        """Every square closed alone and lit its LED, and nothing else went wrong."""
        return not (
            self.never_closed
            or self.misread
            or self.dark
            or self.occupied_when_empty
            or self.faults
        )

    def lines(self) -> list[str]:
        """The findings, one line each (R-BRD-2 numbering)."""
        if self.ok:
            return ["every square closed on its own and lit its LED: the board is wired right"]
        found = []
        if self.occupied_when_empty:
            found.append(f"read occupied on the empty board: {_names(self.occupied_when_empty)}")
        if self.never_closed:
            found.append(f"never closed: {_names(self.never_closed)}")
        for result in self.misread:
            others = _names(result.closed - {result.square})
            if result.square in result.closed:
                found.append(f"a piece on {result.square} closed it together with {others}")
            else:
                found.append(f"a piece on {result.square} closed {others} instead")
        if self.dark:
            found.append(f"LED not lit: {_names(self.dark)}")
        found += [f"the sensor reported: {fault}" for fault in self.faults]
        return found


def _grown_from(before: frozenset[int]) -> Callable[[frozenset[int]], bool]:
    """Whether a reading has a square that ``before`` did not have."""
    return lambda occupied: not occupied <= before


def _names(squares: frozenset[int] | list[int]) -> str:
    ordered = sorted(squares)
    return ("square " if len(ordered) == 1 else "squares ") + ", ".join(map(str, ordered))


class BringUpCheck:
    """Runs the check on ``sensor`` and ``display``; ``say`` tells the person what to do,
    ``ask`` asks a yes/no question and returns the answer. ``wait`` is how long to wait for a
    piece before taking the square as one that never closes."""

    def __init__(
        self,
        sensor: Sensor,
        display: CueDisplay | None,
        say: Callable[[str], None],
        ask: Callable[[str], str],
        wait: float = 20.0,
    ) -> None:
        self.sensor = sensor
        self.display = display
        self.say = say
        self.ask = ask
        self.wait = wait
        self.report = CheckReport()
        self._reading: frozenset[int] | None = None

    def run(self) -> CheckReport:
        """The whole check, square 1 to 32; returns the report."""
        self.say("Take every piece off the board.")
        self._next_change(lambda occupied: not occupied)
        self.report.occupied_when_empty = self._reading or frozenset()
        for square in range(1, 33):
            if square > WINDOW:
                self.say(f"Take the piece off square {square - WINDOW}.")
                gone = self.report.results[square - WINDOW - 1].closed
                if gone:  # what that piece closed must open again
                    self._next_change(gone.isdisjoint)
            self._light(Cues({square: CueKind.MOVE_TO}))
            before = self._reading or frozenset()
            self.say(f"Put a piece on square {square}.")
            after = self._next_change(_grown_from(before))
            lit = True  # with no LEDs to light, nothing to ask
            if self.display is not None:
                answer = self.ask(f"Is the LED of square {square} lit? [Y/n]")
                lit = not answer.strip().lower().startswith("n")
            self.report.results.append(SquareResult(square, frozenset(after - before), lit))
        self._light(Cues.none())
        self.say("Take every piece off the board: the check is done.")
        return self.report

    def _light(self, cues: Cues) -> None:
        if self.display is None:
            return
        self.display.show(cues)
        wait_shown = getattr(self.display, "wait_shown", None)  # a Pico: until acknowledged
        if wait_shown is not None:
            wait_shown(self.wait)

    def _note(self, fault: str) -> None:
        """Keep the latest fault of each kind (the text before its first colon): a diode fault
        that grows as pieces are added is one finding, not one per piece."""
        kind = fault.split(":")[0]
        faults = self.report.faults
        faults[:] = [f for f in faults if f.split(":")[0] != kind] + [fault]

    def _next_change(self, wanted: Callable[[frozenset[int]], bool]) -> frozenset[int]:
        """Read events until a Snapshot that ``wanted`` accepts (or ``wait`` passes); the
        reading then. Faults are noted on the way."""
        deadline = time.monotonic() + self.wait
        while (left := deadline - time.monotonic()) > 0:
            event = self.sensor.read(timeout=left)
            if isinstance(event, SensorFault):
                self._note(event.message)
            elif isinstance(event, Snapshot):
                self._reading = frozenset(event.occupied)
                if wanted(self._reading):
                    break
        return self._reading or frozenset()
