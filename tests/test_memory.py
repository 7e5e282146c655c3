"""Freed heap pages go back to the OS between batches (glibc), and the call is harmless elsewhere."""

from __future__ import annotations

from ragkit._memory import release_freed_memory


def _rss_kb() -> int:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))


def test_freed_small_objects_are_returned() -> None:
    blocks = [bytearray(100_000) for _ in range(2000)]  # ~200 MB in blocks under glibc's mmap threshold
    keep = blocks[::50]  # a few survivors pin the top of the heap, as real batches do
    del blocks
    before = _rss_kb()
    release_freed_memory()
    after = _rss_kb()
    assert after < before - 100_000, (before, after)  # at least ~100 MB back
    assert keep
