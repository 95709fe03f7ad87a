"""The referee's commands (docs/api.md): each one input, checked, applied and written to the audit
log in one transaction, then announced. Bad input raises :class:`RefereeError` (a ValueError)
whose message says what was wrong; if the store refuses the change nothing of it remains and the
referee is told why.

:class:`RefereeDesk` gives the session a method per command (what the web pages and the hall
call); each puts its command on the core's queue and waits for it to be done.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from engine.board import Board
from engine.clock import Clock, ClockError, ClockState, TimeControl
from engine.color import Color
from engine.game import BLACK_WINS, WHITE_WINS, Game
from engine.refusal import Refusal
from poolboard import records
from poolboard.session import games, tracking
from poolboard.session.games import DETAIL_FIELDS
from poolboard.session.hints import HintRequest
from poolboard.session.inputs import Input, RefereeError
from poolboard.session.opponent import follow_up
from poolboard.storage import StorageError

if TYPE_CHECKING:
    from poolboard.session.core import Session
    from poolboard.session.state import Json

T = TypeVar("T")

#: The draw counts that end a game on the board (R-DRW-1..5); with R-END-1, the results a
#: voided move takes with it.
DRAW_COUNT_RULES = ("R-DRW-1", "R-DRW-2", "R-DRW-3", "R-DRW-4", "R-DRW-5")
#: How the referee may end a game (``end_game``).
ENDINGS = ("resign", "agree-draw", "referee-win", "referee-draw")


@contextmanager
def referee_action(core: Session) -> Iterator[None]:
    """One action: applied and stored in one transaction, then announced and followed up; if
    the store refuses it nothing of it remains and the referee is told why."""
    try:
        with core.stored_together():
            yield
    except StorageError as error:
        raise RefereeError(
            "not done, as it could not be stored: {error}", error=str(error)
        ) from None
    core.announce()
    follow_up(core)


@contextmanager
def _clock_errors() -> Iterator[None]:
    """The clock's refusals (pausing a paused clock...) reach the referee as RefereeError, in
    the clock's words."""
    try:
        yield
    except ClockError as error:
        raise RefereeError.passing_on(error) from None


class _Command(Input[None]):
    """A referee command by ``actor``: :meth:`apply` runs inside :func:`referee_action`."""

    actor: str

    def handle(self, core: Session) -> None:
        with referee_action(core):
            self.apply(core)

    @abstractmethod
    def apply(self, core: Session) -> None:
        """Check and apply the command, storing and auditing it."""


def _refuse_running_game(core: Session) -> None:
    if core.game.is_over():
        raise RefereeError("the game is over already ({result})", result=str(core.game.result))


def _in_remote_game(core: Session) -> bool:
    """One invite is one game (docs/remote.md): the link is bound to this game's start and
    the far board's record, so another game on it would diverge or fail."""
    return core.opponent is not None and core.opponent.kind == "remote"


@dataclass(frozen=True)
class PauseClock(_Command):
    """Stop both clocks (the referee's pause)."""

    actor: str

    def apply(self, core: Session) -> None:
        with _clock_errors():
            core.clock.pause()
        core.save_clock()
        core.audited(self.actor, "pause", {})
        core.clock_actions += 1


@dataclass(frozen=True)
class ResumeClock(_Command):
    """Restart the clock of the side to move."""

    actor: str

    def apply(self, core: Session) -> None:
        with _clock_errors():
            core.clock.resume()
        core.save_clock()
        core.audited(self.actor, "resume", {})
        core.clock_actions += 1


@dataclass(frozen=True)
class AdjustClock(_Command):
    """Add time to a side's clock (negative: take time)."""

    actor: str
    side: Color
    seconds: float

    def apply(self, core: Session) -> None:
        if not -36_000 <= self.seconds <= 36_000:
            raise RefereeError(
                "adjust by {seconds} s: expected at most 10 hours either way", seconds=self.seconds
            )
        with _clock_errors():
            core.clock.adjust(self.side, self.seconds)
        core.save_clock()
        ply = len(core.game.board.move_stack)
        data: Json = {"side": self.side.value, "seconds": self.seconds, "ply": ply}
        core.audited(self.actor, "adjust", data)
        core.clock_actions += 1


@dataclass(frozen=True)
class CorrectMove(_Command):
    """Replace recorded move ``ply`` (1-based) with ``text``, re-validated; later moves are
    kept while they stay legal, the rest dropped. The board is then cued to match."""

    actor: str
    ply: int
    text: str

    def apply(self, core: Session) -> None:
        ply = self.ply
        moves = core.game.board.move_stack
        if not moves:
            raise RefereeError("ply {ply}: the game has no move to correct yet", ply=ply)
        if not 1 <= ply <= len(moves):
            raise RefereeError(
                "ply {ply}: the game has moves 1 to {last}", ply=ply, last=len(moves)
            )
        game = Game(core.game.start_fen, profile=core.game.profile)
        for move in moves[: ply - 1]:
            game.push(move)
        try:
            replacement = game.board.parse_move(self.text)
        except Refusal as error:
            raise RefereeError("ply {ply}: {error}", ply=ply, error=error.phrase) from None
        kept = [game.push(replacement)]
        for move in moves[ply:]:
            if game.is_over() or move not in game.board.generate_legal_moves():
                break
            kept.append(game.push(move))
        before = tracking.notations(core)
        games.store_record_from(core, ply, game.board.move_stack)
        dropped = len(moves) - (ply - 1) - len(kept)
        core.game = games.replay(core, core.game.start_fen, game.board.move_stack)
        games.replace_tracker(core)
        core.finish_if_over()
        tracking.clock_follows_the_record(core)
        core.save_clock()
        tracking.record_rewritten(core, before)
        core.audited(self.actor, "correct", {"ply": ply, "move": self.text, "dropped": dropped})


@dataclass(frozen=True)
class SetPosition(_Command):
    """Start a game from a position (a problem, an adjourned game); the board is cued. In
    place of a game in progress (set aside unfinished) it keeps that game's number and
    colours; after a finished game it is the match's next game, started as "next game"
    starts it (:func:`games.start_next`), or game 1 of a new match after the last."""

    actor: str
    fen: str

    def apply(self, core: Session) -> None:
        if _in_remote_game(core):
            raise RefereeError(
                "a new position cannot be set up in a remote game: one invite is one game; give "
                "both boards a new invite (poolboard remote-invite) and restart them"
            )
        try:
            start = Board(self.fen).fen()
        except ValueError as error:
            raise RefereeError.passing_on(error) from None
        if core.game.is_over():
            games.start_next(core, start, new_match=core.game_number >= core.match_games)
        else:
            core.store.set_result(core.game_id, "*", "unfinished: a new position was set up")
            core.details, core.pending = {**core.details, **core.pending}, {}
            games.new_game(core, start)
        core.audited(self.actor, "setup", {"fen": start})


@dataclass(frozen=True)
class InvokeCount(_Command):
    """The weaker side calls the stronger-side count (R-DRW-4)."""

    actor: str
    side: Color

    def apply(self, core: Session) -> None:
        _refuse_running_game(core)
        try:
            core.game.invoke_count(self.side)
        except Refusal as error:
            raise RefereeError.passing_on(error) from None
        ply = len(core.game.board.move_stack)
        core.store.add_event(core.game_id, "count", {"side": self.side.value, "ply": ply})
        core.audited(self.actor, "count", {"side": self.side.value})


@dataclass(frozen=True)
class GivePenalty(_Command):
    """Record a caution (a comment at the move in the PDN), or a forfeit for repeated breaches
    that ends the game (R-TCH-2, R-ILL-1, R-END-3)."""

    actor: str
    side: Color
    rule: str
    severity: str
    note: str = ""

    def apply(self, core: Session) -> None:
        if self.severity not in ("caution", "forfeit"):
            raise RefereeError(
                "severity must be caution or forfeit, got {severity}", severity=repr(self.severity)
            )
        if not self.rule.startswith("R-"):
            raise RefereeError(
                "rule must be a RULES.md ID such as R-TCH-2, got {rule}", rule=repr(self.rule)
            )
        data: Json = {
            "side": self.side.value,
            "rule": self.rule,
            "severity": self.severity,
            "note": self.note,
            "ply": len(core.game.board.move_stack),
        }
        if self.severity == "forfeit":
            _refuse_running_game(core)
        core.store.add_event(core.game_id, "penalty", data)
        if self.severity == "forfeit":
            core.end(records.forfeit(self.side, self.rule, self.note))
        core.audited(self.actor, "penalty", data)


@dataclass(frozen=True)
class EndGame(_Command):
    """End the game as it happened: ``resign`` (``side`` resigns), ``agree-draw`` (R-END-2),
    ``referee-win`` (``side`` is awarded the game for ``reason``) or ``referee-draw``
    (R-END-2: neither side can force a win)."""

    actor: str
    how: str
    side: Color | None = None
    reason: str = ""

    def apply(self, core: Session) -> None:
        _refuse_running_game(core)
        how, side, reason = self.how, self.side, " ".join(self.reason.split())
        if how not in ENDINGS:
            raise RefereeError(
                "how must be one of {endings}, got {how}", endings=", ".join(ENDINGS), how=repr(how)
            )
        if how in ("resign", "referee-win") and side is None:
            raise RefereeError("{how} needs the side: black or white", how=how)
        if how == "referee-win" and not reason:
            raise RefereeError("a referee's decision needs its reason in words")
        if how == "resign" and side is not None:
            core.end(records.resignation(side))
        elif how == "referee-win" and side is not None:
            core.end(records.referee_win(side, reason))
        elif how == "agree-draw":
            core.game.agree_draw()
            core.finish_if_over("agreement")
        else:
            core.game.declare_draw(reason or records.NO_FORCED_WIN)
            core.finish_if_over("referee")
        data: Json = {"how": how, "side": None if side is None else side.value, "reason": reason}
        core.audited(self.actor, "result", data)


@dataclass(frozen=True)
class VoidMoves(_Command):
    """Strike the last ``count`` moves from the record (misrecorded), audited; the board is
    cued back to the position before them and the turn goes back with them. A result the
    board decided (R-END-1, a count) is undone with its move; other results stand."""

    actor: str
    count: int = 1

    def apply(self, core: Session) -> None:
        moves = core.game.board.move_stack
        if not 1 <= self.count <= len(moves):
            raise RefereeError(
                "void {count} moves: the game has {moves} moves", count=self.count, moves=len(moves)
            )
        outcome = core.game.outcome()
        on_the_board = outcome is None or outcome.rule in ("R-END-1", *DRAW_COUNT_RULES)
        if outcome is not None and not on_the_board:
            raise RefereeError(
                "the game is over ({reason}): its result stands", reason=outcome.reason
            )
        first = len(moves) - self.count + 1
        voided = [m.notation for m in core.store.game(core.game_id).moves if m.ply >= first]
        before = tracking.notations(core)
        core.store.delete_moves_from(core.game_id, first)
        core.game = games.replay(core, core.game.start_fen, moves[: first - 1])
        if outcome is not None:
            if core.clock.state is ClockState.STOPPED:
                # The result stopped the clock: it waits, paused, for the referee's resume.
                snapshot = core.clock.to_dict()
                turn = core.game.board.turn.value
                snapshot.update(to_move=turn, paused=True, move_used=0.0)
                core.clock = Clock.from_dict(snapshot, core.now)
            core.store.reopen(core.game_id)
            core.headers = {k: v for k, v in core.headers.items() if k != "Termination"}
            core.store.set_headers(core.game_id, core.headers)
        else:
            tracking.clock_follows_the_record(core)
        core.save_clock()
        games.replace_tracker(core)
        games.score_match(core)
        tracking.record_rewritten(core, before)
        core.audited(self.actor, "void", {"ply": first, "moves": voided})


@dataclass(frozen=True)
class SetDetails(_Command):
    """Set players, event, site, round or time control (:data:`DETAIL_FIELDS`): for the
    current game while it has no move and its clock has not started, and for the games after
    it; once play has begun, for the next game only (as its colours will be), except the
    players' names: until the game has a result they name the game's players, now and on
    (the match's score follows them, R-TRN-3)."""

    actor: str
    changes: Mapping[str, str]

    def apply(self, core: Session) -> None:
        cleaned = {}
        for key, value in self.changes.items():
            if key not in DETAIL_FIELDS:
                raise RefereeError(
                    "{key}: expected one of {fields}",
                    key=repr(key),
                    fields=", ".join(DETAIL_FIELDS),
                )
            text = records.one_line(str(value))
            if not text or len(text) > 100:
                raise RefereeError(
                    "{key}: expected 1 to 100 characters, got {text}", key=key, text=repr(text)
                )
            if '"' in text and key != "time_control":
                text = text.replace('"', "'")
            cleaned[key] = text
        if "time_control" in cleaned:
            try:
                cleaned["time_control"] = str(TimeControl.from_string(cleaned["time_control"]))
            except ValueError as error:
                raise RefereeError.passing_on(error) from None
        fresh = not core.game.board.move_stack and core.clock.state is ClockState.READY
        if fresh and not core.game.is_over():
            core.details = {**core.details, **cleaned}
            control = core.details["time_control"]
            if "time_control" in cleaned and str(core.clock.control) != control:
                core.clock = Clock(TimeControl.from_string(control), core.now)
                core.save_clock()
            tags = games.headers(core)
            core.headers = {**tags, "Date": core.headers.get("Date", tags["Date"])}
            core.store.set_headers(core.game_id, core.headers)
            games.score_match(core)
            core.audited(self.actor, "details", {**cleaned, "game": "current"})
            return
        names = {} if core.game.is_over() else _names(cleaned)
        if names:
            core.details = {**core.details, **names}
            core.headers = {**core.headers, **{key.capitalize(): v for key, v in names.items()}}
            core.store.set_headers(core.game_id, core.headers)
            games.score_match(core)
            core.audited(self.actor, "details", {**names, "game": "current"})
        later = {key: value for key, value in cleaned.items() if key not in names}
        if later:
            core.pending = {**core.pending, **later}
            core.audited(self.actor, "details", {**later, "game": "next"})


def _names(details: Mapping[str, str]) -> dict[str, str]:
    """The players' names among ``details`` (``black``, ``white``)."""
    return {key: value for key, value in details.items() if key in ("black", "white")}


@dataclass(frozen=True)
class ExtendMatch(_Command):
    """Give the match ``games`` more games (an even number, so colours stay even: R-TRN-2)."""

    actor: str
    games: int = 2

    def apply(self, core: Session) -> None:
        if self.games < 2 or self.games % 2:
            raise RefereeError(
                "extend by {games} games: expected an even number, 2 or more", games=self.games
            )
        core.match_games += self.games
        core.headers = {**core.headers, "MatchGames": str(core.match_games)}
        core.store.set_headers(core.game_id, core.headers)
        games.score_match(core)
        core.audited(self.actor, "extend-match", {"games": core.match_games})


@dataclass(frozen=True)
class NextGame(_Command):
    """Start the next game of the match (:func:`games.start_next`: colours change, R-TRN-2,
    and a match clock carries on, R-TIM-4). After the match's last game only ``new_match``
    (game 1 of a new match, fresh clock) goes on."""

    actor: str
    new_match: bool = False

    def apply(self, core: Session) -> None:
        if _in_remote_game(core):
            raise RefereeError(
                "the next game cannot be started in a remote game: one invite is one game; give "
                "both boards a new invite (poolboard remote-invite) and restart them"
            )
        if not core.game.is_over():
            raise RefereeError("the current game has no result yet: declare one first")
        if not self.new_match and core.game_number >= core.match_games:
            raise RefereeError(
                "the match is over after its {games} games: extend it, or start a new match",
                games=core.match_games,
            )
        games.start_next(core, core.config.rules.fen or Board().fen(), new_match=self.new_match)
        action = "new-match" if self.new_match else "next-game"
        core.audited(self.actor, action, {"game_id": core.game_id})


class RefereeDesk(ABC):
    """The session's referee methods: each queues its command and waits for it to be done."""

    @abstractmethod
    def submit(self, item: Input[T]) -> T:
        """Handle ``item`` on the core's turn; its answer."""

    def pause_clock(self, actor: str) -> None:
        """Stop both clocks (the referee's pause)."""
        self.submit(PauseClock(actor))

    def resume_clock(self, actor: str) -> None:
        """Restart the clock of the side to move."""
        self.submit(ResumeClock(actor))

    def adjust_clock(self, actor: str, side: Color, seconds: float) -> None:
        """Add time to a side's clock (negative: take time)."""
        self.submit(AdjustClock(actor, side, seconds))

    def correct_move(self, actor: str, ply: int, text: str) -> None:
        """Replace recorded move ``ply`` (1-based) with ``text`` (:class:`CorrectMove`)."""
        self.submit(CorrectMove(actor, ply, text))

    def set_position(self, actor: str, fen: str) -> None:
        """Start a new game from a position; the board is cued."""
        self.submit(SetPosition(actor, fen))

    def invoke_count(self, actor: str, side: Color) -> None:
        """The weaker side calls the stronger-side count (R-DRW-4)."""
        self.submit(InvokeCount(actor, side))

    def penalty(self, actor: str, side: Color, rule: str, severity: str, note: str = "") -> None:
        """A caution, or a forfeit that ends the game (:class:`GivePenalty`)."""
        self.submit(GivePenalty(actor, side, rule, severity, note))

    def end_game(self, actor: str, how: str, side: Color | None = None, reason: str = "") -> None:
        """End the game as it happened (:class:`EndGame`)."""
        self.submit(EndGame(actor, how, side, reason))

    def declare_result(self, actor: str, result: str, reason: str) -> None:
        """End the game with a PDN result (``1/2-1/2`` or a win by
        :data:`engine.game.BLACK_WINS` / :data:`engine.game.WHITE_WINS`) as the referee's
        decision; :meth:`end_game` says more precisely how it ended."""
        if result == "1/2-1/2":
            self.end_game(actor, "referee-draw", reason=reason)
        elif result in (BLACK_WINS, WHITE_WINS):
            winner = Color.BLACK if result == BLACK_WINS else Color.WHITE
            self.end_game(actor, "referee-win", winner, reason or str(records.DECLARED_BY_REFEREE))
        else:
            raise RefereeError(
                "result must be 1-0, 0-1 or 1/2-1/2, got {result}", result=repr(result)
            )

    def void_moves(self, actor: str, count: int = 1) -> None:
        """Strike the last ``count`` moves from the record (:class:`VoidMoves`)."""
        self.submit(VoidMoves(actor, count))

    def set_details(self, actor: str, changes: Mapping[str, str]) -> None:
        """Set the game's details, now or for the next game (:class:`SetDetails`)."""
        self.submit(SetDetails(actor, dict(changes)))

    def extend_match(self, actor: str, games: int = 2) -> None:
        """Give the match ``games`` more games (an even number: R-TRN-2)."""
        self.submit(ExtendMatch(actor, games))

    def next_game(self, actor: str, new_match: bool = False) -> None:
        """Start the next game of the match, or a new match (:class:`NextGame`)."""
        self.submit(NextGame(actor, new_match))

    def request_hint(self, actor: str) -> None:
        """Look for a good move for the side to move and light it once found; RefereeError
        says why no hint can be given now."""
        self.submit(HintRequest(actor))
