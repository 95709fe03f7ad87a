"""bootstrap.py: what each job installs, and a Python without ensurepip."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_bootstrap() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bootstrap", ROOT / "bootstrap.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_demo_installs_no_extra_and_the_tests_the_dev_extra() -> None:
    bootstrap = load_bootstrap()
    assert bootstrap.JOB_EXTRAS == {"demo": "", "test": "dev", "setup": "dev"}
    assert "urllib" not in (ROOT / "bootstrap.py").read_text()  # no pip from a hard-coded URL


def test_without_ensurepip_a_user_is_told_the_one_command(monkeypatch) -> None:
    bootstrap = load_bootstrap()
    monkeypatch.setitem(sys.modules, "ensurepip", None)  # import fails, as on bare Debian
    monkeypatch.setattr(bootstrap.os, "geteuid", lambda: 1000)
    with pytest.raises(SystemExit, match="sudo apt-get install python3-venv"):
        bootstrap._ensure_ensurepip()


def test_without_ensurepip_root_installs_it_with_apt(monkeypatch) -> None:
    bootstrap = load_bootstrap()
    monkeypatch.setitem(sys.modules, "ensurepip", None)
    monkeypatch.setattr(bootstrap.os, "geteuid", lambda: 0)
    monkeypatch.setattr(bootstrap.shutil, "which", lambda name: "/usr/bin/apt-get")
    monkeypatch.setattr(bootstrap, "VENV", Path("/nonexistent/poolboard-venv"))
    commands: list[list[str]] = []
    monkeypatch.setattr(bootstrap.subprocess, "run", lambda cmd, **kw: commands.append(cmd))
    bootstrap._ensure_ensurepip()
    assert commands[-1] == ["apt-get", "install", "-y", "python3-venv"]
