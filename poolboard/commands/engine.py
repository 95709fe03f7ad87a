"""``poolboard engine``: the computer player behind a line protocol on stdin and stdout.

The main thread reads commands; a search runs in a worker thread so that ``stop``, ``isready``
and ``quit`` are answered while it thinks. The grammar lives in :mod:`engine.protocol`;
docs/engine.md ("Line protocol") is the specification a client is written from.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Iterator
from typing import BinaryIO, TextIO

from engine.game import Game
from engine.profiles import DEFAULT_PROFILE, PROFILES, RulesProfile
from engine.protocol import (
    Go,
    IsReady,
    PositionCommand,
    ProtocolError,
    Quit,
    SetOption,
    Stop,
    bestmove_line,
    game_from,
    game_over_line,
    info_line,
    parse_command,
)
from engine.search import TABLE_LIMIT, Info, Root, Searcher
from poolboard.opponents.computer import ENDINGS, near_kings_ending, table_limit

#: The longest line read; a longer one is answered with an error and skipped.
MAX_LINE = 65_536


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "engine",
        help="the computer player on stdin/stdout, for a GUI or a test harness",
        description="Speak the poolboard engine line protocol (docs/engine.md): position, go, "
        "stop, isready, setoption, quit on stdin; info, bestmove, readyok and error on stdout.",
    )
    parser.add_argument(
        "--profile",
        choices=sorted(PROFILES),
        default=DEFAULT_PROFILE,
        help="rule profile for the draw counts until 'setoption profile' (default %(default)s)",
    )
    parser.set_defaults(handler=run)


class Output:
    """Answer lines, one writer at a time, flushed per line; a closed stdout ends the engine."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self.closed = False

    def send(self, line: str) -> None:
        """Write one line and flush it (nothing once the reader has gone)."""
        with self._lock:
            if self.closed:
                return
            try:
                self._stream.write(line + "\n")
                self._stream.flush()
            except (BrokenPipeError, ValueError, OSError):
                self.closed = True


class Engine:
    """One engine session: the position set, the profile, and at most one search running."""

    def __init__(self, output: Output, profile: RulesProfile) -> None:
        self.output = output
        self.profile = profile
        self.game: Game | None = None
        # The engine alone thinks: its table may take a quarter of the memory available.
        self.table_limit = table_limit(TABLE_LIMIT, share=4)
        self.searcher = Searcher(table_limit=self.table_limit)
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None
        self._busy = False  # a search runs: cleared just before its bestmove is sent

    def handle(self, line: str) -> bool:
        """Act on one input line; ``False`` once the engine should exit."""
        if line.split()[:1] == ["position"]:
            self.game = None  # a refused position line leaves none to search
        try:
            command = parse_command(line)
            match command:
                case None:
                    pass
                case Quit():
                    self.stop()
                    return False
                case Stop():
                    self.stop()
                case IsReady():
                    self.output.send("readyok")
                case PositionCommand():
                    self._refuse_while_busy("position")
                    self.game = game_from(command, self.profile)
                case SetOption():
                    self._refuse_while_busy("setoption")
                    self.profile = command.profile
                case Go():
                    self._refuse_while_busy("go")
                    self._go(command)
        except ProtocolError as error:
            self.output.send(f"error {error}")
        return not self.output.closed

    def stop(self) -> None:
        """End the running search, if any, and wait until its bestmove is out."""
        self._stop.set()
        if self._worker is not None:
            self._worker.join()
            self._worker = None

    def _refuse_while_busy(self, name: str) -> None:
        if self._busy:
            raise ProtocolError(f"{name}: a search is running; send stop and wait for bestmove")

    def _go(self, command: Go) -> None:
        if self.game is None:
            raise ProtocolError("go: no position set: send 'position startpos' or a FEN first")
        outcome = self.game.outcome()
        if outcome is not None:
            self.output.send(game_over_line(outcome))
            return
        self.stop()  # the last search has sent its bestmove; collect its thread
        self._stop.clear()
        if self.searcher.noise != command.noise:
            self.searcher = Searcher(noise=command.noise, table_limit=self.table_limit)
        self._busy = True
        root = Root.from_game(self.game)
        self._worker = threading.Thread(
            target=self._think, args=(root, command), name="engine-search", daemon=True
        )
        self._worker.start()

    def _think(self, root: Root, command: Go) -> None:
        """The worker: search, reporting each depth, then send the bestmove."""
        board = root.board.copy(stack=False)

        def report(info: Info) -> None:
            self.output.send(info_line(board, info))

        if near_kings_ending(root.board):  # solved on a thread of its own the first time
            self.searcher.endgame = ENDINGS.get()
        try:
            result = self.searcher.search(
                root, command.limits(), on_info=report, stop=self._stop.is_set
            )
            answer = bestmove_line(board, result)
        except Exception as error:  # a bug must not leave the engine busy for ever
            answer = f"error go: the search failed: {type(error).__name__}: {error}"
        self._busy = False
        self.output.send(answer)


def read_lines(stream: BinaryIO, output: Output) -> Iterator[str]:
    """Input lines as text (bad UTF-8 replaced), a line longer than :data:`MAX_LINE` reported
    and skipped; ends at end of input."""
    while line := stream.readline(MAX_LINE + 1):
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            output.send(f"error line longer than {MAX_LINE} bytes, skipped")
            while (rest := stream.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                pass
            continue
        yield line.decode("utf-8", errors="replace")


def serve(stdin: BinaryIO, stdout: TextIO, profile: RulesProfile) -> int:
    """Run the protocol until ``quit`` or end of input; the exit status."""
    output = Output(stdout)
    engine = Engine(output, profile)
    try:
        for line in read_lines(stdin, output):
            if not engine.handle(line):
                break
    finally:
        engine.stop()
    return 0


def run(args: argparse.Namespace) -> int:
    return serve(sys.stdin.buffer, sys.stdout, PROFILES[args.profile])
