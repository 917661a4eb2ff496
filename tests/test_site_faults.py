"""File system faults while building the site: one Error: line, old site intact, no scratch left.

Disk full, a site/ that is a mount point or immutable, and permission errors are injected where
the file system cannot be made to fail here; where this machine allows it (root: tmpfs mounts
and chattr), the real fault is produced too.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GOOD_PAPER
from ddl_catalog.cli import cli
from ddl_catalog.render import site as site_module
from ddl_catalog.render.site import SiteError, build_site, remove_stale_scratch
from test_site import site_sources

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def root(catalog_dir: Callable[..., Path]) -> Path:
    """A one-paper catalog with the site's sources, built once (the previous good site)."""
    base = site_sources(catalog_dir({"data/papers/dean2012large.yml": GOOD_PAPER}))
    (build_site(base) / "marker.txt").write_text("previous site", encoding="utf-8")
    return base


def scratch_left(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name.startswith(".site-"))


def assert_previous_site_intact(root: Path) -> None:
    assert (root / "site" / "marker.txt").read_text(encoding="utf-8") == "previous site"
    assert (root / "site" / "index.html").is_file()
    assert scratch_left(root) == []


def cli_site(root: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["site", "--root", str(root)])
    return result.exit_code, result.output


def fail_once(monkeypatch: pytest.MonkeyPatch, module: object, name: str, err: OSError) -> None:
    """Make ``module.name`` raise ``err`` on its first call."""
    real = getattr(module, name)
    calls = []

    def fake(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 1:
            raise err
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, fake)


# -- injected faults: run everywhere -------------------------------------------------------------


def test_disk_full_while_writing_pages(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs import utils

    def full(content: bytes, output_path: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", output_path)

    monkeypatch.setattr(utils, "write_file", full)
    code, output = cli_site(root)
    assert code == 1
    assert output.startswith("Error: cannot write ") and "the disk is full" in output
    assert output.count("\n") == 1 and "Traceback" not in output
    assert_previous_site_intact(root)


def replace_failing(
    monkeypatch: pytest.MonkeyPatch, fails: Callable[[str, str], bool], err: OSError
) -> None:
    """Make os.replace raise ``err`` for the renames ``fails`` picks (by source and target)."""
    real = os.replace

    def fake(src: str, dst: str) -> None:
        if fails(str(src), str(dst)):
            raise err
        real(src, dst)

    monkeypatch.setattr(os, "replace", fake)


def test_site_that_cannot_be_moved_aside(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = str(root / "site")
    busy = OSError(errno.EBUSY, "Device or resource busy")
    replace_failing(monkeypatch, lambda src, dst: src == site, busy)
    code, output = cli_site(root)
    assert code == 1
    assert output == (
        f"Error: cannot replace {site}: Device or resource busy (is it a mount point, "
        "immutable or in use?); the previous site is unchanged\n"
    )
    assert_previous_site_intact(root)


def test_new_site_that_cannot_take_its_place_puts_the_old_one_back(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = str(root / "site")
    denied = OSError(errno.EACCES, "Permission denied")
    replace_failing(monkeypatch, lambda src, dst: dst == site and ".site-build-" in src, denied)
    with pytest.raises(SiteError, match="Permission denied"):
        build_site(root)
    assert_previous_site_intact(root)


def test_permission_denied_beside_the_site(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fail_once(
        monkeypatch,
        site_module.tempfile,
        "mkdtemp",
        PermissionError(errno.EACCES, "Permission denied", str(root)),
    )
    code, output = cli_site(root)
    assert code == 1
    assert output == (
        f"Error: cannot write {root}: Permission denied; the previous site is unchanged\n"
    )
    assert_previous_site_intact(root)


def test_scratch_of_a_killed_build_is_removed_by_the_next(root: Path) -> None:
    dead = _dead_pid()
    stale = [root / f".site-build-{dead}-abc123xy", root / f".site-old-{dead}-1234567"]
    running = root / f".site-build-{os.getppid()}-zz99"  # a live process: maybe building
    other = root / f".sites-build-{dead}-abc"  # another output's name
    for folder in [*stale, running, other]:
        (folder / "assets").mkdir(parents=True)
    build_site(root)
    assert not any(p.exists() for p in stale)
    assert running.exists() and other.exists()
    assert remove_stale_scratch(root / "site") == []


def test_scratch_names_are_ignored_by_git() -> None:
    names = [".site-build-123-abcd1234", ".site-old-123-99", ".README.md.x1y2.tmp"]
    result = subprocess.run(
        ["git", "check-ignore", "--no-index", *names],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stdout.split() == names


def _dead_pid() -> int:
    """Return a process id that no process has now."""
    for pid in range(4_000_000, 3_000_000, -7):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            continue
    raise AssertionError("no free pid found")


# -- real faults: where this machine lets a test mount and chattr (root) ----------------------


@contextmanager
def tmpfs(path: Path, size: str) -> Iterator[None]:
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip("mounting a tmpfs is not permitted here (needs root)")
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def test_real_disk_full(catalog_dir: Callable[..., Path], tmp_path: Path) -> None:
    source = site_sources(catalog_dir({"data/papers/dean2012large.yml": GOOD_PAPER}))
    small = tmp_path / "small"
    with tmpfs(small, "256k"):
        (small / "site").mkdir()
        (small / "site" / "marker.txt").write_text("previous site", encoding="utf-8")
        with pytest.raises(SiteError, match="the disk is full"):
            build_site(source, site_dir=small / "site")
        assert (small / "site" / "marker.txt").read_text(encoding="utf-8") == "previous site"
        assert sorted(p.name for p in small.iterdir()) == ["site"]


def test_real_mount_point(root: Path) -> None:
    with tmpfs(root / "site", "1m"):
        (root / "site" / "marker.txt").write_text("previous site", encoding="utf-8")
        code, output = cli_site(root)
        assert code == 1 and output.startswith(f"Error: cannot replace {root / 'site'}: ")
        assert (root / "site" / "marker.txt").read_text(encoding="utf-8") == "previous site"
        assert scratch_left(root) == []


def test_real_immutable_site(root: Path) -> None:
    site = root / "site"
    if subprocess.run(["chattr", "+i", str(site)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not permitted here")
    try:
        code, output = cli_site(root)
    finally:
        subprocess.run(["chattr", "-i", str(site)], check=False)
    assert code == 1 and output.startswith(f"Error: cannot replace {site}: ")
    assert_previous_site_intact(root)


def test_a_broken_theme_override_is_named_not_called_a_write_error(root: Path) -> None:
    """A template missing from custom_dir (or one that does not parse) is a template problem."""
    overrides = root / "templates" / "site" / "overrides-mkdocs"
    main = overrides / "main.html"
    good = main.read_text(encoding="utf-8")
    main.write_text('{% extends "base.html" %}{% include "no-such-part.html" %}', encoding="utf-8")
    code, output = cli_site(root)
    assert code == 1
    assert output == (
        "Error: template no-such-part.html not found in the theme or its overrides; "
        "the previous site is unchanged\n"
    )
    assert_previous_site_intact(root)
    main.write_text(good.replace("{% endblock %}", "{% endblock"), encoding="utf-8")
    code, output = cli_site(root)
    assert code == 1 and output.startswith("Error: ") and "main.html:" in output
    assert "Traceback" not in output
    assert_previous_site_intact(root)


def test_sigterm_mid_build_removes_the_scratch_and_keeps_the_site(root: Path) -> None:
    # SIGTERM (a cancelled CI job, timeout(1)) ended the process at once and left the scratch
    # folder behind; now it unwinds like Ctrl-C. The build is slowed by a staging step that
    # waits (bounded) until it is killed, so the signal lands while the scratch folder exists.
    script = (
        "import sys, time\n"
        "from ddl_catalog.render import site\n"
        "real = site.stage\n"
        "def slow(*args):\n"
        "    print('building', flush=True); time.sleep(20); return real(*args)\n"
        "site.stage = slow\n"
        "from ddl_catalog.cli import main\n"
        "sys.argv = ['ddl-catalog', 'site', '--root', sys.argv[1]]\n"
        "main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    with subprocess.Popen(
        [sys.executable, "-c", script, str(root)], stdout=subprocess.PIPE, text=True, env=env
    ) as proc:
        assert proc.stdout is not None and proc.stdout.readline() == "building\n"
        assert scratch_left(root) != []  # the build has its scratch folder
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 143
    assert_previous_site_intact(root)
