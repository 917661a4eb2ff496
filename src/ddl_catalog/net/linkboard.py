"""The link checker's to-do board: which URL a free worker checks next.

Workers pull their next task from the board themselves, so a finished request is followed by
the next one on the same thread without a round trip through a scheduling thread (on a busy
GIL, each hand-off between threads costs as much as the request). The board keeps one queue per
origin and hands out tasks in turns across origins, never one whose origin already has ``cap``
tasks out. A task the server asked to retry later waits on the side without holding its origin,
and goes to the front of its origin's queue when it is due.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Task:
    """One attempt to make: a URL, its origin, which attempt this is and the time spent so far."""

    url: str
    origin: str
    attempt: int = 0
    spent: float = 0.0


class Board:
    """Per-origin queues, a cap on the tasks out per origin, and retries that wait their turn."""

    def __init__(self, tasks: Iterable[Task], cap: int) -> None:
        self._cap = cap
        self._cond = threading.Condition()
        self._queues: dict[str, deque[Task]] = defaultdict(deque)
        self._out: dict[str, int] = defaultdict(int)
        self._ready: deque[str] = deque()  # origins with queued tasks and room, in turn order
        self._listed: set[str] = set()
        self._later: list[tuple[float, int, Task]] = []
        self._tiebreak = itertools.count()
        self._unfinished = 0
        self._closed = False
        for task in tasks:
            self._queues[task.origin].append(task)
            self._unfinished += 1
        for key in self._queues:
            self._list(key)

    def take(self) -> Task | None:
        """Return the next task, waiting while none may start; None once all are finished."""
        with self._cond:
            while not self._closed and self._unfinished:
                self._release_due()
                if self._ready:
                    key = self._ready.popleft()
                    self._listed.discard(key)
                    task = self._queues[key].popleft()
                    self._out[key] += 1
                    self._list(key)
                    if self._ready:
                        self._cond.notify()  # more work may start: wake another worker
                    return task
                due = self._later[0][0] - time.monotonic() if self._later else None
                self._cond.wait(due)
            return None

    def finish(self, task: Task, retry: Task | None = None, wait: float = 0.0) -> None:
        """Mark ``task`` done, or to be attempted again as ``retry`` in ``wait`` seconds."""
        with self._cond:
            self._out[task.origin] -= 1
            if retry is None:
                self._unfinished -= 1
            else:
                due = time.monotonic() + wait
                heapq.heappush(self._later, (due, next(self._tiebreak), retry))
            self._list(task.origin)
            if self._unfinished:
                self._cond.notify()  # room or a new due time: one waiting worker looks again
            else:
                self._cond.notify_all()

    def close(self) -> None:
        """Stop handing out tasks (the run was interrupted); waiting workers return None."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _release_due(self) -> None:
        """Move the retries that are due to the front of their origins' queues."""
        now = time.monotonic()
        while self._later and self._later[0][0] <= now:
            task = heapq.heappop(self._later)[2]
            self._queues[task.origin].appendleft(task)
            self._list(task.origin, first=True)

    def _list(self, key: str, *, first: bool = False) -> None:
        """Put ``key`` in the turn order if it has queued tasks and room; forget empty queues."""
        queue = self._queues.get(key)
        if not queue:
            self._queues.pop(key, None)
            return
        if key in self._listed or self._out[key] >= self._cap:
            return
        self._listed.add(key)
        if first:
            self._ready.appendleft(key)
        else:
            self._ready.append(key)
