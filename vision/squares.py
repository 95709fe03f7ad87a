"""What each dark square holds: a network that knows pieces, adapted to one board at calibration.

The network (``vision/models/squares.onnx``, trained on rendered boards only by
:mod:`vision.train_squares`) looks at one square's window (:mod:`vision.patches`) and says
whether it is empty or holds a man or a king, whatever the set's colours: a piece is a raised
disc with an outline, a rim, shading and a shadow. Its embedding (last hidden layer) of each
square of the calibration picture, whose position is known, teaches it this board: what its
empty squares, Black's pieces and White's pieces look like (:class:`BoardLook`). A square is then
read by both: the network's kinds, moved by how near the square's embedding lies to each of the
board's own classes; the side by the piece's colour against this board's two sets; king or
man by the network's odds against where this board's own men (and kings) stood at calibration.

Runs on OpenCV's ``dnn`` module (numpy and OpenCV only); about 2 MFLOPs a square.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from .outline import UNSEEN_SIDE
from .patches import BEHIND, BEYOND, PATCH_PX

MODEL = Path(__file__).with_name("models") / "squares.onnx"
EMPTY, MAN, KING = 0, 1, 2


def _ring() -> np.ndarray:
    """The window pixels a piece's colour is taken from: a ring 0.17-0.3 square round a point
    0.1 square beyond the square's centre (where a piece's top leans), missing the middle,
    where a king's mark is printed."""
    per_square = PATCH_PX / (BEYOND + BEHIND)
    rows, columns = np.mgrid[0:PATCH_PX, 0:PATCH_PX] + 0.5
    centre_row = (BEYOND - 0.1) * per_square
    radius = np.hypot(rows - centre_row, columns - PATCH_PX / 2) / per_square
    return (radius >= 0.17) & (radius <= 0.3)


_RING = _ring()
#: How much the board's own looks weigh against the network's kinds (set by hand, not yet
#: chosen by measurement).
ADAPTATION = 0.5
#: Log odds (piece against empty) past which the network is sure of a square, about 22,000
#: to 1: where the colours were divided over a square and disagree with a sure network, its
#: reading stands. Chosen on rendered boards (seeds 11-12 of bench/vision_varied.py); on the
#: development photos, board by board, no sure reading that overruled the colours was wrong,
#: while real pieces reached -8.8 (docs/vision.md).
SURE = 10.0
#: A piece is a king when the network's king-against-man odds stand this many spreads above
#: those of the men seen at calibration (a king unlike every man of its set).
KING_SPREADS = 3.0
#: Log odds (king against man) by which the network's odds must pass the board's line
#: (:attr:`BoardLook.king_odds`) for it to crown a piece the colours read as a man, seen from
#: near above. Chosen on rendered boards (seeds 11-12 of bench/vision_varied.py): from 1.5 up,
#: no man was crowned there; 2 leaves a margin (docs/vision.md).
KING_SURE = 2.0
#: The least spread assumed of a set's odds (a few alike men say little of their spread).
_LEAST_SPREAD = 0.3


class SquareNet:
    """The trained network on OpenCV's dnn: windows -> kinds' probabilities and embeddings."""

    def __init__(self, path: Path = MODEL) -> None:
        self._net = cv2.dnn.readNetFromONNX(str(path))
        self._outputs = list(self._net.getUnconnectedOutLayersNames())

    def __call__(self, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Probabilities (n, 3) of empty/man/king and embeddings (n, E) of windows (n, P, P, 3)."""
        blob = np.ascontiguousarray(patches.transpose(0, 3, 1, 2), dtype=np.float32)
        self._net.setInput(blob)
        first, second = self._net.forward(self._outputs)
        logits, embedding = (first, second) if first.shape[1] == 3 else (second, first)
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        return shifted / shifted.sum(axis=1, keepdims=True), embedding


@cache
def network() -> SquareNet:
    """The shipped network, loaded once."""
    return SquareNet()


@cache
def embedding_size() -> int:
    """How many numbers the shipped network's embedding of a window holds."""
    _, embedding = network()(np.zeros((1, PATCH_PX, PATCH_PX, 3), np.float32))
    return int(embedding.shape[1])


@cache
def network_id() -> str:
    """The shipped network's fingerprint (the first 12 hex digits of its file's SHA-256). A
    board's look is kept with it: embeddings mean something only to the network that made them."""
    return hashlib.sha256(MODEL.read_bytes()).hexdigest()[:12]


def colours(patches: np.ndarray) -> np.ndarray:
    """Each window's piece colour (n, 3): log brightness and two log chromaticities."""
    middle = np.median(patches[:, _RING], axis=1)
    middle = np.maximum(middle, 1e-3)
    blue, green, red = middle[:, 0], middle[:, 1], middle[:, 2]
    return np.stack([np.log(middle.mean(axis=1)), np.log(blue / green), np.log(red / green)], 1)


@dataclass
class BoardLook:
    """What one board's empty squares and two sets look like, learnt from a known position."""

    centres: np.ndarray  # (3, E): mean embedding of empty squares, Black's and White's pieces
    spread: float  # mean squared distance of an embedding from its class's centre
    side_colours: np.ndarray  # (2, 3): Black's and White's mean piece colour
    side_spread: np.ndarray  # (3,): the colour's spread within a set
    present: np.ndarray  # (3,) bool: which classes the position showed
    king_odds: np.ndarray  # (2,): for Black's and White's pieces, the king-or-man odds above
    # which a piece is a king (:func:`king_threshold`)
    network: str | None = None  # :func:`network_id` of the network it was learnt with (None:
    # a file saved before looks named theirs)
    #: The calibration picture's light colour cast (:meth:`Windows.lit_patches`); a frame's
    #: windows are brought to it before they are read (None: a file saved before looks kept it)
    light_balance: np.ndarray | None = None

    @classmethod
    def learn(
        cls, patches: np.ndarray, position: dict[int, str], light_balance: np.ndarray | None = None
    ) -> BoardLook:
        """The look of the board in ``patches`` (32 windows), which shows ``position``, under a
        light of colour cast ``light_balance`` (:meth:`Windows.lit_patches`)."""
        probabilities, embedding = network()(patches)
        look = cls.from_embeddings(embedding, colours(patches), position, probabilities)
        return replace(look, light_balance=light_balance)

    @classmethod
    def from_embeddings(
        cls,
        embedding: np.ndarray,
        colour: np.ndarray,
        position: dict[int, str],
        probabilities: np.ndarray,
    ) -> BoardLook:
        """The look from the squares' embeddings, colours and the network's probabilities, and
        the position they show."""
        groups = [
            [s - 1 for s in range(1, 33) if position.get(s, "empty") in kinds]
            for kinds in (("empty",), ("b", "B"), ("w", "W"))
        ]
        present = np.array([bool(g) for g in groups])
        centres = np.array(
            [embedding[g].mean(axis=0) if g else np.zeros(embedding.shape[1]) for g in groups]
        )
        deviations = np.concatenate([embedding[g] - centres[k] for k, g in enumerate(groups) if g])
        spread = float(max((deviations**2).sum(axis=1).mean(), 1e-6))
        side_colours = np.array([colour[g].mean(axis=0) if g else np.zeros(3) for g in groups[1:]])
        side_devs = [colour[g] - side_colours[k] for k, g in enumerate(groups[1:]) if g]
        side_spread = (
            np.maximum(np.concatenate(side_devs).std(axis=0), 0.03) if side_devs else np.ones(3)
        )
        odds = king_odds(probabilities)
        thresholds = [
            king_threshold(
                odds[[s - 1 for s in range(1, 33) if position.get(s) == man]],
                odds[[s - 1 for s in range(1, 33) if position.get(s) == man.upper()]],
            )
            for man in ("b", "w")
        ]
        return cls(
            centres, spread, side_colours, side_spread, present, np.array(thresholds), network_id()
        )

    def to_json(self) -> dict[str, object]:
        """The look as plain numbers (a calibration file holds it)."""
        return (
            {
                "centres": self.centres.round(5).tolist(),
                "spread": round(self.spread, 6),
                "side_colours": self.side_colours.round(5).tolist(),
                "side_spread": self.side_spread.round(5).tolist(),
                "present": self.present.tolist(),
                "king_odds": self.king_odds.round(5).tolist(),
            }
            | ({} if self.network is None else {"network": self.network})
            | (
                {}
                if self.light_balance is None
                else {"light_balance": self.light_balance.round(5).tolist()}
            )
        )

    def read(
        self,
        patches: np.ndarray,
        light_balance: np.ndarray | None = None,
        adaptation: float = ADAPTATION,
    ) -> list[str]:
        """Each window's reading: "empty", "b", "w", "B", "W" or "?" (a piece, side unseen).
        ``light_balance``: the frame's light colour cast; the windows are first brought to the
        calibration's (a warmer lamp or another white balance since cancels)."""
        patches = self._balanced(patches, light_balance)
        probabilities, embedding = network()(patches)
        return self.decide(probabilities, embedding, colours(patches), adaptation)

    def opinions(
        self, patches: np.ndarray, light_balance: np.ndarray | None = None
    ) -> tuple[list[str | None], np.ndarray]:
        """A second opinion for the reader that judges by colour (``Calibration.read``).
        First, each window's reading (as :meth:`read`) where the network is sure whether it
        holds a piece, else None: the board-adapted odds beyond :data:`SURE` either way, and
        the network's own odds, before the board moved them, on the same side of even. Second,
        each window's (n, 2) king-or-man odds above this board's line (:attr:`king_odds`) for a
        piece of Black's and of White's."""
        patches = self._balanced(patches, light_balance)
        probabilities, embedding = network()(patches)
        adapted = self.piece_odds(probabilities, embedding)
        own = network_piece_odds(probabilities)
        readings = self.decide(probabilities, embedding, colours(patches))
        sure = (np.abs(adapted) > SURE) & (np.sign(adapted) == np.sign(own))
        crowned = king_odds(probabilities)[:, None] - self.king_odds[None, :]
        return [r if certain else None for r, certain in zip(readings, sure, strict=True)], crowned

    def _balanced(self, patches: np.ndarray, light_balance: np.ndarray | None) -> np.ndarray:
        """``patches`` brought from a frame's light colour cast to the calibration's."""
        if light_balance is None or self.light_balance is None:
            return patches
        balanced = np.clip(patches * (self.light_balance / light_balance), 0.0, 2.0)
        return balanced.astype(np.float32)

    def piece_odds(
        self, probabilities: np.ndarray, embedding: np.ndarray, adaptation: float = ADAPTATION
    ) -> np.ndarray:
        """Each window's log odds of a piece against an empty square: the network's, moved by
        how much nearer the window's embedding lies to this board's pieces than to its empty
        squares (``adaptation`` weighs the board against the network)."""
        piece_odds = network_piece_odds(probabilities)
        distances = ((embedding[:, None, :] - self.centres[None]) ** 2).sum(axis=2) / self.spread
        distances = np.where(self.present[None], distances, np.inf)
        nearest_piece = distances[:, 1:].min(axis=1)
        if self.present[EMPTY] and np.isfinite(nearest_piece).any():
            piece_odds = piece_odds + adaptation * (distances[:, 0] - nearest_piece) / 2
        return piece_odds

    def decide(
        self,
        probabilities: np.ndarray,
        embedding: np.ndarray,
        colour: np.ndarray,
        adaptation: float = ADAPTATION,
    ) -> list[str]:
        """The readings from the network's outputs and the windows' colours."""
        piece_odds = self.piece_odds(probabilities, embedding, adaptation)
        odds = king_odds(probabilities)
        side_gap = ((colour[:, None, :] - self.side_colours[None]) / self.side_spread) ** 2
        side_gap = side_gap.sum(axis=2)
        known = self.present[1:]
        side_gap = np.where(known[None], side_gap, np.inf)
        readings = []
        for index in range(len(probabilities)):
            if piece_odds[index] <= 0:
                readings.append("empty")
                continue
            side = int(np.argmin(side_gap[index]))
            if not np.isfinite(side_gap[index, side]):
                readings.append(UNSEEN_SIDE)
                continue
            letter = "b" if side == 0 else "w"
            king = odds[index] > self.king_odds[side]
            readings.append(letter.upper() if king else letter)
        return readings


def network_piece_odds(probabilities: np.ndarray) -> np.ndarray:
    """The network's log odds of a piece (man or king) against an empty square."""
    log_p = np.log(np.maximum(probabilities, 1e-9))
    return np.logaddexp(log_p[:, MAN], log_p[:, KING]) - log_p[:, EMPTY]


def king_odds(probabilities: np.ndarray) -> np.ndarray:
    """The network's log odds of king against man for each window."""
    log_p = np.log(np.maximum(probabilities, 1e-9))
    return log_p[:, KING] - log_p[:, MAN]


def king_threshold(men: np.ndarray, kings: np.ndarray) -> float:
    """The king-or-man odds that part one set's kings from its men on this board, from the
    odds of the men and kings a calibration showed: between the two where it showed both;
    :data:`KING_SPREADS` spreads above its men where it showed men only (and never below even
    odds), or below its kings where it showed kings only; even odds where it showed neither.
    The network alone may call a board's plain men kings (a sticker set whose men look
    marked); the board's own men say where its men stand."""

    def spread(odds: np.ndarray) -> float:
        return max(float(odds.std()), _LEAST_SPREAD)

    if len(men) and len(kings):
        highest_man, lowest_king = float(men.max()), float(kings.min())
        if highest_man < lowest_king:
            return (highest_man + lowest_king) / 2
        return float(men.mean() + kings.mean()) / 2
    if len(men) >= 2:
        return max(0.0, float(men.mean()) + KING_SPREADS * spread(men))
    if len(kings) >= 2:
        return float(kings.mean()) - KING_SPREADS * spread(kings)
    return 0.0
