"""Two ``poolboard run`` services, each on its simulated board, play a remote game over a real
Mosquitto (docs/remote.md): each player's hand executes, on its own board, the move cued from
the other board. Mid-game the broker is killed (SIGKILL) with a move made while it is away,
later the guest's service is killed with the host's move on its way, then the host's (the
clock's authority) with the guest's; all come back and the game goes on. At the end both stores
hold the same game, the clocks agree, and a resignation at one board ends the other's game."""

import random
import re
import subprocess
import sys
import time

from engine.board import Board
from poolboard.remote.protocol import Invite
from tests.hall.conftest import TABLES, TableProcess, needs_mosquitto
from tests.patience import wait_for

pytestmark = needs_mosquitto

PLIES = 14


def scripted_game(seed: int = 15) -> list[str]:
    """A legal game of PLIES plies (captures included when they come), fixed by ``seed``."""
    board, moves, chooser = Board(), [], random.Random(seed)
    for _ in range(PLIES):
        move = chooser.choice(board.generate_legal_moves())
        moves.append(board.notation(move))
        board.push(move)
    return moves


def remote_config(invite: Invite, role: str, far_side: str) -> str:
    """The sections that make a board play ``invite``'s game (appended after its [hall])."""
    return (
        f'\n[opponent]\nkind = "remote"\nside = "{far_side}"\n'
        f'[remote]\nbroker = "127.0.0.1"\nport = {{port}}\nuser = "{{user}}"\n'
        f'password = "{{password}}"\ninvite = "{invite}"\nrole = "{role}"\nkeepalive = 2\n'
    )


def start_board(tmp_path, name: str, port: int, sections: str) -> TableProcess:
    extra = sections.format(port=port, user=name, password=TABLES[name])
    return TableProcess(tmp_path, name, port, extra, in_hall=False, black="Ann", white="Bob")


def state(board: TableProcess) -> dict:
    return board.http.get("/api/state").json()


def execute_cued(board: TableProcess, text: str) -> None:
    """The player at ``board`` sees the far move cued and makes it on the board."""
    opponent = wait_for(
        lambda: (o := state(board)["opponent"]) and o["status"] == "execute" and o,
        f"{board.name}: the far move {text} cued",
    )
    assert opponent["move"] == text
    assert state(board)["cues"], "the move is shown with LED cues"
    board.play(text)


def execute_wrongly_then_right(board: TableProcess, text: str) -> None:
    """The player at ``board`` first makes another legal move than the one cued: it is not
    recorded and the board is cued back; put back, then the cued move is made and recorded."""
    wait_for(lambda: state(board)["opponent"]["status"] == "execute", "the far move cued")
    recorded = len(state(board)["moves"])
    position = Board(state(board)["fen"])
    wrong = next(m for m in position.generate_legal_moves() if position.notation(m) != text)
    before = set(position.occupied_squares())
    board.show(((before - {wrong.from_square}) | {wrong.to_square}) - set(wrong.captures))
    seen = wait_for(
        lambda: (now := state(board))["state"]["name"] == "restore" and now, "the board cued back"
    )
    assert len(seen["moves"]) == recorded, "a move other than the cued one is not recorded"
    assert seen["state"]["name"] == "restore" and f"then play {text}" in seen["state"]["detail"]
    assert {"restore-fill", "restore-clear"} <= set(seen["cues"].values()), "cued back"
    board.show(before)
    execute_cued(board, text)


def pdn_moves(board: TableProcess) -> tuple[str, str]:
    """The game as ``poolboard export`` writes it: its tags and moves, clock comments aside."""
    done = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "export", "--config", str(board.config)],
        capture_output=True,
        text=True,
        check=True,
    )
    text = re.sub(r"\{[^}]*\}", "", done.stdout)
    tags = "\n".join(
        line for line in text.splitlines() if re.match(r'\[(Black|White|Result) "', line)
    )
    movetext = " ".join(line for line in text.splitlines() if not line.startswith("["))
    return tags, " ".join(movetext.split())


def clock_comments(board: TableProcess) -> list[float]:
    """Seconds left for the mover after each ply, from the exported ``[%clk h:mm:ss]``."""
    done = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "export", "--config", str(board.config)],
        capture_output=True,
        text=True,
        check=True,
    )
    times = re.findall(r"\[%clk (\d+):(\d+):([\d.]+)\]", done.stdout)
    return [int(h) * 3600 + int(m) * 60 + float(sec) for h, m, sec in times]


def test_a_remote_game_survives_killing_the_broker_and_each_service(tmp_path, broker) -> None:
    invite = Invite.new()
    host = start_board(tmp_path, "t1", broker.port, remote_config(invite, "host", "white"))
    guest = start_board(tmp_path, "t2", broker.port, remote_config(invite, "guest", "black"))
    try:
        script = scripted_game()
        for ply, text in enumerate(script, start=1):
            mover, far = (host, guest) if ply % 2 else (guest, host)
            if ply == 5:  # the link drops: the broker dies, a move is made while it is away
                broker.process.kill()
                broker.process.wait()
                mover.play(text)
                time.sleep(1.0)
                broker.start()
            elif ply == 9:  # the guest's service dies; the host moves meanwhile
                guest.kill()
                mover.play(text)
                guest.start()
                position = Board(state(guest)["fen"])
                assert len(state(guest)["moves"]) == ply - 1, "the guest resumed its game"
                guest.show(position.occupied_squares())
            elif ply == 12:  # the host, the clock's authority, dies; the guest moves meanwhile
                host.kill()
                mover.play(text)
                host.start()
                assert len(state(host)["moves"]) == ply - 1, "the host resumed its game"
                host.show(Board(state(host)["fen"]).occupied_squares())
            else:
                mover.play(text)
            if ply == 3:
                execute_wrongly_then_right(far, text)
            else:
                execute_cued(far, text)
        for board in (host, guest):
            assert state(board)["moves"] == script
        host_tags, host_moves = pdn_moves(host)
        guest_tags, guest_moves = pdn_moves(guest)
        assert host_moves == guest_moves and host_tags == guest_tags
        assert '[Black "Ann"]' in host_tags and host_moves.startswith(f"1. {script[0]}")
        # The clock: the guest follows the host's; the side not running agrees to the ms.
        wait_for(lambda: state(guest)["opponent"]["acknowledged"] == PLIES, "the last ack")

        def clocks_agree() -> bool:
            host_clock, guest_clock = state(host)["clock"], state(guest)["clock"]
            return host_clock["running"] == guest_clock["running"] == "black" and (
                abs(host_clock["white"] - guest_clock["white"]) < 0.01
            )

        wait_for(clocks_agree, "the guest's clock agreeing with the host's")
        host_clock, guest_clock = state(host)["clock"], state(guest)["clock"]
        assert abs(host_clock["black"] - guest_clock["black"]) < 1.0
        assert state(host)["opponent"]["connected"] and state(guest)["opponent"]["connected"]
        # The times recorded with each move agree too, but where the host (the clock) charged
        # White for a link drop (the ply White made just after each drop: 6 and 10) or where
        # the host was down (12).
        host_times, guest_times = clock_comments(host), clock_comments(guest)
        assert len(host_times) == len(guest_times) == PLIES
        for ply, (at_host, at_guest) in enumerate(
            zip(host_times, guest_times, strict=True), start=1
        ):
            if ply in (6, 10):
                assert at_host < at_guest, "the host charged the outage to White"
            elif ply != 12:  # the host restarted: its clock did not charge its own outage
                assert abs(at_host - at_guest) < 0.3, (ply, host_times, guest_times)
        # White resigns at the host's board: the guest's game ends the same way.
        host.referee("result", {"result": "1-0", "reason": "White resigned"})
        wait_for(lambda: state(guest)["result"] == "1-0", "the result reaching the guest")
        assert pdn_moves(host) == pdn_moves(guest)
        assert '[Result "1-0"]' in pdn_moves(guest)[0]
    finally:
        for board in (host, guest):
            board.stop()
