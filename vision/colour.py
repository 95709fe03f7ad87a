"""What each dark square holds, from colour: features that shrug off uneven light, learnt models.

Each dark square gives six numbers, all log-colour differences so that a uniform change of light
(brighter, dimmer, warmer) cancels: its centre disc against the light squares around it (which
piece colour) and its centre disc against its own corners (is anything on it at all). Medians
keep a glare spot or a shadow edge from swaying a square. Models are learnt from the start
position, never assumed: any set of colours works.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.layout import LAYOUT

KINDS = ("empty", "b", "w")
#: The start position's kinds for squares 1-32 (R-BRD-3): Black on 1-12, White on 21-32.
START_KINDS = ("b",) * 12 + ("empty",) * 8 + ("w",) * 12

_FLOOR = 0.08  # smallest spread a model may claim, in log colour: cameras are never exact
_UNKNOWN = 250.0  # squared distance past which a square fits no model (a hand, a fallen object)


@dataclass(frozen=True)
class Features:
    """One canonical frame's measurements: per dark square (32, 6) and per light square (32, 3)."""

    squares: np.ndarray
    light: np.ndarray


def measure(canonical: np.ndarray) -> Features:
    """Features of a canonical BGR board image (``vision.layout`` geometry)."""
    logs = np.log1p(canonical.reshape(-1, 3).astype(np.float32))
    # A low percentile, not the median: a lamp's reflection may cover half a piece, but it
    # only ever brightens, and a darker third of the disc is still the piece's own colour.
    disc = np.percentile(logs[LAYOUT.discs], 30, axis=1)
    corners = np.median(logs[LAYOUT.corners], axis=1)
    light = np.median(logs[LAYOUT.light], axis=1)
    around = np.median(light[LAYOUT.neighbours], axis=1)
    return Features(squares=np.hstack([disc - around, disc - corners]), light=light)


@dataclass
class ColourModel:
    """A Gaussian per kind (empty, Black piece, White piece) over square features."""

    means: np.ndarray  # (3, 6) in KINDS order
    spreads: np.ndarray  # (3, 6): standard deviation per feature, at least _FLOOR

    @classmethod
    def learn(cls, features: Features, kinds: tuple[str, ...] = START_KINDS) -> ColourModel:
        """Learn each kind's colours from squares whose kind is known (by default the start)."""
        labels = np.array(kinds)
        means, residuals = [], []
        for kind in KINDS:
            samples = features.squares[labels == kind]
            if len(samples) == 0:
                raise ValueError(f"cannot learn colours: no square holds {kind!r}")
            means.append(np.median(samples, axis=0))  # a glare-struck piece does not drag it
            residuals.append(samples - means[-1])
        # One spread for all kinds (a kind seen tightly must not win every doubt), robust to
        # the odd outlier: 1.4826 times the median absolute deviation estimates a deviation.
        spread = 1.4826 * np.median(np.abs(np.vstack(residuals)), axis=0)
        pooled = np.maximum(spread, _FLOOR)
        return cls(np.array(means), np.tile(pooled, (3, 1)))

    def distances(self, features: Features) -> np.ndarray:
        """Squared normalised distance of every square to every kind, shape (32, 3)."""
        diff = features.squares[:, None, :] - self.means[None, :, :]
        return ((diff / self.spreads[None, :, :]) ** 2).sum(axis=2)

    def classify(self, features: Features) -> tuple[tuple[str, ...], np.ndarray]:
        """Each square's nearest kind, and which squares fit no kind at all (boolean (32,))."""
        distances = self.distances(features)
        nearest = distances.argmin(axis=1)
        unknown = distances.min(axis=1) > _UNKNOWN
        return tuple(KINDS[i] for i in nearest), unknown

    def separation(self) -> float:
        """The smallest squared distance between two kinds' means: how well the set can be told."""
        gaps = []
        for i in range(3):
            for j in range(i + 1, 3):
                scale = np.maximum(self.spreads[i], self.spreads[j])
                gaps.append(float((((self.means[i] - self.means[j]) / scale) ** 2).sum()))
        return min(gaps)

    def adapt(self, features: Features, kinds: tuple[str, ...], rate: float) -> None:
        """Move each kind's mean a step ``rate`` towards what it looks like now (slow light)."""
        labels = np.array(kinds)
        for index, kind in enumerate(KINDS):
            samples = features.squares[labels == kind]
            if len(samples):
                self.means[index] += rate * (samples.mean(axis=0) - self.means[index])

    def to_json(self) -> dict[str, object]:
        """The model as plain lists, keyed by kind."""
        return {
            kind: {
                "mean": self.means[i].round(5).tolist(),
                "spread": self.spreads[i].round(5).tolist(),
            }
            for i, kind in enumerate(KINDS)
        }

    @classmethod
    def from_json(cls, data: dict[str, dict[str, list[float]]]) -> ColourModel:
        """Inverse of :meth:`to_json`; ``KeyError``/``ValueError`` on a malformed model."""
        means = np.array([data[kind]["mean"] for kind in KINDS], dtype=np.float64)
        spreads = np.array([data[kind]["spread"] for kind in KINDS], dtype=np.float64)
        if means.shape != (3, 6) or spreads.shape != (3, 6) or (spreads <= 0).any():
            raise ValueError("colour model must give 6 means and 6 positive spreads per kind")
        return cls(means, spreads)
