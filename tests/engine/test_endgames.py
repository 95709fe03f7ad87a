"""Endings that know the draw counts (R-DRW-2/3/4): wins found and played within the count,
counts respected, the weaker side claiming its count and heading for the long diagonal."""

from __future__ import annotations

from engine.board import Board
from engine.color import Color
from engine.game import Game
from engine.geometry import LONG_DIAGONAL
from engine.search import Limits, Root, Searcher, claims_count, mate_in

#: Three White kings against one: a catch in three moves (found by a depth-5 search, then
#: checked by playing it out below), the lone king off the long diagonal.
THREE_KINGS = "W:WK12,K26,K30:BK10"
#: A White and a Black move that leave THREE_KINGS and come back to it, capturing nothing.
SHUFFLE = ("12-8", "10-6", "8-12", "6-10")


def play_out(game: Game, limits: Limits, plies: int) -> None:
    """Both sides searched, ``plies`` plies at most or until the game ends."""
    searchers = {Color.WHITE: Searcher(), Color.BLACK: Searcher()}
    for _ in range(plies):
        if game.is_over():
            return
        result = searchers[game.board.turn].search(Root.from_game(game), limits)
        assert result.best is not None
        game.push(result.best)


def game_with_lone_king_moves(made: int) -> Game:
    """THREE_KINGS under ``apca`` after the lone king has made ``made`` (even) of its 13 moves
    (R-DRW-2), by shuffling out and back; the position is THREE_KINGS again."""
    game = Game(THREE_KINGS, profile="apca")
    for index in range(2 * made):
        game.push_notation(SHUFFLE[index % 4])
    assert game.board.fen() == Board(THREE_KINGS).fen()
    return game


def test_three_kings_catch_the_lone_king_in_three_moves() -> None:
    game = Game(THREE_KINGS, profile="apca")
    result = Searcher().search(Root.from_game(game), Limits(depth=6))
    assert mate_in(result.score) == 3
    play_out(game, Limits(depth=6), plies=5)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is Color.WHITE and outcome.rule == "R-END-1"


def test_a_quiet_sacrifice_among_kings_is_not_searched_too_shallow() -> None:
    # bench/kings_table.py: White wins in 3 (5-9 6x13 18-22 13x26 31x22), inside depth 6's
    # horizon; a late-move reduction searched the sacrifice a ply shallower and hid it.
    game = Game("W:WK5,K18,K31:BK6", profile="apca")
    result = Searcher().search(Root.from_game(game), Limits(depth=6))
    assert game.board.notation(result.best) == "5-9"
    assert mate_in(result.score) == 3


def test_the_catch_is_played_when_the_13_count_leaves_time_for_it() -> None:
    # R-DRW-2: 10 of 13 lone-king moves made, 3 left: the catch lands on White's third move.
    game = game_with_lone_king_moves(10)
    assert Root.from_game(game).count_plies == 6
    result = Searcher().search(Root.from_game(game), Limits(depth=6))
    assert mate_in(result.score) == 3


def test_a_catch_beyond_the_13_count_is_a_draw() -> None:
    # R-DRW-2: 12 made, 1 left: the lone king's 13th move comes before the catch.
    game = game_with_lone_king_moves(12)
    result = Searcher().search(Root.from_game(game), Limits(depth=8))
    assert result.score == 0
    play_out(game, Limits(depth=6), plies=6)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None and outcome.rule == "R-DRW-2"


def test_the_lone_king_runs_to_the_long_diagonal() -> None:
    # R-DRW-3: on the long diagonal the lone king gives the three kings only 5 moves.
    # One of its nine moves gets there (6-15), and safely.
    game = Game("B:WK12,K20,K21:BK6", profile="apca")
    result = Searcher().search(Root.from_game(game), Limits(depth=4))
    assert result.best is not None and result.best.to_square in LONG_DIAGONAL
    game.push(result.best)
    assert any(count.rule == "R-DRW-3" for count in game.counts())


def test_the_long_line_count_draws_a_catch_that_takes_too_long() -> None:
    # R-DRW-3 (apca: 5 moves): the count the search reads is the stronger side's 5 moves.
    game = Game("W:WK1,K2,K3:BK29", profile="apca")
    root = Root.from_game(game)
    assert root.count_plies == 2 * 5 - 1


def test_the_weaker_side_claims_the_stronger_side_count() -> None:
    # R-DRW-4 and R-DRW-6: White (a king) against Black (two kings and a man), apca.
    game = Game("W:WK30:BK1,K3,12", profile="apca")
    assert claims_count(game, Color.WHITE)
    assert not claims_count(game, Color.BLACK)
    game.invoke_count(Color.WHITE)
    assert not claims_count(game, Color.WHITE)  # already running
    assert Root.from_game(game).count_plies == 2 * 30 - 1  # White, the invoker, to move
    assert not claims_count(Game("W:WK30:BK1,K3,12", profile="casual"), Color.WHITE)
    assert not claims_count(Game(), Color.WHITE)  # the opening: nothing to claim


def test_the_stronger_side_count_scores_a_draw_when_it_runs_out() -> None:
    # R-DRW-4: two kings catch a lone man in a few moves, but not within one of the count's.
    root = Root.from_game(Game("B:W21:BK6,K15", profile="apca"))
    won = Searcher().search(root, Limits(depth=12))
    assert mate_in(won.score) is not None
    root.count_plies = 1
    assert Searcher().search(root, Limits(depth=12)).score == 0
