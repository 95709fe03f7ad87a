"""Fixtures every test folder may use, and the split into the unit and the system tier.

``pytest -m "not system"`` runs the unit tier (in-process, well under a minute);
``pytest -m system`` the rest: child processes, a browser, a broker, a pty, MicroPython, web
servers on a socket and the long runs (property runs, huge inputs, the camera pipeline on whole
pictures, the kings endings, tests marked ``slow``). Tests are sorted by what they use
(:func:`pytest_collection_modifyitems`), so a new test lands in its tier without a marker.
"""

import contextlib
import inspect
import os
import subprocess
import types
from pathlib import Path

import pytest

from engine.endgame import KingsEnding
from tests.patience import wait_for

#: Fixtures that start something outside the test's process (a browser, a broker, a pty, a
#: service, a table or a hall process, a web server on a socket, a tmpfs) or take long to build
#: (the kings endings).
SYSTEM_FIXTURES = frozenset(
    {
        "browser",
        "broker",
        "tables",
        "hall",
        "make_link",
        "emulator",
        "services",
        "live",
        "quick",
        "tiny_disk",
        "kings_ending",
    }
)
#: Names whose use in a test's code (or in the tests' own helpers it calls) means a child
#: process or a web server on a socket (``poolboard`` is tests/poolboard_cli.py's helper running
#: the real command line; ``Live`` and ``Server`` the web tests' servers).
SYSTEM_NAMES = frozenset(
    {"subprocess", "Popen", "poolboard", "EngineClient", "Live", "Server", "WebServer"}
)
#: Test modules that run the whole camera pipeline on full-size photos and synthetic videos:
#: seconds of OpenCV each.
SYSTEM_MODULES = frozenset(
    {
        "tests/vision/test_real_photo.py",
        "tests/vision/test_watcher.py",
        "tests/vision/test_lattice.py",
        "tests/vision/test_accuracy.py",
        "tests/vision/test_calibration.py",
        "tests/service/test_camera_session.py",
    }
)
#: A property test drawing more examples than this is a long run (hypothesis's default: 100).
LONG_PROPERTY_RUN = 100
ROOT = Path(__file__).resolve().parent.parent


def _names(function: object, seen: set[object]) -> set[str]:
    """The global names ``function``'s code uses, its nested functions' and those of the tests'
    own helpers it calls (functions defined under tests/)."""
    code = getattr(function, "__code__", None)
    if code is None or function in seen:
        return set()
    seen.add(function)
    names: set[str] = set()
    codes = [code]
    while codes:
        current = codes.pop()
        names.update(current.co_names)
        codes += [c for c in current.co_consts if isinstance(c, types.CodeType)]
    module_globals = getattr(function, "__globals__", {})
    for name in list(names):
        helper = module_globals.get(name)
        if inspect.isfunction(helper) and helper.__module__.startswith("tests"):
            names |= _names(helper, seen)
    return names


def _is_system(item: pytest.Item) -> bool:
    """Whether ``item`` needs more than its own process, or is a long run."""
    if item.get_closest_marker("slow") is not None:
        return True
    if item.path.relative_to(ROOT).as_posix() in SYSTEM_MODULES:
        return True
    if SYSTEM_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    function = getattr(item, "function", None)
    if function is None:
        return False
    inner = getattr(getattr(function, "hypothesis", None), "inner_test", None)
    if inner is not None:
        settings = getattr(function, "_hypothesis_internal_use_settings", None)
        if settings is not None and settings.max_examples > LONG_PROPERTY_RUN:
            return True
        function = inner
    fixtures = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    functions = [function, *(definitions[-1].func for definitions in fixtures.values())]
    seen: set[object] = set()
    return any(SYSTEM_NAMES & _names(f, seen) for f in functions)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that belongs to the system tier ``system`` (see the module docstring)."""
    for item in items:
        if item.get_closest_marker("system") is None and _is_system(item):
            item.add_marker(pytest.mark.system)


@pytest.fixture(scope="session")
def kings_ending() -> KingsEnding:
    """The solved kings endings (engine/endgame.py): some seconds to build, so once per run."""
    return KingsEnding()


@pytest.fixture
def unsolved_endings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process's computer players play kings endings by search alone, as on a machine
    without the memory for the table: a test that only passes near one builds nothing."""
    from poolboard.opponents import computer

    monkeypatch.setattr(computer, "ENDINGS_MEMORY", 1 << 60)
    monkeypatch.setattr(computer, "ENDINGS", computer._Endings())


@pytest.fixture
def solved_endings(kings_ending: KingsEnding, monkeypatch: pytest.MonkeyPatch) -> KingsEnding:
    """The process's computer players (``ENDINGS`` in poolboard/opponents/computer.py) given the
    run's table instead of building one of their own on their thread."""
    from poolboard.opponents import computer

    monkeypatch.setattr(computer, "KingsEnding", lambda: kings_ending)
    # Handed over on the builder's thread, which may take longer than PATIENCE on a busy machine.
    return wait_for(computer.ENDINGS.get, "the kings endings handed over", timeout=120)


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
