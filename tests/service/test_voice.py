"""The voice on a game played on the simulated board: every move said in order, and a missing
or a hanging audio device never holding up a move (docs/voice.md)."""

import logging
import os
import random
import stat
import threading
from pathlib import Path

import pytest

from engine.board import Board, Move
from engine.color import Color
from poolboard.config import OpponentConfig, RulesConfig, VoiceConfig
from poolboard.service import _start_voice
from poolboard.simulator import random_game
from poolboard.voice import Announcer, VoiceUnavailable, check_program
from poolboard.voice.phrases import Phrasebook
from tests.poolboard_cli import poolboard

pytestmark = pytest.mark.system  # espeak-ng runs as a child process


def spoken(start: str, moves: list[Move], language: str) -> list[str]:
    """What the voice says of ``moves`` from ``start``: each move, and a crowning after it."""
    words, board, said = Phrasebook(language), Board(start), []
    for move in moves:
        said.append(words.move(board.notation(move), board.fen()) + ".")
        if move.crowns:
            said.append(words.crowned(move.path[-1]) + ".")
        board.push(move)
    return said


def play(table, moves) -> None:
    """Make ``moves`` on the simulated board, as hands would."""
    table.set_up()
    for move in moves:
        table.move(move.path[0], move.path[-1], *move.captures)


def test_every_move_is_said_in_order_with_the_audio_device_missing(
    make_table, caplog: pytest.LogCaptureFixture
) -> None:
    # This machine has no sound card: espeak-ng runs, says "cannot find card" and exits 0.
    table = make_table()
    voice = Announcer(table.session, VoiceConfig(enabled=True), "en")
    voice.start()
    moves = random_game(random.Random(7), 12)
    with caplog.at_level(logging.WARNING, logger="poolboard.voice"):
        play(table, moves)
        assert voice.quiet(timeout=60)
    voice.stop()
    stored = table.session.store.game(table.session.game_id)
    assert [m.move for m in stored.moves] == moves
    assert voice.said == spoken(table.session.game.start_fen, moves, "en")
    failures = [r for r in caplog.records if "audio output failed" in r.getMessage()]
    assert len(failures) == 1  # said once, not once a sentence


def test_a_hanging_audio_device_holds_up_no_move(tmp_path: Path, make_table) -> None:
    # A stand-in for a device that blocks: the first sentence waits on a FIFO until the test
    # opens it, after the whole game has been played and recorded.
    gate = tmp_path / "gate"
    os.mkfifo(gate)
    program = tmp_path / "slow-espeak"
    program.write_text(
        f'#!/bin/sh\nif [ ! -e "{tmp_path}/opened" ]; then cat "{gate}" >/dev/null; '
        f'touch "{tmp_path}/opened"; fi\nexec espeak-ng "$@" -w /dev/null\n'
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    table = make_table()
    voice = Announcer(table.session, VoiceConfig(enabled=True, program=str(program)), "es")
    voice.start()
    moves = random_game(random.Random(3), 16)
    game = threading.Thread(target=play, args=(table, moves))
    game.start()
    game.join(timeout=60)  # a safety net: the game takes well under a second
    assert not game.is_alive(), "the session waited for the voice"
    stored = table.session.store.game(table.session.game_id)
    assert [m.move for m in stored.moves] == moves
    assert len(voice.said) == 1  # still on the first sentence
    with open(gate, "w"):
        pass
    assert voice.quiet(timeout=60)
    voice.stop()
    expected = spoken(table.session.game.start_fen, moves, "es")
    assert voice.said[0] == expected[0]
    assert voice.said[1:] == expected[len(expected) - len(voice.said) + 1 :]  # the newest kept
    assert len(voice.said) + voice.dropped == len(expected)


def test_without_espeak_ng_one_line_names_the_package(
    tmp_path: Path, make_table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a system without espeak-ng
    with pytest.raises(VoiceUnavailable, match="install Debian's package espeak-ng"):
        check_program(VoiceConfig(enabled=True))
    table = make_table(voice=VoiceConfig(enabled=True))
    lines: list[str] = []
    assert _start_voice(table.session, lines.append) is None
    assert len(lines) == 1 and "espeak-ng" in lines[0] and "\n" not in lines[0]


def test_the_computer_says_its_move_once_it_has_chosen(make_table) -> None:
    table = make_table(
        rules=RulesConfig(profile="casual"),
        opponent=OpponentConfig(kind="engine", side="white", level=1),
        voice=VoiceConfig(enabled=True, language="es"),
    )
    voice = Announcer(table.session, table.config.voice, table.config.voice_language)
    voice.start()
    table.set_up()
    table.move(11, 15)
    heading = "La computadora juega "
    # The computer thinks on its own thread: wait until the voice has said its choice.
    assert voice.wait_said(lambda said: any(s.startswith(heading) for s in said), timeout=60)
    voice.stop()
    with table.session.lock:
        board, chosen = table.session.game.board, table.session.tracker.expected
        assert chosen is not None  # cued for the hand here to execute
        words = Phrasebook("es")
        move = words.move(board.notation(chosen), board.fen())
    assert voice.said[-1] == f"{heading}{move}."


def test_doctor_says_whether_the_voice_works(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text(
        f'[sensor]\nkind = "simulated"\n[storage]\npath = "{tmp_path / "data"}"\n'
        '[voice]\nenabled = true\nlanguage = "es"\n'
    )
    # This machine has no sound card: the voice check fails and says why.
    result = poolboard("doctor", "--config", str(config), "--seconds", "0.2")
    assert "FAIL  voice    the audio output failed (error:" in result.stdout, result.stdout
    assert result.returncode == 1
    # With the speech going into a file instead (a program of the user's choice), it passes.
    program = tmp_path / "espeak-to-file"
    program.write_text(f'#!/bin/sh\nexec espeak-ng "$@" -w "{tmp_path / "said.wav"}"\n')
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    config.write_text(config.read_text() + f'program = "{program}"\n')
    result = poolboard("doctor", "--config", str(config), "--seconds", "0.2")
    assert f"ok    voice    {program} said 11-15 (es)" in result.stdout, result.stdout
    assert (tmp_path / "said.wav").stat().st_size > 10_000


def test_a_violation_and_the_clock_are_said_with_what_to_do(make_table) -> None:
    table = make_table(rules=RulesConfig(fen="B:W18,30:B14,15,1"))
    voice = Announcer(table.session, VoiceConfig(enabled=True), "en")
    voice.start()
    table.set_up()
    table.move(1, 5)  # a capture was there to make (R-CAP-1)
    assert voice.wait_said(lambda said: len(said) >= 1, timeout=30)
    # The tracker's own words, as the pages show them, without the rule IDs, the move in words.
    shown = table.session.violations[-1]["message"]
    assert shown.startswith("1-5 is not allowed: a capture is compulsory (R-CAP-1); capture with")
    assert voice.said[0] == (
        "Black: 1 to 5 is not allowed: a capture is compulsory; capture with 14, 15: "
        "restore the position: put a piece on 1; clear 5."
    )
    table.move(5, 1)  # the position restored
    table.move(14, 23, 18)
    left = table.session.clock.remaining(table.session.clock.running)
    table.settle(left - 299)  # White's time falls to five minutes
    assert voice.quiet(timeout=30)
    voice.stop()
    assert voice.said[1:] == ["14 takes 23.", "White: 5 minutes left."]


def test_a_kind_turned_off_is_not_said(make_table) -> None:
    table = make_table(rules=RulesConfig(fen="B:W18,30:B14,15,1"))
    voice = Announcer(table.session, VoiceConfig(enabled=True, violations=False), "en")
    voice.start()
    table.set_up()
    table.move(1, 5)  # R-CAP-1, not said
    table.move(5, 1)
    table.move(14, 23, 18)
    assert voice.quiet(timeout=30)
    voice.stop()
    assert voice.said == ["14 takes 23."]


#: What each kind of announcement says in the game of :func:`said_in_a_game`.
KINDS = {
    "moves": "14 takes 23.",
    "violations": "Black: 1 to 5 is not allowed: a capture is compulsory",
    "clock": "White: 5 minutes left.",
    "pauses": "The clock is paused.",
    "turns": "Move corrected. White to move.",
    "results": "Black wins.",
}


def said_in_a_game(make_table, **off: bool) -> list[str]:
    """Everything the voice says of one game with every kind of news, ``off`` kinds off."""
    table = make_table(rules=RulesConfig(fen="B:W18,30:B14,15,1"))
    voice = Announcer(table.session, VoiceConfig(enabled=True, **off), "en")
    voice.start()
    session = table.session
    table.set_up()
    table.move(1, 5)  # a capture was there to make (R-CAP-1)
    table.move(5, 1)
    table.move(14, 23, 18)
    table.settle(session.clock.remaining(session.clock.running) - 299)
    session.pause_clock("referee")
    session.correct_move("referee", 1, "15x22")
    session.resume_clock("referee")
    session.end_game("referee", "resign", Color.WHITE)
    assert voice.quiet(timeout=30)
    voice.stop()
    return voice.said


def test_each_kind_turned_off_is_not_said_and_the_rest_is(make_table) -> None:
    everything = said_in_a_game(make_table)
    for heard in KINDS.values():
        assert any(sentence.startswith(heard) for sentence in everything), (heard, everything)
    for kind, heard in KINDS.items():
        rest = [s for s in everything if not s.startswith(heard)]
        if kind == "pauses":
            rest.remove("The clock runs again.")
        assert said_in_a_game(make_table, **{kind: False}) == rest, kind
