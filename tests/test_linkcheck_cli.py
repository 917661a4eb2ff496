"""check-links end to end: the cache, --format json, --fix, exit codes and a killed run."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer

from ddl_catalog.cli import cli
from ddl_catalog.edit.fix_urls import rewrite_urls, worth_fixing
from ddl_catalog.net.cache import LinkCache
from ddl_catalog.net.links import urls_in_text
from netutil import ConcurrencyCounter, local_server

ENTRY = """\
# yaml-language-server: $schema=../../src/ddl_catalog/schema/entry.schema.json
# A comment that --fix must keep.
id: horovod
kind: framework
title: Horovod
url: {url}
description: Ring-allreduce data parallelism for TensorFlow, Keras, PyTorch and MXNet.
categories: [frameworks, data-parallelism]
links:
  - type: docs
    url: "{docs}"  # quoted on purpose
    title: Docs
"""


@pytest.fixture
def server() -> Iterator[HTTPServer]:
    with local_server() as srv:
        yield srv


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check-links", *args])
    return result.exit_code, result.output


def test_json_records_and_exit_status(tmp_path: Path, server: HTTPServer) -> None:
    server.expect_request("/ok").respond_with_data("")
    server.expect_request("/gone").respond_with_data("", status=404)
    page = tmp_path / "page.md"
    page.write_text(f"[a]({server.url_for('/ok')}) and <{server.url_for('/gone')}>\n")
    code, out = invoke(str(page), "--no-cache", "--format", "json", "--timeout", "1")
    records = json.loads(out)
    assert code == 1
    assert [(r["url"].rsplit("/", 1)[1], r["outcome"], r["status"]) for r in records] == [
        ("gone", "broken", 404),
        ("ok", "ok", 200),
    ]
    assert set(records[0]) >= {"url", "status", "outcome", "final_url", "elapsed", "error"}
    assert records[0]["sources"] == [f"{page}: line 1"]
    code, _ = invoke(str(page), "--no-cache", "--fail-on", "error", "--timeout", "1")
    assert code == 0


def test_cache_skips_fresh_results(tmp_path: Path, server: HTTPServer) -> None:
    server.expect_request("/ok").respond_with_data("")
    page = tmp_path / "page.txt"
    page.write_text(server.url_for("/ok") + "\n")
    cache = tmp_path / "cache" / "links.json"
    assert invoke(str(page), "--cache", str(cache))[0] == 0
    assert invoke(str(page), "--cache", str(cache))[0] == 0
    assert len(server.log) == 1  # the second run used the cache
    assert invoke(str(page), "--cache", str(cache), "--no-cache")[0] == 0
    assert len(server.log) == 2
    record = json.loads(cache.read_text())["results"][server.url_for("/ok")]
    assert record["outcome"] == "ok"


def test_cache_ttl_per_outcome(tmp_path: Path) -> None:
    cache = LinkCache(tmp_path / "c.json")
    now = 1_000_000.0
    cache.put("https://a/", {"outcome": "ok", "checked_at": now - 2 * 86400})
    cache.put("https://b/", {"outcome": "error", "checked_at": now - 2 * 3600})
    cache.put("https://c/", {"outcome": "skipped", "checked_at": now})
    assert cache.fresh("https://a/", now) is not None  # ok lives a week
    assert cache.fresh("https://b/", now) is None  # errors are re-checked within the hour
    assert "https://c/" not in cache.records


def test_unreadable_cache_is_ignored_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text('{"version": 1, "results": {"x"')
    cache = LinkCache.load(path)
    assert cache.records == {} and cache.warning is not None


def test_failed_save_keeps_the_previous_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.json"
    cache = LinkCache(path)
    cache.put("https://a/", {"outcome": "ok", "checked_at": 1.0})
    cache.save()
    good = path.read_bytes()
    cache.put("https://b/", {"outcome": "ok", "checked_at": 2.0})

    def boom(*_args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        cache.save()
    assert path.read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]  # no temp file left


def test_killed_run_leaves_a_valid_cache(tmp_path: Path) -> None:
    with local_server() as srv:
        srv.expect_request("/slow").respond_with_handler(ConcurrencyCounter(pause=0.15))
        page = tmp_path / "many.txt"
        page.write_text("".join(srv.url_for(f"/slow?i={i}") + "\n" for i in range(200)))
        cache = tmp_path / "cache.json"
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ddl_catalog",
                "check-links",
                str(page),
                "--cache",
                str(cache),
                "--per-origin",
                "2",
                "--timeout",
                "2",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not cache.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(signal.SIGKILL)
        proc.wait(5)
    data = json.loads(cache.read_text())  # complete JSON, not a torn file
    assert 0 < len(data["results"]) < 200
    assert all(r["outcome"] == "ok" for r in data["results"].values())


def test_fix_rewrites_moved_urls_keeping_layout(
    catalog_dir: Callable[..., Path], server: HTTPServer
) -> None:
    old, new = server.url_for("/old"), server.url_for("/new")
    docs, docs_new = server.url_for("/docs"), server.url_for("/docs/v2/")
    text = ENTRY.format(url=old, docs=docs)
    root = catalog_dir({"data/frameworks/horovod.yml": text})
    server.expect_request("/old").respond_with_data("", status=301, headers={"Location": "/new"})
    server.expect_request("/new").respond_with_data("")
    server.expect_request("/docs").respond_with_data(
        "", status=308, headers={"Location": "/docs/v2/"}
    )
    server.expect_request("/docs/v2/").respond_with_data("")
    code, out = invoke("--root", str(root), "--no-cache", "--fix", "--timeout", "1")
    assert code == 0, out
    assert "fixed data/frameworks/horovod.yml: url:" in out
    after = (root / "data/frameworks/horovod.yml").read_text()
    assert after == ENTRY.format(url=new, docs=docs_new)


def test_fix_refuses_moves_that_look_like_removals() -> None:
    assert not worth_fixing("https://a.org/papers/x.pdf", "https://a.org/")
    assert not worth_fixing("https://a.org/x", "https://a.org/login?next=/x")
    assert worth_fixing("http://a.org/x", "https://a.org/x/")


def test_rewrite_urls_leaves_other_files_alone(tmp_path: Path) -> None:
    path = tmp_path / "e.yml"
    path.write_text("id: a\nurl: https://x.org/a\n")
    assert rewrite_urls(path, {"https://other.org/": "https://new.org/"}) == []
    assert path.read_text() == "id: a\nurl: https://x.org/a\n"


def test_urls_in_text() -> None:
    line = (
        'see [x](https://a.org/c_(d)) and <a href="http://x.org/?a=1&amp;b=2">x</a>, '
        "https://en.wikipedia.org/wiki/Foo_(bar). Also https://z.org/."
    )
    assert urls_in_text(line) == [
        "https://a.org/c_(d)",
        "http://x.org/?a=1&b=2",
        "https://en.wikipedia.org/wiki/Foo_(bar)",
        "https://z.org/",
    ]


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    code, out = invoke(str(tmp_path / "missing.md"))
    assert code != 0 and "Traceback" not in out
    code, out = invoke(str(tmp_path), "--exclude", "(")
    assert code != 0 and "Traceback" not in out
    page = tmp_path / "p.md"
    page.write_text("x")
    code, out = invoke(str(page), "--fix")
    assert code == 1 and "--fix" in out and "Traceback" not in out


GOOD = {"url": "https://a.example/x", "outcome": "ok", "status": 200, "checked_at": 1.0e9}


@pytest.mark.parametrize(
    "change",
    [
        {"elapsed": "abc"},
        {"elapsed": [1]},
        {"url": None},
        {"url": "https://b.example/other"},
        {"status": True},
        {"checked_at": "yesterday"},
        {"error": {"a": 1}},
        {"outcome": "moved", "new_url": "javascript:alert(1)"},
        {"outcome": "moved", "new_url": 123},
    ],
)
def test_a_malformed_cache_record_is_dropped_with_a_warning(
    tmp_path: Path, change: dict[str, object]
) -> None:
    # Each of these crashed the run (ValueError, TypeError, KeyError) or, for --fix, would have
    # written a javascript: URL into an entry.
    path = tmp_path / "cache.json"
    other = {**GOOD, "url": "https://c.example/"}
    results = {GOOD["url"]: {**GOOD, **change}, other["url"]: other}
    path.write_text(json.dumps({"version": 1, "results": results}))
    cache = LinkCache.load(path)
    assert list(cache.records) == ["https://c.example/"]
    assert cache.warning == f"ignoring 1 of 2 records of {path}: malformed"


def test_fix_never_writes_a_new_url_that_validate_refuses(
    catalog_dir: Callable[..., Path], tmp_path: Path
) -> None:
    from ddl_catalog.net.linkcheck import Result
    from ddl_catalog.net.linkrun import _fix
    from ddl_catalog.net.links import Occurrence

    root = catalog_dir(
        {
            "data/frameworks/horovod.yml": ENTRY.format(
                url="https://a.example/x", docs="https://a.example/d"
            )
        }
    )
    before = (root / "data/frameworks/horovod.yml").read_text()
    moved = Result("https://a.example/x", "moved", 301, new_url="javascript:alert(1)")
    where = {moved.url: [Occurrence("data/frameworks/horovod.yml", "url")]}
    out = io.StringIO()
    _fix(root, [moved], where, out)
    assert out.getvalue().startswith("not fixed (the new URL uses 'javascript:'")
    assert (root / "data/frameworks/horovod.yml").read_text() == before


@pytest.mark.parametrize("make", ["fifo", "device"])
def test_an_input_or_cache_that_is_not_a_regular_file_is_not_read(
    tmp_path: Path, make: str
) -> None:
    # Their size says 0: reading waited forever (a FIFO) or filled the memory (/dev/zero).
    odd = tmp_path / "odd"
    if make == "fifo":
        os.mkfifo(odd)
    else:
        odd = Path("/dev/zero")
    code, out = invoke(str(odd), "--no-cache")
    assert code == 1 and "not a file" in out and "Traceback" not in out
    cache = LinkCache.load(odd)
    assert cache.records == {} and "not a file" in str(cache.warning)


def test_fix_never_moves_a_url_onto_another_entrys_resource(
    catalog_dir: Callable[..., Path],
) -> None:
    from ddl_catalog.net.linkcheck import Result
    from ddl_catalog.net.linkrun import _fix
    from ddl_catalog.net.links import Occurrence

    other = ENTRY.replace("id: horovod", "id: cafe").replace("title: Horovod", "title: Cafe")
    root = catalog_dir(
        {
            "data/frameworks/horovod.yml": ENTRY.format(
                url="https://a.example/x", docs="https://a.example/d"
            ),
            "data/frameworks/cafe.yml": other.format(
                url="https://café.example/menu", docs="https://b.example/d"
            ),
        }
    )
    before = (root / "data/frameworks/horovod.yml").read_text()
    # the redirect target is cafe.yml's page, its host written as the IDNA A-label
    moved = Result("https://a.example/x", "moved", 301, new_url="https://xn--caf-dma.example/menu/")
    where = {moved.url: [Occurrence("data/frameworks/horovod.yml", "url")]}
    out = io.StringIO()
    _fix(root, [moved], where, out)
    assert out.getvalue() == (
        "not fixed (the new URL is the same URL xn--caf-dma.example/menu as "
        "data/frameworks/cafe.yml [duplicate-identity]): https://a.example/x -> "
        "https://xn--caf-dma.example/menu/\n"
    )
    assert (root / "data/frameworks/horovod.yml").read_text() == before
