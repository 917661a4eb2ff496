"""Hostile paths under data/ (links out of the catalog, loops, FIFOs, unreadable files) end in a
located error naming the path, for every command that reads entries: never a traceback, never a
hang, never a read outside the catalog, and the rest of the catalog is still checked."""

from __future__ import annotations

import builtins
import errno
import io
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from click.testing import CliRunner, Result

from conftest import GOOD_PAPER, make_catalog, snapshot
from ddl_catalog.cli import cli
from test_site import site_sources

OTHER = "data/papers/other2020bad.yml"
#: A second entry with an error of its own: it must still be reported (the run went on).
OTHER_TEXT = (
    GOOD_PAPER.replace("dean2012large", "other2020bad")
    .replace("[gpu]", "[tpu]")
    .replace("Large Scale Distributed Deep Networks", "Another Paper")
    .replace("https://proceedings", "https://other.proceedings")
)
OTHER_ERROR = f"{OTHER}:7:8: error: unknown tag 'tpu'"
REFUSED = "error: refused without reading: a symbolic link that leads outside the catalog (to "


class Guard:
    """Record every path opened or listed; deny the ones in ``denied`` as the system would."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.denied: set[str] = set()

    def check(self, path: Any) -> None:
        if isinstance(path, int):
            return
        real = os.path.realpath(os.fspath(path))
        self.seen.append(real)
        if real in self.denied:
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))

    def wrap(self, func: Callable[..., Any]) -> Callable[..., Any]:
        def guarded(path: Any = ".", *args: Any, **kwargs: Any) -> Any:
            self.check(path)
            return func(path, *args, **kwargs)

        return guarded


@pytest.fixture
def guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[Guard]:
    """Watch open() and scandir() for the test; fail (not hang) after 60 seconds."""
    watcher = Guard()
    for owner, name in ((builtins, "open"), (io, "open"), (os, "open"), (os, "scandir")):
        monkeypatch.setattr(owner, name, watcher.wrap(getattr(owner, name)))

    def timeout(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError("the command hung")

    previous = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(60)
    try:
        yield watcher
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _outside(tmp_path: Path) -> Path:
    """Create a folder beside the catalog holding what must never be read: a 'secret'."""
    folder = tmp_path / "outside"
    (folder / "papers").mkdir(parents=True)
    secret = "id: secret\ntoken: ghp_DO_NOT_PRINT\n"
    (folder / "secret.yml").write_text(secret, encoding="utf-8")
    (folder / "papers" / "secret.yml").write_text(secret, encoding="utf-8")
    return folder


def _link(root: Path, relative: str, target: str | Path) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)


#: name -> (set-up(root, outside, guard), expected error lines: location prefix + message start)
Setup = Callable[[Path, Path, Guard], None]
CASES: dict[str, tuple[Setup, list[str]]] = {
    "file link leading out": (
        lambda root, out, _: _link(root, "data/papers/evil.yml", out / "secret.yml"),
        [f"data/papers/evil.yml:1:1: {REFUSED}"],
    ),
    "relative file link climbing out": (
        lambda root, out, _: _link(root, "data/papers/evil.yml", "../../../outside/secret.yml"),
        [f"data/papers/evil.yml:1:1: {REFUSED}"],
    ),
    "folder link leading out": (
        lambda root, out, _: _link(root, "data/stolen", out / "papers"),
        [f"data/stolen:1:1: {REFUSED}"],
    ),
    "categories.yml leading out": (
        lambda root, out, _: (
            (root / "data" / "categories.yml").replace(out / "categories.yml"),
            _link(root, "data/categories.yml", out / "categories.yml"),
        ),
        [f"data/categories.yml:1:1: {REFUSED}"],
    ),
    "link loop": (
        lambda root, out, _: _link(root, "data/papers/loop.yml", "loop.yml"),
        [
            "data/papers/loop.yml:1:1: error: cannot read file: a symbolic link loop "
            "(the link leads back to itself) [file]"
        ],
    ),
    "two links in a loop": (
        lambda root, out, _: (
            _link(root, "data/papers/a.yml", "b.yml"),
            _link(root, "data/papers/b.yml", "a.yml"),
        ),
        [
            "data/papers/a.yml:1:1: error: cannot read file: a symbolic link loop",
            "data/papers/b.yml:1:1: error: cannot read file: a symbolic link loop",
        ],
    ),
    "folder link loop": (
        lambda root, out, _: _link(root, "data/looped", "looped"),
        ["data/looped:1:1: error: cannot read: a symbolic link loop"],
    ),
    "broken link": (
        lambda root, out, _: _link(root, "data/papers/gone.yml", "missing.yml"),
        [
            "data/papers/gone.yml:1:1: error: cannot read file: a broken symbolic link "
            "(its target does not exist) [file]"
        ],
    ),
    "directory named like an entry": (
        lambda root, out, _: (root / "data" / "papers" / "dir.yml").mkdir(),
        ["data/papers/dir.yml:1:1: error: cannot read file: a directory, not a file [file]"],
    ),
    "FIFO named like an entry": (
        lambda root, out, _: os.mkfifo(root / "data" / "papers" / "pipe.yml"),
        ["data/papers/pipe.yml:1:1: error: cannot read file: a named pipe (FIFO), not a file"],
    ),
    "unreadable file": (
        lambda root, out, guard: guard.denied.add(
            str(root / "data" / "papers" / "dean2012large.yml")
        ),
        ["data/papers/dean2012large.yml:1:1: error: cannot read file: permission denied [file]"],
    ),
    "unlistable folder": (
        lambda root, out, guard: (
            (root / "data" / "articles").mkdir(),
            guard.denied.add(str(root / "data" / "articles")),
        ),
        ["data/articles:1:1: error: cannot list folder: permission denied [file]"],
    ),
}


def _catalog(tmp_path: Path, name: str, guard: Guard) -> tuple[Path, Path]:
    outside = _outside(tmp_path)
    root = make_catalog(
        tmp_path / "catalog",
        {"data/papers/dean2012large.yml": GOOD_PAPER, OTHER: OTHER_TEXT},
    )
    CASES[name][0](root.resolve(), outside.resolve(), guard)
    guard.seen.clear()
    return root, outside


def _invoke(args: list[str], root: Path, guard: Guard) -> Result:
    guard.seen.clear()  # from here on, what the command opens
    return CliRunner().invoke(cli, [*args, "--root", str(root)])


def _no_traceback_and_nothing_read_outside(result: Result, guard: Guard, outside: Path) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        "a traceback escaped: " + repr(result.exception)
    )
    assert "Traceback" not in result.output
    assert "ghp_DO_NOT_PRINT" not in result.output
    read = [path for path in guard.seen if path.startswith(str(outside.resolve()))]
    assert read == [], "read outside the catalog"


def _expect(result: Result, lines: list[str]) -> None:
    found = result.output.splitlines()
    for expected in lines:
        assert any(line.startswith(expected) for line in found), (expected, result.output)


@pytest.mark.parametrize("name", list(CASES))
def test_validate_names_each_path_and_checks_the_rest(
    name: str, tmp_path: Path, guard: Guard
) -> None:
    root, outside = _catalog(tmp_path, name, guard)
    before = snapshot(outside)
    result = _invoke(["validate"], root, guard)
    assert result.exit_code == 1, result.output
    _no_traceback_and_nothing_read_outside(result, guard, outside)
    _expect(result, CASES[name][1])
    if "categories" not in name:  # without categories, entries are checked for the rest only
        _expect(result, [OTHER_ERROR])
    assert snapshot(outside) == before


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize(
    "args", [["fmt", "--check"], ["build"], ["readme"], ["export", "--format", "json"]]
)
def test_commands_that_read_entries_refuse_alike_and_write_nothing(
    name: str, args: list[str], tmp_path: Path, guard: Guard
) -> None:
    root, outside = _catalog(tmp_path, name, guard)
    before = snapshot(root), snapshot(outside)
    result = _invoke(args, root, guard)
    assert result.exit_code == 1, result.output
    _no_traceback_and_nothing_read_outside(result, guard, outside)
    if args[0] in ("fmt", "build"):  # they list the problems
        lines = [line for line in CASES[name][1] if args[0] == "build" or "categories" not in line]
        _expect(result, lines)
    else:
        assert "Error: the catalog has " in result.output
    assert (snapshot(root), snapshot(outside)) == before


@pytest.mark.parametrize("name", list(CASES))
def test_fmt_formats_the_rest_and_reports_each_path(
    name: str, tmp_path: Path, guard: Guard
) -> None:
    root, outside = _catalog(tmp_path, name, guard)
    result = _invoke(["fmt"], root, guard)
    assert result.exit_code == 1, result.output
    _no_traceback_and_nothing_read_outside(result, guard, outside)
    _expect(result, [line for line in CASES[name][1] if "categories" not in line])
    if "dean2012large" not in name and name != "unreadable file":
        assert (root / "data/papers/dean2012large.yml").read_text().startswith("# yaml-language")


def test_fmt_refuses_a_named_file_that_leads_outside(tmp_path: Path, guard: Guard) -> None:
    root, outside = _catalog(tmp_path, "file link leading out", guard)
    result = _invoke(["fmt", str(root / "data/papers/evil.yml")], root, guard)
    assert result.exit_code == 1, result.output
    _no_traceback_and_nothing_read_outside(result, guard, outside)
    _expect(result, [f"data/papers/evil.yml:1:1: {REFUSED}"])


@pytest.mark.parametrize("name", list(CASES))
def test_add_and_import_never_read_outside_nor_hang(
    name: str, tmp_path: Path, guard: Guard
) -> None:
    root, outside = _catalog(tmp_path, name, guard)
    listing = tmp_path / "list.md"
    listing.write_text(
        "# List\n\n## Parallelism\n\n- [A paper](https://arxiv.org/abs/1111.22222) - A paper.\n",
        encoding="utf-8",
    )
    add = ["add", "https://arxiv.org/abs/1234.56789", "--offline", "--yes", "--kind", "paper"]
    add += ["--category", "parallelism", "--description", "Trains a model on many machines."]
    added = _invoke(add, root, guard)
    _no_traceback_and_nothing_read_outside(added, guard, outside)
    imported = _invoke(["import", str(listing), "--dry-run"], root, guard)
    _no_traceback_and_nothing_read_outside(imported, guard, outside)
    if "categories" in name:  # both need the categories: one clear error, nothing written
        assert added.exit_code == imported.exit_code == 1
        assert f"data/categories.yml:1:1: {REFUSED}" in added.output
        assert f"data/categories.yml:1:1: {REFUSED}" in imported.output
        assert not (root / "data/papers/arxiv-1234-56789.yml").exists()
    else:  # other entries' problems are validate's business: add writes its file
        assert added.exit_code == 0, added.output
        assert imported.exit_code == 0, imported.output


@pytest.mark.parametrize(
    "name", ["file link leading out", "folder link leading out", "FIFO named like an entry"]
)
def test_site_refuses_alike(name: str, tmp_path: Path, guard: Guard) -> None:
    root, outside = _catalog(tmp_path, name, guard)
    site_sources(root)
    result = _invoke(["site"], root, guard)
    assert result.exit_code == 1, result.output
    _no_traceback_and_nothing_read_outside(result, guard, outside)
    assert "the catalog has" in result.output
    assert not (root / "site").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_real_permissions(tmp_path: Path) -> None:
    root = make_catalog(tmp_path / "catalog", {"data/papers/dean2012large.yml": GOOD_PAPER})
    (root / "data/papers/dean2012large.yml").chmod(0)
    (root / "data/articles").mkdir()
    (root / "data/articles").chmod(0)
    try:
        result = _invoke(["validate"], root, guard)
    finally:
        (root / "data/papers/dean2012large.yml").chmod(0o644)
        (root / "data/articles").chmod(0o755)
    assert result.exit_code == 1
    _expect(
        result,
        [
            "data/articles:1:1: error: cannot list folder: permission denied [file]",
            "data/papers/dean2012large.yml:1:1: error: cannot read file: permission denied",
        ],
    )


def test_import_does_not_follow_seed_corrections_out(tmp_path: Path, guard: Guard) -> None:
    root, outside = _catalog(tmp_path, "directory named like an entry", guard)
    _link(root, "data/seed-corrections.yml", outside / "secret.yml")
    listing = tmp_path / "list.md"
    listing.write_text("# List\n\n## Parallelism\n\n- [A](https://arxiv.org/abs/1111.22222) - A.\n")
    result = _invoke(["import", str(listing), "--dry-run"], root, guard)
    assert result.exit_code == 0, result.output
    _no_traceback_and_nothing_read_outside(result, guard, outside)


def test_catalog_yml_leading_out_is_refused_unread(tmp_path: Path, guard: Guard) -> None:
    root, outside = _catalog(tmp_path, "directory named like an entry", guard)
    (outside / "catalog.yml").write_text("title: Stolen\ntoken: ghp_DO_NOT_PRINT\n")
    (root / "catalog.yml").unlink(missing_ok=True)
    _link(root, "catalog.yml", outside / "catalog.yml")
    for args in (["validate"], ["readme"], ["build"]):
        result = _invoke(args, root, guard)
        assert result.exit_code == 1, result.output
        _no_traceback_and_nothing_read_outside(result, guard, outside)
    _expect(_invoke(["validate"], root, guard), [f"catalog.yml:1:1: {REFUSED}"])
