"""The plugin packages exist only as ragkit.metrics / ragkit.generators (DESIGN §1, STYLE §7.2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("package", ["metrics", "generators"])
def test_bare_top_level_import_is_refused(package: str) -> None:
    code = f"import sys; sys.path.insert(0, {str(REPO)!r}); import {package}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd="/")
    assert done.returncode != 0
    assert f"ImportError: this package must be imported as ragkit.{package}" in done.stderr
    assert f"not as '{package}'" in done.stderr


@pytest.mark.parametrize("package", ["metrics", "generators"])
def test_reached_through_the_relative_symlink(package: str) -> None:
    link = REPO / "ragkit" / package
    assert link.is_symlink() and str(link.readlink()) == f"../{package}"
    import importlib

    module = importlib.import_module(f"ragkit.{package}")
    assert Path(module.__file__).resolve() == (REPO / package / "__init__.py").resolve()  # type: ignore[arg-type]
