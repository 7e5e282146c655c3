"""Limits a file must pass before a parser sees it: bytes on disk, bytes inflated from a zip container, PDF pages.

A DOCX, PPTX or EPUB is a zip archive; its size on disk says little about what a parser will hold in memory. A
few kilobytes can declare gigabytes of XML (a "zip bomb"). The central directory lists every member's
uncompressed size, and Python's ``zipfile`` never inflates a member past its declared size, so summing the
declared sizes before parsing bounds the memory a container can take.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ragkit.errors import CorpusError
from ragkit.text import size_text

DEFAULT_MAX_BYTES = 50 * 1024 * 1024
DEFAULT_MAX_PAGES = 2000
MAX_ZIP_RATIO = 100.0
"""Uncompressed / compressed size above which a container is refused: office files sit near 3-10."""
ZIP_FORMATS = frozenset({"docx", "pptx", "epub"})


@dataclass(frozen=True)
class FileLimits:
    """What one file may cost. ``max_bytes`` bounds the file on disk and, for a zip container, its inflated
    content; ``max_pages`` bounds a PDF."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_pages: int = DEFAULT_MAX_PAGES
    max_ratio: float = MAX_ZIP_RATIO


def check_size(path: Path, size: int, limits: FileLimits) -> None:
    if size > limits.max_bytes:
        raise CorpusError(path, f"file is {size_text(size)}, over the {size_text(limits.max_bytes)} size limit")


def check_container(path: Path, fmt: str, data: bytes, limits: FileLimits) -> None:
    """Refuse a zip container whose members inflate past ``max_bytes`` or compress more than ``max_ratio``."""
    if fmt not in ZIP_FORMATS:
        return
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise CorpusError(path, f"corrupt {fmt.upper()} (not a readable zip container: {exc})") from None
    inflated = sum(m.file_size for m in members)
    packed = sum(m.compress_size for m in members)
    if inflated > limits.max_bytes:
        raise CorpusError(path, f"{fmt.upper()} inflates to {size_text(inflated)}, over the "
                                f"{size_text(limits.max_bytes)} size limit")
    ratio = inflated / max(packed, 1)
    if ratio > limits.max_ratio:
        raise CorpusError(path, f"{fmt.upper()} compresses {ratio:.0f}:1, over the {limits.max_ratio:g}:1 limit "
                                "(a zip bomb?)")


def check_pages(path: Path, pages: int, limits: FileLimits) -> None:
    if pages > limits.max_pages:
        raise CorpusError(path, f"PDF has {pages} pages, over the {limits.max_pages}-page limit")
