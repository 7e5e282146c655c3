"""Every output file is written whole or not at all: into a temporary file beside it, flushed to disk, then
renamed over the target in one step. A crash, a full disk or Ctrl-C leaves the old file (or none), never half."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ragkit.errors import redact


class _Redacting:
    """A file object whose every write is redacted first (a key a gateway echoed never reaches a file)."""

    def __init__(self, fh: IO[Any]) -> None:
        self._fh = fh

    def write(self, data: str | bytes) -> int:
        if isinstance(data, bytes):
            return self._fh.write(redact(data.decode("utf-8")).encode("utf-8"))
        return self._fh.write(redact(data))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fh, name)


@contextlib.contextmanager
def open_atomic(path: str | Path, mode: str = "w", **kwargs: Any) -> Iterator[IO[Any]]:
    """``open(path, mode)`` whose content replaces ``path`` only when the block ends without an exception;
    everything written is redacted (``ragkit.errors.redact``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    if "b" not in mode:
        kwargs.setdefault("encoding", "utf-8")
    try:
        with tmp.open(mode, **kwargs) as fh:
            yield _Redacting(fh)  # type: ignore[misc]
            fh.flush()
            os.fsync(fh.fileno())
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` atomically."""
    with open_atomic(path, "wb" if isinstance(data, bytes) else "w") as fh:
        fh.write(data)
