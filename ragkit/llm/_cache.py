"""A small persistent key-value cache in SQLite, for LLM completions and embeddings."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def content_key(*parts: Any) -> str:
    """A stable sha256 of JSON-serialisable parts."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _m001_initial(db: sqlite3.Connection) -> None:
    db.execute(
        "CREATE TABLE IF NOT EXISTS entries ("
        " namespace TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,"
        " created REAL DEFAULT (julianday('now')), PRIMARY KEY (namespace, key))"
    )


def _m002_model(db: sqlite3.Connection) -> None:
    """Which model wrote an entry, so that ``ragkit cache clear --model`` can drop one model's entries; rows
    written before have NULL."""
    db.execute("ALTER TABLE entries ADD COLUMN model TEXT")


# Forward-only migrations: append, never edit.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_m001_initial, _m002_model]


@dataclass(frozen=True)
class CacheStat:
    """Entries of one namespace written by one model (``model`` None: written before models were recorded)."""

    namespace: str
    model: str | None
    entries: int
    bytes: int


class Cache:
    """Namespaced key → bytes store. Safe to share across threads; ``path=None`` keeps it in memory."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path) if path else ":memory:", check_same_thread=False, timeout=30)
        self._lock = threading.Lock()
        with self._lock:
            if path:
                self._db.execute("PRAGMA journal_mode=WAL")
            self._migrate()

    def _migrate(self) -> None:
        """Apply the migrations this file has not seen yet, in one write transaction (safe across processes)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute("CREATE TABLE IF NOT EXISTS _migrations (n INTEGER PRIMARY KEY)")
            done = {row[0] for row in self._db.execute("SELECT n FROM _migrations")}
            for n, migrate in enumerate(MIGRATIONS, 1):
                if n not in done:
                    migrate(self._db)
                    self._db.execute("INSERT INTO _migrations (n) VALUES (?)", (n,))
            self._db.commit()
        except BaseException:
            self._db.rollback()
            raise

    @property
    def version(self) -> int:
        """Number of migrations applied to this file."""
        with self._lock:
            return int(self._db.execute("SELECT COALESCE(MAX(n), 0) FROM _migrations").fetchone()[0])

    def get(self, namespace: str, key: str) -> bytes | None:
        with self._lock:
            row = self._db.execute(
                "SELECT value FROM entries WHERE namespace=? AND key=?", (namespace, key)
            ).fetchone()
        return None if row is None else bytes(row[0])

    def get_many(self, namespace: str, keys: list[str]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        with self._lock:
            for i in range(0, len(keys), 500):
                batch = keys[i : i + 500]
                marks = ",".join("?" * len(batch))
                rows = self._db.execute(
                    f"SELECT key, value FROM entries WHERE namespace=? AND key IN ({marks})",
                    (namespace, *batch),
                )
                out.update({k: bytes(v) for k, v in rows})
        return out

    def put(self, namespace: str, key: str, value: bytes, *, model: str | None = None) -> None:
        self.put_many(namespace, {key: value}, model=model)

    def put_many(self, namespace: str, items: dict[str, bytes], *, model: str | None = None) -> None:
        with self._lock:
            self._db.executemany(
                "INSERT OR REPLACE INTO entries (namespace, key, value, model) VALUES (?, ?, ?, ?)",
                [(namespace, k, v, model) for k, v in items.items()],
            )
            self._db.commit()

    def stats(self) -> list[CacheStat]:
        """Entry counts and sizes per namespace and model."""
        with self._lock:
            rows = self._db.execute(
                "SELECT namespace, model, COUNT(*), COALESCE(SUM(LENGTH(value)), 0) FROM entries"
                " GROUP BY namespace, model ORDER BY namespace, model"
            ).fetchall()
        return [CacheStat(namespace, model, int(n), int(size)) for namespace, model, n, size in rows]

    def clear(self, *, model: str | None = None) -> int:
        """Delete every entry, or only those written by ``model``; returns how many were deleted."""
        with self._lock:
            if model is None:
                n = self._db.execute("DELETE FROM entries").rowcount
            else:
                n = self._db.execute("DELETE FROM entries WHERE model=?", (model,)).rowcount
            self._db.commit()
            self._db.execute("VACUUM")  # give the space back to the disk
        return int(n)

    def count(self, namespace: str) -> int:
        with self._lock:
            return int(
                self._db.execute("SELECT COUNT(*) FROM entries WHERE namespace=?", (namespace,)).fetchone()[0]
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()
