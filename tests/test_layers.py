"""The layers hold (README "Layout"): ``engine/`` imports nothing of the other packages; the
hardware, the serial link to a Pico and the camera import only ``engine/``; only ``poolboard/``
wires them all. Checked on the source, so a stray import fails here before it ships."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "hardware", "firmware_bridge", "vision", "poolboard")
#: What each package may import of the others (the standard library and third parties: any).
ALLOWED = {
    "engine": set(),
    "hardware": {"engine"},
    "firmware_bridge": {"engine"},
    "vision": {"engine"},
}


def imported_packages(path: Path) -> set[str]:
    """The top-level names a module imports (relative imports stay inside its own package)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_lower_layer_imports_only_what_is_below_it(package: str) -> None:
    forbidden = set(PACKAGES) - ALLOWED[package] - {package}
    wrong = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for name in imported_packages(path) & forbidden
    }
    assert not wrong, sorted(wrong)


def test_every_package_says_it_is_typed() -> None:
    assert [p for p in PACKAGES if not (ROOT / p / "py.typed").is_file()] == []
