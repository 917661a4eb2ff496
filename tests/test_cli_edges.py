"""Command-line edges (issue 24, item 11): init is all or nothing, fmt --check needs a catalog,
and ``-o -`` means standard output."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import snapshot
from ddl_catalog import scaffold
from ddl_catalog.cli import cli

GOOD = {
    "title": "Awesome Tea",
    "description": "A curated list of tea guides, from leaf to cup, for people who brew.",
}


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


# -- init ------------------------------------------------------------------------------------


@pytest.mark.parametrize("make_target", ["absent", "empty"])
def test_a_failed_init_leaves_nothing_and_the_retry_works(tmp_path: Path, make_target: str) -> None:
    target = tmp_path / "tea"
    if make_target == "empty":
        target.mkdir()
    # Passes init's own checks, then fails as the new catalog is validated for its README.
    code, out = invoke("init", str(target), "--title", "Bad \x1b title")
    assert code == 1
    assert out.startswith("Error: nothing written: the new catalog would not pass validate:")
    assert "catalog.yml: control character U+001B (ESC)" in out
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == (["tea"] if make_target == "empty" else [])
    assert not target.exists() or list(target.iterdir()) == []
    code, out = invoke("init", str(target), "--title", GOOD["title"])
    assert code == 0, out
    assert (target / "README.md").is_file() and (target / "catalog.yml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tea"]


def test_an_interrupted_init_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "tea"

    def interrupted(staging: Path) -> None:
        assert (staging / "catalog.yml").is_file()
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        scaffold.init(target, scaffold.InitOptions(**GOOD), complete=interrupted)
    assert list(tmp_path.iterdir()) == []


def test_a_killed_init_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "tea"
    code = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from ddl_catalog import scaffold\n"
        "from ddl_catalog.cli import _terminate_like_interrupt\n"
        "def term(staging):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "with _terminate_like_interrupt():\n"
        f"    scaffold.init(Path({str(target)!r}), scaffold.InitOptions(), complete=term)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_init_keeps_the_mode_of_an_empty_folder(tmp_path: Path) -> None:
    target = tmp_path / "tea"
    target.mkdir()
    os.chmod(target, 0o750)
    code, out = invoke("init", str(target), "--title", GOOD["title"])
    assert code == 0, out
    assert target.stat().st_mode & 0o777 == 0o750


def test_a_new_init_folder_is_not_private(tmp_path: Path) -> None:
    code, out = invoke("init", str(tmp_path / "tea"))
    assert code == 0, out
    assert (tmp_path / "tea").stat().st_mode & 0o755 == 0o755


# -- fmt -------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["--check"], []])
def test_fmt_without_a_catalog_fails(tmp_path: Path, args: list[str]) -> None:
    code, out = invoke("fmt", "--root", str(tmp_path), *args)
    assert code == 1
    assert f"data:1:1: error: no data/ folder under {tmp_path}: check --root [file]" in out
    assert list(tmp_path.iterdir()) == []


# -- -o - ------------------------------------------------------------------------------------


def test_readme_to_standard_output(
    catalog_dir: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = catalog_dir()
    code, written = invoke("readme", "--root", str(root), "-o", str(tmp_path / "R.md"))
    assert code == 0, written
    before = snapshot(root)
    monkeypatch.chdir(tmp_path)
    code, out = invoke("readme", "--root", str(root), "-o", "-")
    assert code == 0, out
    assert out == (tmp_path / "R.md").read_text(encoding="utf-8")
    assert not (tmp_path / "-").exists() and snapshot(root) == before


def test_readme_check_refuses_standard_output(catalog_dir: Callable[..., Path]) -> None:
    code, out = invoke("readme", "--root", str(catalog_dir()), "--check", "-o", "-")
    assert code == 2
    assert "--check compares with a file" in out


@pytest.mark.parametrize("fmt", ["json", "csv", "bibtex", "csljson", "atom"])
def test_export_to_standard_output(
    catalog_dir: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    root = catalog_dir()
    code, plain = invoke("export", "--root", str(root), "--format", fmt)
    assert code == 0, plain
    monkeypatch.chdir(tmp_path)
    code, out = invoke("export", "--root", str(root), "--format", fmt, "-o", "-")
    assert code == 0, out
    assert out == plain
    assert not (tmp_path / "-").exists()
