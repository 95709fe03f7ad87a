"""Games played in front of the camera: recorded exactly, from rendered frames.

    .venv/bin/python bench/vision_games.py [--games 12] [--plies 40] [--seed 0]

Each game is a random legal game (poolboard.simulator.random_game) on a rendered board
(vision.synthetic): even games on a stock set and view, odd ones on a hardened set and view
(kings as stacks or printed marks, an oblique camera through a bending lens, hard colours).
The board is calibrated on its start position, as a user would; then every move is played as
the camera would see it, ten frames a second:

- a hand reaches over the board (three frames, the piece in hand);
- a capture is set down with its captured pieces still on the board, held still, and another
  reach takes them off (half the captures); a new king is first a man, then crowned by hand;
- the new position is held still for six frames, each with its own sensor noise, the light
  drifting slowly through the game.

Frames go through ``BoardWatcher`` and its snapshots through the tracker, which confirms the
set-up once it stands and each recorded position back to the camera, as the session does.
Reports games recorded exactly (goal: all), moves recorded right, and false alarms (violations
or faults on legal play; goal 0).
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name hides the vision
# package: look in the repository root instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import numpy as np  # noqa: E402

from engine.board import Board, Move  # noqa: E402
from engine.events import GameStarted, MoveRecorded  # noqa: E402
from engine.sensing import LinkHealth, SensorFault  # noqa: E402
from engine.tracker import Tracker  # noqa: E402
from poolboard.simulator import random_game  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.pipeline import BoardWatcher  # noqa: E402
from vision.synthetic import (  # noqa: E402
    START,
    Style,
    View,
    hardened_style,
    hardened_view,
    random_style,
    random_view,
    render,
)

_FPS = 10.0
_REACH = 3  # frames a hand is over the board
_HOLD = 6  # frames a position is held still


@dataclass
class GameResult:
    """One game's outcome: whether its record is the game played, how many of its first
    moves were recorded right, and the alarms raised."""

    plies: int
    right: int
    exact: bool
    alarms: list[str]
    style: str


def position_of(board: Board) -> dict[int, str]:
    """``board``'s pieces as the renderer takes them."""
    return {
        square: piece.symbol
        for square in board.occupied_squares()
        if (piece := board.piece_at(square)) is not None
    }


class Camera:
    """Renders what the camera sees of one board, frame by frame, with its own noise."""

    def __init__(self, style: Style, view: View, rng: np.random.Generator) -> None:
        self.style, self.view, self.rng = style, view, rng
        self.frames = 0

    def _light(self) -> View:
        """The view with the light drifting slowly (±8 % over a few hundred frames)."""
        drift = 1.0 + 0.08 * float(np.sin(self.frames / 90.0))
        return replace(self.view, brightness=self.view.brightness * drift)

    def held(self, position: dict[int, str], frames: int = _HOLD) -> list[np.ndarray]:
        """``position`` held still: one render, each frame its own sensor noise."""
        image = render(position, self.style, self._light(), markers=False).image
        shots = []
        for _ in range(frames):
            noise = self.rng.normal(0.0, 1.5, image.shape)
            shots.append(np.clip(image + noise, 0, 255).astype(np.uint8))
            self.frames += 1
        return shots

    def reach(self, position: dict[int, str]) -> list[np.ndarray]:
        """A hand moving over ``position``."""
        shots = []
        side = str(self.rng.choice(["bottom", "top", "left", "right"]))
        for step in range(_REACH):
            arm = float(self.rng.uniform(0.3, 0.9))
            seed = self.frames + step
            view = replace(self._light(), arm=arm, arm_from=side, hand=True, seed=seed)
            shots.append(render(position, self.style, view, markers=False).image)
        self.frames += _REACH
        return shots


def move_frames(camera: Camera, board: Board, move: Move, rng: random.Random) -> list[np.ndarray]:
    """The frames of ``move`` played by hand on ``board`` (which is left unchanged)."""
    before = position_of(board)
    mover = before[move.from_square]
    in_hand = {**before, move.from_square: "empty"}
    frames = camera.reach(in_hand)
    after_board = board.copy()
    after_board.push(move)
    after = position_of(after_board)
    if move.captures and rng.random() < 0.5:
        landed = {**in_hand, move.to_square: mover}
        frames += camera.held(landed) + camera.reach(landed)
    if move.crowns:  # set down as a man, crowned by hand
        frames += camera.held({**after, move.to_square: mover}) + camera.reach(after)
    return frames + camera.held(after)


def play(game: int, plies: int, seed: int) -> GameResult:
    """One rendered game through the watcher and the tracker."""
    rng = np.random.default_rng([seed, game])
    moves_rng = random.Random(seed * 1000 + game)
    hard = game % 2 == 1
    style = hardened_style(rng) if hard else random_style(rng)
    view = hardened_view(rng, jitter=0.0) if hard else random_view(rng)
    start = render(START, style, view, markers=False)
    watcher = BoardWatcher(calibrate(start.image, start.corners))
    board = Board()
    moves = random_game(moves_rng, plies, board)
    camera = Camera(style, view, rng)
    tracker = Tracker(board.copy())
    alarms: list[str] = []
    t = 0.0
    frames = camera.held(START, 10)
    for move in moves:
        frames += move_frames(camera, board, move, moves_rng)
        board.push(move)
    frames += camera.held(position_of(board), 30)
    for frame in frames:
        t += 1 / _FPS
        event = watcher.feed(frame, t)
        output = tracker.advance(t)
        if event is not None:
            if isinstance(event, SensorFault) or (
                isinstance(event, LinkHealth) and not event.connected
            ):
                alarms.append(f"{t:.1f}s {event}")
            output += tracker.feed(event)
        for happened in output:
            if happened.kind in ("violation", "fault"):
                alarms.append(f"{t:.1f}s {happened}")
            if isinstance(happened, MoveRecorded | GameStarted):
                watcher.confirm(position_of(tracker.board))
    recorded = tracker.board.move_stack
    right = 0
    while right < min(len(recorded), len(moves)) and recorded[right] == moves[right]:
        right += 1
    exact = recorded == moves and not alarms
    return GameResult(len(moves), right, exact, alarms, "hardened" if hard else "stock")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    results = []
    for game in range(args.games):
        result = play(game, args.plies, args.seed)
        results.append(result)
        verdict = "exact" if result.exact else f"first wrong at ply {result.right + 1}"
        print(f"game {game} ({result.style}): {result.plies} plies, {verdict}")
        for alarm in result.alarms[:3]:
            print(f"    alarm: {alarm}")
    for kind in ("stock", "hardened"):
        mine = [r for r in results if r.style == kind]
        if mine:
            exact = sum(r.exact for r in mine)
            print(f"{kind}: {exact}/{len(mine)} games recorded exactly")
    exact = sum(r.exact for r in results)
    plies = sum(r.plies for r in results)
    right = sum(r.right for r in results)
    alarms = sum(len(r.alarms) for r in results)
    print(f"all: {exact}/{len(results)} games exact; {right}/{plies} plies recorded before the")
    print(f"first error of their game; {alarms} false alarms")


if __name__ == "__main__":
    main()
