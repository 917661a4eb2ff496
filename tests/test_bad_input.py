"""Every kind of bad input gets one clear, located message and exit 1; no traceback, no writes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GOOD_FRAMEWORK, GOOD_PAPER, snapshot
from ddl_catalog.cli import cli

P = "data/papers/dean2012large.yml"


def paper(**changes: str) -> str:
    """Return the good paper with some lines replaced ('key: value' text, '' to drop)."""
    lines = GOOD_PAPER.splitlines()
    out = []
    for line in lines:
        key = line.split(":", 1)[0]
        if key in changes:
            if changes[key]:
                out.append(changes[key])
        else:
            out.append(line)
    return "\n".join(out) + "\n"


CASES: dict[str, tuple[dict[str, str | bytes], str, str]] = {
    # name: (files, expected location prefix, expected message fragment)
    "bad indent": ({P: "id: dean2012large\n  kind: paper\n"}, f"{P}:2:7", "malformed YAML"),
    "unclosed quote": (
        {P: 'id: dean2012large\ntitle: "Large Scale\nkind: paper\n'},
        f"{P}:",
        "malformed YAML",
    ),
    "tab indentation": (
        {P: "id: dean2012large\nauthors:\n\t- Jeffrey Dean\n"},
        f"{P}:3:",
        "not tabs",
    ),
    "empty file": ({P: ""}, f"{P}:1:1", "file is empty"),
    "list instead of mapping": ({P: "- id: dean2012large\n"}, f"{P}:1:1", "found a list"),
    "unknown field": (
        {P: paper(title="titel: Large Scale Distributed Deep Networks")},
        f"{P}:3:1",
        "unknown field 'titel' (did you mean 'title'?)",
    ),
    "missing required field": ({P: paper(url="")}, f"{P}:1:1", "missing required field 'url'"),
    "wrong type": (
        {P: paper(year="year: 20l6")},
        f"{P}:9:7",
        "'year' must be an integer, got '20l6'",
    ),
    "python tag": (
        {P: paper(title="title: !!python/object:os.system ls")},
        f"{P}:3:8",
        "YAML tags",
    ),
    "alias bomb": (
        {
            P: 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
            "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
        },
        f"{P}:1:4",
        "YAML anchors",
    ),
    "duplicate key": (
        {P: paper(year="year: 2012\nyear: 2013")},
        f"{P}:10:1",
        "duplicate key 'year' (first at line 9)",
    ),
    "duplicate id": (
        {
            P: GOOD_PAPER,
            "data/articles/dean2012large.yml": paper(
                kind="kind: article", url="url: https://example.org/distbelief-notes"
            ),
        },
        f"{P}:1:5",
        "id 'dean2012large' is already used by data/articles/dean2012large.yml:1",
    ),
    "id differs from file name": (
        {"data/papers/dean2012.yml": GOOD_PAPER},
        "data/papers/dean2012.yml:1:5",
        "differs from the file name",
    ),
    "unknown category": (
        {P: paper(categories="categories: [parallelsm]")},
        f"{P}:6:14",
        "unknown category 'parallelsm' (did you mean 'parallelism'?)",
    ),
    "ftp url": ({P: paper(url="url: ftp://ftp.example.org/paper.pdf")}, f"{P}:4:6", "uses 'ftp:'"),
    "javascript url": ({P: paper(url="url: javascript:alert(1)")}, f"{P}:4:6", "'javascript:'"),
    "relative url": ({P: paper(url="url: /papers/dean.pdf")}, f"{P}:4:6", "is relative"),
    "same arXiv paper as abs and pdf": (
        {
            "data/frameworks/horovod.yml": GOOD_FRAMEWORK,
            "data/papers/sergeev2018horovod.yml": (
                "id: sergeev2018horovod\nkind: paper\ntitle: Horovod paper\n"
                "url: https://arxiv.org/pdf/1802.05799v3.pdf\n"
                "description: Describes how Horovod uses ring allreduce for data parallelism.\n"
                "categories: [data-parallelism]\n"
            ),
        },
        "data/papers/sergeev2018horovod.yml:4:6",
        "same arXiv id 1802.05799 as data/frameworks/horovod.yml",
    ),
    "non-UTF-8 bytes": (
        {P: GOOD_PAPER.encode().replace(b"Large Scale", b"Large \xe9cale")},
        f"{P}:3:14",
        "invalid UTF-8 byte 0xe9",
    ),
    # Characters YAML forbids: located [encoding] errors, not a parser's traceback.
    "NUL byte": (
        {P: paper(title="title: Large\x00Scale")},
        f"{P}:3:13",
        "control character U+0000 (NUL) is not allowed in YAML: delete it [encoding]",
    ),
    "terminal colour codes (ESC)": (
        {P: paper(venue="venue: \x1b[31mNIPS\x1b[0m")},
        f"{P}:10:8",
        "control character U+001B (ESC) is not allowed in YAML",
    ),
    "DEL": ({P: paper(title="title: Large\x7fScale")}, f"{P}:3:13", "U+007F (DEL)"),
    "C1 control character": ({P: paper(title="title: Large\x9bScale")}, f"{P}:3:13", "U+009B"),
    "non-character U+FFFE": (
        {P: paper(title="title: Large\ufffeScale")},
        f"{P}:3:13",
        "non-character U+FFFE is not allowed in YAML: delete it [encoding]",
    ),
    "non-character U+FFFF in a key": (
        {P: paper(venue="ven\uffffue: NIPS")},
        f"{P}:10:4",
        "non-character U+FFFF",
    ),
    "lone surrogate (bad UTF-8)": (
        {P: GOOD_PAPER.encode().replace(b"Large Scale", b"Large \xed\xa0\x80Scale")},
        f"{P}:3:14",
        "invalid UTF-8 byte 0xed: save the file as UTF-8 [encoding]",
    ),
    # What a file may not hold raw, a quoted value may not hold as an escape.
    "escaped NUL in a quoted value": (
        {P: paper(title='title: "Large\\0Scale"')},
        f"{P}:3:8",
        "control character U+0000 (NUL), written as an escape, is not allowed in YAML",
    ),
    "escaped ESC in a quoted value": (
        {P: paper(venue='venue: "\\e[31mNIPS"')},
        f"{P}:10:8",
        "control character U+001B (ESC), written as an escape",
    ),
    "escaped U+FFFE in a quoted value": (
        {P: paper(title='title: "Large \\uFFFE Scale"')},
        f"{P}:3:8",
        "non-character U+FFFE, written as an escape",
    ),
    # Numbers: no integer a later step cannot even print.
    "a year of 5,000 digits": (
        {P: paper(year="year: " + "1" * 5000)},
        f"{P}:9:7",
        "the number 11111111111111111... is too large: numbers in a catalog file fit in 64 bits",
    ),
    "a hexadecimal year of 5,000 digits": (
        {P: paper(year="year: 0x" + "f" * 5000)},
        f"{P}:9:7",
        "write the number 0xfffffffffffffff... in plain decimal digits",
    ),
    # Nesting: a located error past 50 levels, never a RecursionError.
    # File and line, not the column: where a parser stops scanning is its own affair.
    "lists nested 10,000 deep": (
        {P: "[" * 10_000 + "]" * 10_000 + "\n"},
        f"{P}:1:",
        "lists and mappings nest more than 50 levels deep here; an entry needs three [yaml]",
    ),
    "mappings nested 10,000 deep": (
        {P: "{a: " * 10_000 + "\n"},
        f"{P}:1:",
        "lists and mappings nest more than 50 levels deep here; an entry needs three [yaml]",
    ),
    "deep nesting inside a field": (
        {P: paper(venue="venue: " + "[" * 60 + "]" * 60)},
        f"{P}:10:57",
        "more than 50 levels",
    ),
    "1,000,000 brackets": (
        {P: "[" * 1_000_000},
        f"{P}:1:1",
        "file is 1,000,000 bytes, over the 262,144-byte limit",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_gives_one_located_error(name: str, catalog_dir: Callable[..., Path]) -> None:
    files, location, fragment = CASES[name]
    root = catalog_dir()
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    before = snapshot(root)
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), "a traceback escaped"
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if ": error: " in line]
    assert len(errors) == 1, result.output
    assert errors[0].startswith(location), errors[0]
    assert fragment in errors[0], errors[0]
    assert (
        result.output.strip().endswith("1 error, 0 warnings in 3 files")
        or "1 error" in (result.output.splitlines()[-1])
    )
    assert snapshot(root) == before, "validate wrote to the catalog"
    # The tool as contributors run it, in a process of its own, says the same.
    console = subprocess.run(
        [sys.executable, "-m", "ddl_catalog", "validate", "--root", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (console.returncode, console.stdout, console.stderr) == (1, result.output, "")
    assert snapshot(root) == before, "validate wrote to the catalog"


def test_fifty_megabyte_file_is_refused_before_reading(catalog_dir: Callable[..., Path]) -> None:
    root = catalog_dir()
    big = root / P
    big.parent.mkdir(parents=True)
    with big.open("wb") as handle:
        handle.write(b"id: dean2012large\ndescription: '")
        handle.write(b"x" * (50 * 1024 * 1024))
        handle.write(b"'\n")
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if ": error: " in line]
    assert len(errors) == 1
    assert errors[0].startswith(f"{P}:1:1: error: file is 52,428,834 bytes")
    assert errors[0].endswith("[file-size]")


#: The cases the loader refuses: every command that reads entries must refuse them alike.
LOADER_CASES = [
    "non-UTF-8 bytes",
    "NUL byte",
    "escaped NUL in a quoted value",
    "a year of 5,000 digits",
    "terminal colour codes (ESC)",
    "non-character U+FFFE",
    "lone surrogate (bad UTF-8)",
    "lists nested 10,000 deep",
    "mappings nested 10,000 deep",
    "1,000,000 brackets",
]


@pytest.mark.parametrize("name", LOADER_CASES)
@pytest.mark.parametrize(
    "args",
    [["fmt", "--check"], ["fmt"], ["build"], ["readme"], ["export", "--format", "json"]],
    ids=" ".join,
)
def test_every_command_that_reads_entries_refuses_alike(
    name: str, args: list[str], catalog_dir: Callable[..., Path]
) -> None:
    files, location, fragment = CASES[name]
    root = catalog_dir()
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    before = snapshot(root)
    result = CliRunner().invoke(cli, [*args, "--root", str(root)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), "a traceback escaped"
    if args[0] in ("fmt", "build"):  # these list the problems
        assert any(
            line.startswith(location) and fragment in line for line in result.output.splitlines()
        ), result.output
    else:
        assert "Error: the catalog has 1 error; run 'ddl-catalog validate'" in result.output
    assert snapshot(root) == before, "a command wrote after refusing its input"


@pytest.mark.parametrize(
    "categories",
    ["[" * 10_000, "categories:\n  - id: a\x00b\n", "{a: " * 100_000],
    ids=["deep", "NUL", "deep mappings"],
)
def test_add_and_import_refuse_a_bad_categories_file(
    categories: str, catalog_dir: Callable[..., Path], tmp_path: Path
) -> None:
    root = catalog_dir({P: GOOD_PAPER})
    (root / "data" / "categories.yml").write_text(categories, encoding="utf-8")
    listing = tmp_path / "list.md"
    listing.write_text("# List\n\n## Papers\n\n- [A](https://arxiv.org/abs/1111.22222) - A.\n")
    before = snapshot(root)
    added = CliRunner().invoke(
        cli,
        ["add", "https://arxiv.org/abs/1234.56789", "--offline", "--yes", "--root", str(root)],
    )
    imported = CliRunner().invoke(cli, ["import", str(listing), "--root", str(root)])
    for result in (added, imported):
        assert result.exit_code == 1, result.output
        assert isinstance(result.exception, SystemExit), "a traceback escaped"
        assert "data/categories.yml:" in result.output
    assert snapshot(root) == before
