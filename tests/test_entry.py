"""The console script's fast start of ``validate`` stays in step with the click command."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from conftest import GOOD_PAPER
from ddl_catalog import entry
from ddl_catalog.cli import cli

ROOT = Path(__file__).resolve().parents[1]
#: One error (unknown tag) and one warning (long description), so every option changes output.
MIXED = {
    "data/papers/dean2012large.yml": GOOD_PAPER.replace("[gpu]", "[tpu]").replace(
        "description: Trains", "description: " + "Very long words. " * 16 + "Trains"
    )
}


def test_the_fast_start_knows_every_option_of_the_click_command() -> None:
    command = cli.commands["validate"]
    options = {
        opt: param.name
        for param in command.params
        if isinstance(param, click.Option)
        for opt in param.opts
    }
    assert options == {name: spec[0] for name, spec in entry.VALIDATE_OPTIONS.items()}
    choices = {
        param.name: tuple(param.type.choices)
        for param in command.params
        if isinstance(param.type, click.Choice)
    }
    assert choices == {spec[0]: spec[1] for spec in entry.VALIDATE_OPTIONS.values() if spec[1]}


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--strict"],
        ["--format", "json"],
        ["--format=json", "--strict"],
        ["--format", "text"],
        ["--root", "{root}"],
        ["--root={root}", "--format", "json", "--strict"],
    ],
)
def test_plain_calls_print_and_exit_as_the_click_command(
    args: list[str],
    catalog_dir: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = catalog_dir(MIXED)
    monkeypatch.chdir(root if not any("{root}" in a for a in args) else ROOT)
    argv = ["validate", *(a.format(root=root) for a in args)]
    assert entry.plain_validate(argv) is not None
    monkeypatch.setenv("GITHUB_ACTIONS", "")
    expected = CliRunner().invoke(cli, argv)
    monkeypatch.setattr(sys, "argv", ["ddl-catalog", *argv])
    with pytest.raises(SystemExit) as exit_info:
        entry.main()
    assert exit_info.value.code == expected.exit_code
    assert capsys.readouterr().out == expected.output
    assert expected.exit_code == 1  # the fixture has an error: the comparison is not vacuous


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "--help"],
        ["validate", "-h"],
        ["validate", "--format", "xml"],
        ["validate", "--format"],
        ["validate", "--format="],
        ["validate", "--strict", "--strict"],
        ["validate", "--strict=yes"],
        ["validate", "--root"],
        ["validate", "--root", "--strict"],
        ["validate", "--bogus"],
        ["validate", "extra"],
        ["validate", "--", "--strict"],
        ["build"],
        ["--version"],
        [],
    ],
)
def test_everything_else_goes_to_click(args: list[str]) -> None:
    assert entry.plain_validate(args) is None


def test_a_file_given_as_root_goes_to_click(tmp_path: Path) -> None:
    file = tmp_path / "catalog.yml"
    file.write_text("x: 1\n")
    assert entry.plain_validate(["validate", "--root", str(file)]) is None
    out = subprocess.run(
        [sys.executable, "-m", "ddl_catalog", "validate", "--root", str(file)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 2
    assert "is a file" in out.stderr


def test_validate_starts_without_click_and_help_still_comes_from_click() -> None:
    code = (
        "import sys\n"
        "from ddl_catalog.entry import main\n"
        f"sys.argv = ['ddl-catalog', 'validate', '--root', {str(ROOT)!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    print('EXIT', exc.code)\n"
        "slow = ('click', 'typing', 'decimal', 'json', 'contextlib', 'pathlib')\n"
        "print('LOADED', [m for m in slow if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    # Each of these costs a millisecond or more of start-up (-X importtime) and is not needed.
    assert out.stdout.splitlines()[-2:] == ["EXIT 0", "LOADED []"], (
        "validate's start-up imports a module it should not; annotations import typing and "
        "pathlib under `if TYPE_CHECKING:` (see docs/architecture.md)\n" + out.stdout + out.stderr
    )
    helped = subprocess.run(
        [sys.executable, "-m", "ddl_catalog", "validate", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert helped.returncode == 0
    assert helped.stdout.startswith("Usage: ddl-catalog validate [OPTIONS]")


def test_a_closed_pipe_ends_quietly() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written, as with `| head`
    try:
        out = subprocess.run(
            [sys.executable, "-m", "ddl_catalog", "validate", "--root", str(ROOT)],
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
    written: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    argv = ["validate", "--root", written]
    expected = CliRunner().invoke(cli, argv)
    monkeypatch.setattr(sys, "argv", ["ddl-catalog", *argv])
    with pytest.raises(SystemExit):
        entry.main()
    assert capsys.readouterr().out == expected.output
    assert f"no data/ folder under {tmp_path / 'empty'}: check --root" in expected.output


def test_the_collector_is_running_again_after_a_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["ddl-catalog", "validate", "--root", str(ROOT)])
    with pytest.raises(SystemExit):
        entry.main()
    assert gc.isenabled()
    assert capsys.readouterr().out.startswith("ok: ")


def test_github_annotations_and_summary_alike(
    catalog_dir: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = catalog_dir(MIXED)
    argv = ["validate", "--root", str(root)]
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "click.md"))
    expected = CliRunner().invoke(cli, argv)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "fast.md"))
    monkeypatch.setattr(sys, "argv", ["ddl-catalog", *argv])
    with pytest.raises(SystemExit):
        entry.main()
    assert capsys.readouterr().out == expected.output
    assert "::error file=data/papers/dean2012large.yml" in expected.output
    assert (tmp_path / "fast.md").read_text() == (tmp_path / "click.md").read_text()
