"""Shared fixtures. Unit tests use a fresh cache dir; live tests share one per session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragkit import Settings

LIVE = os.environ.get("RAGKIT_LIVE_TESTS") == "1"
RAY = os.environ.get("RAGKIT_RAY_TESTS") == "1"
REPO = Path(__file__).resolve().parent.parent
CORPORA = REPO / "corpora"
SHARED = REPO.parent / "shared"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``live`` run the real embedded models: only with RAGKIT_LIVE_TESTS=1, so that a plain
    ``pytest`` stays offline and fast. Tests marked ``ray`` start a Ray cluster: only with RAGKIT_RAY_TESTS=1
    (CI runs them in a step of their own, with a time limit)."""
    skips = {"live": None if LIVE else pytest.mark.skip(reason="live model test: set RAGKIT_LIVE_TESTS=1"),
             "ray": None if RAY else pytest.mark.skip(reason="Ray cluster test: set RAGKIT_RAY_TESTS=1")}
    for item in items:
        for marker, skip in skips.items():
            if skip is not None and item.get_closest_marker(marker):
                item.add_marker(skip)


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
                    request: pytest.FixtureRequest) -> None:
    """Unit tests never read or write the user's cache; live tests share one session cache."""
    if request.node.get_closest_marker("live"):
        monkeypatch.setenv("RAGKIT_CACHE_DIR", str(_live_cache_dir(tmp_path_factory)))
    else:
        monkeypatch.setenv("RAGKIT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    for name in ("RAGKIT_MODEL", "RAGKIT_EMBEDDINGS", "RAGKIT_CONCURRENCY"):
        monkeypatch.delenv(name, raising=False)


_LIVE: list[Path] = []


def _live_cache_dir(factory: pytest.TempPathFactory) -> Path:
    if not _LIVE:
        _LIVE.append(Path(os.environ.get("RAGKIT_TEST_LIVE_CACHE") or factory.mktemp("live-cache")))
    return _LIVE[0]


@pytest.fixture(scope="module")
def live_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """For module-scoped live fixtures, which run before the per-test autouse cache fixture."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAGKIT_CACHE_DIR", str(_live_cache_dir(tmp_path_factory)))
        for name in ("RAGKIT_MODEL", "RAGKIT_EMBEDDINGS"):
            mp.delenv(name, raising=False)
        yield


@pytest.fixture
def live_settings() -> Settings:
    """Settings for live tests: the embedded default model and embeddings, the shared session cache."""
    return Settings.load()
