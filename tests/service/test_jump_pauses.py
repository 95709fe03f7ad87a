"""A multi-jump as players make it, through the session: thinking on a landing square is no
violation; a jump abandoned with the clock lever is one (R-CAP-3, APCA 10 and 21)."""

from engine.color import Color
from poolboard.config import RulesConfig

#: Black's man on 14 jumps 18 and 27: 14x23x32.
TWO_JUMPS = "B:W18,27,5:B14"


def test_a_paused_multi_jump_finished_is_recorded_with_no_penalty(make_table) -> None:
    table = make_table(rules=RulesConfig(fen=TWO_JUMPS))
    table.set_up()
    table.show(table.occupied - {14})
    table.show(table.occupied | {23})
    table.show(table.occupied - {18})  # the man on 18 lifted; Black thinks on 23
    table.settle(8)
    state = table.session.state()
    assert state["violation"] is None and state["violations"] == []
    assert state["state"]["detail"] == "capture under way: jump on from 23 to 32"
    assert state["cues"]["32"] == "continue-jump"
    table.settle(5)  # past the reminder: still no penalty
    assert table.session.state()["cues"]["32"] == "jump-reminder"
    table.move(23, 32, 27)
    state = table.session.state()
    assert state["moves"] == ["14x32"] and state["violations"] == []
    events = table.session.store.events(table.session.game_id)
    assert [kind for _, kind, _ in events if kind == "violation"] == []


def test_a_jump_abandoned_with_the_lever_is_penalised_once(make_table) -> None:
    table = make_table(rules=RulesConfig(fen=TWO_JUMPS))
    table.set_up()
    table.show(table.occupied - {14})
    table.show(table.occupied | {23})
    table.show(table.occupied - {18})
    for _ in range(2):  # the lever pressed, then pressed again
        table.board.press_lever(Color.BLACK)
        table.session.process(table.board.read(0))
        table.settle(1)
    state = table.session.state()
    (violation,) = state["violations"]
    assert (violation["rule"], violation["side"]) == ("R-CAP-3", "black")
    assert violation["severity"] == "violation"  # the first improper move is corrected
    assert state["violation"] == violation  # shown while it stands
    assert state["state"]["detail"].startswith("incomplete jump (R-CAP-3)")
    table.move(23, 32, 27)  # the capture finished
    state = table.session.state()
    assert state["moves"] == ["14x32"] and len(state["violations"]) == 1
    assert state["violation"] is None
    # Mended at once (R-ILL-1): marked so on the pages and in the record, still counted.
    assert violation["t"] == state["violations"][0]["t"]
    assert state["violations"][0]["mended"].startswith("mended at once")
    events = table.session.store.events(table.session.game_id)
    assert [kind for _, kind, _ in events if kind in ("violation", "mended")] == [
        "violation",
        "mended",
    ]
    notes = table.session.store.notes(table.session.game_id).values()
    notes = " ".join(note for at_ply in notes for note in at_ply)
    assert "R-CAP-3 mended at once" in notes
