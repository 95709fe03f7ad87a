"""The board's state as every screen shows it: one typed model (pydantic) for GET /api/state (its
``response_model``, so /openapi.json documents it), the pages' WebSocket messages and the hall's
retained MQTT ``state`` message. :func:`board_state` builds it from the core; :func:`to_json`
gives the JSON object all three send. The hall validates a table's state against the same model
(strictly: ``"5"`` is not a number), its numbers and texts bounded so a hostile table cannot
hand it a 64-bit overflow or a megabyte of text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.board import Board
from engine.color import Color
from poolboard import records, words
from poolboard.locale import LANGUAGES

if TYPE_CHECKING:
    from poolboard.session.core import Session

#: A JSON object as the pages and the hall show it (a clock event, an opponent's details...).
Json = dict[str, object]
Side = Literal["black", "white"]
#: 2**63 - 1: the largest id SQLite stores.
INT64 = 2**63 - 1
Id = Annotated[int, Field(ge=0, le=INT64)]
#: Within what a PDN [%clk] can write (99,999 hours).
Seconds = Annotated[float, Field(allow_inf_nan=False, ge=-1e8, le=1e8)]
Text = Annotated[str, Field(max_length=2000)]
Short = Annotated[str, Field(max_length=64)]
Result = Literal["1-0", "0-1", "1/2-1/2"]


class _View(BaseModel):
    # A hall reads the states of tables that may run a newer poolboard: keys it does not know
    # are left out, not refused.
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class MoveView(_View):
    """A move's squares: where it starts and, for a jump, every square it lands on."""

    from_: int = Field(alias="from", description="the square the piece starts on (1-32)")
    path: list[int] = Field(description="the start and every square landed on")


class LastMove(MoveView):
    """The last recorded move."""

    to: int = Field(description="the square the piece ends on")


class ClockView(_View):
    """Both sides' time left (seconds), whose time runs, the clock's state and control."""

    black: Seconds
    white: Seconds
    running: Side | None
    state: str = Field(description="ready, running, paused or stopped")
    control: str = Field(description="the time control, as board.toml writes it")
    game: int = Field(description="the game of the match the clock is in")
    events: list[Json] = Field(description="the last five clock events (warnings, flags)")


class SaidView(_View):
    """Words a page says in its language (engine.phrase.Phrase): an English ``message`` with
    ``{name}`` places, the key of its translation, and the ``values`` that fill them."""

    message: Text
    values: dict[Short, int | float | Text | SaidView]


class ViolationView(_View):
    """A breach of a rule (RULES.md ID) seen on the board, at ``ply``."""

    event: str
    t: float
    rule: str
    side: Side
    squares: list[int]
    message: str
    said: SaidView | None = Field(default=None, description="the message, to say in any language")
    severity: str
    referee: bool
    ply: int
    mended: str | None = Field(
        default=None, description="how the player put it right at once (R-ILL-1), if they did"
    )


class FaultView(_View):
    """A sensor fault, the sensor link going down or up, or a change not stored."""

    event: str
    t: float
    squares: list[int]
    message: str
    said: SaidView | None = Field(default=None, description="the message, to say in any language")


class TrackerView(_View):
    """What the board waits for (the tracker's state) and that in a sentence."""

    name: Short
    detail: Text
    said: SaidView | None = Field(default=None, description="detail, to say in any language")


class Score(_View):
    """A player's points in the match (R-TRN-3), and the colour they play in this game."""

    name: str
    points: int
    side: Side | None = Field(default=None, description="their colour in this game")


class MatchResult(_View):
    """A finished game of the match: its number, PDN result and the ending in words."""

    game: int
    result: str
    text: str
    said: SaidView | None = Field(default=None, description="text, to say in any language")


class MatchView(_View):
    """The match: this game's number, the games it has, each player's points, the results."""

    game: int
    games: int
    round: str
    score: list[Score]
    results: list[MatchResult]
    over: bool


class LinkView(_View):
    """The sensor link (a Pico, a camera): up or down, and why."""

    connected: bool
    detail: Text
    said: SaidView | None = Field(default=None, description="detail, to say in any language")


class HintView(_View):
    """A hint being sought (``thinking``) or lit on the board (``shown``, with its move)."""

    status: Literal["thinking", "shown"]
    move: str | None


class OpponentView(_View):
    """The opponent off the board: who, and what it is doing; a remote board adds its link."""

    model_config = ConfigDict(extra="allow")

    kind: str
    side: Side
    name: str
    status: str = Field(description="idle, execute, setup, thinking or waiting")
    text: str
    said: SaidView | None = Field(default=None, description="text, to say in any language")
    move: str | None


class SensedView(_View):
    """The board as the sensor sees it while it differs from the recorded position (a move in
    progress): the pieces where they stand now, the move's squares so far, and squares the
    sensor reports a piece on that no piece of the position explains."""

    fen: str = Field(description="the pieces as they stand now (the recorded side to move)")
    path: list[int] = Field(description="the moving piece's start and the squares landed on")
    unknown: list[int] = Field(description="occupied squares no piece of the position explains")


class WordsView(_View):
    """What the audience's pages say, in words (:mod:`poolboard.words`): no rule codes, times
    in minutes and hours."""

    result: str | None = Field(description="how the game ended, without rule IDs")
    result_words: dict[str, str] = Field(
        default_factory=dict,
        description='the same in each language the pages speak: {"en": ..., "es": ...}',
    )
    time_control: str = Field(description='"45 minutes a side for the whole match"')
    time_control_words: dict[str, str] = Field(
        default_factory=dict,
        description='the same in each language the pages speak: {"en": ..., "es": ...}',
    )
    pieces: dict[str, str] = Field(description='each side\'s pieces: "12 pieces", "1 piece"')


class BoardState(_View):
    """Everything a screen shows of the board (GET /api/state, the pages, the hall)."""

    game_id: Id
    fen: Text
    start_fen: Text
    sensed: SensedView | None = Field(
        description="the board as the sensor sees it, while it differs from fen (a move under way)"
    )
    turn: Side
    moves: list[Short] = Field(
        max_length=5000, description="the record in PDN, Black's first move first"
    )
    last_move: LastMove | None
    clock: ClockView
    cues: dict[str, str] = Field(description="square -> cue kind (docs/cues.md)")
    result: Result | None
    result_reason: Text | None
    result_text: str | None
    result_said: SaidView | None = Field(
        default=None, description="result_text, to say in any language"
    )
    winner: Side | None
    counts: list[Json] = Field(description="the draw counts running (R-DRW-*)")
    legal: list[MoveView]
    pieces: dict[str, int]
    state: TrackerView | None
    violations: list[ViolationView]
    violation: ViolationView | None = Field(description="the violation standing now, if any")
    faults: list[FaultView]
    headers: dict[Short, Text] = Field(max_length=100, description="the game's PDN tags")
    details: dict[str, str]
    pending: dict[str, str] = Field(description="details set for the next game")
    match: MatchView
    link: LinkView | None
    storage: str | None = Field(description="why the last change was not recorded, if so")
    storage_said: SaidView | None = Field(
        default=None, description="storage, to say in any language"
    )
    rules: str
    opponent: OpponentView | None
    hint: HintView | None
    hints: bool
    words: WordsView


def to_json(state: BoardState) -> Json:
    """The state as the JSON object the API, the pages and the hall send."""
    return state.model_dump(mode="json", by_alias=True)


def board_state(core: Session) -> BoardState:
    """Everything a screen shows (the core's lock held)."""
    from poolboard.session import hints, opponent

    game = core.game
    board = game.board
    stack = board.move_stack
    replay = Board(game.start_fen)
    moves = []
    for move in stack:
        moves.append(replay.notation(move))
        replay.push(move)
    last = stack[-1] if stack else None
    outcome = game.outcome()
    tracker_state = core.tracker_state
    clock = core.clock
    players = (core.headers.get("White", "?"), core.headers.get("Black", "?"))
    ended = (
        None
        if outcome is None
        else records.ended_said(outcome.winner, outcome.reason, *players, outcome.said)
    )
    return BoardState.model_validate(
        {
            "game_id": core.game_id,
            "fen": board.fen(),
            "start_fen": game.start_fen,
            # While the position is being set up the pages show the position to set up.
            "sensed": sensed(board, core.tracker.occupied)
            if outcome is None and core.tracker.started
            else None,
            "turn": board.turn.value,
            "moves": moves,
            "last_move": None
            if last is None
            else {"from": last.from_square, "to": last.to_square, "path": list(last.path)},
            "clock": {
                "black": round(clock.remaining(Color.BLACK), 3),
                "white": round(clock.remaining(Color.WHITE), 3),
                "running": None if clock.running is None else clock.running.value,
                "state": clock.state.value,
                "control": str(clock.control),
                "game": clock.game,
                "events": core.clock_events[-5:],
            },
            "cues": core.tracker.cues.to_json(),
            "result": None if outcome is None else outcome.result,
            "result_reason": None if outcome is None else outcome.reason,
            "result_text": None if ended is None else str(ended),
            "result_said": None if ended is None else ended.to_json(),
            "winner": None if outcome is None or outcome.winner is None else outcome.winner.value,
            "counts": [count.to_json() for count in game.counts()],
            "legal": []
            if outcome is not None
            else [
                {"from": m.from_square, "path": list(m.path)} for m in board.generate_legal_moves()
            ],
            "pieces": {side.value: board.pieces(side).bit_count() for side in Color},
            "state": None
            if tracker_state is None
            else {
                "name": tracker_state.state.name.lower(),
                "detail": tracker_state.detail,
                "said": tracker_state.said.to_json(),
            },
            "violations": core.violations[-10:],
            "violation": core.violation,
            "faults": core.faults[-5:],
            "headers": core.headers,
            "details": core.details,
            "pending": core.pending,
            "match": core.match,
            "link": None
            if core.link is None
            else {
                "connected": core.link.connected,
                "detail": core.link.detail,
                "said": None if core.link.said is None else core.link.said.to_json(),
            },
            "storage": None if core.storage_error is None else str(core.storage_error),
            "storage_said": None if core.storage_error is None else core.storage_error.to_json(),
            "rules": core.config.rules.profile,
            "opponent": opponent.describe(core),
            "hint": hints.describe(core),
            "hints": hints.allowed(core),
            "words": {
                "result": None
                if outcome is None
                else words.result(
                    outcome.winner, outcome.reason, *players, reason_words=outcome.said
                ),
                "result_words": {}
                if outcome is None
                else {
                    language: words.result(
                        outcome.winner, outcome.reason, *players, language, outcome.said
                    )
                    for language in LANGUAGES
                },
                "time_control": words.time_control(clock.control),
                "time_control_words": {
                    language: words.time_control(clock.control, language) for language in LANGUAGES
                },
                "pieces": {
                    side.value: words.count(board.pieces(side).bit_count(), "piece")
                    for side in Color
                },
            },
        }
    )


def sensed(board: Board, occupied: frozenset[int] | None) -> Json | None:
    """``board`` as a sensor reporting ``occupied`` sees it (:class:`SensedView`): the legal
    move that explains what is lifted and set down is drawn as far as it has gone (the moving
    piece on the square it stands on, the pieces it jumped that are lifted gone); ``None``
    while the board shows the position itself."""
    position = board.occupied_squares()
    if occupied is None or occupied == position:
        return None
    missing, added = position - occupied, occupied - position
    now = board.copy()
    for square in missing:
        now.set_piece_at(square, None)
    path: list[int] = []
    for move in board.generate_legal_moves():
        landed = [i for i, square in enumerate(move.path) if i and square in added]
        if move.from_square not in missing or not missing - {move.from_square} <= set(
            move.captures
        ):
            continue
        if len(added) > 1 or (added and not landed):
            continue
        path = list(move.path[: landed[0] + 1]) if landed else [move.from_square]
        break
    unknown = set(added)
    if len(path) > 1:
        now.set_piece_at(path[-1], board.piece_at(path[0]))
        unknown.discard(path[-1])
    return {"fen": now.fen(), "path": path, "unknown": sorted(unknown)}
