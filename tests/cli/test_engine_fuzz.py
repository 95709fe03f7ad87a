"""Any line at all gets at most one ``error`` line and never an exception out of the engine's
command handling (docs/engine.md, "Errors"); the answers are always protocol lines."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.profiles import PROFILES
from poolboard.commands.engine import Engine, Output

WORDS = [
    "position", "startpos", "moves", "go", "movetime", "depth", "nodes", "level", "infinite",
    "stop", "isready", "setoption", "profile", "quit", "casual", "11-15", "23-19", "9x18x27",
    "15:22", "B:W18:B14", "W:W9:B6,7", "B:W21-32:B1-12", "1", "3", "0", "-1", "64", "65",
    "99999999999999999999", "\u00b2", "x", "", "K", ":",
]  # fmt: skip
ANSWERS = ("error ", "info ", "bestmove ", "readyok")

lines = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join),
    st.text(max_size=60),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(lines, min_size=1, max_size=6))
def test_no_line_escapes_the_protocol(batch: list[str]) -> None:
    stream = io.StringIO()
    engine = Engine(Output(stream), PROFILES["apca"])

    def errors() -> int:
        return sum(line.startswith("error ") for line in stream.getvalue().splitlines())

    try:
        for line in batch:
            before = errors()
            engine.handle(line + "\n")
            engine.stop()  # a search started is stopped; its bestmove is out before the next line
            assert errors() - before <= 1, stream.getvalue()
    finally:
        engine.stop()
    for answer in stream.getvalue().splitlines():
        assert answer.startswith(ANSWERS), answer
