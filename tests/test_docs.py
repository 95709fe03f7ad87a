"""The README's and the docs' examples work as written (as python-chess runs its README):
``>>>`` sessions through doctest, other Python blocks run whole, TOML blocks validated as the
config files they show, and the quick, harmless ``poolboard`` commands of the shell blocks run
from the repository root."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from firmware_bridge.board_file import read_layout
from hardware.config import MatrixPins, ScanSettings
from hardware.spi_leds import LedLayout
from poolboard.config import Config, config_from_mapping
from poolboard.hall.settings import hall_config_from_mapping

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(
    [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "firmware_bridge" / "README.md"]
    + list((ROOT / "docs").rglob("*.md"))
)
#: Python blocks that are fragments, not programs: each with what it lacks.
FRAGMENTS = {
    ("docs/hardware.md", "from hardware.matrix import MatrixSensor"): "a pin map (pins)",
    ("docs/opponents.md", "class Opponent(ABC):"): "an interface outline",
    ("docs/sensor-log.md", "from poolboard.sensor_log import"): "a sensor log of your own",
    ("docs/tracker.md", "from engine.tracker import"): "a board and a sensor",
    ("firmware_bridge/README.md", "from firmware_bridge.host import"): "a Pico on USB",
}
#: The commands a shell block may hold that are quick and touch nothing: they are run.
QUICK = {"moves", "perft", "pdn"}


def blocks(language: str) -> list[tuple[str, str]]:
    """Every ``language`` code block of the pages: (page, code)."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for code in re.findall(rf"^```{language}\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
            found.append((page.relative_to(ROOT).as_posix(), code))
    return found


def ids(found: list[tuple[str, str]]) -> list[str]:
    return [f"{page}:{code.splitlines()[0][:40]}" for page, code in found]


PYTHON = blocks("python")
SESSIONS = [(page, code) for page, code in PYTHON if code.startswith(">>> ")]


def is_fragment(page: str, code: str) -> bool:
    return any(where == page and code.startswith(start) for where, start in FRAGMENTS)


PROGRAMS = [
    (page, code)
    for page, code in PYTHON
    if not code.startswith(">>> ") and not is_fragment(page, code)
]


def test_every_fragment_listed_is_still_in_the_docs() -> None:
    missing = [
        (where, start)
        for where, start in FRAGMENTS
        if not any(page == where and code.startswith(start) for page, code in PYTHON)
    ]
    assert missing == [], "a fragment listed here is no longer in the docs"


@pytest.mark.parametrize(("page", "code"), SESSIONS, ids=ids(SESSIONS))
def test_python_sessions_give_the_output_shown(page: str, code: str) -> None:
    test = doctest.DocTestParser().get_doctest(code, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize(("page", "code"), PROGRAMS, ids=ids(PROGRAMS))
def test_python_blocks_run(page: str, code: str, tmp_path: Path, monkeypatch) -> None:
    shutil.copy(ROOT / "tests" / "data" / "pdn" / "club_night.pdn", tmp_path / "games.pdn")
    monkeypatch.chdir(tmp_path)  # docs/pdn.md reads games.pdn
    exec(compile(code, page, "exec"), {"__name__": "__docs__"})


def _tables(code: str) -> dict | None:
    """The block as TOML, or ``None`` when it is a sketch (side by side, or with ``...``)."""
    try:
        return tomllib.loads(code)
    except tomllib.TOMLDecodeError:
        return None


TOML_BLOCKS = [(page, code) for page, code in blocks("toml") if _tables(code) is not None]


@pytest.mark.parametrize(("page", "code"), TOML_BLOCKS, ids=ids(TOML_BLOCKS))
def test_config_examples_are_valid(page: str, code: str, tmp_path: Path) -> None:
    tables = _tables(code)
    assert tables is not None
    if "tables" in tables or "director" in tables:  # a HALL.toml
        hall_config_from_mapping(tables, page)
    elif "matrix" in tables and "rows" not in tables["matrix"]:  # a Pico's board file
        board_file = tmp_path / "pico.toml"
        board_file.write_text(code)
        read_layout(board_file)
    elif "matrix" in tables:  # a board file for the Pi's GPIO
        MatrixPins.from_mapping(tables["matrix"])
        ScanSettings.from_mapping(tables.get("scan", {}))
        LedLayout.from_mapping(tables.get("leds", {}))
    elif set(tables) <= set(Config.model_fields) and "remote" not in tables:
        config_from_mapping(tables, page)
    else:  # a section shown alone: valid as that section
        for name, values in tables.items():
            section = Config.model_fields[name].annotation
            assert section is not None
            section.model_validate(values)  # type: ignore[attr-defined]


def quick_commands() -> list[tuple[str, str]]:
    """The shell blocks' lines that run a quick, harmless ``poolboard`` command."""
    found = []
    for page, code in blocks("sh"):
        for line in code.splitlines():
            if not line.startswith(("poolboard ", ".venv/bin/poolboard ")):
                continue
            words = shlex.split(line, comments=True)
            if "--help" in words or (len(words) > 1 and words[1] in QUICK):
                found.append((page, line))
    return found


COMMANDS = quick_commands()


def test_the_command_line_page_has_examples_that_run() -> None:
    assert len([page for page, _ in COMMANDS if page == "docs/cli.md"]) >= 6


@pytest.mark.parametrize(("page", "line"), COMMANDS, ids=[line for _, line in COMMANDS])
def test_shell_examples_run(page: str, line: str) -> None:
    bin_dir = Path(sys.executable).parent
    done = subprocess.run(
        ["bash", "-c", line.replace(".venv/bin/poolboard", "poolboard")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"},
        timeout=120,
    )
    assert done.returncode == 0, f"{page}: {line}\n{done.stderr}"
    assert done.stdout.strip(), f"{page}: {line} printed nothing"


def test_links_between_the_pages_lead_somewhere() -> None:
    broken = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []


def test_the_spanish_rule_book_states_every_rule_of_the_english_one() -> None:
    def stated(page: str) -> list[str]:
        text = (ROOT / "docs" / page).read_text()
        text = text.split("\n## Improper moves")[0]  # the rule book, not how it is implemented
        return re.findall(r"^\| (R-[A-Z]{3}-\d+) \|", text, flags=re.MULTILINE)

    english = stated("rules.md")
    assert len(english) >= 35 and stated("es/reglas.md") == english
