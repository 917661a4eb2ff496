"""The to-do board of the link checker: turns across origins, the cap, due retries first."""

from __future__ import annotations

import threading
import time

from ddl_catalog.net.linkboard import Board, Task


def tasks(spec: str) -> list[Task]:
    """'a1 a2 b1' -> tasks whose origin is the letter."""
    return [Task(name, name[0]) for name in spec.split()]


def test_origins_take_turns_within_the_cap() -> None:
    board = Board(tasks("a1 a2 a3 a4 b1 b2 c1"), cap=2)
    taken = [board.take() for _ in range(5)]
    assert [t.url for t in taken if t] == ["a1", "b1", "c1", "a2", "b2"]
    # a has 2 out (its cap), b and c are empty: nothing may start now.
    waiter: list[Task | None] = []
    thread = threading.Thread(target=lambda: waiter.append(board.take()))
    thread.start()
    thread.join(0.2)
    assert thread.is_alive() and not waiter
    first = taken[0]
    assert first is not None
    board.finish(first)  # a has room again: the waiting worker gets a3
    thread.join(2)
    assert [t.url for t in waiter if t] == ["a3"]


def test_due_retry_goes_before_the_rest_of_its_origin() -> None:
    board = Board(tasks("a1 a2 a3"), cap=1)
    first = board.take()
    assert first is not None and first.url == "a1"
    board.finish(first, Task("a1", "a", attempt=1, spent=0.1), wait=0.15)
    second = board.take()
    assert second is not None and second.url == "a2"  # the retry is not due yet
    time.sleep(0.2)
    board.finish(second)
    third = board.take()
    assert third is not None and (third.url, third.attempt) == ("a1", 1)


def test_waiting_worker_wakes_when_a_retry_is_due() -> None:
    board = Board(tasks("a1"), cap=4)
    first = board.take()
    assert first is not None
    board.finish(first, Task("a1", "a", attempt=1), wait=0.2)
    started = time.monotonic()
    again = board.take()
    assert again is not None and again.attempt == 1
    assert 0.15 <= time.monotonic() - started < 1.5


def test_take_returns_none_when_all_finished_or_closed() -> None:
    board = Board(tasks("a1"), cap=1)
    task = board.take()
    assert task is not None
    board.finish(task)
    assert board.take() is None
    board = Board(tasks("a1 a2"), cap=1)
    assert board.take() is not None
    board.close()
    assert board.take() is None


def test_many_workers_never_exceed_the_cap() -> None:
    board = Board(tasks(" ".join(f"{o}{i}" for o in "abc" for i in range(40))), cap=3)
    out: dict[str, int] = {"a": 0, "b": 0, "c": 0}
    peak: dict[str, int] = dict(out)
    lock = threading.Lock()
    done: list[str] = []

    def work() -> None:
        while (task := board.take()) is not None:
            with lock:
                out[task.origin] += 1
                peak[task.origin] = max(peak[task.origin], out[task.origin])
            time.sleep(0.002)
            with lock:
                out[task.origin] -= 1
                done.append(task.url)
            board.finish(task)

    workers = [threading.Thread(target=work) for _ in range(16)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(10)
    assert sorted(done) == sorted(f"{o}{i}" for o in "abc" for i in range(40))
    assert max(peak.values()) == 3
