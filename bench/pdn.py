"""Reading speed of the PDN reader: games on lines of their own, and many games on one line.

    .venv/bin/python bench/pdn.py [--repeat 3]

The sample file (three real-length games, 121 moves with clocks and comments) is read many times
over; then ``N`` one-kilobyte games stand on one line, for growing ``N``. Linear reading keeps the
time per game flat as the line grows; a reader that copied the rest of the line for each game
would grow with ``N``. Last, hostile texts of megabytes (the kind tests/engine/test_pdn_fuzz.py
feeds the reader) are read to their games or their one error. Prints the best of ``--repeat``
runs.
"""

from __future__ import annotations

import argparse
import io
import platform
import time
from pathlib import Path

from engine.pdn import PdnError, read_games

SAMPLE = Path(__file__).parents[1] / "tests" / "data" / "pdn" / "club_night.pdn"
ONE_LINE_GAME = "1. 11-15 {" + "a" * 1000 + "} *"
#: Huge hostile texts: a long move soup, an unclosed comment, deep variations, many NAGs, a huge
#: FEN tag, many comments, many comment lines.
HOSTILE = {
    "4 MB of '9-'": "1. 11-15 " + "9-" * 2_000_000 + "9 *",
    "5 MB unclosed comment": "{" + "x" * 5_000_000,
    "100,000 '('": "(" * 100_000,
    "100,000 NAGs": "1. 11-15 23-19 " + "$1 " * 100_000 + "*",
    "5 MB FEN tag": '[FEN "' + "B:W1," * 1_000_000 + '"]',
    "100,000 comments": "1. 11-15 " + "{x} " * 100_000 + "*",
    "100,000 comment lines": "; x\n" * 100_000 + "1. 11-15 *",
}


def best_time(text: str, repeat: int) -> tuple[int, float]:
    """The games in ``text`` and the best time of ``repeat`` readings."""
    best, games = float("inf"), 0
    for _ in range(repeat):
        started = time.perf_counter()
        games = sum(1 for _ in read_games(io.StringIO(text), name="bench.pdn"))
        best = min(best, time.perf_counter() - started)
    return games, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (best is kept)")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print("| text | size | games | time | per game | moves/s |")
    print("| --- | --- | --- | --- | --- | --- |")
    sample = SAMPLE.read_text(encoding="utf-8")
    text = "\n".join([sample] * 100)
    games, seconds = best_time(text, args.repeat)
    moves = 121 * 100
    print(
        f"| club_night.pdn x 100 | {len(text) / 1e6:.1f} MB | {games} | {seconds:.2f} s | "
        f"{seconds / games * 1e6:.0f} us | {moves / seconds:,.0f} |"
    )
    for count in (1_000, 4_000, 16_000):
        text = " ".join([ONE_LINE_GAME] * count)
        games, seconds = best_time(text, args.repeat)
        print(
            f"| {count:,} games on one line | {len(text) / 1e6:.1f} MB | {games} | "
            f"{seconds:.2f} s | {seconds / games * 1e6:.0f} us | {games / seconds:,.0f} |"
        )

    print()
    print("| hostile text | size | outcome | time |")
    print("| --- | --- | --- | --- |")
    for name, text in HOSTILE.items():
        best, outcome = float("inf"), ""
        for _ in range(args.repeat):
            started = time.perf_counter()
            try:
                outcome = f"{sum(1 for _ in read_games(io.StringIO(text), name='bench.pdn'))} games"
            except PdnError:
                outcome = "one PdnError"
            best = min(best, time.perf_counter() - started)
        print(f"| {name} | {len(text) / 1e6:.1f} MB | {outcome} | {best:.2f} s |")


if __name__ == "__main__":
    main()
