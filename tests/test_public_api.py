"""The public API: ``ragkit.__all__`` is sorted, complete and importable; importing stays off the network."""

from __future__ import annotations

import subprocess
import sys

import ragkit


def test_all_is_sorted_and_unique() -> None:
    assert ragkit.__all__ == sorted(ragkit.__all__)
    assert len(set(ragkit.__all__)) == len(ragkit.__all__)


def test_every_public_name_is_importable() -> None:
    for name in ragkit.__all__:
        assert getattr(ragkit, name, None) is not None, name
    namespace: dict[str, object] = {}
    exec("from ragkit import *", namespace)
    assert set(ragkit.__all__) <= set(namespace)


def test_public_classes_are_exported() -> None:
    public = {n for n, v in vars(ragkit).items() if not n.startswith("_") and isinstance(v, type)
              and v.__module__.startswith("ragkit")}
    assert public <= set(ragkit.__all__), public - set(ragkit.__all__)


def test_import_sets_offline_defaults_and_does_not_import_litellm() -> None:
    code = (
        "import os, sys, ragkit; "
        "print(os.environ['LITELLM_LOCAL_MODEL_COST_MAP'], os.environ['SCARF_NO_ANALYTICS'], "
        "'litellm' in sys.modules, 'torch' in sys.modules)"
    )
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("LITELLM")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "true", "False", "False"]


WINGS = ["llm", "kg", "synthesis", "evaluation", "calibration", "targets", "runs", "pipeline", "report", "text",
         "executors"]


def test_the_public_surface_is_pinned() -> None:
    """Adding or removing a public name is deliberate: update tests/public_api.json in the same commit."""
    import importlib
    import json
    from pathlib import Path

    pinned = json.loads((Path(__file__).parent / "public_api.json").read_text())
    names = ["ragkit", *(f"ragkit.{w}" for w in WINGS)]
    actual = {name: sorted(importlib.import_module(name).__all__) for name in names}
    assert actual == pinned


def test_every_wing_exports_sorted_importable_names_from_private_modules() -> None:
    import importlib
    import inspect

    for wing in WINGS:
        module = importlib.import_module(f"ragkit.{wing}")
        assert module.__all__ == sorted(module.__all__), wing
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isclass(value) or inspect.isfunction(value):  # defined in ragkit, not re-exported from a library
                assert value.__module__.startswith("ragkit"), (wing, name)
