"""The board as the sensor sees it while a move is under way (the state's ``sensed``), through a
session on the simulated board."""

from poolboard.config import RulesConfig


def test_a_capture_under_way_is_the_board_as_sensed(make_table) -> None:
    table = make_table(rules=RulesConfig(fen="B:W18,27:B14"))
    session = table.session
    assert session.state()["sensed"] is None  # not set up yet: the position to set up is shown
    table.set_up()
    assert session.state()["sensed"] is None  # the board shows the position
    table.show({18, 27})  # the man on 14 in hand
    assert session.state()["sensed"] == {"fen": "B:W18,27:B", "path": [14], "unknown": []}
    table.show({18, 23, 27})  # set down on 23, thinking
    assert session.state()["sensed"] == {"fen": "B:W18,27:B23", "path": [14, 23], "unknown": []}
    table.show({23, 27})  # 18 taken off early
    assert session.state()["sensed"]["fen"] == "B:W27:B23"
    table.show({32})  # 14x23x32 finished: recorded, the board shows the position again
    table.settle()
    state = session.state()
    assert state["moves"] == ["14x32"] and state["sensed"] is None


def test_a_piece_no_move_explains_is_unknown(make_table) -> None:
    table = make_table()
    table.set_up()
    start = set(table.occupied)
    table.show(start | {17})  # a piece from nowhere on 17
    assert table.session.state()["sensed"]["unknown"] == [17]
