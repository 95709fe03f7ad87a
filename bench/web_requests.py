"""How long one API request takes on a kept-alive connection: a real server on loopback.

    .venv/bin/python bench/web_requests.py [--requests 200]

A child process runs ``poolboard demo`` on a free loopback port; this process times ``--requests``
``GET /api/state`` and as many ``POST /api/lever`` (a change: through the request guard and its
body read) over one kept-alive httpx connection, and reports p50/p95 of each. Goal: p95 <= 10 ms.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import httpx


def timings(client: httpx.Client, count: int, request) -> list[float]:
    """Milliseconds each of ``count`` calls of ``request(client)`` took."""
    spent = []
    for _ in range(count):
        began = time.perf_counter()
        request(client).raise_for_status()
        spent.append((time.perf_counter() - began) * 1000)
    return spent


def report(name: str, spent: list[float]) -> None:
    cuts = statistics.quantiles(spent, n=20)
    print(f"{name}: p50 {statistics.median(spent):.2f} ms, p95 {cuts[18]:.2f} ms ({len(spent)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        demo = subprocess.Popen(
            [sys.executable, "-m", "poolboard.cli", "demo", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "XDG_DATA_HOME": home},
        )
        try:
            url = next(
                line.split("web UI on ")[1].split("/ ")[0]
                for line in iter(demo.stdout.readline, "")
                if "web UI on " in line
            )
            with httpx.Client(base_url=url, headers={"X-Poolboard": "1"}, timeout=10) as client:
                timings(client, 20, lambda c: c.get("/api/state"))  # warm up
                report(
                    "GET /api/state", timings(client, args.requests, lambda c: c.get("/api/state"))
                )
                report(
                    "POST /api/lever",
                    timings(
                        client,
                        args.requests,
                        lambda c: c.post("/api/lever", json={"side": "black"}),
                    ),
                )
        finally:
            demo.send_signal(signal.SIGTERM)
            demo.wait(timeout=15)


if __name__ == "__main__":
    main()
