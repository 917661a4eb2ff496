"""data/metadata/*.json is checked by validate, so what validates renders and exports."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GOOD_FRAMEWORK, snapshot
from ddl_catalog import metadata, validate
from ddl_catalog.cli import cli
from ddl_catalog.metadata import Metadata

G = "data/metadata/github.json"
GOOD_RECORD = {
    "full_name": "horovod/horovod",
    "stars": 14011,
    "pushed_at": "2021-03-04T10:00:00Z",
    "archived": False,
    "fetched": "2026-01-01",
}


def records(**record: object) -> str:
    """Return github.json text holding one record for horovod/horovod."""
    return json.dumps({"records": {"horovod/horovod": record}}, indent=2) + "\n"


#: name -> (github.json bytes, expected location, expected message fragment)
CASES: dict[str, tuple[bytes, str, str]] = {
    "not JSON": (b"{not json", f"{G}:1:2:", "not valid JSON: Expecting property name"),
    "not UTF-8": (b'{"records": {"\xff": {}}}', f"{G}:1:15:", "invalid UTF-8 byte 0xff"),
    "nested 100,000 deep": (b"[" * 100_000 + b"]" * 100_000, f"{G}:1:1:", "nest far too deep"),
    "a number of 5,000 digits": (
        b'{"records": {"a/b": {"stars": ' + b"9" * 5000 + b"}}}",
        f"{G}:1:1:",
        "a number is far too long",
    ),
    "no records": (b'{"source": "GitHub"}', f"{G}:1:1:", "expected an object with 'records'"),
    "records a list": (b'{"records": []}', f"{G}:1:1:", "expected an object with 'records'"),
    "a record that is a list": (
        b'{"records": {\n  "horovod/horovod": [1, 2]}}',
        f"{G}:2:3:",
        "record 'horovod/horovod' must be an object",
    ),
    "archived as text": (
        records(**{**GOOD_RECORD, "archived": "no"}).encode(),
        f"{G}:3:5:",
        "'archived' must be true or false, got \"no\"",
    ),
    "stars as text": (
        records(**{**GOOD_RECORD, "stars": "many"}).encode(),
        f"{G}:3:5:",
        "'stars' must be a count (0 or more)",
    ),
    "stars true": (records(**{**GOOD_RECORD, "stars": True}).encode(), f"{G}:3:5:", "'stars'"),
    "stars NaN": (
        b'{"records": {"horovod/horovod": {"stars": NaN}}}',
        f"{G}:1:14:",
        "'stars' must be a count (0 or more), got NaN",
    ),
    "pushed_at markup": (
        records(**{**GOOD_RECORD, "pushed_at": "<script>alert(1)</script>"}).encode(),
        f"{G}:3:5:",
        "'pushed_at' must be a date-time or null",
    ),
    "pushed_at control characters": (
        records(**{**GOOD_RECORD, "pushed_at": "\x00\x1b[31m"}).encode(),
        f"{G}:3:5:",
        "'pushed_at' must be a date-time or null",
    ),
    "fetched not a day": (
        records(**{**GOOD_RECORD, "fetched": "2026-02-30"}).encode(),
        f"{G}:3:5:",
        "'fetched' must be a date, got \"2026-02-30\"",
    ),
}


@pytest.fixture
def root(catalog_dir: Callable[..., Path]) -> Path:
    path: Path = catalog_dir({"data/frameworks/horovod.yml": GOOD_FRAMEWORK})
    (path / "data" / "metadata").mkdir()
    return path


def test_validate_knows_every_metadata_source() -> None:
    assert validate.METADATA_SOURCES == metadata.SOURCES


def test_good_metadata_validates_and_renders(root: Path) -> None:
    (root / G).write_text(records(**GOOD_RECORD), encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, ["readme", "--root", str(root)])
    assert result.exit_code == 0, result.output
    assert "Inactive: last commit 2021-03-04." in (root / "README.md").read_text()


@pytest.mark.parametrize("name", list(CASES))
def test_bad_metadata_is_a_located_error_of_validate(name: str, root: Path) -> None:
    content, location, fragment = CASES[name]
    (root / G).write_bytes(content)
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), "a traceback escaped"
    errors = [line for line in result.output.splitlines() if ": error: " in line]
    assert len(errors) >= 1
    assert errors[0].startswith(location), errors[0]
    assert fragment in errors[0], errors[0]


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("args", [["readme"], ["export", "--format", "json"], ["build"]])
def test_outputs_refuse_bad_metadata_in_one_line(name: str, args: list[str], root: Path) -> None:
    (root / G).write_bytes(CASES[name][0])
    before = snapshot(root)
    result = CliRunner().invoke(cli, [*args, "--root", str(root)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), "a traceback escaped"
    assert "Traceback" not in result.output
    assert snapshot(root) == before


def test_a_fifo_is_refused_without_waiting(root: Path) -> None:
    os.mkfifo(root / G)
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    assert f"{G}:1:1: error: cannot read file: a named pipe (FIFO), not a file [file]" in (
        result.output
    )


def test_a_link_out_of_the_catalog_is_refused_unread(root: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text(records(**GOOD_RECORD), encoding="utf-8")
    (root / G).symlink_to(secret)
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    assert f"{G}:1:1: error: refused without reading: a symbolic link that leads outside" in (
        result.output
    )


@pytest.mark.parametrize(
    ("record", "archived", "pushed", "stale"),
    [
        (GOOD_RECORD, False, "2021-03-04", True),
        ({**GOOD_RECORD, "archived": "yes"}, False, "2021-03-04", True),
        ({**GOOD_RECORD, "pushed_at": "<b>"}, False, None, False),
        ({**GOOD_RECORD, "pushed_at": None}, False, None, False),
        ({**GOOD_RECORD, "fetched": "9999-99-99"}, False, "2021-03-04", False),
        ({**GOOD_RECORD, "archived": True}, True, "2021-03-04", True),
    ],
)
def test_metadata_reads_only_values_of_the_right_type(
    record: dict[str, object], archived: bool, pushed: str | None, stale: bool
) -> None:
    meta = Metadata("horovod", github=record)
    assert (meta.archived, meta.pushed_at, meta.stale) == (archived, pushed, stale)
