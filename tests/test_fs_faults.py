"""A full disk or a refused write under any command: one Error: line naming the file, exit 1.

The failure is injected at the one place every output goes through (files.write_atomic's
temporary file), so each command meets it exactly as it would meet a full disk.
"""

from __future__ import annotations

import errno
import io
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GOOD_PAPER, snapshot
from ddl_catalog import files
from ddl_catalog.cli import cli, os_error_text


class _FullDisk(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    def fdopen(fd: int, *args: object, **kwargs: object) -> object:
        os.close(fd)
        return _FullDisk()

    monkeypatch.setattr(files.os, "fdopen", fdopen)


UNFORMATTED = GOOD_PAPER.replace("categories: [", "categories:    [")


@pytest.mark.parametrize(
    ("args", "written"),
    [
        (["fmt"], "data/papers/dean2012large.yml"),
        (["readme"], "README.md"),
        (["export", "--format", "csv", "-o", "out.csv"], "out.csv"),
        (
            [
                *("add", "https://arxiv.org/abs/2401.00001", "--offline", "--yes"),
                *("--category", "surveys", "--kind", "paper"),
            ],
            "data/papers/arxiv-2401-00001.yml",
        ),
    ],
)
def test_full_disk_is_one_line_naming_the_file(
    catalog_dir: Callable[..., Path],
    full_disk: None,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    written: str,
) -> None:
    root = catalog_dir({"data/papers/dean2012large.yml": UNFORMATTED})
    monkeypatch.chdir(root)
    before = snapshot(root)
    result = CliRunner().invoke(cli, [*args, "--root", str(root)])
    assert result.exit_code == 1, result.output
    line = result.output.strip().splitlines()[-1]
    assert line.startswith("Error: cannot write ") and line.endswith(": No space left on device")
    assert line.removeprefix("Error: cannot write ").split(":")[0].endswith(written)
    assert "Traceback" not in result.output
    assert snapshot(root) == before  # nothing written, no temporary file left


def test_os_error_text_names_the_path() -> None:
    assert os_error_text(OSError(errno.ENOSPC, "No space left on device", "/x/y")) == (
        "cannot write /x/y: No space left on device"
    )
    assert os_error_text(PermissionError(errno.EACCES, "Permission denied", "/x")) == (
        "cannot use /x: Permission denied"
    )
    assert os_error_text(OSError(errno.EIO, "Input/output error")) == "Input/output error"


def test_write_atomic_names_the_target_of_a_failed_write(tmp_path: Path, full_disk: None) -> None:
    with pytest.raises(OSError) as caught:
        files.write_atomic(tmp_path / "out.txt", "text")
    assert caught.value.filename == str(tmp_path / "out.txt")
    assert caught.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []
