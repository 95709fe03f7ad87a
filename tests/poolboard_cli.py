"""The real ``poolboard`` command line, run in a child process as a user would run it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def poolboard(
    *args: str, cwd: Path | None = None, stdin: str | bytes = b"", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``poolboard ARGS`` with this interpreter; stdout and stderr decoded as UTF-8 (the
    bytes as written: no newline translation)."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", *args],
        input=data,
        capture_output=True,
        cwd=cwd,
        timeout=timeout,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )
