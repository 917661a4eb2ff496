"""Timing helper shared by the benchmark scripts (not a benchmark itself: run.py skips it)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best(func: Callable[[], object], runs: int = 3) -> float:
    """Return the fastest of ``runs`` timed calls of ``func``, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)
