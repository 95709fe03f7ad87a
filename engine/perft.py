"""Perft: count the leaf nodes of the legal-move tree, the standard check of a move generator.

>>> from engine.board import Board
>>> perft(Board(), 3)
302
"""

from __future__ import annotations

from engine.board import Board

#: Published node counts for American pool checkers from the start position, depths 1-11.
POOL_PERFT = (7, 49, 302, 1469, 7482, 37986, 190146, 929896, 4570534, 22435955, 110833952)


def perft(board: Board, depth: int) -> int:
    """Leaf nodes ``depth`` plies below ``board``; the last ply is counted, not built."""
    if depth < 1:
        return 1
    if depth == 1:
        return board.count_legal_moves()
    total = 0
    for move in board.generate_legal_moves():
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def divide(board: Board, depth: int) -> dict[str, int]:
    """Perft split by first move (keyed by notation), for finding where two generators differ."""
    result = {}
    for move in board.generate_legal_moves():
        text = board.notation(move)
        board.push(move)
        result[text] = perft(board, depth - 1)
        board.pop()
    return result
