"""One sentence of every kind the board says, in a language: what the speech tests render."""

from engine.board import Board
from poolboard.voice.phrases import Phrasebook

#: A Black man on 15 with a double jump over 19 and 27 (15x24x31): a capture said by its landings.
DOUBLE_JUMP = "B:W19,27:B15"
#: Black to move with two captures available (R-CAP-1: capture with 14 or 15).
MUST_CAPTURE = "B:W18:B14,15,1"


def every_sentence(language: str) -> dict[str, str]:
    """Each kind of announcement, by a name for the test's report."""
    words = Phrasebook(language)
    jump = Board(DOUBLE_JUMP)
    said = {
        "move": words.move("11-15", Board().fen()) + ".",
        "capture": words.move(jump.notation(jump.generate_legal_moves()[0]), DOUBLE_JUMP),
        "crowning": words.crowned(4) + ".",
        "correction": words.to_move("white", "correction"),
        "takeback": words.to_move("black", "takeback"),
        "computer": words.opponent_plays("engine", "white", words.move("22-18", None)),
        "remote board": words.opponent_plays("remote", "white", words.move("22-18", None)),
        "result black": words.result("1-0"),
        "result white": words.result("0-1"),
        "draw": words.result("1/2-1/2"),
        "pause": words.referee("pause") or "",
        "resume": words.referee("resume") or "",
    }
    violations = {
        "must capture": {"rule": "R-CAP-1", "side": "black"},
        "incomplete jump": {"rule": "R-CAP-3", "side": "black"},
        "out of turn": {"rule": "R-ILL-1", "side": "white"},
        "illegal": {"rule": "R-ILL-1", "side": "black", "severity": "forfeit", "referee": True},
        "touch move": {"rule": "R-TCH-1", "side": "black", "referee": True},
        "touch caution": {"rule": "R-TCH-2", "side": "black", "severity": "caution"},
        "other rule": {"rule": "R-END-3", "side": "white"},
    }
    for name, data in violations.items():
        said[name] = words.violation(data, MUST_CAPTURE) or ""
    clock = {
        "five minutes": {"event": "TimeWarning", "side": "black", "threshold": 300.0},
        "one minute": {"event": "TimeWarning", "side": "white", "threshold": 60.0},
        "ten seconds": {"event": "TimeWarning", "side": "black", "threshold": 10.0},
        "flag": {"event": "FlagFell", "side": "white", "rule": "R-END-3"},
        "time called": {"event": "MoveTimeCalled", "side": "black", "rule": "R-TIM-1"},
        "move-time forfeit": {"event": "MoveTimeForfeit", "side": "black", "rule": "R-TIM-1"},
    }
    for name, data in clock.items():
        said[name] = words.clock(data) or ""
    return said
