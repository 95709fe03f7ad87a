"""How long a test waits for what it awaits before calling it missing, and the one way to wait."""

import time
from collections.abc import Callable
from typing import TypeVar

#: Generous, as the machine CI runs on may be busy: a wait ends as soon as its condition holds,
#: so this bounds only a failure's report, and nothing is timed.
PATIENCE = 60.0
PATIENCE_MS = int(PATIENCE * 1000)

T = TypeVar("T")


def wait_for(check: Callable[[], T], what: str, timeout: float = PATIENCE) -> T:
    """Call ``check`` until it returns something truthy, and return that.

    For a positive wait only: it ends as soon as ``check`` holds, so ``timeout`` bounds just a
    failure, which is reported as ``what`` not happening. A wait that something does *not*
    happen is a different thing, with its own short bound, and is not written with this.
    """
    deadline = time.monotonic() + timeout
    while not (value := check()):
        assert time.monotonic() < deadline, f"{what} did not happen"
        time.sleep(0.02)
    return value
