"""files.write_atomic: the old file survives any failure, and no temporary file is left."""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

import pytest

from ddl_catalog import files


def test_writes_creates_folders_and_keeps_mode(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b.txt"
    files.write_atomic(target, "one\n")
    assert target.read_text() == "one\n"
    assert target.stat().st_mode & 0o777 == 0o644
    target.chmod(0o600)
    files.write_atomic(target, "two\n", fsync=True)
    assert target.read_text() == "two\n"
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in target.parent.iterdir()) == ["b.txt"]


def test_failure_keeps_the_old_file_and_leaves_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.txt"
    target.write_text("good\n")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space left"):
        files.write_atomic(target, "half")
    assert target.read_text() == "good\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_unicode_and_newlines_are_written_as_given(tmp_path: Path) -> None:
    target = tmp_path / "u.txt"
    files.write_atomic(target, "Träff\r\nRé\n")
    assert target.read_bytes() == "Träff\r\nRé\n".encode()


def test_exclusive_creates_only_new_files(tmp_path: Path) -> None:
    target = tmp_path / "new.yml"
    files.write_atomic(target, "one\n", exclusive=True)
    assert target.read_text() == "one\n"
    assert target.stat().st_mode & 0o777 == 0o644
    with pytest.raises(FileExistsError):
        files.write_atomic(target, "two\n", exclusive=True)
    assert target.read_text() == "one\n"
    assert [p.name for p in tmp_path.iterdir()] == ["new.yml"]


def test_exclusive_loses_a_race_without_replacing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "new.yml"
    real_link = os.link

    def someone_else_first(src: str, dst: Path) -> None:
        Path(dst).write_text("theirs\n")  # appears between the check and the link
        real_link(src, dst)

    monkeypatch.setattr(os, "link", someone_else_first)
    with pytest.raises(FileExistsError):
        files.write_atomic(target, "ours\n", exclusive=True)
    assert target.read_text() == "theirs\n"
    assert [p.name for p in tmp_path.iterdir()] == ["new.yml"]


def test_exclusive_without_hard_links_claims_the_name_atomically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A file system without hard links (some network and FUSE ones): the name is claimed with
    # O_CREAT|O_EXCL before the move, so another exclusive writer coming at that moment loses,
    # instead of writing a file that the move then silently replaces.
    target = tmp_path / "new.yml"
    real_replace = os.replace
    other: list[str] = []

    def never(src: str, dst: Path) -> None:
        raise PermissionError(1, "Operation not permitted")

    def another_writer_first(src: str, dst: str | Path) -> None:
        if Path(dst) == target:
            try:
                fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
            except FileExistsError:
                other.append("refused")
            else:
                os.write(fd, b"theirs\n")
                os.close(fd)
                other.append("wrote")
        real_replace(src, dst)

    monkeypatch.setattr(os, "link", never)
    monkeypatch.setattr(os, "replace", another_writer_first)
    files.write_atomic(target, "ours\n", exclusive=True)
    assert other == ["refused"]
    assert target.read_text() == "ours\n"
    assert target.stat().st_mode & 0o777 == 0o644
    with pytest.raises(FileExistsError):
        files.write_atomic(target, "again\n", exclusive=True)
    assert target.read_text() == "ours\n"
    assert [p.name for p in tmp_path.iterdir()] == ["new.yml"]


@pytest.mark.parametrize("make", ["fifo", "socket"], ids=["named pipe", "socket"])
def test_a_special_file_is_refused_not_replaced(tmp_path: Path, make: str) -> None:
    # A rename over a FIFO or a device node (as root, /dev/full) would silently replace it.
    target = tmp_path / "out.json"
    if make == "fifo":
        os.mkfifo(target)
    else:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(target))
        server.close()
    kind = "a named pipe (FIFO)" if make == "fifo" else "a socket"
    with pytest.raises(OSError, match=rf"not replaced: {re.escape(kind)}, not a file") as caught:
        files.write_atomic(target, "data\n")
    assert caught.value.filename == str(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]
    assert not target.is_file()
