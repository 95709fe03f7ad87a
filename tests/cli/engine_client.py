"""A client for ``poolboard engine`` written from docs/engine.md ("Line protocol") alone: it
starts the real engine process and speaks to it over pipes."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class Score:
    """``cp N``, ``win N`` or ``loss N``, from the side to move's view."""

    kind: str
    value: int


@dataclass(frozen=True)
class InfoLine:
    """An ``info`` line's fields."""

    depth: int
    score: Score
    nodes: int
    nps: int
    time_ms: int
    pv: list[str]


@dataclass(frozen=True)
class BestMove:
    """A ``bestmove`` line: a move with its score, depth and line, or the game's end."""

    move: str | None
    score: Score | None = None
    depth: int | None = None
    pv: tuple[str, ...] = ()
    result: str | None = None
    reason: str | None = None


def parse_info(line: str) -> InfoLine:
    """The fields of ``info depth D score S nodes N nps X time MS pv ...``."""
    words = line.split()
    assert words[0] == "info", line
    pv_at = words.index("pv")
    fields: dict[str, list[str]] = {}
    key = ""
    for word in words[1:pv_at]:
        if word in ("depth", "score", "nodes", "nps", "time"):
            key = word
            fields[key] = []
        else:
            fields[key].append(word)
    kind, value = fields["score"]
    return InfoLine(
        depth=int(fields["depth"][0]),
        score=Score(kind, int(value)),
        nodes=int(fields["nodes"][0]),
        nps=int(fields["nps"][0]),
        time_ms=int(fields["time"][0]),
        pv=words[pv_at + 1 :],
    )


def parse_bestmove(line: str) -> BestMove:
    """``bestmove MOVE score S depth D pv ...`` or ``bestmove none result R reason TEXT``."""
    words = line.split()
    assert words[0] == "bestmove", line
    if words[1] == "none":
        assert words[2] == "result" and words[4] == "reason", line
        return BestMove(None, result=words[3], reason=" ".join(words[5:]))
    assert words[2] == "score" and words[5] == "depth" and words[7] == "pv", line
    return BestMove(words[1], Score(words[3], int(words[4])), int(words[6]), tuple(words[8:]))


class EngineClient:
    """The engine as a subprocess: send lines, read answer lines with timeouts."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "poolboard.cli", "engine", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self, timeout: float = 10.0) -> str:
        """The next answer line; fails if none comes in time or the engine has gone."""
        line = self._lines.get(timeout=timeout)
        assert line is not None, "the engine closed its output"
        return line

    def rest(self, timeout: float = 10.0) -> list[str]:
        """Every line left until the engine closes its output."""
        lines = []
        while (line := self._lines.get(timeout=timeout)) is not None:
            lines.append(line)
        return lines

    def ready(self, timeout: float = 10.0) -> list[str]:
        """``isready``; the lines before ``readyok``."""
        self.send("isready")
        before = []
        while (line := self.read(timeout)) != "readyok":
            before.append(line)
        return before

    def search(self, go: str, timeout: float = 10.0) -> tuple[list[InfoLine], BestMove]:
        """Send ``go ...``; the info lines and the bestmove that ends the search."""
        self.send(go)
        infos = []
        while not (line := self.read(timeout)).startswith("bestmove"):
            infos.append(parse_info(line))
        return infos, parse_bestmove(line)

    def close_input(self, timeout: float = 10.0) -> int:
        """Close stdin (end of input) and wait for the exit status."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout)

    def quit(self) -> None:
        """``quit`` if still running, and reap the process."""
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def stderr(self) -> str:
        """What the engine wrote on stderr (after it has exited)."""
        assert self.process.stderr is not None
        return self.process.stderr.read()
