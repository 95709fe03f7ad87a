"""The draw counts of the three rule profiles at their boundaries (R-DRW-1..6), on hand-built
positions. Long quiet stretches are played by :func:`walk`, which picks moves deterministically."""

import pytest

from engine.board import Board
from engine.color import Color
from engine.counts import CountKind, strength
from engine.game import DRAW, Game
from engine.geometry import BITS, LONG_DIAGONAL

LONG_DIAGONAL_MASK = sum(BITS[s] for s in LONG_DIAGONAL)
#: White two kings and two men (25) against a black king (8): Black is the weaker side.
KINGS_AND_MEN = "B:WK31,K32,5,25:BK10"
#: Three white kings against the black king on 32, White to move: a 13-count ending.
THREE_KINGS = "W:WK1,K2,K3:BK32"


def walk(game: Game, plies: int, *, off_long_line: bool = False) -> None:
    """Play ``plies`` quiet moves: kings before men, no capture, no crowning, never a position met
    before in the walk, never one where the next side must capture or cannot move; with
    ``off_long_line`` Black's pieces never stand on 4-29."""
    board = game.board
    seen = {board.transposition_key()}
    for _ in range(plies):
        moves = sorted(
            board.generate_legal_moves(),
            key=lambda m: (not board.kings & BITS[m.from_square], m.path),
        )
        for move in moves:
            if move.captures or move.crowns:
                continue
            board.push(move)
            key = board.transposition_key()
            ok = key not in seen and not board.has_capture() and bool(board.legal_moves)
            ok = ok and not (off_long_line and board.black & LONG_DIAGONAL_MASK)
            board.pop()
            if ok:
                game.push(move)
                seen.add(key)
                break
        else:
            raise AssertionError(f"no quiet move left in {board.fen()}")


def count_of(game: Game, kind: CountKind) -> tuple[int, int] | None:
    """(made, limit) of the running count of that kind, or ``None``."""
    found = [c for c in game.counts() if c.kind is kind]
    return (found[0].made, found[0].limit) if found else None


def play(game: Game, *texts: str) -> None:
    for text in texts:
        game.push_notation(text)


# -- R-DRW-6 strength ----------------------------------------------------------------------------


def test_r_drw_6_men_score_their_rank_from_their_own_side_kings_eight() -> None:
    start = Board()
    assert strength(start, Color.BLACK) == strength(start, Color.WHITE) == 4 * (1 + 2 + 3)
    board = Board("B:W29,5,K30:B1,28,K3")
    assert strength(board, Color.WHITE) == 1 + 7 + 8  # own back row 1, row before king row 7
    assert strength(board, Color.BLACK) == 1 + 7 + 8


# -- R-DRW-2 the 13 count ------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["apca", "classic", "casual"])
def test_r_drw_2_thirteen_count_draws_on_the_lone_kings_13th_move(profile: str) -> None:
    game = Game(THREE_KINGS, profile)
    walk(game, 24, off_long_line=True)
    assert count_of(game, CountKind.THIRTEEN) == (12, 13)
    walk(game, 1, off_long_line=True)  # White's move: not counted
    assert count_of(game, CountKind.THIRTEEN) == (12, 13)
    assert game.outcome() is None
    walk(game, 1, off_long_line=True)
    outcome = game.outcome()
    assert outcome is not None and outcome.result == DRAW and outcome.rule == "R-DRW-2"
    assert "13 count: lone king has made 13 of 13 moves" in outcome.reason
    assert game.board.black  # the lone king still stands


def test_r_drw_2_count_starts_with_the_lone_kings_first_move() -> None:
    game = Game("W:WK1,K2,K3:BK32,6")
    assert count_of(game, CountKind.THIRTEEN) is None  # a man is still on the board
    play(game, "1x10")  # three kings v one king now, the lone king to move
    assert count_of(game, CountKind.THIRTEEN) == (0, 13)
    [count] = game.counts()
    assert (count.rule, count.side, count.text) == (
        "R-DRW-2",
        Color.BLACK,
        "13 count: lone king has made 0 of 13 moves",
    )
    walk(game, 1)
    assert count_of(game, CountKind.THIRTEEN) == (1, 13)


def test_r_drw_2_a_jump_counts_as_one_move() -> None:
    """The lone king's double jump 1x10x17 is one move of the count (APCA 27)."""
    game = Game("B:WK6,K14,K32:BK1")
    assert count_of(game, CountKind.THIRTEEN) == (0, 13)
    move = game.push_notation("1x10x17")
    assert len(move.captures) == 2
    assert count_of(game, CountKind.THIRTEEN) == (1, 13)


# -- R-DRW-3 the long line -----------------------------------------------------------------------


def test_r_drw_3_long_line_stronger_side_has_five_moves_in_apca() -> None:
    game = Game("W:WK1,K2,K3:BK29", "apca")
    assert count_of(game, CountKind.LONG_LINE) == (0, 5)
    walk(game, 8)
    assert count_of(game, CountKind.LONG_LINE) == (4, 5)
    assert game.outcome() is None
    walk(game, 1)
    outcome = game.outcome()
    assert outcome is not None and outcome.rule == "R-DRW-3" and outcome.result == DRAW
    assert "long line: White has made 5 of 5 moves to catch the lone king" in outcome.reason


@pytest.mark.parametrize("profile", ["classic", "casual"])
def test_r_drw_3_no_long_line_count_outside_apca(profile: str) -> None:
    game = Game("W:WK1,K2,K3:BK29", profile)
    walk(game, 9)
    assert count_of(game, CountKind.LONG_LINE) is None
    assert game.outcome() is None


# -- R-DRW-4 the stronger-side counts ------------------------------------------------------------


def test_r_drw_4_thirty_count_draws_on_the_weaker_sides_30th_move() -> None:
    game = Game(KINGS_AND_MEN, "apca")
    game.invoke_count(Color.BLACK)
    assert count_of(game, CountKind.STRONGER_SIDE) == (0, 30)
    walk(game, 57)
    assert count_of(game, CountKind.STRONGER_SIDE) == (29, 30)
    walk(game, 1)  # the stronger side's move does not count
    assert count_of(game, CountKind.STRONGER_SIDE) == (29, 30)
    assert game.outcome() is None
    walk(game, 1)
    outcome = game.outcome()
    assert outcome is not None and outcome.rule == "R-DRW-4" and outcome.result == DRAW
    assert "30 count: Black (weaker side) has made 30 of 30 moves" in outcome.reason


def test_r_drw_4_count_starts_with_the_weaker_sides_first_move() -> None:
    game = Game("W:WK1,K2,21:BK32", "apca")
    game.invoke_count(Color.BLACK)  # announced on White's turn
    walk(game, 1)
    assert count_of(game, CountKind.STRONGER_SIDE) == (0, 30)
    walk(game, 1)
    assert count_of(game, CountKind.STRONGER_SIDE) == (1, 30)


def test_r_drw_4_thirty_count_restarts_at_20_after_a_capture() -> None:
    game = Game(KINGS_AND_MEN, "apca")
    game.invoke_count(Color.BLACK)
    play(game, "10-6", "25-21", "6-10", "21-17")
    assert count_of(game, CountKind.STRONGER_SIDE) == (2, 30)
    play(game, "10x21")  # Black takes a man: the reading of twenty begins
    assert count_of(game, CountKind.STRONGER_SIDE) == (0, 20)
    walk(game, 38)
    assert count_of(game, CountKind.STRONGER_SIDE) == (19, 20)
    assert game.outcome() is None
    walk(game, 2)
    outcome = game.outcome()
    assert outcome is not None and outcome.rule == "R-DRW-4"
    assert "20 count: Black (weaker side) has made 20 of 20 moves" in outcome.reason


def test_r_drw_4_thirty_count_restarts_at_20_after_a_crowning() -> None:
    game = Game(KINGS_AND_MEN, "apca")
    game.invoke_count(Color.BLACK)
    play(game, "10-6", "25-21", "6-10")
    assert count_of(game, CountKind.STRONGER_SIDE) == (2, 30)
    play(game, "5-1")  # White crowns
    assert count_of(game, CountKind.STRONGER_SIDE) == (0, 20)
    walk(game, 38)
    assert count_of(game, CountKind.STRONGER_SIDE) == (19, 20)
    assert game.outcome() is None
    walk(game, 1)
    assert game.outcome() is not None and game.outcome().rule == "R-DRW-4"


def test_r_drw_4_classic_forty_count_restarts_at_forty() -> None:
    game = Game(KINGS_AND_MEN, "classic")
    game.invoke_count(Color.BLACK)
    play(game, "10-6", "25-21", "6-10")
    assert count_of(game, CountKind.STRONGER_SIDE) == (2, 40)
    play(game, "5-1")
    assert count_of(game, CountKind.STRONGER_SIDE) == (0, 40)
    walk(game, 78)
    assert count_of(game, CountKind.STRONGER_SIDE) == (39, 40)
    assert game.outcome() is None
    walk(game, 1)
    outcome = game.outcome()
    assert outcome is not None and outcome.rule == "R-DRW-4"
    assert "40 count: Black (weaker side) has made 40 of 40 moves" in outcome.reason


def test_r_drw_4_count_lapses_when_the_invoker_is_no_longer_weaker() -> None:
    """Black (8 v 13) invokes, then takes the white king: 8 v 5, the count has nobody to serve."""
    game = Game("B:WK14,21,25:BK10", "apca")
    game.invoke_count(Color.BLACK)
    play(game, "10x17")
    assert count_of(game, CountKind.STRONGER_SIDE) is None
    game.invoke_count(Color.WHITE)  # now White is the weaker side
    assert count_of(game, CountKind.STRONGER_SIDE) == (0, 30)


def test_r_drw_4_only_the_weaker_side_may_invoke_by_r_drw_6() -> None:
    game = Game(KINGS_AND_MEN, "apca")
    with pytest.raises(ValueError, match=r"R-DRW-6: White is not the weaker side \(25 v 8"):
        game.invoke_count(Color.WHITE)
    with pytest.raises(ValueError, match="R-DRW-6: Black is not the weaker side"):
        Game().invoke_count(Color.BLACK)  # equal strength: nobody is weaker
    game.invoke_count(Color.BLACK)
    with pytest.raises(ValueError, match="R-DRW-4: Black already invoked"):
        game.invoke_count(Color.BLACK)
    with pytest.raises(ValueError, match="R-DRW-4: the casual profile has no stronger-side count"):
        Game(KINGS_AND_MEN, "casual").invoke_count(Color.BLACK)


# -- R-DRW-1 repetition --------------------------------------------------------------------------

SHUTTLE = ("10-6", "31-26", "6-10", "26-31")  # back where it started after four plies


@pytest.mark.parametrize("profile", ["apca", "classic"])
def test_r_drw_1_repetition_draws_only_during_a_count_in_tournament_profiles(
    profile: str,
) -> None:
    game = Game(KINGS_AND_MEN, profile)
    play(game, *SHUTTLE, *SHUTTLE)  # the start position a third time, no count running
    assert game.outcome() is None
    assert count_of(game, CountKind.REPETITION) is None

    game = Game(KINGS_AND_MEN, profile)
    game.invoke_count(Color.BLACK)
    play(game, *SHUTTLE)
    assert count_of(game, CountKind.REPETITION) == (2, 3)
    play(game, *SHUTTLE[:3])
    assert game.outcome() is None
    play(game, SHUTTLE[3])
    outcome = game.outcome()
    assert outcome is not None and outcome.rule == "R-DRW-1" and outcome.result == DRAW
    assert "this position has occurred 3 of 3 times" in outcome.reason


def test_r_drw_1_repetitions_count_from_the_invocation() -> None:
    game = Game(KINGS_AND_MEN, "apca")
    play(game, *SHUTTLE)
    game.invoke_count(Color.BLACK)
    play(game, *SHUTTLE)
    assert game.outcome() is None  # the third time overall, the second during the count
    play(game, *SHUTTLE)
    assert game.outcome() is not None and game.outcome().rule == "R-DRW-1"


def test_r_drw_1_casual_repetition_draws_at_any_time() -> None:
    game = Game(KINGS_AND_MEN, "casual")
    play(game, *SHUTTLE, *SHUTTLE[:3])
    assert game.outcome() is None
    play(game, SHUTTLE[3])
    assert game.outcome() is not None and game.outcome().rule == "R-DRW-1"


# -- R-DRW-5 quiet play --------------------------------------------------------------------------

TWO_KINGS = "B:WK31,K32:BK1"


def test_r_drw_5_casual_quiet_play_draws_after_25_moves_each() -> None:
    game = Game(TWO_KINGS, "casual")
    walk(game, 49)  # Black has made 25 quiet moves, White 24
    assert count_of(game, CountKind.QUIET_PLAY) == (24, 25)
    assert game.outcome() is None
    walk(game, 1)
    outcome = game.outcome()
    assert outcome is not None and outcome.rule == "R-DRW-5" and outcome.result == DRAW
    assert "quiet play: 25 of 25 moves each" in outcome.reason


def test_r_drw_5_a_man_move_or_a_capture_starts_quiet_play_again() -> None:
    game = Game(KINGS_AND_MEN, "casual")
    play(game, "10-6", "31-26", "6-10", "26-31")
    assert count_of(game, CountKind.QUIET_PLAY) == (2, 25)
    play(game, "10-6", "25-21")
    assert count_of(game, CountKind.QUIET_PLAY) is None
    play(game, "6-10", "21-17", "10x21")
    assert count_of(game, CountKind.QUIET_PLAY) is None
    play(game, "31-26", "21-30")
    assert count_of(game, CountKind.QUIET_PLAY) == (1, 25)


@pytest.mark.parametrize("profile", ["apca", "classic"])
def test_r_drw_5_no_quiet_play_draw_outside_casual(profile: str) -> None:
    game = Game(TWO_KINGS, profile)
    walk(game, 50)
    assert game.outcome() is None
    assert count_of(game, CountKind.QUIET_PLAY) is None


# -- what a screen shows -------------------------------------------------------------------------


def test_counts_are_small_records_a_screen_can_show() -> None:
    game = Game(KINGS_AND_MEN, "apca")
    assert game.counts() == []
    game.invoke_count(Color.BLACK)
    play(game, "10-6")
    [count] = game.counts()
    assert count.to_json() == {
        "kind": "stronger-side count",
        "rule": "R-DRW-4",
        "side": "black",
        "made": 1,
        "limit": 30,
        "text": "30 count: Black (weaker side) has made 1 of 30 moves",
    }
    assert not count.reached
    with pytest.raises(AttributeError):
        count.made = 30  # type: ignore[misc]
