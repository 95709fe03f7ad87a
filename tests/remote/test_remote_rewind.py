"""A takeback or a correction on one board of a remote game (docs/remote.md, protocol v2): two
sessions on simulated boards play over a real Mosquitto. Under ``casual`` the other board follows
(its store, its LEDs cueing the restore, its clock, a far move it had cued withdrawn); under
``apca`` both name what to do; a duplicate, a forged and a stale rewind change nothing; a rewind
made while the other board is down (and the rewinding board restarted meanwhile) is followed
when it comes back."""

import json
import logging
import time
from pathlib import Path

import pytest

from engine.board import Board
from engine.color import Color
from engine.cues import CueKind
from poolboard.config import OpponentConfig, RulesConfig
from poolboard.remote import protocol
from poolboard.remote.opponent import RemoteOpponent
from poolboard.remote.protocol import Invite
from poolboard.words import said
from tests.hall.conftest import TABLES, needs_mosquitto
from tests.patience import PATIENCE, wait_for
from tests.remote.conftest import loopback_link, raw_client, settle_logs
from tests.service.conftest import OpponentTable, status

pytestmark = needs_mosquitto

INVITE = Invite("rewind42", "s3cret-s3cret-s3cret")


class RemoteTable(OpponentTable):
    """One board of the game: its session plays the far board through the broker. The hand's
    moves hold the session's lock, as the service's loop does (the link's thread takes it too)."""

    def __init__(self, folder: Path, port: int, user: str, role: str, far: str, profile: str):
        self.link_config = loopback_link(port, user, role, INVITE)
        super().__init__(
            folder,
            RemoteOpponent(Color(far), self.link_config),
            opponent=OpponentConfig(kind="remote", side=far),
            remote=self.link_config,
            rules=RulesConfig(profile=profile),
        )
        self.closed = False
        link = self.session.opponent.link
        assert link is not None and link.connected.wait(5), "the link did not connect"

    def show(self, squares: set[int]) -> None:
        with self.session.lock:
            super().show(squares)

    def settle(self, seconds: float = 0.5) -> None:
        with self.session.lock:
            super().settle(seconds)

    def execute_cued(self) -> str:
        """The hand makes the far move cued on the LEDs; its notation."""
        wait_for(lambda: status(self) == "execute", "the far move cued")
        expected = self.session.tracker.expected
        notation = self.session.game.board.notation(expected)
        self.move(expected.path[0], expected.path[-1], *expected.captures)
        return notation

    def stored(self) -> list[str]:
        return [m.notation for m in self.session.store.game(self.session.game_id).moves]

    def restore_cued(self) -> bool:
        leds = self.leds
        return bool(leds.squares(CueKind.RESTORE_FILL) or leds.squares(CueKind.RESTORE_CLEAR))

    def audited(self, action: str) -> list[dict]:
        log = self.session.store.audit_log(self.session.game_id)
        return [data for _, _, done, data in log if done == action]

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.session.close()


def position_after(*moves: str) -> set[int]:
    """The occupied squares after ``moves`` from the start."""
    board = Board()
    for text in moves:
        board.push_notation(text)
    return set(board.occupied_squares())


@pytest.fixture
def boards(broker, tmp_path):
    """``boards(profile)``: the host (Black, t1) and the guest (White, t2), both set up."""
    made: list[RemoteTable] = []

    def make(profile: str = "casual") -> tuple[RemoteTable, RemoteTable]:
        host = RemoteTable(tmp_path / "host", broker.port, "t1", "host", "white", profile)
        guest = RemoteTable(tmp_path / "guest", broker.port, "t2", "guest", "black", profile)
        made.extend((host, guest))
        host.set_up()
        guest.set_up()
        return host, guest

    yield make
    for table in made:
        table.close()


def opening(host: RemoteTable, guest: RemoteTable) -> None:
    """11-15 at the host, executed at the guest; 23-19 at the guest, executed at the host."""
    host.move(11, 15)
    assert guest.execute_cued() == "11-15"
    guest.move(23, 19)
    assert host.execute_cued() == "23-19"
    wait_for(lambda: guest.session.opponent.link.peer_plies == 2, "the host acknowledging ply 2")
    assert host.stored() == guest.stored() == ["11-15", "23-19"]


def both_agree(host: RemoteTable, guest: RemoteTable, moves: list[str]) -> None:
    wait_for(
        lambda: host.stored() == moves and guest.stored() == moves, "both boards storing the moves"
    )
    wait_for(lambda: host.session.opponent.link.peer_plies == len(moves), "the guest acknowledging")
    wait_for(lambda: guest.session.opponent.link.peer_plies == len(moves), "the host acknowledging")


def test_a_casual_takeback_on_the_guest_is_followed_by_the_host(boards) -> None:
    host, guest = boards("casual")
    opening(host, guest)
    guest.move(19, 23)  # the guest's player takes back 23-19 (the host has not replied yet)
    assert guest.stored() == ["11-15"]
    both_agree(host, guest, ["11-15"])
    # The host's board still shows 23-19: cued back.
    wait_for(host.restore_cued, "the host cued back")
    assert host.audited("rewind")[0]["words"] == "the other board took back 23-19 at ply 2"
    host.move(19, 23)  # the host's hand puts it back, as cued
    assert not host.restore_cued()
    assert host.session.clock.running is guest.session.clock.running is Color.WHITE
    guest.move(22, 18)  # and the game goes on from there
    assert host.execute_cued() == "22-18"
    both_agree(host, guest, ["11-15", "22-18"])
    assert host.session.opponent.problem is None and guest.session.opponent.problem is None


def test_a_casual_takeback_on_the_host_undoes_two_plies_on_both_boards(boards) -> None:
    host, guest = boards("casual")
    opening(host, guest)
    host.time.now += 30  # the host's player thinks, then takes back
    host.move(19, 23)  # the far reply back first ("put back your own move too")...
    host.move(15, 11)  # ...then the host's own move: both plies go
    assert host.stored() == []
    both_agree(host, guest, [])
    wait_for(guest.restore_cued, "the guest cued back")
    assert guest.audited("rewind")[0]["words"] == "the other board took back 11-15 23-19 from ply 1"
    guest.move(15, 11)  # (this order: no half-way position is a move of the far side's)
    guest.move(19, 23)
    assert not guest.restore_cued()
    assert guest.session.clock.running is host.session.clock.running is Color.BLACK
    # The host's clock is the game's: the guest took its reading after the takeback (the 30 s
    # the host's player thought first included; the restore on the guest's board runs on).
    host_black = host.session.clock.remaining(Color.BLACK)
    wait_for(
        lambda: abs(guest.session.clock.remaining(Color.BLACK) - host_black) < 2,
        "the guest's clock agreeing with the host's",
    )
    host.move(9, 14)
    assert guest.execute_cued() == "9-14"
    both_agree(host, guest, ["9-14"])


def test_a_referee_correction_is_followed_in_casual(boards) -> None:
    host, guest = boards("casual")
    opening(host, guest)
    host.session.correct_move("referee", 1, "10-15")  # 23-19 stays legal after it: kept
    both_agree(host, guest, ["10-15", "23-19"])
    wait_for(guest.restore_cued, "the guest cued back")
    assert guest.audited("rewind")[0]["words"] == "the other board corrected ply 1 to 10-15"


def shows(table, text: str) -> None:
    """Wait until ``table``'s board names ``text`` as the problem with the other board (another
    may come first while the two records cross); on a timeout, what it names instead."""
    deadline = time.monotonic() + PATIENCE
    while problem(table) != text and time.monotonic() < deadline:
        time.sleep(0.01)
    assert problem(table) == text


def problem(table) -> str | None:
    """The problem with the other board as the pages get it (in English)."""
    return table.session.state()["opponent"]["problem"]


def test_under_apca_a_correction_is_named_on_both_boards_not_followed(boards) -> None:
    host, guest = boards("apca")
    opening(host, guest)
    host.session.correct_move("referee", 1, "10-15")
    shows(
        guest,
        (
            "the boards disagree: the other board corrected ply 1 to 10-15: correct it here "
            "(the referee's correction) (docs/remote.md)"
        ),
    )
    assert said(guest.session.opponent.problem, "es") == (
        "los tableros no coinciden: el otro tablero corrigió la media jugada 1 a 10-15: "
        "corríjala aquí (la corrección del árbitro) (docs/remote.md)"
    )
    shows(
        host,
        (
            "the boards disagree: this board corrected ply 1 to 10-15; the other board has not: "
            "correct it there (the referee's correction) (docs/remote.md)"
        ),
    )
    assert guest.stored() == ["11-15", "23-19"] and not guest.audited("rewind")
    guest.session.correct_move("referee", 1, "10-15")  # as it says: the records agree again
    both_agree(host, guest, ["10-15", "23-19"])
    wait_for(
        lambda: host.session.opponent.problem is guest.session.opponent.problem is None,
        "both boards agreeing again",
    )


def test_under_classic_voided_moves_are_named_with_how_to_void_them(boards) -> None:
    host, guest = boards("classic")
    opening(host, guest)
    guest.session.void_moves("referee", 2)  # the guest's referee strikes both moves
    shows(
        host,
        (
            "the boards disagree: the other board voided 11-15 23-19 from ply 1: void them here "
            "too (the referee's void) (docs/remote.md)"
        ),
    )
    assert said(host.session.opponent.problem, "es") == (
        "los tableros no coinciden: el otro tablero anuló 11-15 23-19 desde la media jugada 1: "
        "anúlelas aquí también (la anulación del árbitro) (docs/remote.md)"
    )
    assert host.stored() == ["11-15", "23-19"] and not host.audited("rewind")
    host.session.void_moves("referee", 2)
    both_agree(host, guest, [])
    wait_for(
        lambda: host.session.opponent.problem is guest.session.opponent.problem is None,
        "both boards agreeing again",
    )


def test_a_duplicate_a_forged_and_a_wrong_rewind_change_nothing(boards, broker, caplog) -> None:
    caplog.set_level(logging.INFO, logger="poolboard.remote")
    host, guest = boards("casual")
    opening(host, guest)
    record_topic = protocol.topic(INVITE.game, "t2", protocol.RECORD)
    seen: list[bytes] = []
    listener = raw_client(broker.port, "t3", TABLES["t3"])
    listener.on_message = lambda _, __, message: seen.append(bytes(message.payload))
    listener.subscribe(record_topic, qos=1)
    guest.move(19, 23)  # a real takeback, followed once
    both_agree(host, guest, ["11-15"])
    rewind_payload = wait_for(
        lambda: next((p for p in seen if json.loads(p)["rewinds"] == 1), None), "a rewind published"
    )

    sender = raw_client(broker.port, "t2", TABLES["t2"])  # t2's broker password, not the invite
    board = Board()
    board.push_notation("10-15")
    base = {"v": 2, "game": INVITE.game, "board": "t2", "role": "guest", "boot": "x", "sent": 0}
    wrong = {
        **base,
        "plies": 1,
        "moves": ["10-15"],
        "fen": board.fen(),
        "result": None,
        "reason": None,
        "rewinds": 2,
        "rewind": {"by": "t2", "how": "correction", "ply": 1, "undone": ["11-15"]},
    }
    guessed = Invite(INVITE.game, "guessed-guessed-guessed")
    publish = [
        rewind_payload,  # the same rewind again (QoS 1, a reconnect): nothing new
        protocol.encode(guessed, record_topic, wrong),  # without the invite
        protocol.encode(INVITE, record_topic, {**wrong, "moves": ["10-16"]}),  # not legal
        protocol.encode(INVITE, record_topic, {**wrong, "fen": Board().fen()}),  # wrong fen
        protocol.encode(INVITE, record_topic, {**wrong, "rewind": {"how": "redo"}}),
        protocol.encode(INVITE, record_topic, {**wrong, "rewind": {**wrong["rewind"], "ply": 9}}),
    ]
    for payload in publish:
        sender.publish(record_topic, payload, qos=1).wait_for_publish(5)
    settle_logs()
    lines = [r.getMessage() for r in caplog.records if r.name == "poolboard.remote"]
    for why in (
        "wrong signature",
        "its ply 1 '10-16' is not legal",
        "its moves lead to",
        "'how' must be one of takeback, correction, void",
        "its rewind at ply 9 does not fit its 1 moves",
    ):
        assert len([line for line in lines if why in line and record_topic in line]) == 1, why
    assert len(host.audited("rewind")) == 1, "the real rewind was followed once, no more"
    assert host.stored() == ["11-15"]
    host.move(19, 23)
    guest.move(22, 18)
    assert host.execute_cued() == "22-18"
    both_agree(host, guest, ["11-15", "22-18"])
    for client in (listener, sender):
        client.loop_stop()
        client.disconnect()


def test_a_takeback_crossing_the_reply_in_flight_is_followed_and_the_reply_dropped(
    boards, broker
) -> None:
    host, guest = boards("casual")
    opening(host, guest)
    host.move(8, 11)  # ply 3, cued at the guest
    wait_for(lambda: status(guest) == "execute", "the far move cued at the guest")
    broker.process.kill()  # the link drops (SIGKILL): what follows crosses
    broker.process.wait()
    guest.execute_cued()  # the guest executes 8-11 and replies 24-20, queued for the host...
    guest.move(24, 20)
    host.move(11, 8)  # ...while the host's player takes 8-11 back
    broker.start()
    both_agree(host, guest, ["11-15", "23-19"])  # the guest follows: its 8-11, 24-20 go
    wait_for(guest.restore_cued, "the guest cued back")
    assert not host.session.tracker.expected, "the crossing reply was never cued at the host"
    assert not host.audited("rewind"), "the host's own takeback stands"
    guest.move(20, 24)
    guest.move(11, 8)
    assert not guest.restore_cued()
    assert guest.session.clock.running is host.session.clock.running is Color.BLACK
    host.move(9, 14)
    assert guest.execute_cued() == "9-14"
    both_agree(host, guest, ["11-15", "23-19", "9-14"])


def test_a_far_move_taken_back_before_it_is_executed_is_withdrawn(boards) -> None:
    host, guest = boards("casual")
    opening(host, guest)
    host.move(8, 11)  # cued at the guest...
    wait_for(lambda: status(guest) == "execute", "the far move cued at the guest")
    assert guest.session.clock.running is Color.WHITE  # the guest's player runs while executing
    host.move(11, 8)  # ...and taken back at the host before the guest's player executes it
    wait_for(lambda: status(guest) != "execute", "the guest's cue withdrawn")
    assert guest.session.tracker.expected is None and not guest.leds.squares(CueKind.PLAY_FROM)
    assert guest.session.clock.running is host.session.clock.running is Color.BLACK
    assert guest.audited("rewind")[0]["words"] == "the other board withdrew ply 3 8-11"
    host.move(9, 14)
    assert guest.execute_cued() == "9-14"
    both_agree(host, guest, ["11-15", "23-19", "9-14"])


def test_a_rewind_made_while_the_other_board_is_down_is_followed_when_it_returns(
    boards, broker, tmp_path
) -> None:
    host, guest = boards("casual")
    opening(host, guest)
    host.close()  # the host's service stops (its record stays retained at the broker)
    guest.move(19, 23)  # the guest takes back 23-19 meanwhile...
    guest.close()  # ...and its service restarts before the host is back
    guest = RemoteTable(tmp_path / "guest", broker.port, "t2", "guest", "black", "casual")
    guest.set_up()
    host = RemoteTable(tmp_path / "host", broker.port, "t1", "host", "white", "casual")
    host.show(position_after("11-15", "23-19"))  # its board as it was left
    both_agree(host, guest, ["11-15"])
    wait_for(host.restore_cued, "the host cued back")
    host.move(19, 23)
    guest.move(22, 18)
    assert host.execute_cued() == "22-18"
    both_agree(host, guest, ["11-15", "22-18"])
    host.close()
    guest.close()
