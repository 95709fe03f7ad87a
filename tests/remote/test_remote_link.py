"""The remote link between two boards over a real Mosquitto (docs/remote.md): moves, their
acknowledgement, what a third client or a broken message cannot do, and a broker restart."""

import json
import logging
import time

import pytest

from engine.board import Board
from poolboard.remote import protocol
from poolboard.remote.link import ClockReading
from poolboard.remote.protocol import Invite
from tests.hall.conftest import TABLES, needs_mosquitto, refusals
from tests.patience import wait_for
from tests.remote.conftest import INVITE, Board_, raw_client, settle_logs

pytestmark = needs_mosquitto


@pytest.fixture
def pair(broker):
    host = Board_(broker.port, "t1", "host", "black").start()
    guest = Board_(broker.port, "t2", "guest", "white").start()
    yield host, guest
    host.link.stop()
    guest.link.stop()


def test_moves_cross_both_ways_and_are_acknowledged(pair) -> None:
    host, guest = pair
    host.play("11-15")
    wait_for(lambda: guest.offered, "the host's 11-15 reaching the guest")
    assert guest.offered[0].ply == 1 and guest.offered[0].notation == "11-15"
    guest.play("11-15")  # executed on the guest's board
    wait_for(lambda: host.link.peer_plies == 1, "the guest acknowledging ply 1")
    guest.play("23-19")
    wait_for(lambda: host.offered, "the guest's 23-19 reaching the host")
    assert [(m.ply, m.notation) for m in host.offered] == [(2, "23-19")]
    host.play("23-19")
    wait_for(lambda: guest.link.peer_plies == 2, "the host acknowledging ply 2")
    assert host.link.peer == "t2" and guest.link.peer == "t1"
    assert not host.problems and not guest.problems


def test_a_result_sent_with_the_last_move_ends_the_game_once_that_move_is_executed(pair):
    host, guest = pair
    host.moves.append("11-15")  # the host's player moves, and resigns before the guest executes
    host.link.update(list(host.moves), "0-1", "Black resigned")
    wait_for(lambda: guest.offered, "ply 1 reaching the guest")
    settle_logs(0.3)
    assert guest.results == []  # the move is not on the guest's board yet
    guest.play("11-15")
    wait_for(lambda: guest.results, "the host's result, once ply 1 is executed")
    assert guest.results == [("0-1", "Black resigned")]
    assert not guest.problems


def test_the_hosts_clock_reaches_the_guest(pair) -> None:
    host, guest = pair
    host.link.publish_clock(ClockReading(1, 1_799_000, 1_800_000, "white", "running"))
    wait_for(lambda: guest.clocks, "the host's clock reaching the guest")
    assert guest.clocks[-1] == ClockReading(1, 1_799_000, 1_800_000, "white", "running")


def test_garbage_duplicates_and_out_of_order_are_ignored_with_one_line(pair, broker, caplog):
    host, guest = pair
    caplog.set_level(logging.INFO, logger="poolboard.remote")
    host.play("11-15")
    wait_for(lambda: guest.offered, "ply 1 reaching the guest")
    guest.play("11-15")
    guest.play("23-19")
    wait_for(lambda: host.offered, "ply 2 reaching the host")
    # A client holding t2's broker password (but it is the invite that signs) sends rubbish.
    sender = raw_client(broker.port, "t2", TABLES["t2"])
    move_topic = protocol.topic(INVITE.game, "t2", protocol.MOVE)

    def signed(**fields) -> bytes:
        body = {
            "v": 2,
            "game": INVITE.game,
            "board": "t2",
            "role": "guest",
            "sent": 0,
            "rewinds": 0,
        }
        body |= fields
        return protocol.encode(INVITE, move_topic, body)

    board = Board()
    board.push_notation("11-15")
    board.push_notation("23-19")
    fen2 = board.fen()
    cases = {
        b"\xff\xfe not json": "not UTF-8 JSON",
        b"[1, 2]": "expected a JSON object",
        b"[" * 5000: "JSON nested too deeply",
        b" " * 70_000 + b"{}": "70002 bytes, longer than 65536",
        json.dumps({"v": 1, "ply": 4}).encode(): "no signature",
        signed(ply=2, move="23-19", fen=fen2): "duplicate of ply 2 (23-19), shown already",
        signed(ply=6, move="26-22", fen=fen2): "ply 6 came before ply 2",
        signed(ply="two", move="23-19", fen=fen2): "'ply' must be a ply number",
        signed(ply=1, move="11-15", fen=fen2): "ply 1 is black's, this board's own side",
        signed(ply=2, move="24-20", fen=fen2): "the other board says it leads to",
        signed(ply=2, move="30-26", fen=fen2): "is not legal here",
    }
    for payload in cases:
        sender.publish(move_topic, payload, qos=1).wait_for_publish(5)
    sender.publish(protocol.topic(INVITE.game, "t2", "chat"), b"hi", qos=1).wait_for_publish(5)
    settle_logs()
    lines = [r.getMessage() for r in caplog.records if r.name == "poolboard.remote"]
    for why in cases.values():
        found = [line for line in lines if why in line]
        assert len(found) == 1, (why, lines)
        assert move_topic in found[0]
    assert any("is not poolboard/remote/<game>/<board>" in line for line in lines)
    assert [m.notation for m in host.offered] == ["23-19"], "nothing but the real ply 2"
    host.play("23-19")  # the game goes on after all that
    host.play("8-11")
    wait_for(lambda: len(guest.offered) == 2, "ply 3 reaching the guest")
    sender.loop_stop()


def test_a_third_client_cannot_forge_a_move(pair, broker, caplog) -> None:
    host, guest = pair
    caplog.set_level(logging.WARNING, logger="poolboard.remote")
    host.play("11-15")
    wait_for(lambda: guest.offered, "ply 1 reaching the guest")
    guest.play("11-15")
    board = Board()
    board.push_notation("11-15")
    forged_move = "22-18"
    board.push_notation(forged_move)
    forger = raw_client(broker.port, "t3", TABLES["t3"])  # on the broker, without the invite
    body = {"v": 2, "game": INVITE.game, "role": "guest", "sent": 0, "ply": 2, "rewinds": 0}
    body |= {"move": forged_move, "fen": board.fen()}
    # Into the guest's own topic: the broker's ACL drops it (t3 writes only t3's topics).
    into_guest = protocol.topic(INVITE.game, "t2", protocol.MOVE)
    forger.publish(into_guest, json.dumps({**body, "board": "t2", "sig": "0" * 64}), qos=1)
    # Into its own topic, signed with a guessed invite: the signature gives it away.
    own = protocol.topic(INVITE.game, "t3", protocol.MOVE)
    guessed = Invite(INVITE.game, "guessed-guessed-guessed")
    forger.publish(own, protocol.encode(guessed, own, {**body, "board": "t3"}), qos=1)
    settle_logs()
    lines = [r.getMessage() for r in caplog.records if r.name == "poolboard.remote"]
    assert not host.offered, "no forged move reached the host's board"
    assert [line for line in lines if own in line and "wrong signature" in line]
    assert not [line for line in lines if into_guest in line], "the broker never delivered it"
    guest.play(forged_move.replace("22-18", "23-19"))
    wait_for(lambda: host.offered, "the real ply 2")
    assert host.offered[0].notation == "23-19"
    forger.loop_stop()


def test_a_third_board_with_the_invite_is_not_the_other_board(pair, broker, caplog) -> None:
    host, guest = pair
    caplog.set_level(logging.WARNING, logger="poolboard.remote")
    host.play("11-15")
    wait_for(lambda: guest.offered, "ply 1 reaching the guest")
    intruder = Board_(broker.port, "t3", "guest", "white").start()  # holds the invite too
    intruder.play("11-15")
    intruder.play("22-18")
    settle_logs()
    assert not host.offered
    lines = [r.getMessage() for r in caplog.records if r.name == "poolboard.remote"]
    assert any("from 't3', but this game's other board is 't2'" in line for line in lines)
    intruder.link.stop()


def test_moves_made_while_the_broker_is_down_arrive_after_it_restarts(pair, broker) -> None:
    host, guest = pair
    host.play("11-15")
    wait_for(lambda: guest.offered, "ply 1")
    guest.play("11-15")
    broker.process.kill()  # SIGKILL: no goodbye to anyone
    broker.process.wait()
    guest.play("23-19")  # made while the link is down: queued and in the retained record
    wait_for(lambda: not host.link.connected.is_set(), "the host noticing the broker gone")
    broker.start()
    wait_for(lambda: host.offered, "ply 2 after the broker came back")
    assert host.links == [True, False, True]  # the pages hear of each change, once it is so
    assert [(m.ply, m.notation) for m in host.offered] == [(2, "23-19")]
    host.play("23-19")
    wait_for(lambda: guest.link.peer_plies == 2, "the host acknowledging ply 2")


def test_a_board_that_restarts_gets_the_move_it_missed(pair, broker) -> None:
    host, guest = pair
    host.play("11-15")
    wait_for(lambda: guest.offered, "ply 1")
    guest.link.stop()  # the guest's service goes away before its player executes ply 1
    again = Board_(broker.port, "t2", "guest", "white")
    again.link.load([])  # its store has no move yet
    again.start()
    wait_for(lambda: again.offered, "ply 1 from the host's retained record")
    assert again.offered[0].notation == "11-15"
    again.play("11-15")
    again.play("23-19")
    wait_for(lambda: host.offered, "the restarted guest's ply 2")
    again.link.stop()


def test_a_restarted_board_resends_what_was_not_acknowledged(pair, broker) -> None:
    host, guest = pair
    host.play("11-15")
    wait_for(lambda: guest.offered, "ply 1")
    host.link.stop()
    guest.play("11-15")
    guest.play("23-19")  # the host is away: the move waits in the guest's retained record
    again = Board_(broker.port, "t1", "host", "black")
    again.link.load(["11-15"])  # the host's store, as it resumed
    again.start()
    wait_for(lambda: again.offered, "ply 2 for the restarted host")
    assert again.offered[0].notation == "23-19"
    again.link.stop()


def test_boards_that_disagree_on_the_game_say_so(broker) -> None:
    host = Board_(broker.port, "t1", "host", "black").start()
    other = Board_(broker.port, "t2", "guest", "black").start()  # both want Black
    wait_for(lambda: host.problems, "the host naming the disagreement")
    assert "the boards disagree on plays" in host.problems[0]
    other.play("11-15")
    settle_logs(0.3)
    assert not host.offered
    host.link.stop()
    other.link.stop()


def test_boards_whose_records_differ_say_where(pair) -> None:
    host, guest = pair
    host.play("11-15")
    wait_for(lambda: guest.offered, "ply 1")
    guest.play("10-14")  # the guest's board recorded something else (a wrong correction)
    wait_for(lambda: host.problems, "the host naming the divergence")
    assert (
        "the boards disagree at ply 1: the other board recorded 10-14, this one 11-15"
        in (host.problems[0])
    )
    wait_for(lambda: guest.problems, "the guest naming it too")
    assert "at ply 1" in guest.problems[0]


def test_a_board_started_while_the_broker_is_down_says_so_once_and_joins_later(
    broker, caplog
) -> None:
    caplog.set_level(logging.INFO, logger="poolboard.remote")
    broker.stop()
    host = Board_(broker.port, "t1", "host", "black")
    host.link.start()
    time.sleep(2.5)  # paho retries every 1-4 s
    lines = [r.getMessage() for r in caplog.records if "cannot reach the broker" in r.getMessage()]
    assert len(lines) == 1, lines
    host.play("11-15")  # played while the broker is away: the record carries it
    broker.start()
    guest = Board_(broker.port, "t2", "guest", "white").start()
    wait_for(lambda: guest.offered, "the host's ply 1 once the broker is up")
    assert guest.offered[0].notation == "11-15"
    host.link.stop()
    guest.link.stop()


def test_a_board_the_broker_refuses_says_so_once_and_its_link_stays_down(broker, caplog) -> None:
    caplog.set_level(logging.INFO, logger="poolboard.remote")
    board = Board_(broker.port, "t1", "host", "black", password="not-its-password")
    board.link.start()
    wait_for(lambda: refusals(broker) >= 3, "paho trying three times")
    lines = [r for r in caplog.records if "refused" in r.getMessage()]
    assert [(r.levelno, r.getMessage()) for r in lines] == [
        (
            logging.ERROR,
            f"remote: the broker 127.0.0.1:{broker.port} refused board t1: Not authorized; "
            "play goes on, moves wait for the link; retrying",
        )
    ]
    assert not board.link.connected.is_set() and board.links == []  # never up: no change
    assert not [r for r in caplog.records if "lost the broker" in r.getMessage()]
    board.link.stop()


def test_a_board_speaking_another_protocol_version_is_named(pair, broker, caplog) -> None:
    host, _ = pair
    caplog.set_level(logging.WARNING, logger="poolboard.remote")
    sender = raw_client(broker.port, "t2", TABLES["t2"])
    hello = protocol.topic(INVITE.game, "t2", protocol.HELLO)
    body = {"v": 1, "game": INVITE.game, "board": "t2", "role": "guest", "sent": 0}
    sender.publish(hello, protocol.encode(INVITE, hello, body), qos=1).wait_for_publish(5)
    expected = (
        "the other board speaks another remote protocol (protocol version 1; this board "
        "speaks v2): run the same poolboard version on both boards (docs/remote.md)"
    )
    # The boards' own records agreeing may be told (as None) before or after it.
    wait_for(lambda: expected in host.problems, "the host naming the version")
    assert {p for p in host.problems if p is not None} == {expected}
    sender.loop_stop()
