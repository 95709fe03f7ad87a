"""Link-downs per hour of the Pico link under byte noise both ways, an LED change every second.

The real host protocol (firmware_bridge/link.py) and the real firmware (firmware/app.py on the
simulated board) joined by a cable that garbles each byte with the given probability in each
direction, in virtual time (firmware_bridge/virtual_link.py): an hour of link takes about a
minute. Every second the host sets a new picture (1-4 cues, as a move shows); every 2 s the
pieces change. Counted: link-downs, LED pictures the board showed and how long they took,
occupancies the host reported (and any it reported that was never on the board).

Run: .venv/bin/python bench/link_noise.py [--hours 1] [--rates 0.1 1] [--seed 1] [--quiet]
"""

from __future__ import annotations

import argparse
import operator
import random
import statistics
from functools import partial

from engine.cues import CueKind, Cues
from engine.sensing import Snapshot
from firmware_bridge.cue_frame import DARK, LINKED, frame_entries
from firmware_bridge.virtual_link import VirtualLink


def measure(rate: float, hours: float, seed: int, quiet: bool = False) -> dict[str, float]:
    """Figures for ``hours`` of virtual time at byte error ``rate`` (0-1) both ways; ``quiet``:
    no LED or piece changes, only the board's heartbeats keep the link alive."""
    rng = random.Random(seed)
    link = VirtualLink(noise_in=rate, noise_out=rate, seed=seed)
    link.run_until(lambda: link.host.linked)
    placed: list[frozenset[int]] = [frozenset()]
    latencies: list[float] = []
    late = 0
    seconds = int(hours * 3600)
    for second in range(seconds):
        if quiet:
            link.run(1.0)
            continue
        cues = Cues(
            {s: rng.choice(list(CueKind)) for s in rng.sample(range(1, 33), rng.randint(1, 4))}
        )
        wanted = frame_entries(cues, (LINKED, DARK))
        link.host.set_picture(wanted)
        if second % 2 == 0:
            occupied = placed[-1]
            while occupied == placed[-1]:
                occupied = frozenset(rng.sample(range(1, 33), rng.randrange(0, 25)))
            link.hal.switches = sum(1 << (s - 1) for s in occupied)
            placed.append(occupied)
        start = link.t
        shown = link.run_until(partial(operator.eq, link.firmware.picture.entries, wanted), 1.0)
        if shown:
            latencies.append(link.t - start)
            link.run(1.0 - (link.t - start))
        else:
            late += 1
    snapshots = {e.occupied for e in link.events if isinstance(e, Snapshot)}
    latencies.sort()
    return {
        "link_downs_per_hour": link.link_downs / hours,
        "pictures": seconds,
        "not_shown_within_1s": late,
        "led_p50_ms": 1000 * statistics.median(latencies) if latencies else 0.0,
        "led_p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else 0.0,
        "led_retries": link.host.counters.retries,
        "occupancies_set": len(placed) - 1,
        "occupancies_reported": sum(1 for occupied in placed[1:] if occupied in snapshots),
        "false_snapshots": sum(1 for s in snapshots if s not in placed),
        "garbled_bytes": link.to_board.garbled + link.to_host.garbled,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=1.0, help="virtual hours per rate")
    parser.add_argument(
        "--rates", type=float, nargs="+", default=[0.1, 1.0], help="byte error rates, percent"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no LED or piece changes at all")
    args = parser.parse_args()
    for percent in args.rates:
        figures = measure(percent / 100, args.hours, args.seed, args.quiet)
        print(f"{percent} % both ways, {args.hours} h{', quiet' if args.quiet else ''}:")
        for name, value in figures.items():
            print(f"  {name}: {value:.3g}" if isinstance(value, float) else f"  {name}: {value}")


if __name__ == "__main__":
    main()
