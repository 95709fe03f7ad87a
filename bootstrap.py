#!/usr/bin/env python3
"""Set up poolboard's environment (.venv) with nothing but python3, then run a job in it.

    python3 bootstrap.py demo [ARGS...]   # set up, then `poolboard demo`
    python3 bootstrap.py test [ARGS...]   # set up, then the whole test suite (pytest)
    python3 bootstrap.py setup            # set up only

The environment is reinstalled only when pyproject.toml changes. On a Debian machine without the
python3-venv package (no ensurepip), pip itself is fetched from PyPI as a wheel, so the standard
library is all that is needed.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".poolboard-installed"
EXTRAS = "dev"


def _wanted_stamp() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return f"{digest} {EXTRAS} {sys.version_info[:2]}"


def _bootstrap_pip_from_pypi(python: Path) -> None:
    """Install pip into a venv created without it, using pip's own wheel as the installer."""
    with urllib.request.urlopen("https://pypi.org/pypi/pip/json", timeout=60) as response:
        release = json.load(response)
    wheel = next(f for f in release["urls"] if f["filename"].endswith("-py3-none-any.whl"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / wheel["filename"]
        with urllib.request.urlopen(wheel["url"], timeout=120) as response:
            data = response.read()
        if hashlib.sha256(data).hexdigest() != wheel["digests"]["sha256"]:
            raise SystemExit("bootstrap: the pip wheel from PyPI failed its sha256 check")
        path.write_bytes(data)
        subprocess.run([str(python), f"{path}/pip", "install", "--quiet", str(path)], check=True)


def ensure_environment() -> None:
    """Create .venv and install poolboard with its dev extra, unless it is already current."""
    if STAMP.exists() and STAMP.read_text() == _wanted_stamp():
        return
    python = BIN / "python"
    if not python.exists():
        try:
            import ensurepip  # noqa: F401

            venv.EnvBuilder(with_pip=True, upgrade_deps=False).create(VENV)
        except ImportError:
            venv.EnvBuilder(with_pip=False).create(VENV)
            _bootstrap_pip_from_pypi(python)
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "install", "--quiet"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "-e", f"{ROOT}[{EXTRAS}]"], check=True)
    STAMP.write_text(_wanted_stamp())


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"demo", "test", "setup"}:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    job, rest = argv[0], argv[1:]
    ensure_environment()
    if job == "setup":
        return 0
    if job == "demo":
        command = [str(BIN / "poolboard"), "demo", *rest]
    else:
        command = [str(BIN / "python"), "-m", "pytest", *rest]
    os.chdir(ROOT)
    return subprocess.call(command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
