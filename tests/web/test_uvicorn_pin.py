"""poolboard/web/limits.py extends uvicorn's h11 protocol through internals uvicorn does not
promise to keep: pyproject.toml pins the release it was tested with, and this checks that the
pin holds and that the internals are there."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement
from uvicorn.protocols.http.h11_impl import H11Protocol

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def uvicorn_requirement() -> Requirement:
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    (found,) = [r for r in map(Requirement, dependencies) if r.name == "uvicorn"]
    return found


def test_uvicorn_is_pinned_below_the_next_release_and_the_installed_one_is_in_range() -> None:
    requirement = uvicorn_requirement()
    assert any(spec.operator == "<" for spec in requirement.specifier), requirement
    assert requirement.specifier.contains(version("uvicorn")), version("uvicorn")


def test_the_protocol_internals_limits_py_uses_are_there() -> None:
    for name in (
        "connection_made",
        "connection_lost",
        "on_response_complete",
        "handle_websocket_upgrade",
    ):
        assert callable(getattr(H11Protocol, name, None)), name
    for attribute in ("connections", "client", "cycle", "loop", "transport"):
        assert attribute in H11Protocol.__init__.__code__.co_names, attribute
