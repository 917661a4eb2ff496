"""Two adds at once: neither overwrites the other's file (issue 24, item 5).

The adds run on two threads that wait for each other right before writing, which is where a
race between two processes opens; nothing is sent over the network (--offline).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ddl_catalog.edit import add as adding
from ddl_catalog.edit.add import AddError, AddRequest, AddResult
from ddl_catalog.validate import validate


def race(
    root: Path, monkeypatch: pytest.MonkeyPatch, urls: list[str]
) -> list[AddResult | AddError]:
    """Run one add per URL on its own thread; each waits for the others just before writing.

    The wait gives up after 2 s: where adds take turns (the fixed code), the first one waits
    alone, then goes on.
    """
    barrier = threading.Barrier(len(urls), timeout=2)
    check = adding._refuse_what_validate_refuses

    def check_then_wait(*args: Any, **kwargs: Any) -> None:
        check(*args, **kwargs)
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait()

    monkeypatch.setattr(adding, "_refuse_what_validate_refuses", check_then_wait)
    outcomes: list[AddResult | AddError] = []

    def one(url: str) -> None:
        request = AddRequest(url, category="surveys", yes=True, offline=True, today="2026-01-02")
        try:
            outcomes.append(adding.add(root, request))
        except AddError as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=one, args=(url,)) for url in urls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(outcomes) == len(urls)
    return outcomes


def test_two_adds_with_the_same_id_write_two_files(
    catalog_dir: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = catalog_dir()
    # Two pages whose ids are both example-org-post.
    urls = ["https://example.org/a/post", "https://example.org/b/post"]
    outcomes = race(root, monkeypatch, urls)
    assert all(isinstance(o, AddResult) for o in outcomes), outcomes
    paths = sorted(o.path.name for o in outcomes if isinstance(o, AddResult))
    assert paths == ["example-org-post-2.yml", "example-org-post.yml"]
    written = {o.entry["url"] for o in outcomes if isinstance(o, AddResult)}
    assert written == set(urls)
    on_disk = {p.read_text().split("url: ")[1].split()[0] for p in root.glob("data/*/*.yml")}
    assert on_disk == set(urls)
    assert {p.rule for p in validate(root).errors} == {"placeholder"}


def test_two_adds_of_one_resource_add_it_once(
    catalog_dir: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = catalog_dir()
    outcomes = race(root, monkeypatch, ["https://example.org/post", "https://example.org/post"])
    errors = [o for o in outcomes if isinstance(o, AddError)]
    assert len(errors) == 1 and "the catalog already has this resource" in str(errors[0])
    assert [p.name for p in root.glob("data/*/*.yml")] == ["example-org-post.yml"]


def test_a_file_made_by_another_program_is_never_replaced(
    catalog_dir: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = catalog_dir()
    check = adding._refuse_what_validate_refuses
    theirs = "# written by another program\n"

    def someone_else_writes(root_: Path, path: Path, *args: Any, **kwargs: Any) -> None:
        check(root_, path, *args, **kwargs)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(theirs)

    monkeypatch.setattr(adding, "_refuse_what_validate_refuses", someone_else_writes)
    request = AddRequest("https://example.org/post", category="surveys", yes=True, offline=True)
    with pytest.raises(AddError, match="another program created this file meanwhile"):
        adding.add(root, request)
    assert (root / "data/articles/example-org-post.yml").read_text() == theirs
