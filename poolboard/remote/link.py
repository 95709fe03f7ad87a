"""The link to the other board of a remote game: MQTT through a broker (docs/remote.md).

The link mirrors this board's record (``update``, from the session's SQLite store) to the broker
and hands the other board's next move to its owner (``on_move``) for this board's player to
execute. Every message is checked (topic, signature, the other board, ply, legality, the position
after it) and anything wrong is ignored with one log line naming it, never raised. Nothing depends
on the link staying up: the records are retained, each side re-sends its moves the other has not
acknowledged whenever it connects, and a move seen twice is ignored by its ply.

A record rewound by its own board's user (a takeback, a correction, voided moves) is a numbered
:class:`Rewind` that both records then carry: the other board follows it (``on_rewind``) under
``casual`` and names it under the other profiles. Only a board's own user makes a new one, so two
boards never keep rewinding each other.
"""

from __future__ import annotations

import logging
import secrets
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import paho.mqtt.client as mqtt
from pydantic import JsonValue

from engine.board import Board, Move
from engine.color import Color
from engine.game import BLACK_WINS, DRAW, WHITE_WINS
from engine.phrase import Phrase
from poolboard.broker_client import BrokerConnection, login_client
from poolboard.records import DECIDED_THERE, reason_said
from poolboard.remote import protocol
from poolboard.remote.protocol import Invite, ProtocolError
from poolboard.remote.rewind import HERE, THERE, Rewind, number_of, rewind_from
from poolboard.remote.settings import RemoteLinkConfig

log = logging.getLogger("poolboard.remote")

#: Messages kept for the broker while it is unreachable (a game has a few hundred at most).
MAX_QUEUED = 2000
#: The results a record may carry (PDN, checkers order: 1-0 is Black's win).
RESULTS = (BLACK_WINS, WHITE_WINS, DRAW)


class Duplicate(ProtocolError):
    """A move this board has already (QoS 1 delivers at least once; moves are re-sent)."""


class Superseded(ProtocolError):
    """A move made before a rewind this board has taken, or after one it has not taken yet."""


@dataclass(frozen=True)
class PeerRecord:
    """The other board's newest record: its moves, the position after them, its rewinds, its
    result and the reason (once its game is over)."""

    moves: tuple[str, ...]
    fen: str
    rewind: Rewind | None
    result: str | None = None
    reason: JsonValue = None  # as the peer sent it: read only if it is a text


@dataclass(frozen=True)
class GameTerms:
    """What both boards must agree on before a move counts: where the game starts, its time
    control and rules."""

    start_fen: str
    time_control: str
    profile: str


@dataclass(frozen=True)
class PeerMove:
    """The other board's move for this board's player to execute: ply ``ply`` of the game."""

    ply: int
    notation: str
    move: Move
    fen: str  # the position after it


@dataclass(frozen=True)
class ClockReading:
    """The host's clock as it published it (ms left per side; ``running``: whose time runs)."""

    ply: int
    black_ms: int
    white_ms: int
    running: str | None
    state: str


class RemoteLink:
    """This board's end of a remote game (``start``/``stop``); callbacks run on paho's thread
    (a divergence found by ``update``: on its caller's), with no lock of the link held:
    ``on_move`` for the other board's next move, ``on_clock`` (guest) for the host's clock,
    ``on_result`` for a result the other board reached first (a resignation, a flag),
    ``on_problem`` for what the players must know, in words any language can say (the boards
    disagree, the terms differ; ``None``: the records agree again), ``on_link`` when the link
    comes up or goes down (``connected`` says which), ``on_rewind`` for the other board's
    rewind to follow here (its whole record; ``None``: only the far move cued here is
    withdrawn) with its words, and
    ``on_history`` for the rewind this board's record now follows, to keep for a restart."""

    def __init__(
        self,
        link: RemoteLinkConfig,
        terms: GameTerms,
        side: Color,
        *,
        on_move: Callable[[PeerMove], None] = lambda _: None,
        on_clock: Callable[[ClockReading], None] = lambda _: None,
        on_problem: Callable[[Phrase | None], None] = lambda _: None,
        on_link: Callable[[], None] = lambda: None,
        on_result: Callable[[str, str], None] = lambda _, __: None,
        on_rewind: Callable[[list[str] | None, Phrase], None] = lambda _, __: None,
        on_history: Callable[[Rewind], None] = lambda _: None,
    ) -> None:
        self.link = link
        self.terms = terms
        self.invite = Invite.parse(link.invite)
        self.board_name = link.user
        self.side = side  # the side this board's player plays
        self.on_move, self.on_clock, self.on_problem = on_move, on_clock, on_problem
        self.on_link = on_link  # the link came up or went down (``connected`` says which)
        self.on_result = on_result
        self.on_rewind, self.on_history = on_rewind, on_history
        self.boot = secrets.token_hex(6)
        self.peer: str | None = None  # the other board's name, once it has said something valid
        self.peer_plies = 0  # how many plies the other board has recorded: its acknowledgement
        self.pending: PeerMove | None = None  # handed to the owner, not yet recorded here
        self._lock = threading.RLock()
        self._moves: list[str] = []
        self._fens: list[str] = []
        self._board = Board(terms.start_fen)
        self._first = self._board.turn
        self._result: tuple[str, str] | None = None
        self._rewind: Rewind | None = None  # the newest rewind this board's record follows
        self._peer_record: PeerRecord | None = None
        self._adopting: tuple[Rewind, tuple[str, ...]] | None = None  # asked of the owner
        self._clock: ClockReading | None = None
        #: The other board's finished record (moves, result, reason): taken once this board's
        #: record has the same moves (its last move may still be executed here).
        self._peer_final: tuple[list[str], str, JsonValue] | None = None
        self._resend_due = False
        self._problems_said: set[str] = set()
        self._disagreement: Phrase | None = None  # the terms differ: no move of theirs counts
        self.connection = self._connection()
        self.client = self.connection.client

    # -- the connection ------------------------------------------------------------------------

    def _connection(self) -> BrokerConnection:
        client = login_client(self.board_name, self.link, MAX_QUEUED)
        client.on_message = self._on_message
        return BrokerConnection.to(
            self.link,
            client,
            log=log,
            who=f"board {self.board_name}",
            meanwhile="play goes on, moves wait for the link",
            on_up=self._on_up,
            on_change=lambda: self.on_link(),
        )

    @property
    def connected(self) -> threading.Event:
        """Set while the link to the broker is up."""
        return self.connection.connected

    def start(self) -> None:
        """Connect in the background; paho retries while the broker is away."""
        self.connection.start()
        log.info(
            "remote: board %s (%s, plays %s) in game %s via %s:%d",
            self.board_name,
            self.link.role,
            self.side.value,
            self.invite.game,
            self.link.broker,
            self.link.port,
        )

    def stop(self) -> None:
        """Disconnect (the retained record stays at the broker for the other board)."""
        self.connection.stop()

    def _on_up(self, client: mqtt.Client) -> None:
        """Connected: subscribe to the game, say hello and send the record (and the clock)."""
        connection = client.socket()
        if isinstance(connection, socket.socket):  # a move is one small packet: no Nagle delay
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        client.subscribe(protocol.game_filter(self.invite.game), qos=protocol.QOS)
        with self._lock:
            self._resend_due = True  # once the other board's record says what it has
            self._publish(protocol.HELLO, self._hello())
            self._publish(protocol.RECORD, self._record())
            if self._clock is not None and self.link.role == "host":
                self._publish(protocol.CLOCK, self._clock_body(self._clock))

    # -- what this board sends -----------------------------------------------------------------

    def _body(self, **fields: object) -> dict[str, object]:
        return {
            "v": protocol.PROTOCOL_VERSION,
            "game": self.invite.game,
            "board": self.board_name,
            "role": self.link.role,
            "boot": self.boot,
            "sent": int(time.time() * 1000),
            **fields,
        }

    def _hello(self) -> dict[str, object]:
        return self._body(
            plays=self.side.value,
            start_fen=self.terms.start_fen,
            time_control=self.terms.time_control,
            rules=self.terms.profile,
        )

    def _record(self) -> dict[str, object]:
        result, reason = self._result or (None, None)
        return self._body(
            plies=len(self._moves),
            moves=list(self._moves),
            fen=self._fens[-1] if self._fens else self.terms.start_fen,
            result=result,
            reason=reason,
            **self._history_fields(),
        )

    def _history_fields(self) -> dict[str, object]:
        if self._rewind is None:
            return {"rewinds": 0, "rewind": None}
        return self._rewind.fields()

    def _publish(self, kind: str, body: Mapping[str, object]) -> None:
        name = protocol.topic(self.invite.game, self.board_name, kind)
        payload = protocol.encode(self.invite, name, body)
        self.client.publish(name, payload, protocol.QOS, retain=kind in protocol.RETAINED)

    def _send_move(self, ply: int) -> None:
        body = self._body(
            ply=ply,
            move=self._moves[ply - 1],
            fen=self._fens[ply - 1],
            rewinds=number_of(self._rewind),
        )
        self._publish(protocol.MOVE, body)

    def side_of(self, ply: int) -> Color:
        """Who makes ply ``ply`` (1-based) of the game."""
        return self._first if ply % 2 else self._first.opponent

    def load(
        self,
        moves: list[str],
        result: str | None = None,
        reason: str | None = None,
        rewind: Rewind | None = None,
    ) -> None:
        """This board's record as stored, before ``start`` (a resumed game), and the rewind it
        follows as kept: sent as the record on connecting; its moves the other board has not
        acknowledged are re-sent then."""
        self._rewind = rewind
        self.update(moves, result, reason, send=False)

    def update(
        self,
        moves: list[str],
        result: str | None = None,
        reason: str | None = None,
        *,
        send: bool = True,
    ) -> None:
        """This board's record changed (``moves`` in PDN from the start, the result if over):
        send this board's new moves and the record (the acknowledgement of the other's)."""
        calls: list[Callable[[], None]] = []
        with self._lock:
            common = 0
            while (
                common < min(len(moves), len(self._moves)) and moves[common] == self._moves[common]
            ):
                common += 1
            undone = self._moves[common:]
            if undone:  # a correction or takeback: replay from the start
                self._board = Board(self.terms.start_fen)
                del self._moves[:], self._fens[:]
                for text in moves[:common]:
                    self._push(text)
            new = [self._push(text) for text in moves[common:]]
            if undone:
                self._rewound_here(common + 1, undone, calls)
            self._result = None if result is None else (result, reason or "")
            shown = self.pending
            if shown is not None and shown.ply <= len(self._moves):
                self.pending = None  # executed on this board
                if self._moves[shown.ply - 1] != shown.notation:
                    self._problem(
                        Phrase(
                            "the boards disagree at ply {ply}: the other board played {theirs}, "
                            "this one recorded {mine}; correct one of them (docs/remote.md)",
                            ply=shown.ply,
                            theirs=shown.notation,
                            mine=self._moves[shown.ply - 1],
                        ),
                        calls,
                    )
            final = self._peer_final
            if self._result is None and final is not None and final[0] == self._moves:
                self._take_result(final[1], final[2], calls)
            for ply in new if send and not undone else ():  # a rewind: the record says all
                if self.side_of(ply) is self.side:
                    self._send_move(ply)
            self._publish(protocol.RECORD, self._record())
        for call in calls:
            call()

    def _rewound_here(self, ply: int, undone: list[str], calls: list[Callable[[], None]]) -> None:
        """This board's record was rewound from ``ply`` on: the other board's rewind followed
        (its newer record begins with this one), or a new rewind of this board's own user."""
        peer, asked = self._peer_record, self._adopting
        followed: Rewind | None = None
        if asked is not None and list(asked[1]) == self._moves:
            followed = asked[0]  # the one asked for, even if the other board went on since
        elif (
            peer is not None
            and peer.rewind is not None
            and number_of(peer.rewind) >= number_of(self._rewind)
            and peer.rewind != self._rewind
            and list(peer.moves[: len(self._moves)]) == self._moves
        ):
            followed = peer.rewind  # its referee did here what the other board's did there
        if followed is not None:
            self._rewind = followed
            log.info("remote: this board's record follows the other board's again")
            self._agreed(calls)
        else:
            if len(self._moves) >= ply:
                how = "correction"
            else:
                how = "takeback" if self.terms.profile == "casual" else "void"
            number = (
                max(number_of(self._rewind), number_of(None if peer is None else peer.rewind)) + 1
            )
            self._rewind = Rewind(number, self.board_name, how, ply, tuple(undone))
            log.info("remote: this board %s (rewind %d)", self._rewind.done(self._moves), number)
            self.pending = None  # a far move cued here: dropped with the position it was for
        self._adopting = None
        rewind = self._rewind
        calls.append(lambda: self.on_history(rewind))
        if peer is not None:
            calls.append(lambda: self._retake(peer))

    def _push(self, text: str) -> int:
        self._board.push(self._board.parse_move(text))
        self._moves.append(text)
        self._fens.append(self._board.fen())
        return len(self._moves)

    def publish_clock(self, reading: ClockReading) -> None:
        """The host's clock changed: retained, so the guest adopts it even after a reconnect."""
        with self._lock:
            self._clock = reading
            if self.link.role == "host":
                self._publish(protocol.CLOCK, self._clock_body(reading))

    def _clock_body(self, reading: ClockReading) -> dict[str, object]:
        return self._body(
            ply=reading.ply,
            black=reading.black_ms,
            white=reading.white_ms,
            running=reading.running,
            state=reading.state,
        )

    # -- what the other board sends ------------------------------------------------------------

    def _on_message(self, _: mqtt.Client, __: object, message: mqtt.MQTTMessage) -> None:
        try:
            calls = self.receive(message.topic, bytes(message.payload))
        except Exception:  # a bug here must never take the board down
            log.exception("remote: could not handle %s", message.topic)
            return
        for call in calls:
            call()

    def receive(self, name: str, payload: bytes) -> list[Callable[[], None]]:
        """Check and take one message; the owner's callbacks it calls for (run them after, with
        no lock held). Anything wrong is logged once, naming what, and ignored."""
        calls: list[Callable[[], None]] = []
        if name.split("/")[3:4] == [self.board_name]:
            return calls  # this board's own messages, back from the broker
        try:
            game, board, kind = protocol.split_topic(name)
            if game != self.invite.game:
                raise ProtocolError(f"game {game!r} is not this board's game")
            if not payload:
                return calls  # a retained message being cleared
            try:
                data = protocol.decode(self.invite, name, payload)
            except protocol.VersionMismatch as error:
                if kind == protocol.HELLO:  # the players must know: no move will count
                    with self._lock:
                        self._problem(
                            Phrase(
                                "the other board speaks another remote protocol (protocol "
                                "version {theirs}; this board speaks v{ours}): run the same "
                                "poolboard version on both boards (docs/remote.md)",
                                theirs=repr(error.theirs),
                                ours=protocol.PROTOCOL_VERSION,
                            ),
                            calls,
                        )
                raise
            with self._lock:
                self._check_sender(board, data)
                if kind == protocol.HELLO:
                    self._take_hello(data, calls)
                elif kind == protocol.MOVE:
                    self._take_move(data, calls)
                elif kind == protocol.RECORD:
                    self._take_record(data, calls)
                else:
                    self._take_clock(data, calls)
        except (Duplicate, Superseded) as error:  # QoS 1, re-sending, rewinds: expected
            log.info("remote: ignored a message on %s: %s", name, error)
        except ProtocolError as error:
            log.warning("remote: ignored a message on %s: %s", name, error)
        return calls

    def _check_sender(self, board: str, data: protocol.Received) -> None:
        if data.get("board") != board or data.get("game") != self.invite.game:
            raise ProtocolError("its 'board' or 'game' is not the topic's")
        role = data.get("role")
        if role == self.link.role or role not in protocol.ROLES:
            raise ProtocolError(f"role {role!r}: this board is the {self.link.role}")
        if self.peer is None:
            self.peer = board
            log.info("remote: the other board is %s (%s)", board, role)
        elif board != self.peer:
            raise ProtocolError(f"from {board!r}, but this game's other board is {self.peer!r}")

    def _take_hello(self, data: protocol.Received, calls: list[Callable[[], None]]) -> None:
        plays = protocol.field(data, "plays", str, "black or white")
        terms = (
            (Phrase("plays"), plays, self.side.opponent.value),
            (
                Phrase("start position"),
                protocol.field(data, "start_fen", str, "a FEN"),
                self.terms.start_fen,
            ),
            (
                Phrase("time control"),
                protocol.field(data, "time_control", str, "a time control"),
                self.terms.time_control,
            ),
            (
                Phrase("rules"),
                protocol.field(data, "rules", str, "a rule profile"),
                self.terms.profile,
            ),
        )
        self._disagreement = None
        for what, value, mine in terms:
            if value != mine:
                self._disagreement = Phrase(
                    "the boards disagree on {what}: the other board has {theirs}, this one "
                    "expects {mine}; give both the same game (docs/remote.md)",
                    what=what,
                    theirs=repr(value),
                    mine=repr(mine),
                )
                self._problem(self._disagreement, calls)
                break
        self._resend_due = True  # a restarted board: re-send what it has not acknowledged

    def _take_move(self, data: protocol.Received, calls: list[Callable[[], None]]) -> None:
        ply = protocol.field(data, "ply", int, "a ply number from 1")
        notation = protocol.field(data, "move", str, "a move in PDN")
        fen = protocol.field(data, "fen", str, "the position after the move")
        if ply < 1:
            raise ProtocolError(f"ply {ply}: plies count from 1")
        if self.side_of(ply) is self.side:
            raise ProtocolError(f"ply {ply} is {self.side.value}'s, this board's own side")
        theirs, mine = (
            protocol.field(data, "rewinds", int, "a count of rewinds"),
            number_of(self._rewind),
        )
        if theirs < mine:
            raise Superseded(f"ply {ply} {notation} was made before rewind {mine}: ignored")
        if theirs > mine:
            raise Superseded(
                f"ply {ply} {notation} follows rewind {theirs}, not taken here yet: ignored "
                "(the record brings it)"
            )
        recorded = len(self._moves)
        if ply <= recorded:
            self._compare(ply, notation, fen, calls)
            raise Duplicate(f"duplicate of ply {ply} ({notation}), recorded already")
        if ply > recorded + 1:
            raise ProtocolError(
                f"ply {ply} came before ply {recorded + 1}: ignored (the record brings it in order)"
            )
        self._offer(ply, notation, fen, calls, duplicate_is_news=True)

    def _take_record(self, data: protocol.Received, calls: list[Callable[[], None]]) -> None:
        moves = protocol.field(data, "moves", list, "the list of moves")
        if not all(isinstance(text, str) for text in moves):
            raise ProtocolError("'moves' must be moves in PDN")
        fen = protocol.field(data, "fen", str, "the position after the last move")
        result = data.get("result")
        if result is not None and result not in RESULTS:
            raise ProtocolError(
                f"'result' must be one of {', '.join(RESULTS)} or null, got {result!r}"
            )
        rewind = rewind_from(data)
        if rewind is not None and len(moves) < rewind.ply - (rewind.how != "correction"):
            raise ProtocolError(
                f"its rewind at ply {rewind.ply} does not fit its {len(moves)} moves"
            )
        peer = PeerRecord(tuple(moves), fen, rewind, result, data.get("reason"))
        same = self._same_history(peer, calls)
        self._peer_record = peer  # once it has passed the checks
        if same:
            self._take_peer(peer, calls)

    def _take_peer(self, peer: PeerRecord, calls: list[Callable[[], None]]) -> None:
        """The other board's record, of the same history as this one's: compared (v1's rules),
        taken as the acknowledgement, its next move and its result taken; ProtocolError if the
        records have diverged."""
        moves, fen, result = list(peer.moves), peer.fen, peer.result
        for ply, text in enumerate(moves[: len(self._moves)], start=1):
            if text != self._moves[ply - 1]:
                self._compare(ply, text, None, calls)
                return
        if len(moves) == len(self._moves) and moves and fen != self._fens[-1]:
            self._compare(len(moves), moves[-1], fen, calls)
            return
        if len(moves) > len(self._moves) and self.side_of(len(self._moves) + 1) is self.side:
            ply = len(self._moves) + 1
            self._problem(
                Phrase(
                    "the boards disagree at ply {ply}: the other board recorded {theirs}, this "
                    "one has no such move of its own; correct one of them (docs/remote.md)",
                    ply=ply,
                    theirs=moves[ply - 1],
                ),
                calls,
            )
            return
        clash = (  # a different result at the same ply: it stays named
            self._result is not None
            and result not in (None, self._result[0])
            and len(moves) == len(self._moves)
        )
        if not clash:
            self._agreed(calls)
        self.peer_plies = len(moves)
        self._peer_final = None if result is None else (moves, result, peer.reason)
        if len(moves) == len(self._moves) + 1 and self.side_of(len(moves)) is not self.side:
            self._offer(len(moves), moves[-1], fen, calls, duplicate_is_news=False)
        if result is not None and len(moves) == len(self._moves):
            self._take_result(result, peer.reason, calls)
        if self._resend_due:
            self._resend_due = False
            unacknowledged = [
                ply
                for ply in range(self.peer_plies + 1, len(self._moves) + 1)
                if self.side_of(ply) is self.side
            ]
            for ply in unacknowledged:
                self._send_move(ply)
            if unacknowledged:
                log.info(
                    "remote: re-sent plies %s the other board had not recorded", unacknowledged
                )

    def _same_history(self, peer: PeerRecord, calls: list[Callable[[], None]]) -> bool:
        """Whether the other board's record follows the same rewinds as this one's (then v1's
        rules compare the moves). If not, the newer rewind is followed here (``casual``), named
        here (the other profiles), or waited for (it is this board's), as docs/remote.md says."""
        mine, theirs = self._rewind, peer.rewind
        if theirs == mine:
            return True
        if not self._peer_leads(peer):
            if list(peer.moves) == self._moves[: len(peer.moves)]:
                return True  # it lacks moves only (a correction of a move it had not executed)
            if mine is not None and mine.explains(peer.moves, self._moves):
                self._waiting_for_peer(mine, calls)
                return False
            return True  # v1's comparison names the divergence
        self._withdraw_dropped(peer, calls)
        if list(peer.moves[: len(self._moves)]) == self._moves:  # this board lacks moves only
            self._rewind = theirs
            if theirs is not None:
                calls.append(lambda: self.on_history(theirs))
            return True
        if theirs is None or not theirs.explains(self._moves, peer.moves):
            return True  # not a rewind of this record: v1's comparison names the divergence
        self._check_replay(peer)
        if self.terms.profile == "casual":
            self._follow(peer, theirs, calls)
        else:
            self._problem(
                Phrase(
                    "the boards disagree: the other board {done}: {instruction} (docs/remote.md)",
                    done=theirs.done(peer.moves),
                    instruction=theirs.instruction(HERE),
                ),
                calls,
            )
        return False

    def _retake(self, peer: PeerRecord) -> None:
        """The other board's record taken again after this one was rewound (it may now follow
        the same rewind, or lack this board's); run after the update that rewound it."""
        calls: list[Callable[[], None]] = []
        with self._lock:
            if self._peer_record is not peer:
                return  # a newer one came meanwhile, and was taken
            try:
                if self._same_history(peer, calls):
                    self._take_peer(peer, calls)
            except ProtocolError as error:
                log.warning("remote: the other board's record: %s", error)
        for call in calls:
            call()

    def _peer_leads(self, peer: PeerRecord) -> bool:
        """Whether the other board's rewind is newer than this board's: a higher number, or
        the same number made at the same time, where the other board's explains this record
        and this board's does not explain that one, or both do and the other is the host."""
        mine, theirs = self._rewind, peer.rewind
        if number_of(theirs) != number_of(mine):
            return number_of(theirs) > number_of(mine)
        assert theirs is not None and mine is not None  # the same number, not the same rewind
        if not theirs.explains(self._moves, peer.moves):
            return False
        return self.link.role == "guest" or not mine.explains(peer.moves, self._moves)

    def _waiting_for_peer(self, mine: Rewind, calls: list[Callable[[], None]]) -> None:
        """The other board's record lacks this board's rewind: under ``casual`` it follows
        soon (said once in the log); under the other profiles its referee must, so it is named."""
        done = mine.done(self._moves)
        if self.terms.profile == "casual":
            said = f"waiting for the other board to follow: this board {done}"
            if said not in self._problems_said:
                self._problems_said.add(said)
                log.info("remote: %s", said)
            return
        self._problem(
            Phrase(
                "the boards disagree: this board {done}; the other board has not: "
                "{instruction} (docs/remote.md)",
                done=done,
                instruction=mine.instruction(THERE),
            ),
            calls,
        )

    def _withdraw_dropped(self, peer: PeerRecord, calls: list[Callable[[], None]]) -> None:
        """The far move cued here is withdrawn if the other board's newer record has it no
        more (it took it back, voided or corrected it)."""
        shown = self.pending
        if shown is None or peer.moves[shown.ply - 1 : shown.ply] == (shown.notation,):
            return
        self.pending = None
        words = Phrase(
            "the other board withdrew ply {ply} {move}", ply=shown.ply, move=shown.notation
        )
        log.info("remote: %s", words)
        calls.append(lambda: self.on_rewind(None, words))

    def _check_replay(self, peer: PeerRecord) -> None:
        """A record to follow must replay legally from the start and reach its ``fen``."""
        board = Board(self.terms.start_fen)
        for ply, text in enumerate(peer.moves, start=1):
            try:
                board.push(board.parse_move(text))
            except ValueError as error:
                raise ProtocolError(f"its ply {ply} {text!r} is not legal: {error}") from None
        if board.fen() != peer.fen:
            raise ProtocolError(f"its moves lead to {board.fen()}, not to its 'fen' {peer.fen}")

    def _follow(self, peer: PeerRecord, rewind: Rewind, calls: list[Callable[[], None]]) -> None:
        """Ask the owner to make this board's record the other board's (``casual``), once."""
        asked = (rewind, peer.moves)
        if self._adopting == asked:
            return
        self._adopting = asked
        self.pending = None
        words = Phrase("the other board {done}", done=rewind.done(peer.moves))
        log.info("remote: %s: followed here (casual)", words)
        moves = list(peer.moves)
        calls.append(lambda: self.on_rewind(moves, words))

    def _agreed(self, calls: list[Callable[[], None]]) -> None:
        """The records agree again: a problem shown about them is cleared."""
        if self._problems_said and self._disagreement is None:
            self._problems_said.clear()
            calls.append(lambda: self.on_problem(None))

    def _take_result(self, result: str, reason: JsonValue, calls: list[Callable[[], None]]) -> None:
        """The other board's game is over at the same ply: over here too (a resignation, a
        referee's decision, a flag), or named if this board has another result."""
        why = reason if isinstance(reason, str) and reason else str(DECIDED_THERE)
        if self._result is None:
            log.info("remote: the other board's game ended %s (%s)", result, why)
            calls.append(lambda: self.on_result(result, why))
        elif self._result[0] != result:
            self._problem(
                Phrase(
                    "the boards disagree on the result: the other board has {theirs} ({why}), "
                    "this one {mine} ({mine_why})",
                    theirs=result,
                    why=reason_said(why),
                    mine=self._result[0],
                    mine_why=reason_said(self._result[1]),
                ),
                calls,
            )

    def _take_clock(self, data: protocol.Received, calls: list[Callable[[], None]]) -> None:
        if data.get("role") != "host":
            raise ProtocolError("only the host publishes the clock")
        running = data.get("running")
        if running not in (None, "black", "white"):
            raise ProtocolError(f"'running' must be black, white or null, got {running!r}")
        reading = ClockReading(
            ply=protocol.field(data, "ply", int, "a ply count"),
            black_ms=protocol.field(data, "black", int, "milliseconds left"),
            white_ms=protocol.field(data, "white", int, "milliseconds left"),
            running=running,
            state=protocol.field(data, "state", str, "the clock's state"),
        )
        self._clock = reading
        calls.append(lambda: self.on_clock(reading))

    def _offer(
        self,
        ply: int,
        notation: str,
        fen: str,
        calls: list[Callable[[], None]],
        *,
        duplicate_is_news: bool,
    ) -> None:
        """The other board's next move: checked against this board's position, then handed on."""
        if self._disagreement is not None:
            raise ProtocolError(f"ply {ply} not taken: {self._disagreement}")
        shown = self.pending
        if shown is not None and (shown.ply, shown.notation, shown.fen) == (ply, notation, fen):
            if duplicate_is_news:
                raise Duplicate(f"duplicate of ply {ply} ({notation}), shown already")
            return
        try:
            move = self._board.parse_move(notation)
        except ValueError as error:
            raise ProtocolError(f"ply {ply} {notation!r} is not legal here: {error}") from None
        after = self._board.copy()
        after.push(move)
        if after.fen() != fen:
            raise ProtocolError(
                f"ply {ply} {notation}: the other board says it leads to {fen}, "
                f"here to {after.fen()}"
            )
        self.pending = PeerMove(ply, notation, move, fen)
        self._problems_said.clear()  # the boards agree again: a new problem is news
        log.info("remote: the other board played ply %d %s", ply, notation)
        peer_move = self.pending
        calls.append(lambda: self.on_move(peer_move))

    def _compare(
        self, ply: int, notation: str, fen: str | None, calls: list[Callable[[], None]]
    ) -> None:
        """A ply both boards have: the same move and position, or the boards have diverged."""
        mine, mine_fen = self._moves[ply - 1], self._fens[ply - 1]
        if notation != mine or (fen is not None and fen != mine_fen):
            self._problem(
                Phrase(
                    "the boards disagree at ply {ply}: the other board recorded {theirs}, this "
                    "one {mine}; correct one of them (docs/remote.md)",
                    ply=ply,
                    theirs=notation,
                    mine=mine,
                ),
                calls,
            )
            raise ProtocolError(f"ply {ply}: diverged ({notation} there, {mine} here)")

    def _problem(self, text: Phrase, calls: list[Callable[[], None]]) -> None:
        if str(text) not in self._problems_said:
            self._problems_said.add(str(text))
            log.error("remote: %s", text)
            calls.append(lambda: self.on_problem(text))
