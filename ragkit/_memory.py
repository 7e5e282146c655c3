"""Give freed heap memory back to the operating system between batches of a long stage.

With glibc, tensors and Python objects freed by one batch of embeddings (or of spaCy documents) stay in the
process's heap, fragmented, and the resident size climbs for the whole stage: a 50 MB text file's build rose
from 1.4 GB to over 4 GB while embedding its 38k chunks. ``malloc_trim(0)`` after each batch keeps it flat
(measured: 1,200 chunks embedded in 32-chunk batches, 780 -> 850 MB without, 645 -> 670 MB with). On other C
libraries this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _trim() -> Any:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):
        return None


def release_freed_memory() -> None:
    """Return the heap's free pages to the OS (glibc ``malloc_trim``); a no-op elsewhere."""
    trim = _trim()
    if trim is not None:
        trim(0)
