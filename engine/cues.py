"""The abstract cue model: what each square should show a player, and how it looks.

The tracker derives a :class:`Cues` picture from (position, legal moves, occupancy, touched piece);
LED backends and the web board render it with :data:`CUE_STYLES`, so every display shows the same
colour and blink pattern for the same situation. docs/cues.md describes them for players.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass


class CueKind(enum.Enum):
    """Why a square is lit. Ordered by priority: a square wanted by two cues shows the earlier."""

    ERROR = "error"  # an illegal move or a sensor fault on this square
    TOUCH_MOVE = "touch-move"  # the lifted piece that must be moved (R-TCH-1)
    RESTORE_FILL = "restore-fill"  # put a piece back here to restore the position (R-ILL-1)
    RESTORE_CLEAR = "restore-clear"  # take the piece off this square to restore the position
    WRONG_PIECE = "wrong-piece"  # a camera sees the wrong colour (or a king for a man) here
    MUST_CAPTURE = "must-capture"  # a piece that has to capture (R-CAP-1)
    JUMP_REMINDER = "jump-reminder"  # stood long mid-capture: jump on to here (R-CAP-3)
    CONTINUE_JUMP = "continue-jump"  # where the capturing piece can jump on (R-CAP-3)
    REMOVE = "remove"  # a captured piece still to take off (R-CAP-4)
    CROWN = "crown"  # a new king waiting to be crowned (R-PRO-1)
    PLAY_FROM = "play-from"  # the opponent's chosen move: lift the piece here
    PLAY_PATH = "play-path"  # the opponent's capture lands here on its way
    PLAY_TO = "play-to"  # the opponent's chosen move: put the piece down here
    HINT_FROM = "hint-from"  # a hint: the piece to move
    HINT_TO = "hint-to"  # a hint: where it goes (its landings and end)
    CONFIRM = "confirm"  # brief acknowledgement that a move was recorded
    MOVE_FROM = "move-from"  # the last move's start square
    MOVE_TO = "move-to"  # the last move's end square


class Blink(enum.Enum):
    """How a lit square blinks."""

    SOLID = "solid"
    SLOW = "slow"  # 1 Hz, half on
    FAST = "fast"  # 4 Hz, half on

    def is_on(self, t: float) -> bool:
        """Whether the LED is lit at time ``t`` (seconds) under this pattern."""
        if self is Blink.SOLID:
            return True
        hertz = 1.0 if self is Blink.SLOW else 4.0
        return (t * hertz) % 1.0 < 0.5


@dataclass(frozen=True, slots=True)
class CueStyle:
    """The colour (0-255 RGB) and blink pattern a cue kind is shown with."""

    rgb: tuple[int, int, int]
    blink: Blink


CUE_STYLES: Mapping[CueKind, CueStyle] = {
    CueKind.ERROR: CueStyle((255, 0, 0), Blink.FAST),
    CueKind.TOUCH_MOVE: CueStyle((255, 0, 255), Blink.FAST),
    CueKind.RESTORE_FILL: CueStyle((255, 140, 0), Blink.SLOW),
    CueKind.RESTORE_CLEAR: CueStyle((255, 0, 0), Blink.SLOW),
    CueKind.WRONG_PIECE: CueStyle((255, 255, 255), Blink.SLOW),
    CueKind.MUST_CAPTURE: CueStyle((255, 200, 0), Blink.FAST),
    CueKind.JUMP_REMINDER: CueStyle((0, 120, 255), Blink.FAST),
    CueKind.CONTINUE_JUMP: CueStyle((0, 120, 255), Blink.SLOW),
    CueKind.REMOVE: CueStyle((255, 200, 0), Blink.SLOW),
    CueKind.CROWN: CueStyle((160, 0, 255), Blink.SLOW),
    CueKind.PLAY_FROM: CueStyle((0, 255, 255), Blink.SLOW),
    CueKind.PLAY_PATH: CueStyle((0, 80, 80), Blink.SOLID),
    CueKind.PLAY_TO: CueStyle((0, 255, 255), Blink.SOLID),
    CueKind.HINT_FROM: CueStyle((255, 60, 140), Blink.SLOW),
    CueKind.HINT_TO: CueStyle((255, 60, 140), Blink.SOLID),
    CueKind.MOVE_FROM: CueStyle((0, 60, 0), Blink.SOLID),
    CueKind.MOVE_TO: CueStyle((0, 160, 0), Blink.SOLID),
    CueKind.CONFIRM: CueStyle((0, 255, 0), Blink.SOLID),
}

_PRIORITY = {kind: rank for rank, kind in enumerate(CueKind)}


@dataclass(frozen=True, slots=True)
class Cues:
    """An immutable picture: square (1-32) -> the cue it shows. Squares not listed are dark."""

    squares: Mapping[int, CueKind]

    @classmethod
    def none(cls) -> Cues:
        """All squares dark."""
        return cls({})

    @classmethod
    def merge(cls, *layers: Mapping[int, CueKind]) -> Cues:
        """Combine layers; where two want the same square the higher-priority kind wins."""
        result: dict[int, CueKind] = {}
        for layer in layers:
            for square, kind in layer.items():
                held = result.get(square)
                if held is None or _PRIORITY[kind] < _PRIORITY[held]:
                    result[square] = kind
        return cls(dict(sorted(result.items())))

    def __iter__(self) -> Iterator[tuple[int, CueKind]]:
        return iter(self.squares.items())

    def __len__(self) -> int:
        return len(self.squares)

    def __bool__(self) -> bool:
        return bool(self.squares)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cues) and dict(self.squares) == dict(other.squares)

    def __hash__(self) -> int:
        return hash(frozenset(self.squares.items()))

    def to_json(self) -> dict[str, str]:
        """``{"12": "remove", ...}``: the form the web API and sensor tools use."""
        return {str(square): kind.value for square, kind in self.squares.items()}
