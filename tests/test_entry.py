"""The console script and ``python -m ddl_catalog`` run the click application, whatever the call."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GOOD_PAPER
from ddl_catalog.cli import cli

ROOT = Path(__file__).resolve().parents[1]
CONSOLE_SCRIPT = Path(sys.executable).parent / "ddl-catalog"
#: One error (unknown tag) and one warning (long description), so every option changes output.
MIXED = {
    "data/papers/dean2012large.yml": GOOD_PAPER.replace("[gpu]", "[tpu]").replace(
        "description: Trains", "description: " + "Very long words. " * 16 + "Trains"
    )
}


def _launchers() -> list[list[str]]:
    """Return the ways contributors start the tool: python -m, and the console script."""
    found = [[sys.executable, "-m", "ddl_catalog"]]
    if CONSOLE_SCRIPT.exists():
        found.append([str(CONSOLE_SCRIPT)])
    return found


@pytest.mark.parametrize("launcher", _launchers(), ids=lambda argv: Path(argv[-1]).name)
@pytest.mark.parametrize(
    "args",
    [
        ["--format", "json"],
        ["--format=json", "--strict"],
        ["--strict"],
    ],
)
def test_launchers_print_and_exit_as_the_click_command(
    launcher: list[str],
    args: list[str],
    catalog_dir: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = catalog_dir(MIXED)
    argv = ["validate", "--root", str(root), *args]
    monkeypatch.setenv("GITHUB_ACTIONS", "")
    expected = CliRunner().invoke(cli, argv)
    out = subprocess.run([*launcher, *argv], capture_output=True, text=True, check=False)
    assert (out.returncode, out.stdout, out.stderr) == (expected.exit_code, expected.output, "")
    assert expected.exit_code == 1  # the fixture has an error: the comparison is not vacuous


def test_a_file_given_as_root_is_a_usage_error(tmp_path: Path) -> None:
    file = tmp_path / "catalog.yml"
    file.write_text("x: 1\n")
    out = subprocess.run(
        [sys.executable, "-m", "ddl_catalog", "validate", "--root", str(file)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 2
    assert "is a file" in out.stderr


def test_help_comes_from_click() -> None:
    helped = subprocess.run(
        [sys.executable, "-m", "ddl_catalog", "validate", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert helped.returncode == 0
    assert helped.stdout.startswith("Usage: ddl-catalog validate [OPTIONS]")


def test_a_closed_pipe_ends_quietly(catalog_dir: Callable[..., Path]) -> None:
    root = catalog_dir(MIXED)
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written, as with `| head`
    try:
        out = subprocess.run(
            [sys.executable, "-m", "ddl_catalog", "validate", "--root", str(root)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write_end)
    assert out.returncode == 1
    assert out.stderr == ""


@pytest.mark.parametrize("written", ["empty/", "./empty", "empty/../empty"])
def test_root_is_shown_alike_whichever_way_it_is_written(
    written: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["validate", "--root", written])
    assert result.exit_code == 1
    assert f"no data/ folder under {tmp_path / 'empty'}: check --root" in result.output
