"""The build's inputs: the corpus files, listed and hashed (not parsed, so that an unchanged file costs a read and
no parse), and pre-chunked documents."""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragkit.errors import CorpusError, shown_path
from ragkit.kg._corpus import list_folder, load_chunks_jsonl, read_source
from ragkit.kg._graph import SkippedFile
from ragkit.kg._limits import FileLimits
from ragkit.llm import content_key
from ragkit.types import Chunk, Document


@dataclass
class SourceFile:
    """A corpus file as the driver found it."""

    rel: str
    """Its path relative to the corpus base: the document's path, from which its id comes."""
    path: str
    root: str
    """The corpus base on the driver."""
    content_hash: str
    data: bytes | None = None
    """Its bytes, when they travel with it."""
    send_bytes: bool = False
    """Read the bytes when this is pickled for another process (which may not see this disk), so that only the
    files in flight are held in memory, not the whole corpus."""

    def __reduce__(self) -> tuple[Any, ...]:
        data = self.data if self.data is not None or not self.send_bytes else Path(self.path).read_bytes()
        return SourceFile, (self.rel, self.path, self.root, self.content_hash, data)


def list_files(sources: list[Path], include: list[str] | None, exclude: list[str] | None, limits: FileLimits,
               skipped: list[SkippedFile]) -> tuple[list[SourceFile], str]:
    """The files to read, hashed (not parsed); paths are relative to one common base folder so ids stay unique
    and stable. Files that cannot be read at all go to ``skipped``."""
    resolved = [p.resolve() for p in sources]
    for p in resolved:
        if not p.exists():
            raise CorpusError(p, "no such file or folder")
    base = resolved[0] if len(resolved) == 1 and resolved[0].is_dir() else \
        Path(os.path.commonpath([p if p.is_dir() else p.parent for p in resolved]))
    files: list[SourceFile] = []
    for p in resolved:
        prefix = p.relative_to(base) if p.is_dir() else Path()
        for path, rel, reason in list_folder(p, include=None if p.is_file() else include, exclude=exclude):
            rel = (prefix / rel).as_posix() if p.is_dir() else shown_path(path.relative_to(base).as_posix())
            try:
                if reason is not None:
                    raise CorpusError(path, reason)
                _, data = read_source(path, limits)
            except CorpusError as exc:
                skipped.append(SkippedFile(path=rel, reason=exc.reason))
                continue
            files.append(SourceFile(rel=rel, path=str(path), root=str(base),
                                    content_hash=hashlib.sha256(data).hexdigest()))
    return files, str(base)


def prechunked(path: Path, skipped: list[SkippedFile]) -> tuple[list[Document], dict[str, list[Chunk]]]:
    """Documents (one per ``doc_id``) and their chunks from a JSONL of chunks, kept as given."""
    chunks = load_chunks_jsonl(path, skipped=skipped)
    by_doc: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c)
    docs = []
    for doc_id, group in by_doc.items():
        languages = Counter(c.language for c in group)
        docs.append(Document(id=doc_id, path=group[0].source or doc_id, format="chunks",
                             content_hash=content_key("prechunked", [(c.id, c.text) for c in group]),
                             language=languages.most_common(1)[0][0], title=group[0].source or doc_id))
    return docs, by_doc
