"""The table hands the C heap's free memory back to the system after each roll."""

from __future__ import annotations

import ctypes.util
import sys

import numpy as np
import pytest

from companion import heap
from companion.vision.bench import memory_mb


def test_give_back_does_nothing_where_the_c_library_cannot(monkeypatch):
    monkeypatch.setattr(heap, "_TRIM", None)
    assert heap.give_back() is False


@pytest.mark.skipif(not sys.platform.startswith("linux") or memory_mb() is None
                    or ctypes.util.find_library("c") != "libc.so.6",
                    reason="needs glibc's malloc_trim and /proc (Linux)")
def test_freed_buffers_kept_by_the_heap_are_returned():
    # Buffers under glibc's mmap threshold come from the heap; freeing all but every
    # tenth leaves holes the heap cannot shrink past, as a roll's buffers do.
    heap.give_back()
    buffers = [np.ones(12_000) for _ in range(4000)]  # about 96 kB each, 384 MB in all
    kept = buffers[::10]
    del buffers
    before = memory_mb()
    assert heap.give_back() is True
    after = memory_mb()
    assert before - after > 150, (before, after)
    assert all(float(b[0]) == 1.0 for b in kept)  # what is still in use is untouched
