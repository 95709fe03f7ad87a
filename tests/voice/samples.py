"""One sentence of every kind the board says, in a language: what the speech tests render."""

from engine.board import Board
from engine.events import Violation
from engine.tracker import TrackerConfig
from poolboard.session.state import Json
from poolboard.voice.phrases import Phrasebook
from tests.tracker.colour_hands import ColourHands
from tests.tracker.conftest import Hands

#: A Black man on 15 with a double jump over 19 and 27 (15x24x31): a capture said by its landings.
DOUBLE_JUMP = "B:W19,27:B15"
#: Black to move with two captures available (R-CAP-1: capture with 14, 15).
MUST_CAPTURE = "B:W18:B14,15,1"


def shown(violation: Violation) -> Json:
    """A violation as the session shows it (``ViolationShown.data``): with its words."""
    assert isinstance(violation, Violation)
    return {**violation.to_json(), "said": violation.said.to_json()}


def violations() -> dict[str, Json]:
    """The tracker's own violation of each kind, as hands on the board make it."""

    def last(hands: Hands) -> Json:
        return shown(hands.of("violation")[-1])

    config = TrackerConfig(referee_flags=True)
    return {
        "must capture": last(Hands(MUST_CAPTURE).move(1, 5).wait(1)),
        "incomplete jump": last(
            Hands("B:W18,27,5:B14").lift(14).place(23).lift(18).wait(3).lift(5).wait(1)
        ),
        "illegal": last(Hands().lift(10).place(17).wait(1)),
        "illegal again": last(
            Hands("B:W30:B14").move(14, 10).wait(1).move(10, 14).wait(1).move(14, 10).wait(1)
        ),
        "out of turn": last(ColourHands().move(11, 15).wait(1).move(9, 14).wait(1)),
        "touch move": last(Hands(config=config).lift(11).place(11).move(9, 13).wait(1)),
        "touch caution": last(Hands().lift(1).place(1).wait(0.5)),
        "touch again": last(Hands().lift(1).place(1).wait(0.5).lift(2).place(2).wait(0.5)),
    }


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
    for name, violation in violations().items():
        said[name] = words.violation(violation) or ""
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
