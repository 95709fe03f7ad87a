"""The ``poolboard engine`` line protocol without the I/O: lines parsed into commands, a position
set up as a game, and search results written as ``info`` and ``bestmove`` lines.

docs/engine.md ("Line protocol") is the specification; this module is its grammar. Moves are
PDN text (R-BRD-4): ``11-15``, ``15x22``, the full path ``1x15x22x13`` only when two captures
share a start and an end.

>>> parse_command("go movetime 500")
Go(movetime_ms=500, depth=None, nodes=None, level=None, infinite=False)
>>> parse_command("position startpos moves 11-15 23-19").moves
('11-15', '23-19')
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Board, FenError, Move
from engine.game import Game, Outcome
from engine.levels import LEVELS
from engine.profiles import PROFILES, RulesProfile
from engine.quote import quoted
from engine.search import MAX_DEPTH, Info, Limits, Result, mate_in

#: The longest move time ``go movetime`` accepts: a day, in milliseconds.
MAX_MOVETIME_MS = 86_400_000
#: The largest node budget ``go nodes`` accepts.
MAX_NODES = 10**12
COMMANDS = ("position", "go", "stop", "isready", "setoption", "quit")


class ProtocolError(ValueError):
    """A line the engine cannot act on; the message says what was wrong, for an ``error`` line."""


@dataclass(frozen=True, slots=True)
class PositionCommand:
    """``position startpos|FEN [moves M1 M2 ...]``: ``fen`` is ``None`` for the start position."""

    fen: str | None
    moves: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Go:
    """``go`` with its bounds: any of move time, depth and nodes, or a level, or infinite."""

    movetime_ms: int | None = None
    depth: int | None = None
    nodes: int | None = None
    level: int | None = None
    infinite: bool = False

    def limits(self) -> Limits:
        """The search limits these bounds ask for (a level's own, for ``go level N``)."""
        if self.level is not None:
            return LEVELS[self.level].limits()
        movetime = self.movetime_ms / 1000 if self.movetime_ms is not None else None
        return Limits(depth=self.depth, movetime=movetime, nodes=self.nodes)

    @property
    def noise(self) -> int:
        """The evaluation noise to search with: a level's, else none."""
        return LEVELS[self.level].noise if self.level is not None else 0


@dataclass(frozen=True, slots=True)
class SetOption:
    """``setoption profile NAME``: the rule profile for the next ``position``."""

    profile: RulesProfile


@dataclass(frozen=True, slots=True)
class Stop:
    """``stop``: end the running search now; its ``bestmove`` follows."""


@dataclass(frozen=True, slots=True)
class IsReady:
    """``isready``: answered ``readyok`` at once, even while a search runs."""


@dataclass(frozen=True, slots=True)
class Quit:
    """``quit``: stop any search and exit."""


Command = PositionCommand | Go | SetOption | Stop | IsReady | Quit


def parse_command(line: str) -> Command | None:
    """The command on a line, ``None`` for a blank line; :class:`ProtocolError` otherwise."""
    words = line.split()
    if not words:
        return None
    name, args = words[0], words[1:]
    if name == "position":
        return _parse_position(args)
    if name == "go":
        return _parse_go(args)
    if name == "setoption":
        return _parse_setoption(args)
    simple: dict[str, Command] = {"stop": Stop(), "isready": IsReady(), "quit": Quit()}
    if name in simple:
        if args:
            raise ProtocolError(f"{name} takes nothing after it, got {quoted(' '.join(args))}")
        return simple[name]
    raise ProtocolError(f"unknown command {quoted(name)}: expected one of {', '.join(COMMANDS)}")


def _parse_position(args: list[str]) -> PositionCommand:
    if not args:
        raise ProtocolError("position: expected 'startpos' or a FEN, then optionally 'moves ...'")
    split = args.index("moves") if "moves" in args else len(args)
    where, moves = args[:split], tuple(args[split + 1 :])
    if not where:
        raise ProtocolError("position: expected 'startpos' or a FEN before 'moves'")
    if "moves" in args and not moves:
        raise ProtocolError("position: 'moves' must be followed by at least one move")
    if where == ["startpos"]:
        return PositionCommand(None, moves)
    if where[0] == "fen" and len(where) > 1:  # as UCI writes it: ``position fen FEN``
        where = where[1:]
    fen = " ".join(where)
    try:
        Board(fen)
    except FenError as error:
        raise ProtocolError(f"position: {error}") from None
    return PositionCommand(fen, moves)


def _parse_go(args: list[str]) -> Go:
    expected = "expected movetime MS, depth N, nodes N (any of them), level N or infinite"
    if not args:
        raise ProtocolError(f"go: {expected}")
    bounds: dict[str, int] = {}
    ranges = {
        "movetime": (1, MAX_MOVETIME_MS),
        "depth": (1, MAX_DEPTH),
        "nodes": (1, MAX_NODES),
        "level": (min(LEVELS), max(LEVELS)),
    }
    infinite = False
    words = iter(args)
    for word in words:
        if word == "infinite":
            infinite = True
            continue
        if word not in ranges:
            raise ProtocolError(f"go: unknown bound {quoted(word)}: {expected}")
        if word in bounds:
            raise ProtocolError(f"go: {word} given twice")
        low, high = ranges[word]
        value = next(words, None)
        if value is None or not _whole(value, high) or not low <= int(value) <= high:
            got = "nothing" if value is None else quoted(value)
            raise ProtocolError(f"go: {word} must be a whole number {low}-{high}, got {got}")
        bounds[word] = int(value)
    if (infinite or "level" in bounds) and len(bounds) + infinite > 1:
        raise ProtocolError("go: infinite and level stand alone, without other bounds")
    return Go(
        movetime_ms=bounds.get("movetime"),
        depth=bounds.get("depth"),
        nodes=bounds.get("nodes"),
        level=bounds.get("level"),
        infinite=infinite,
    )


def _whole(text: str, high: int) -> bool:
    """Whether ``text`` is ASCII digits, short enough to be read as a number at most ``high``."""
    return text.isascii() and text.isdigit() and len(text) <= len(str(high))


def _parse_setoption(args: list[str]) -> SetOption:
    names = ", ".join(PROFILES)
    if len(args) != 2 or args[0] != "profile":
        raise ProtocolError(f"setoption: expected 'setoption profile NAME' ({names})")
    if args[1] not in PROFILES:
        raise ProtocolError(f"setoption: unknown rule profile {quoted(args[1])}: one of {names}")
    return SetOption(PROFILES[args[1]])


def game_from(position: PositionCommand, profile: RulesProfile) -> Game:
    """The game a ``position`` command sets up: its start, every move played, counts kept.

    :class:`ProtocolError` names the first move that cannot be played, by its ply (1 for the
    first move of the list), with the reason.
    """
    game = Game(position.fen, profile)
    for ply, text in enumerate(position.moves, 1):
        try:
            game.push_notation(text)
        except ValueError as error:  # not a move, illegal, ambiguous, or the game is over
            raise ProtocolError(f"position: move {quoted(text)} at ply {ply}: {error}") from None
    return game


def score_text(score: int) -> str:
    """A score for the side to move: ``cp N`` (hundredths of a man), ``win N`` or ``loss N``
    (moves of the side to move to the end)."""
    moves = mate_in(score)
    if moves is None:
        return f"cp {score}"
    return f"win {moves}" if moves > 0 else f"loss {-moves}"


def line_text(board: Board, line: tuple[Move, ...]) -> list[str]:
    """A line of moves from ``board`` as PDN text, each written in its own position."""
    position = board.copy(stack=False)
    texts = []
    for move in line:
        texts.append(position.notation(move))
        position.push(move)
    return texts


def info_line(board: Board, info: Info) -> str:
    """``info depth D score S nodes N nps X time MS pv ...`` for one finished iteration."""
    millis = round(info.seconds * 1000)
    pv = " ".join(line_text(board, info.pv))
    return (
        f"info depth {info.depth} score {score_text(info.score)} nodes {info.nodes} "
        f"nps {info.nps} time {millis} pv {pv}"
    )


def bestmove_line(board: Board, result: Result) -> str:
    """``bestmove MOVE score S depth D pv ...``: the move to play and the line expected."""
    if result.best is None:
        raise ValueError(f"no move to play in {board.fen()}")
    best = board.notation(result.best)
    pv = " ".join(line_text(board, result.pv))
    return f"bestmove {best} score {score_text(result.score)} depth {result.depth} pv {pv}"


def game_over_line(outcome: Outcome) -> str:
    """``bestmove none result R reason TEXT`` for a position where the game is already over."""
    return f"bestmove none result {outcome.result} reason {outcome.reason}"
