"""Which move explains a frame, from the squares whose look changed (vision.successors)."""

from __future__ import annotations

from vision.successors import explain, successors
from vision.synthetic import START


def kinds_of(position: dict[int, str]) -> tuple[str, ...]:
    return tuple(position.get(s, "empty") for s in range(1, 33))


# Black's man on 10 can jump White's men on 15 and 24, landing on 19 and then 28.
JUMPING = {10: "b", 15: "w", 24: "w", 32: "w", 1: "B"}


def test_a_move_explains_the_squares_it_emptied_whatever_they_read() -> None:
    """White plays 22-18; glare makes the square just left read as a White man. The changed
    squares are those of 22-18, a piece is read on 18: the board is the one 22-18 leaves."""
    known = kinds_of(START)
    after = kinds_of({**START, 22: "empty", 18: "w"})
    read = kinds_of({**START, 18: "w"})  # 22 misread: still a man
    explained = explain(read, known, frozenset({18, 22}), successors(known, START))
    assert explained == after


def test_a_move_no_piece_could_make_explains_nothing() -> None:
    """A man set down two squares on (22 to 15) is no move of either side: the frame keeps
    its own reading, so the tracker sees what was played and calls it illegal (R-MAN-1)."""
    known = kinds_of(START)
    read = kinds_of({**START, 22: "empty", 15: "w"})
    assert explain(read, known, frozenset({15, 22}), successors(known, START)) is None


def test_a_changed_square_still_reading_its_piece_is_a_shadow_not_a_move() -> None:
    """A hand's shadow changes the look of 23 as 22-18 is played; 23 still reads as its man,
    so 22-18 still explains the frame. Had 23 read empty, nothing would."""
    known = kinds_of(START)
    candidates = successors(known, START)
    after = kinds_of({**START, 22: "empty", 18: "w"})
    changed = frozenset({18, 22, 23})
    assert explain(after, known, changed, candidates) == after
    lost = kinds_of({**START, 22: "empty", 18: "w", 23: "empty"})
    assert explain(lost, known, changed, candidates) is None


def test_a_piece_set_down_beside_a_nudged_one_is_not_a_move() -> None:
    """A man set down on 18 while 22 and 23 were nudged (their looks changed, they still
    read as men): 22-18 would explain it only by emptying a square that reads a man, which
    is allowed when nothing else changed. Here something did: the frame keeps its reading.
    A Black man read on 18 is no White move either."""
    known = kinds_of(START)
    candidates = successors(known, START)
    added = kinds_of({**START, 18: "w"})
    assert explain(added, known, frozenset({18, 22, 23}), candidates) is None
    black = kinds_of({**START, 18: "b"})
    assert explain(black, known, frozenset({18, 22}), candidates) is None


def test_each_landing_of_a_multi_jump_is_explained_with_or_without_the_pieces_taken_off() -> None:
    """A player who stops on a landing square to find the way on (R-CAP-3 is about the turn,
    not the pause) may or may not have taken off the man jumped: either board is explained,
    and so is the whole jump with both men off."""
    known = kinds_of(JUMPING)
    candidates = successors(known, JUMPING)
    first_off = kinds_of({**JUMPING, 10: "empty", 15: "empty", 19: "b"})
    first_on = kinds_of({**JUMPING, 10: "empty", 19: "b"})
    whole = kinds_of({**JUMPING, 10: "empty", 15: "empty", 24: "empty", 28: "b"})
    for board in (first_off, first_on, whole):
        changed = frozenset(s for s in range(1, 33) if board[s - 1] != known[s - 1])
        misread = tuple("b" if s == 10 else k for s, k in enumerate(board, 1))  # 10 in glare
        assert explain(misread, known, changed, candidates) == board


def test_a_man_crowned_as_it_lands_is_read_a_king() -> None:
    """A man that reaches the king row and is crowned before the board settles is a king."""
    position = {27: "b", 1: "w"}
    known = kinds_of(position)
    read = kinds_of({32: "B", 27: "b", 1: "w"})  # 27 misread, 32 a king
    explained = explain(read, known, frozenset({27, 32}), successors(known, position))
    assert explained == kinds_of({32: "B", 1: "w"})
