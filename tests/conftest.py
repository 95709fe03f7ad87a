"""Fixtures every test folder may use."""

import contextlib
import os
import subprocess
from pathlib import Path

import pytest


class TinyDisk:
    """A 512 KiB tmpfs of its own at ``folder``, filled for real to the last byte by ``fill``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.filler = folder / "filler"

    def fill(self) -> None:
        with open(self.filler, "ab", buffering=0) as handle:
            for size in (65536, 4096, 512, 1):
                with contextlib.suppress(OSError):
                    while True:
                        handle.write(b"\0" * size)

    def free(self) -> None:
        self.filler.unlink()


@pytest.fixture
def tiny_disk(tmp_path: Path):
    """A :class:`TinyDisk` (mounting it needs root: skipped without)."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = os.geteuid() == 0 and (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(folder)],
            capture_output=True,
        ).returncode
        == 0
    )
    if not mounted:
        pytest.skip("mounting a small tmpfs needs root")
    yield TinyDisk(folder)
    subprocess.run(["umount", "--lazy", str(folder)], check=True)
