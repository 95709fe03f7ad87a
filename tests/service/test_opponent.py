"""Playing the computer on the board: its move is cued on the LEDs, executed by the player's
hand, recorded only when the board shows exactly it; hints, takebacks, the clock, restarts."""

import dataclasses
import random
import threading
import time
from pathlib import Path

import pytest

from engine.board import Board
from engine.color import Color
from engine.cues import CueKind
from engine.endgame import KingsEnding
from engine.game import Game
from engine.levels import LEVELS
from engine.search import Root
from poolboard.config import (
    ClockConfig,
    ConfigError,
    OpponentConfig,
    RulesConfig,
    load_config,
)
from poolboard.opponents import Position, computer
from poolboard.opponents.computer import ComputerOpponent
from poolboard.session import RefereeError
from poolboard.simulator import HumanSimulator
from tests.patience import wait_for
from tests.service.conftest import OpponentTable, ScriptedOpponent, Table, status

CASUAL = RulesConfig(profile="casual")


def against_computer(
    tmp_path: Path, level: int = 1, side: str = "white", **sections
) -> OpponentTable:
    """A table against the computer (casual rules unless ``rules`` says otherwise)."""
    sections.setdefault("rules", CASUAL)
    sections["opponent"] = OpponentConfig(kind="engine", side=side, level=level)
    return OpponentTable(tmp_path, ComputerOpponent(Color(side), level, seed=7), **sections)


def read_the_leds(table: Table) -> tuple[int, int, list[int]]:
    """The computer's move as the LEDs show it: lift here, put down there, take these off."""
    leds = table.leds
    (start,) = leds.squares(CueKind.PLAY_FROM)
    ends = leds.squares(CueKind.PLAY_TO)
    return start, ends[0] if ends else start, leds.squares(CueKind.REMOVE)


def test_a_whole_game_against_the_computer_played_from_the_leds(tmp_path: Path) -> None:
    table = against_computer(tmp_path, clock=ClockConfig(time_control="3600"))
    session, rng = table.session, random.Random(15)
    table.set_up()
    wrong_tries = 0
    for _ in range(300):
        if session.game.is_over():
            break
        board = session.game.board
        if board.turn is Color.BLACK:  # the player here: any legal move, by hand
            move = rng.choice(board.generate_legal_moves())
            table.move(move.from_square, move.to_square, *move.captures)
            continue
        wait_for(lambda: status(table) == "execute", "the computer's move cued")
        assert session.clock.running is Color.BLACK  # the computer's clock stopped at its choice
        white_left = session.clock.remaining(Color.WHITE)
        start, end, removes = read_the_leds(table)
        expected = session.tracker.expected
        assert (start, end, removes) == (
            expected.path[0],
            expected.path[-1],
            sorted(expected.captures),
        )
        others = [m for m in board.generate_legal_moves() if m != expected]
        before = set(table.occupied)
        if others and rng.random() < 0.3:  # the hand plays a wrong move first
            wrong_tries += 1
            wrong = rng.choice(others)
            table.move(wrong.from_square, wrong.to_square, *wrong.captures)
            state = session.state()
            assert len(state["moves"]) == len(board.move_stack)  # nothing recorded
            assert state["state"]["name"] == "restore"
            assert state["state"]["detail"].endswith(f"then play {board.notation(expected)}")
            assert state["violation"] is None  # the hand breaks no rule for the computer
            assert table.leds.squares(CueKind.RESTORE_FILL) or table.leds.squares(
                CueKind.RESTORE_CLEAR
            )
            table.show(before)  # put it back, as the cues ask
            table.settle()
            assert read_the_leds(table) == (start, end, removes)
        table.move(start, end, *removes)
        assert session.tracker.expected is None
        assert session.clock.remaining(Color.WHITE) == pytest.approx(white_left)
    assert session.game.is_over(), "no result in 300 plies"
    assert wrong_tries >= 3
    stored = session.store.game(session.game_id)
    assert [m.move for m in stored.moves] == session.game.board.move_stack
    assert stored.result == session.game.result
    assert stored.headers["White"] == "poolboard (level 1)"
    # No move of the computer was flagged against anyone.
    assert not [e for _, kind, e in session.store.events(session.game_id) if kind == "violation"]
    session.close()


def test_a_game_against_the_computer_with_human_hands_bounces_and_slides(tmp_path: Path) -> None:
    """Both sides' moves made as :class:`HumanSimulator` hands make them (switch bounce, kings
    slid, a piece set down before the other is lifted, captured pieces off in any order); the
    computer's move is taken from the LEDs alone."""
    table = against_computer(tmp_path, level=2, clock=ClockConfig(time_control="3600"))
    session, rng = table.session, random.Random(23)
    table.set_up()
    played = []
    for _ in range(200):
        if session.game.is_over():
            break
        board = session.game.board.copy()
        if board.turn is Color.BLACK:
            move = rng.choice(board.generate_legal_moves())
        else:
            wait_for(lambda: status(table) == "execute", "the computer's move cued")
            start, end, removes = read_the_leds(table)
            (move,) = [
                m
                for m in board.generate_legal_moves()
                if (m.path[0], m.path[-1], sorted(m.captures)) == (start, end, removes)
            ]
        base = table.time.now
        for event in HumanSimulator(rng).play(board, [move]):
            table.time.now = base + event.t
            table.board._events.put(dataclasses.replace(event, t=base + event.t))
            session.process(table.board.read(0))
        table.settle(1.0)
        played.append(move)
        assert session.game.board.move_stack == played
    assert session.game.is_over(), "no result in 200 plies"
    assert session.store.game(session.game_id).result == session.game.result
    assert not [e for _, kind, e in session.store.events(session.game_id) if kind == "violation"]
    session.close()


def test_the_computer_s_clock_runs_while_it_thinks_and_a_takeback_cancels_it(
    tmp_path: Path,
) -> None:
    table = against_computer(tmp_path, level=10, clock=ClockConfig(time_control="600"))
    session = table.session
    table.set_up()
    table.move(11, 15)
    assert status(table) == "thinking"
    assert session.state()["opponent"]["text"] == "thinking…"
    assert session.state()["opponent"]["said"] == {"message": "thinking…", "values": {}}
    assert session.clock.running is Color.WHITE
    white = session.clock.remaining(Color.WHITE)
    table.settle(30.0)  # thirty seconds of thought on the computer's clock
    assert session.clock.remaining(Color.WHITE) == pytest.approx(white - 30.0, abs=0.01)
    # The player takes the move back (casual): the thinking stops at once, nothing is played.
    table.move(15, 11)
    table.settle()
    assert session.state()["moves"] == []
    assert status(table) == "waiting"
    wait_for(lambda: not session.opponent.thinking, "the computer giving up its search")
    time.sleep(0.2)
    assert session.tracker.expected is None and session.state()["moves"] == []
    session.close()


def test_the_unerring_levels_play_kings_endings_from_the_solved_table(
    tmp_path: Path, solved_endings: KingsEnding
) -> None:
    # Three kings v one, a win in 11 moves within the 13 count (R-DRW-2) that search alone
    # misses: level 7 plays the table's move once the process has built it.
    table = against_computer(tmp_path, level=7, rules=RulesConfig(profile="apca"))
    session = table.session
    session.set_position("referee", "W:WK22,K29,K30:BK2")
    table.set_up()
    wait_for(lambda: status(table) == "execute", "the computer's move cued")
    known = solved_endings.winning_move(Board("W:WK22,K29,K30:BK2"))
    assert known is not None and session.tracker.expected == known[0]
    session.close()


def test_a_machine_without_the_memory_plays_kings_endings_by_search(monkeypatch, caplog) -> None:
    monkeypatch.setattr(computer, "ENDINGS_MEMORY", 1 << 60)  # more than any machine has
    endings = computer._Endings()
    assert endings.get() is None and endings.get() is None
    assert not [t for t in threading.enumerate() if t.name == "kings-endings" and t.is_alive()]
    assert [r.message for r in caplog.records].count(caplog.records[0].message) == 1
    assert "by search alone" in caplog.records[0].message


def test_a_machine_short_of_memory_gets_smaller_search_tables(monkeypatch) -> None:
    """A Pi Zero 2 W has some 400 MB for everything: a thinker's table takes an eighth of what
    is available (the engine command alone a quarter), never less than the floor."""
    monkeypatch.setattr(computer, "_available_memory", lambda: 400 << 20)
    assert computer.table_limit() == (400 << 20) // 8 // computer.TABLE_ENTRY_BYTES < 200_000
    assert computer.table_limit(1_000_000, share=4) == (400 << 20) // 4 // 370
    monkeypatch.setattr(computer, "_available_memory", lambda: 8 << 20)
    assert computer.table_limit() == computer.TABLE_FLOOR
    monkeypatch.setattr(computer, "_available_memory", lambda: 8 << 30)  # a desktop
    assert computer.table_limit() == computer.TABLE_LIMIT
    monkeypatch.setattr(computer, "_available_memory", lambda: None)  # not Linux
    assert computer.table_limit() == computer.TABLE_LIMIT
    monkeypatch.setattr(computer, "_available_memory", lambda: 400 << 20)
    thinker = computer.Thinker("test-thinker", seed=7)
    answers: list[int] = []
    thinker.think(
        1, 1, Root.from_game(Game()), LEVELS[1], lambda serial, move: answers.append(serial)
    )
    wait_for(lambda: answers == [1], "the thinker's answer")
    assert thinker._searcher is not None
    assert thinker._searcher.table_limit == computer.table_limit() < computer.TABLE_LIMIT
    thinker.close()


def test_a_new_position_cancels_the_thinking_and_the_computer_opens_as_black(
    tmp_path: Path,
) -> None:
    table = against_computer(tmp_path, level=10, side="black")
    session = table.session
    table.set_up()
    assert status(table) == "thinking"  # Black moves first: the computer opens
    session.set_position("referee", "B:W18,22:B6,9")
    assert status(table) == "setup"  # nothing to think about until the position stands
    wait_for(lambda: not session.opponent.thinking, "the computer giving up its search")
    table.set_up()
    assert status(table) == "thinking"
    wait_for(lambda: session.opponent.thinking, "the computer thinking")
    session.close()


def test_the_computer_as_the_weaker_side_invokes_the_stronger_side_count(
    tmp_path: Path, unsolved_endings: None
) -> None:
    # R-DRW-4: a lone king against two kings: the computer (White) cannot ask the referee, so
    # the session claims the count for it, once, recorded like the referee's (R-DRW-6 strength).
    # (Its search needs no kings-endings table: none is built for it.)
    table = against_computer(tmp_path, level=1, rules=RulesConfig(profile="apca"))
    session = table.session
    table.set_up()
    session.set_position("referee", "W:WK32:BK1,K5")
    assert not session.game.counts()  # nothing until the position stands on the board
    table.set_up()
    (count,) = session.game.counts()
    assert count.rule == "R-DRW-4"
    claims = [(actor, data) for _, actor, action, data in session.store.audit_log(session.game_id)]
    assert ("poolboard (level 1)", {"side": "white"}) in claims
    assert sum(data == {"side": "white"} for _, data in claims) == 1
    session.close()


def test_casual_takeback_undoes_the_computer_s_reply_with_the_player_s_move(tmp_path: Path) -> None:
    table = against_computer(tmp_path)
    session = table.session
    table.set_up()
    table.move(11, 15)
    wait_for(lambda: status(table) == "execute", "the computer's move cued")
    start, end, removes = read_the_leds(table)
    table.move(start, end, *removes)
    assert len(session.state()["moves"]) == 2
    table.move(end, start)  # the computer's piece back first ("put back your own move too")
    assert "put back your own move too" in session.state()["state"]["detail"]
    assert len(session.state()["moves"]) == 2
    table.move(15, 11)
    state = session.state()
    assert state["moves"] == [] and state["turn"] == "black"
    assert state["opponent"]["status"] == "waiting"
    assert state["opponent"]["text"] == "waiting for Black"  # the words a page says
    assert state["opponent"]["said"] == {"message": "waiting for Black", "values": {}}
    assert session.store.game(session.game_id).moves == []
    session.close()


def test_a_hint_on_request_and_on_a_double_press_of_the_lever(tmp_path: Path) -> None:
    table = against_computer(tmp_path, rules=RulesConfig(profile="apca"))
    session = table.session
    table.set_up()
    session.request_hint("web")
    wait_for(
        lambda: (
            session.state()["hint"] is not None and session.state()["hint"]["status"] == "shown"
        ),
        "the hint shown",
    )
    hint = session.tracker.hint
    assert table.leds.squares(CueKind.HINT_FROM) == [hint.path[0]]
    assert hint.path[-1] in table.leds.squares(CueKind.HINT_TO)
    table.move(hint.path[0], hint.path[-1], *hint.captures)
    assert session.state()["hint"] is None and not table.leds.squares(CueKind.HINT_FROM)
    wait_for(lambda: status(table) == "execute", "the computer's move cued")
    with pytest.raises(RefereeError, match="opponent's move"):
        session.request_hint("web")
    start, end, removes = read_the_leds(table)
    table.move(start, end, *removes)
    # Black presses the lever twice: a hint (the clock switches on moves, not the lever).
    table.board.press_lever(Color.BLACK)
    session.process(table.board.read(0))
    table.time.now += 0.3
    table.board.press_lever(Color.BLACK)
    session.process(table.board.read(0))
    wait_for(
        lambda: (session.state()["hint"] or {}).get("status") == "shown", "the hint shown"
    )  # its change done
    assert session.tracker.hint is not None
    assert table.leds.squares(CueKind.HINT_FROM)
    hints = [e for _, kind, e in session.store.events(session.game_id) if kind == "hint"]
    assert [h["ply"] for h in hints] == [1, 3]
    session.close()


def test_no_hint_in_a_tournament_game_between_two_players(make_table) -> None:
    table = make_table()
    table.set_up()
    refused = "not for a game between two players under the apca rules"
    with pytest.raises(RefereeError, match=refused):
        table.session.request_hint("web")
    assert table.session.state()["hints"] is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('kind = "chess"', "[opponent] kind: expected one of none, engine, remote, got 'chess'"),
        ('kind = "engine"\nside = "red"', "[opponent] side: expected black or white, got 'red'"),
        ('kind = "engine"\nlevel = 11', "[opponent] level: expected a level 1-10, got 11"),
        ('kind = "engine"\nlevel = 0', "[opponent] level: expected a level 1-10, got 0"),
        ('level = "5"', "[opponent] level: expected an integer, got '5'"),
        ("colour = 1", "[opponent] colour: unknown key; expected one of kind, side, level"),
    ],
)
def test_opponent_config_errors_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "board.toml"
    path.write_text(f"[opponent]\n{text}\n")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value) == f"{path}: {message}"


def test_the_config_names_the_computer(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text('[opponent]\nkind = "engine"\nside = "black"\nlevel = 3\n')
    assert load_config(path).opponent == OpponentConfig(kind="engine", side="black", level=3)


def asked_for_white(folder: Path, **sections) -> tuple[OpponentTable, ScriptedOpponent, Position]:
    """A game against a scripted White, which has just been asked to answer 11-15."""
    opponent = ScriptedOpponent(Color.WHITE)
    table = OpponentTable(folder, opponent, **sections)
    table.set_up()
    table.move(11, 15)
    return table, opponent, opponent.positions[-1]


def test_the_opponent_interface_drops_stale_and_illegal_answers(tmp_path: Path) -> None:
    table, opponent, asked = asked_for_white(tmp_path)
    assert asked.to_move and asked.side is Color.WHITE and asked.chosen is None
    assert [m.path for m in asked.moves] == [(11, 15)]
    board = asked.board()
    assert opponent.answer(asked.serial - 1, board.parse_move("22-18")) is False  # stale
    assert opponent.answer(asked.serial, Board().parse_move("11-15")) is False  # not legal here
    assert opponent.answer(asked.serial, board.parse_move("22-18")) is True
    assert opponent.answer(asked.serial, board.parse_move("22-17")) is False  # once only
    told = opponent.positions[-1]
    assert told.serial > asked.serial and not told.to_move
    assert told.chosen == board.parse_move("22-18")
    table.move(22, 18)
    assert table.session.state()["moves"] == ["11-15", "22-18"]
    assert not opponent.positions[-1].to_move and opponent.positions[-1].chosen is None
    table.session.close()


def test_a_move_made_for_the_opponent_before_it_has_chosen_is_not_recorded(
    tmp_path: Path,
) -> None:
    table, opponent, asked = asked_for_white(tmp_path)
    table.move(22, 18)  # the hand plays for White while White still chooses
    session = table.session
    assert session.state()["moves"] == ["11-15"]
    assert [m.notation for m in session.store.game(session.game_id).moves] == ["11-15"]
    assert status(table) == "thinking" and session.state()["violations"] == []
    table.show(table.occupied - {18} | {22})
    assert opponent.answer(asked.serial, asked.board().parse_move("22-17")) is True
    table.move(22, 17)
    assert session.state()["moves"] == ["11-15", "22-17"]
    session.close()


def test_a_referee_correction_supersedes_the_question(tmp_path: Path) -> None:
    table, opponent, asked = asked_for_white(tmp_path)
    table.session.correct_move("referee", 1, "11-16")  # misrecorded: it was 11-16
    corrected = opponent.positions[-1]
    assert corrected.serial > asked.serial and not corrected.to_move  # the board shows 11-15
    assert status(table) == "setup"
    table.show(table.occupied - {15} | {16})  # the piece goes where the record has it
    again = opponent.positions[-1]
    assert again.serial > corrected.serial and again.to_move
    assert [m.path for m in again.moves] == [(11, 16)]
    assert [m.path for m in asked.moves] == [(11, 15)]  # each update is a snapshot of its own
    with pytest.raises(dataclasses.FrozenInstanceError):
        asked.moves = again.moves  # type: ignore[misc]
    assert opponent.answer(asked.serial, asked.board().parse_move("22-18")) is False
    assert table.session.tracker.expected is None
    table.session.close()


def answered(tmp_path: Path) -> OpponentTable:
    """A game at 600+5 against a scripted White that has answered 11-15 with 22-18: the
    answer is cued and the player's clock runs while they execute it."""
    table, opponent, asked = asked_for_white(tmp_path, clock=ClockConfig(time_control="600+5"))
    assert opponent.answer(asked.serial, asked.board().parse_move("22-18")) is True
    return table


def test_a_correction_that_drops_the_computer_s_answer_gives_it_back_its_clock(
    tmp_path: Path,
) -> None:
    """The player's clock runs while they execute the computer's move; a correction that drops
    that move gives the turn on the clock back to the computer, which thinks again on its own
    time, with no bonus for the dropped answer (docs/opponents.md)."""
    table = answered(tmp_path)
    session = table.session
    assert session.clock.running is Color.BLACK  # the player executes the computer's move
    white = session.clock.remaining(Color.WHITE)
    table.settle(20.0)
    session.correct_move("referee", 1, "11-16")  # misrecorded: it was 11-16
    assert session.clock.running is Color.WHITE
    assert session.clock.remaining(Color.WHITE) == pytest.approx(white, abs=0.01)
    table.settle(5.0)
    assert session.clock.remaining(Color.WHITE) == pytest.approx(white - 5.0, abs=0.01)
    assert session.store.game(session.game_id).clock["to_move"] == "white"  # saved with it
    session.close()


def test_voiding_the_player_s_move_keeps_the_clock_with_the_player(tmp_path: Path) -> None:
    """The computer has answered (the player's clock runs while they execute it); the referee
    voids the player's move: the answer goes with it and it is the player's move again, on
    the player's clock. (Voiding used to switch the clock as if a move had been made.)"""
    table = answered(tmp_path)
    session = table.session
    white = session.clock.remaining(Color.WHITE)
    session.void_moves("referee", 1)
    assert session.state()["turn"] == "black" and session.tracker.expected is None
    assert session.clock.running is Color.BLACK
    table.settle(5.0)
    assert session.clock.remaining(Color.WHITE) == pytest.approx(white, abs=0.01)
    session.close()


def test_an_answer_that_cannot_be_stored_is_not_cued_and_is_asked_again(tiny_disk) -> None:
    table, opponent, asked = asked_for_white(
        tiny_disk.folder, clock=ClockConfig(time_control="600")
    )
    session = table.session
    reply = asked.board().parse_move("22-18")
    tiny_disk.fill()
    assert opponent.answer(asked.serial, reply) is False
    state = session.state()
    assert "NOT RECORDED" in state["faults"][-1]["message"]
    assert "play-from" not in state["cues"].values()
    assert state["opponent"]["status"] == "thinking"  # waiting for an answer still
    assert opponent.positions[-1] is asked  # not asked again while the disk is full
    tiny_disk.free()
    table.settle(3.0)  # the clock is saved again: the store takes writes
    again = opponent.positions[-1]
    assert again.serial > asked.serial and again.to_move
    assert opponent.answer(asked.serial, reply) is False
    assert opponent.answer(again.serial, reply) is True
    assert session.state()["cues"] == {"18": "play-to", "22": "play-from"}
    session.close()


def test_the_next_game_keeps_the_computer_on_its_side_with_its_own_match_time(
    tmp_path: Path,
) -> None:
    table = against_computer(tmp_path, clock=ClockConfig(time_control="match:600"))
    session = table.session
    table.set_up()
    table.settle(10.0)  # Black (the player) thinks ten seconds
    table.move(11, 15)
    wait_for(lambda: status(table) == "execute", "the computer's move cued")
    session.end_game("referee", "resign", Color.BLACK)
    black, white = session.clock.remaining(Color.BLACK), session.clock.remaining(Color.WHITE)
    assert black < white
    session.next_game("referee")
    assert session.headers["White"] == "poolboard (level 1)" and session.headers["Black"] == "?"
    assert session.clock.remaining(Color.BLACK) == pytest.approx(black)  # still the player's
    assert session.clock.remaining(Color.WHITE) == pytest.approx(white)
    session.close()
