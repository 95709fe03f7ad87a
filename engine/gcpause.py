"""Searching without the cyclic garbage collector's pauses.

A full collection walks every object alive, and a search's transposition table holds hundreds
of thousands of them: on this machine a 2 s search from the start position stalled up to 750 ms
in one collection, time that a ``stop`` or the move time have no say over. The search makes no
reference cycles, so nothing is lost by not collecting while it runs.

>>> import gc
>>> with without_collection_pauses():
...     gc.isenabled()
False
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def without_collection_pauses() -> Iterator[None]:
    """Run the block with the cyclic collector off, then freeze what it left alive so that later
    full collections do not walk it again (objects are still freed when no longer referenced)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
