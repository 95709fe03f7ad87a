"""A pool checkers player: iterative-deepening principal variation search.

Alpha-beta with a null-window re-search (PVS), a transposition table, a quiescence search that
plays out compulsory captures (R-CAP-1) before evaluating, move ordering (hash move, captures by
size, two killers per ply, a history table), a one-reply extension, and a clock checked every
:data:`CHECK_EVERY` nodes so a search stops within a few milliseconds of its budget.

The draw rules reach into the tree: a position repeated on the path or from the game is scored
a draw (R-DRW-1), and a running count draws the game at the ply it runs out: the 13 count and
the long line (R-DRW-2/3) whatever happens before, the stronger-side count (R-DRW-4) unless a
capture or crowning comes first, quiet play (R-DRW-5) unless a man move or capture does. Before
that, scores shrink as the count's moves run out, so the stronger side hurries and the weaker
side plays for time. :func:`claims_count` says when the weaker side should invoke R-DRW-4.

The table is a dict keyed by the position itself (``Board.transposition_key``): four ints hash
faster in CPython than a Zobrist key can be kept up to date, and never collide.

>>> from engine.board import Board
>>> result = Searcher().search(Root.from_board(Board("B:W18:B14")), Limits(depth=4))
>>> result.best is not None and result.best.path
(14, 23)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from engine.board import Board, Move
from engine.color import Color
from engine.counts import Count, CountKind, strength
from engine.endgame import THIRTEEN, KingsEnding
from engine.evaluation import MAX_PLY, WIN, evaluate, material
from engine.game import Game
from engine.geometry import BITS

#: How many nodes pass between two looks at the clock and the stop flag.
CHECK_EVERY = 256
#: The deepest iteration any search starts.
MAX_DEPTH = 64
#: Table entries kept before the table is emptied: about 370 bytes each in CPython, so the
#: default is some 370 MB at most; a process with less to spare passes a smaller limit.
TABLE_LIMIT = 1_000_000
#: A score this close to WIN is a forced win (or loss) in ``WIN - abs(score)`` plies.
WIN_THRESHOLD = WIN - MAX_PLY
#: An iteration is not started once this share of the move time is gone: it would not finish.
SOFT_SHARE = 0.45
#: The weaker side claims the stronger-side count once this few pieces are left ...
COUNT_CLAIM_PIECES = 10
#: ... or once it is this far behind in material (hundredths of a man), whatever is left.
COUNT_CLAIM_DEFICIT = 100

_EXACT, _LOWER, _UPPER = 0, 1, 2
_INFINITY = WIN + 1

Key = tuple[int, int, int, bool]


class SearchStopped(Exception):
    """Raised inside the tree when time is up or a stop was asked for; the search unwinds."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What bounds a search: a depth, a move time in seconds, a node count (any combination; at
    least one should be set, or the search runs to MAX_DEPTH)."""

    depth: int | None = None
    movetime: float | None = None
    nodes: int | None = None


@dataclass(frozen=True, slots=True)
class Info:
    """One finished iteration, as an ``info`` line reports it."""

    depth: int
    score: int
    nodes: int
    seconds: float
    pv: tuple[Move, ...]

    @property
    def nps(self) -> int:
        """Nodes per second so far."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


@dataclass(frozen=True, slots=True)
class Result:
    """A search's answer: the move to play (``None`` only with no legal move), its score for the
    side to move, the depth completed, nodes, time, and the principal variation."""

    best: Move | None
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: tuple[Move, ...]


@dataclass(slots=True)
class Root:
    """The position to search, with what the draw rules need from the game before it."""

    board: Board
    history: list[Key] = field(default_factory=list)
    count_plies: int | None = None  # plies until a count draws ...
    count_through_captures: bool = False  # ... even after a capture (R-DRW-2/3), or not (R-DRW-4)
    quiet_plies: int | None = None  # plies until R-DRW-5 draws, unless a man move or capture

    @classmethod
    def from_board(cls, board: Board) -> Root:
        """A bare position: no history, no count running."""
        return cls(board.copy(stack=False))

    @classmethod
    def from_game(cls, game: Game) -> Root:
        """The game's position with its earlier positions and its running counts."""
        return cls.from_moves(game.start_fen, game.board.move_stack, game.counts())

    @classmethod
    def from_moves(cls, start_fen: str, moves: Sequence[Move], counts: Iterable[Count]) -> Root:
        """The position after ``moves`` from ``start_fen``, with its earlier positions and the
        ``counts`` running in it (a game's :meth:`~engine.game.Game.counts`).

        >>> from engine.game import Game
        >>> game = Game("W:WK1,K2,K3:BK32", profile="apca")
        >>> _ = game.push_notation("1-5")
        >>> root = Root.from_moves(game.start_fen, game.board.move_stack, game.counts())
        >>> root.board.fen() == game.board.fen(), root.count_plies  # Black's 13 moves to make
        (True, 25)
        """
        replay = Board(start_fen)
        history = [replay.transposition_key()]
        for move in moves[:-1]:
            replay.push(move)
            history.append(replay.transposition_key())
        if moves:
            replay.push(moves[-1])
        board = replay.copy(stack=False)
        root = cls(board, history)
        for count in counts:
            left = max(count.limit - count.made, 0)
            if count.kind is CountKind.QUIET_PLAY:
                root.quiet_plies = 2 * left
                continue
            if count.kind is CountKind.REPETITION or count.side is None:
                continue
            plies = 2 * left - 1 if count.side is board.turn else 2 * left
            if root.count_plies is None or plies < root.count_plies:
                root.count_plies = max(plies, 0)
                root.count_through_captures = count.kind is not CountKind.STRONGER_SIDE
        return root


def claims_count(game: Game, side: Color) -> bool:
    """Whether ``side`` should invoke the stronger-side count (R-DRW-4) now: the profile has one,
    none runs yet, ``side`` is the weaker by R-DRW-6 strength, and it is an ending (at most
    :data:`COUNT_CLAIM_PIECES` pieces) or ``side`` is a man or more down. The count only binds
    the stronger side, so the weaker side loses nothing by claiming it once it may."""
    board = game.board
    if game.is_over() or game.profile.stronger_side_count is None:
        return False
    if any(count.kind is CountKind.STRONGER_SIDE for count in game.counts()):
        return False
    if strength(board, side) >= strength(board, side.opponent):
        return False
    return (
        board.occupied.bit_count() <= COUNT_CLAIM_PIECES
        or material(board, side.opponent) - material(board, side) >= COUNT_CLAIM_DEFICIT
    )


def mate_in(score: int) -> int | None:
    """Moves (of the side to move) to a forced win, negative to a forced loss, else ``None``."""
    if abs(score) < WIN_THRESHOLD:
        return None
    plies = WIN - abs(score)
    moves = (plies + 1) // 2
    return moves if score > 0 else -moves


class Searcher:
    """Searches positions; keeps its table, killers and history between searches of one game.

    ``noise`` (hundredths of a man) perturbs every evaluation by a fixed pseudo-random amount per
    position and ``seed``: the weak levels' mistakes. ``stop`` is polled with the clock. The
    table is emptied whenever it passes ``table_limit`` entries (memory, see TABLE_LIMIT).
    """

    def __init__(self, *, noise: int = 0, seed: int = 0, table_limit: int = TABLE_LIMIT) -> None:
        self.noise = noise
        self.seed = seed
        self.table_limit = table_limit
        #: Solved kings-v-lone-king endings (engine/endgame.py), if the caller has built them.
        self.endgame: KingsEnding | None = None
        # Entry: depth, score, bound, the best move's path. Only ints and tuples of ints, so the
        # garbage collector stops tracking entries: a full collection never walks the table.
        self.table: dict[Key, tuple[int, int, int, tuple[int, ...]]] = {}
        self._history = [0] * (33 * 33)
        self._killers: list[list[tuple[int, ...] | None]] = [[None, None] for _ in range(MAX_PLY)]
        self.nodes = 0
        self._deadline = float("inf")
        self._node_limit: int | None = None
        self._stop: Callable[[], bool] = lambda: False
        self._seen: dict[Key, int] = {}
        self._board = Board.empty()
        self._count_plies: int | None = None
        self._count_through_captures = False
        self._quiet_plies: int | None = None
        self._partial: Move | None = None

    def new_game(self) -> None:
        """Forget everything learnt from earlier positions."""
        self.table.clear()
        self._history = [0] * (33 * 33)
        self._killers = [[None, None] for _ in range(MAX_PLY)]

    def search(
        self,
        root: Root,
        limits: Limits,
        *,
        on_info: Callable[[Info], None] | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Result:
        """The best move within ``limits``; ``on_info`` hears each finished iteration."""
        started = time.perf_counter()
        self._deadline = started + limits.movetime if limits.movetime is not None else float("inf")
        self._node_limit = limits.nodes
        self._stop = stop or (lambda: False)
        self.nodes = 0
        self._board = root.board.copy(stack=False)
        self._count_plies, self._quiet_plies = root.count_plies, root.quiet_plies
        self._count_through_captures = root.count_through_captures
        self._seen = {}
        for key in root.history:
            self._seen[key] = self._seen.get(key, 0) + 1
        if len(self.table) > self.table_limit:
            self.table.clear()

        moves = self._board.generate_legal_moves()
        if not moves:
            return Result(None, -WIN, 0, 0, 0.0, ())
        if self.endgame is not None:
            budget = THIRTEEN if root.count_plies is None else (root.count_plies + 1) // 2
            known = self.endgame.winning_move(self._board, budget)
            if known is not None:  # kings against a lone king: the table's fastest win
                move, in_moves = known
                plies = 2 * in_moves - 1
                answer = Info(plies, WIN - plies, 0, time.perf_counter() - started, (move,))
                if on_info is not None:
                    on_info(answer)
                return Result(move, answer.score, plies, 0, answer.seconds, (move,))
        best, score, depth_done = moves[0], 0, 0
        pv: tuple[Move, ...] = (moves[0],)
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        soft = started + SOFT_SHARE * limits.movetime if limits.movetime is not None else None
        for depth in range(1, max_depth + 1):
            try:
                score, best = self._root(moves, depth, best)
            except SearchStopped:
                if self._partial is not None:
                    best = self._partial
                break
            depth_done = depth
            pv = self._principal_variation(best, depth)
            seconds = time.perf_counter() - started
            if on_info is not None:
                on_info(Info(depth, score, self.nodes, seconds, pv))
            if len(moves) == 1 or abs(score) >= WIN_THRESHOLD:
                break
            if soft is not None and time.perf_counter() >= soft:
                break
        seconds = time.perf_counter() - started
        if pv[0] is not best:
            pv = (best,)
        return Result(best, score, depth_done, self.nodes, seconds, pv)

    # -- the tree ----------------------------------------------------------------------------

    def _root(self, moves: list[Move], depth: int, previous: Move) -> tuple[int, Move]:
        """One iteration over the root moves, the previous best first. A stop in the middle
        keeps a better move already proven in this iteration."""
        board = self._board
        ordered = [previous] + [m for m in moves if m is not previous]
        alpha, beta = -_INFINITY, _INFINITY
        best = previous
        key = board.transposition_key()
        self._seen[key] = self._seen.get(key, 0) + 1
        self._partial = None
        for index, move in enumerate(ordered):
            counted, quiet = self._flags(move, True, True)
            board.push(move)
            if index == 0:
                score = -self._search(depth - 1, -beta, -alpha, 1, counted, quiet)
            else:
                score = -self._search(depth - 1, -alpha - 1, -alpha, 1, counted, quiet)
                if score > alpha:
                    score = -self._search(depth - 1, -beta, -alpha, 1, counted, quiet)
            board.pop()
            if score > alpha:
                alpha, best = score, move
                if index:
                    self._partial = best
        self._seen[key] -= 1
        self.table[key] = (depth, alpha, _EXACT, best.path)
        return alpha, best

    def _flags(self, move: Move, counted: bool, quiet: bool) -> tuple[bool, bool]:
        """Whether the counts still run after ``move``. The 13 count and the long line run on
        through captures (R-DRW-2: a jump counts as a move); a capture or crowning restarts the
        stronger-side count at 20 moves (R-DRW-4), beyond any horizon, so the tree lets it go;
        a man move or capture ends quiet play (R-DRW-5)."""
        if move.captures or move.crowns:
            return counted and self._count_through_captures, False
        if quiet and not self._board.kings & BITS[move.path[0]]:
            return counted, False
        return counted, quiet

    def _search(
        self, depth: int, alpha: int, beta: int, ply: int, counted: bool, quiet: bool
    ) -> int:
        self.nodes += 1
        if not self.nodes % CHECK_EVERY:
            self._check()
        board = self._board
        if counted and self._count_plies is not None and ply >= self._count_plies:
            return 0
        if quiet and self._quiet_plies is not None and ply >= self._quiet_plies:
            return 0
        key = (board.black, board.white, board.kings, board.turn is Color.BLACK)
        if self._seen.get(key):
            return 0
        if ply >= MAX_PLY - 1:
            return self._evaluate(counted, ply)

        moves = board.generate_captures()
        if not moves:
            if depth <= 0:
                return self._evaluate(counted, ply)
            moves = board.generate_simple_moves()
            if not moves:
                return -WIN + ply

        entry = self.table.get(key)
        hash_path: tuple[int, ...] | None = None
        if entry is not None:
            entry_depth, entry_score, flag, hash_path = entry
            if entry_depth >= depth:
                score = _from_table(entry_score, ply)
                if (
                    flag == _EXACT
                    or (flag == _LOWER and score >= beta)
                    or (flag == _UPPER and score <= alpha)
                ):
                    return score

        if len(moves) == 1:
            depth += 1  # a forced reply costs no depth
        elif len(moves) > 1:
            moves = self._order(moves, hash_path, ply)

        original_alpha = alpha
        best_score, best_move = -_INFINITY, moves[0]
        capture = bool(moves[0].captures)
        # Late moves are searched a ply shallower, except among kings alone: there the winning
        # move is often a quiet sacrifice, and bench/kings_table.py found wins in 3 passed over.
        reducible = bool((board.black | board.white) & ~board.kings)
        self._seen[key] = 1
        for index, move in enumerate(moves):
            child_counted, child_quiet = self._flags(move, counted, quiet)
            board.push(move)
            if index == 0:
                score = -self._search(depth - 1, -beta, -alpha, ply + 1, child_counted, child_quiet)
            else:
                reduce = 1 if index >= 3 and depth >= 3 and reducible and not capture else 0
                score = -self._search(
                    depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, child_counted, child_quiet
                )
                if score > alpha and (reduce or score < beta):
                    score = -self._search(
                        depth - 1, -beta, -alpha, ply + 1, child_counted, child_quiet
                    )
            board.pop()
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not capture:
                            self._reward(move, depth, ply)
                        break
        self._seen[key] = 0

        if best_score >= beta:
            flag = _LOWER
        elif best_score > original_alpha:
            flag = _EXACT
        else:
            flag = _UPPER
        self.table[key] = (max(depth, 0), _to_table(best_score, ply), flag, best_move.path)
        return best_score

    def _order(self, moves: list[Move], hash_path: tuple[int, ...] | None, ply: int) -> list[Move]:
        """Hash move first, then bigger captures (kings first), or killers and history."""
        if moves[0].captures:
            kings = self._board.kings

            def capture_rank(move: Move) -> int:
                if move.path == hash_path:
                    return 1 << 30
                taken = len(move.captures)
                return 16 * taken + sum(1 for s in move.captures if kings & BITS[s])

            return sorted(moves, key=capture_rank, reverse=True)
        first, second = self._killers[ply]
        history = self._history

        def quiet_rank(move: Move) -> int:
            path = move.path
            if path == hash_path:
                return 1 << 30
            if path == first:
                return 1 << 29
            if path == second:
                return 1 << 28
            return history[path[0] * 33 + path[-1]]

        return sorted(moves, key=quiet_rank, reverse=True)

    def _reward(self, move: Move, depth: int, ply: int) -> None:
        """A quiet move that cut off: a killer at this ply and a history bonus."""
        killers = self._killers[ply]
        if killers[0] != move.path:
            killers[1], killers[0] = killers[0], move.path
        index = move.path[0] * 33 + move.path[-1]
        self._history[index] += depth * depth
        if self._history[index] > 1 << 24:
            self._history = [h // 2 for h in self._history]

    def _evaluate(self, counted: bool, ply: int) -> int:
        """The evaluation, with the weak levels' noise, scaled down as a running count ends."""
        board = self._board
        score = evaluate(board)
        if self.noise:
            key = hash((board.black, board.white, board.kings, self.seed))
            score += key % (2 * self.noise + 1) - self.noise
        if counted and self._count_plies is not None:
            left = self._count_plies - ply
            score = score * left // (left + 8)
        return score

    def _check(self) -> None:
        if time.perf_counter() >= self._deadline or self._stop():
            raise SearchStopped
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise SearchStopped
        if len(self.table) > self.table_limit:  # a cache: emptied, it only costs some speed
            self.table.clear()

    def _principal_variation(self, best: Move, depth: int) -> tuple[Move, ...]:
        """The expected line: the best move, then the table's moves while they stay legal."""
        board = self._board.copy(stack=False)
        line = [best]
        board.push(best)
        seen = {board.transposition_key()}
        while len(line) < depth:
            entry = self.table.get(board.transposition_key())
            if entry is None:
                break
            path = entry[3]
            legal = next((m for m in board.generate_legal_moves() if m.path == path), None)
            if legal is None:
                break
            board.push(legal)
            key = board.transposition_key()
            if key in seen:
                break
            seen.add(key)
            line.append(legal)
        return tuple(line)


def _to_table(score: int, ply: int) -> int:
    """A win score stored relative to the node, so it is right wherever the node recurs."""
    if score >= WIN_THRESHOLD:
        return score + ply
    if score <= -WIN_THRESHOLD:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= WIN_THRESHOLD:
        return score - ply
    if score <= -WIN_THRESHOLD:
        return score + ply
    return score
