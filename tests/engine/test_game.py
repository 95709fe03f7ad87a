"""The game: moves with undo, profiles by name, and the end of the game (R-END-1..3)."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import STARTING_FEN, IllegalMoveError
from engine.color import Color
from engine.counts import strength
from engine.game import BLACK_WINS, DRAW, WHITE_WINS, Game, GameOverError
from engine.profiles import PROFILES, profile


def test_profiles_by_name_with_the_r_drw_table() -> None:
    apca, classic, casual = profile("apca"), profile("classic"), profile("casual")
    assert (apca.stronger_side_count, apca.stronger_side_restart, apca.long_line) == (30, 20, 5)
    assert (classic.stronger_side_count, classic.stronger_side_restart) == (40, 40)
    assert classic.long_line is None and casual.stronger_side_count is None
    assert {p.thirteen_count for p in (apca, classic, casual)} == {13}
    assert [p.quiet_play for p in (apca, classic, casual)] == [None, None, 25]
    assert [p.repetition_always for p in (apca, classic, casual)] == [False, False, True]
    assert [p.takeback for p in (apca, classic, casual)] == [False, False, True]
    assert apca.referee_flags and not casual.referee_flags
    with pytest.raises(AttributeError):
        apca.long_line = 7  # type: ignore[misc]


def test_unknown_profile_lists_the_valid_ones() -> None:
    with pytest.raises(
        ValueError, match="unknown rule profile 'fide': expected one of apca, classic, casual"
    ):
        profile("fide")
    with pytest.raises(ValueError, match="expected one of apca"):
        Game(profile="tournament")


def test_a_game_starts_from_the_start_position_or_a_fen_under_apca() -> None:
    game = Game()
    assert game.start_fen == STARTING_FEN and game.profile.name == "apca"
    assert game.outcome() is None and game.result is None and not game.is_over()
    game = Game("W:WK1,K2,K3:BK32", profile=profile("classic"))
    assert game.start_fen == "W:WK1,K2,K3:BK32" and game.profile is PROFILES["classic"]


def test_a_game_takes_a_profile_object_too() -> None:
    """A club's own limits: quiet play after 3 moves each instead of 25 (R-DRW-5)."""
    club = dataclasses.replace(profile("casual"), name="club", quiet_play=3)
    game = Game("B:WK31,K32:BK1", profile=club)
    for text in ("1-5", "31-26", "5-1", "26-31", "1-5"):
        game.push_notation(text)
    assert game.outcome() is None
    game.push_notation("31-26")
    assert game.outcome() is not None and game.outcome().rule == "R-DRW-5"


def test_push_checks_legality_and_pop_takes_back() -> None:
    game = Game()
    with pytest.raises(IllegalMoveError):
        game.push_notation("11-14")
    move = game.push_notation("11-15")
    assert game.board.move_stack == [move]
    assert game.pop() == move
    assert game.board.fen() == STARTING_FEN
    with pytest.raises(IndexError, match="no move to take back"):
        game.pop()


def test_r_end_1_a_player_with_no_pieces_loses() -> None:
    game = Game("W:W9:B6")
    game.push_notation("9x2")
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.result, outcome.winner, outcome.rule) == (WHITE_WINS, Color.WHITE, "R-END-1")
    assert outcome.reason == "Black has no pieces left (R-END-1)"
    assert game.result == WHITE_WINS


def test_r_end_1_a_player_whose_pieces_are_all_blocked_loses() -> None:
    game = Game("B:W32:B28")  # the black man on 28 cannot step to 32 nor jump off the board
    assert game.is_over() and game.result == WHITE_WINS
    game = Game("B:W31,32:B28,K27")
    game.push_notation("27-23")
    assert game.outcome() is None
    game = Game("W:W21,32:B28")
    game.push_notation("21-17")
    outcome = game.outcome()
    assert outcome is not None and outcome.rule == "R-END-1" and outcome.winner is Color.WHITE
    assert "every piece is blocked" in outcome.reason
    with pytest.raises(GameOverError, match=r"game is over \(0-1, Black cannot move"):
        game.push_notation("17-13")
    game.pop()  # taking the move back reopens the game
    assert game.outcome() is None


def test_r_end_2_draw_by_agreement_or_declared_by_the_referee() -> None:
    game = Game()
    outcome = game.agree_draw()
    assert (outcome.result, outcome.winner, outcome.rule) == (DRAW, None, "R-END-2")
    assert game.outcome() == outcome
    with pytest.raises(GameOverError):
        game.push_notation("11-15")
    with pytest.raises(GameOverError):
        game.agree_draw()
    game = Game("B:WK31,K32:BK1")
    outcome = game.declare_draw("neither side can force a win")
    assert outcome.reason == "draw declared by the referee: neither side can force a win (R-END-2)"


def test_r_end_3_a_forfeit_loses_and_cites_its_cause() -> None:
    game = Game()
    game.push_notation("11-15")
    outcome = game.forfeit(Color.WHITE, "time (R-TIM-1)")
    assert (outcome.result, outcome.winner, outcome.rule) == (BLACK_WINS, Color.BLACK, "R-END-3")
    assert outcome.reason == "White forfeits: time (R-TIM-1) (R-END-3)"
    with pytest.raises(GameOverError):
        game.invoke_count(Color.WHITE)
    with pytest.raises(GameOverError):
        game.forfeit(Color.BLACK, "touch move (R-TCH-1)")
    game.pop()  # a result set after the last move goes with it
    assert game.outcome() is None and game.board.fen() == STARTING_FEN


def test_a_count_invoked_after_a_move_goes_when_that_move_is_taken_back() -> None:
    game = Game("B:WK31,K32,5,25:BK10")
    game.push_notation("10-6")
    game.invoke_count(Color.BLACK)
    assert [c.rule for c in game.counts()] == ["R-DRW-4"]
    game.pop()
    assert game.counts() == []
    game.invoke_count(Color.BLACK)  # and may be invoked again


# -- push/pop restores everything, and counts equal a replay from the start ----------------------

POSITIONS = [
    STARTING_FEN,
    "B:WK31,K32,5,25:BK10",  # a stronger-side count can be invoked
    "W:WK1,K2,K3:BK29",  # a 13-count ending, the lone king on the long line
    "B:W18,19,22,27,K30:B5,6,9,K12",  # men and kings of both sides
    "W:WK1,K2,K3:BK32,6",  # a 13-count ending one capture away
]


def snapshot(game: Game) -> tuple[object, ...]:
    return (game.board.fen(), len(game.board.move_stack), tuple(game.counts()), game.outcome())


@settings(max_examples=60, deadline=None)
@given(
    fen=st.sampled_from(POSITIONS),
    name=st.sampled_from(sorted(PROFILES)),
    data=st.data(),
)
def test_push_pop_restores_board_and_counts(fen: str, name: str, data: st.DataObject) -> None:
    game = Game(fen, name)
    history: list[tuple[str, object]] = []  # ("invoke", side) and ("move", move) as played
    snapshots = []
    for _ in range(data.draw(st.integers(0, 80), label="plies")):
        if game.is_over():
            break
        board = game.board
        weaker = min(Color, key=lambda side: strength(board, side))
        may_invoke = (
            game.profile.stronger_side_count is not None
            and strength(board, weaker) < strength(board, weaker.opponent)
            and not any(c.rule == "R-DRW-4" for c in game.counts())
        )
        if may_invoke and data.draw(st.booleans(), label="invoke"):
            game.invoke_count(weaker)
            history.append(("invoke", weaker))
        snapshots.append(snapshot(game))
        moves = sorted(board.generate_legal_moves(), key=lambda m: m.path)
        move = data.draw(st.sampled_from(moves), label="move")
        game.push(move)
        history.append(("move", move))

    replay = Game(fen, name)
    for kind, item in history:
        if kind == "invoke":
            replay.invoke_count(item)  # type: ignore[arg-type]
        else:
            replay.push(item)  # type: ignore[arg-type]
    assert snapshot(replay) == snapshot(game)

    while snapshots:
        game.pop()
        assert snapshot(game) == snapshots.pop()
