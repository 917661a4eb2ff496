"""``ddl-catalog fmt``: canonical layout, comments kept, idempotent, --check writes nothing."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import snapshot
from ddl_catalog.cli import cli
from ddl_catalog.edit import fmt
from ddl_catalog.edit.fmt import DEFAULT_SCHEMA_REF, format_text
from ddl_catalog.load import parse_yaml
from ddl_catalog.validate import entry_files, validate

REPO = Path(__file__).resolve().parent.parent
SCHEMA = f"# yaml-language-server: $schema={DEFAULT_SCHEMA_REF}"

MESSY = """\
# A note the author wrote at the top.
added: '2024-01-31'
identifiers:
  github: horovod/horovod
  arxiv: 1802.05799
categories:
  - frameworks
  - data-parallelism
title: 'Horovod'
kind: framework   # kept with its key
id: horovod
description: >
  Ring-allreduce data parallelism for TensorFlow,
  Keras,   PyTorch and MXNet.
x-note: "unknown keys stay, at the end"
url: "https://github.com/horovod/horovod"
links:
  - url: https://horovod.ai
    type: website
authors:
- Alexander Sergeev
- Mike Del Balso
"""

CANONICAL = f"""\
{SCHEMA}
# A note the author wrote at the top.
id: horovod
kind: framework   # kept with its key
title: Horovod
url: https://github.com/horovod/horovod
description: Ring-allreduce data parallelism for TensorFlow, Keras, PyTorch and MXNet.
categories: [frameworks, data-parallelism]
authors: [Alexander Sergeev, Mike Del Balso]
identifiers:
  arxiv: "1802.05799"
  github: horovod/horovod
links:
  - type: website
    url: https://horovod.ai
added: "2024-01-31"
x-note: unknown keys stay, at the end
"""


def test_canonical_layout() -> None:
    assert format_text(MESSY, "messy.yml", SCHEMA) == CANONICAL


def test_formatting_is_idempotent_and_keeps_the_data() -> None:
    once = format_text(MESSY, "messy.yml", SCHEMA)
    assert format_text(once, "messy.yml", SCHEMA) == once
    before, after = parse_yaml(MESSY, "a").data, parse_yaml(once, "b").data
    before["description"] = " ".join(before["description"].split())
    before["identifiers"]["arxiv"] = str(before["identifiers"]["arxiv"])  # was a float, unquoted
    assert after == before


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("title: 'Horovod: fast'", 'title: "Horovod: fast"'),  # needs quotes: double, not single
        ('title: "plain words"', "title: plain words"),  # quotes not needed: plain
        ('title: "it\'s # here"', 'title: "it\'s # here"'),
        ("venue: 'yes'", 'venue: "yes"'),  # would read as a boolean
        ("added: 2024-01-31", 'added: "2024-01-31"'),  # dates always quoted
        ("title: '2019'", 'title: "2019"'),
    ],
)
def test_quoting(line: str, expected: str) -> None:
    out = format_text(f"id: x\n{line}\n", "x.yml", SCHEMA)
    assert expected in out.splitlines()


def test_bare_arxiv_id_keeps_its_trailing_zero() -> None:
    out = format_text("id: x\nidentifiers:\n  arxiv: 1910.02050\n", "x.yml", SCHEMA)
    assert '  arxiv: "1910.02050"' in out.splitlines()


def test_long_lists_go_block_style_and_short_ones_flow() -> None:
    authors = [f"Author Number{i}" for i in range(12)]
    text = "id: x\nauthors: [" + ", ".join(authors) + "]\ntags: [a, b]\n"
    out = format_text(text, "x.yml", SCHEMA)
    assert "tags: [a, b]" in out
    assert "authors:\n  - Author Number0\n" in out
    assert all(len(line) <= fmt.FLOW_WIDTH for line in out.splitlines()[1:])


def test_no_wrapping_of_long_descriptions() -> None:
    long = "A " + "very " * 60 + "long sentence."
    out = format_text(f"id: x\ndescription: {long}\n", "x.yml", SCHEMA)
    assert f"description: {long}" in out.splitlines()


def test_schema_line_is_replaced_and_points_at_the_schema(tmp_path: Path) -> None:
    (tmp_path / fmt.SCHEMA_PATH).parent.mkdir(parents=True)
    (tmp_path / fmt.SCHEMA_PATH).write_text("{}")
    file = tmp_path / "data" / "papers" / "x.yml"
    file.parent.mkdir(parents=True)
    file.write_text("# yaml-language-server: $schema=wrong.json\nid: x\n")
    fmt.run(tmp_path, [file])
    schema_line = "# yaml-language-server: $schema=../../src/ddl_catalog/schema/entry.schema.json"
    assert file.read_text() == f"{schema_line}\nid: x\n"


def test_schema_line_resolves_in_any_catalog(tmp_path: Path) -> None:
    """Without the package's source, the line names schemas/ (init writes it there)."""
    file = tmp_path / "data" / "papers" / "x.yml"
    file.parent.mkdir(parents=True)
    file.write_text("id: x\n")
    fmt.run(tmp_path, [file])
    assert file.read_text() == f"{SCHEMA}\nid: x\n"
    assert DEFAULT_SCHEMA_REF == "../../schemas/entry.schema.json"
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "entry.schema.json").write_text("{}")
    nested = tmp_path / "data" / "papers" / "y.yml"
    nested.write_text("id: y\n")
    fmt.run(tmp_path, [nested])
    line = nested.read_text().splitlines()[0]
    target = (nested.parent / line.split("$schema=")[1]).resolve()
    assert target == (tmp_path / "schemas" / "entry.schema.json").resolve()


def test_check_lists_files_writes_nothing_and_exits_1(
    catalog_dir: Callable[..., Path],
) -> None:
    root = catalog_dir({"data/frameworks/horovod.yml": MESSY, "data/papers/ok.yml": CANONICAL})
    before = snapshot(root)
    result = CliRunner().invoke(cli, ["fmt", "--check", "--root", str(root)])
    assert result.exit_code == 1
    assert "would reformat data/frameworks/horovod.yml" in result.output
    assert "data/papers/ok.yml" not in result.output
    assert "1 would reformat, 1 unchanged, 0 unreadable" in result.output
    assert snapshot(root) == before

    result = CliRunner().invoke(cli, ["fmt", "--root", str(root)])
    assert result.exit_code == 0
    assert "reformatted data/frameworks/horovod.yml" in result.output
    assert (root / "data/frameworks/horovod.yml").read_text() == CANONICAL
    assert CliRunner().invoke(cli, ["fmt", "--check", "--root", str(root)]).exit_code == 0


def test_check_annotates_on_github_actions(
    catalog_dir: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = catalog_dir({"data/frameworks/horovod.yml": MESSY})
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = CliRunner().invoke(cli, ["fmt", "--check", "--root", str(root)])
    assert "::error file=data/frameworks/horovod.yml,line=1::not in canonical format" in (
        result.output
    )


def test_check_on_github_actions_escapes_file_names(
    catalog_dir: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = catalog_dir({"data/frameworks/h\n::warning::forged,x ##[error]y.yml": MESSY})
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = CliRunner().invoke(cli, ["fmt", "--check", "--root", str(root)])
    lines = result.output.splitlines()
    assert [line for line in lines if line.lstrip().startswith("::")] == [
        "::error file=data/frameworks/h\\x0a%3A%3Awarning%3A%3Aforged%2Cx ##[error]y.yml,line=1"
        "::not in canonical format: run ddl-catalog fmt"
    ]
    assert "would reformat data/frameworks/h\\x0a::warning::forged,x ##\\x5berror]y.yml" in lines


def test_files_argument_limits_the_run_and_skips_non_entries(
    catalog_dir: Callable[..., Path],
) -> None:
    root = catalog_dir({"data/frameworks/horovod.yml": MESSY, "data/papers/other.yml": MESSY})
    categories = (root / "data/categories.yml").read_text()
    result = CliRunner().invoke(
        cli,
        ["fmt", "--root", str(root), str(root / "data/frameworks/horovod.yml"),
         str(root / "data/categories.yml")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (root / "data/frameworks/horovod.yml").read_text() == CANONICAL
    assert (root / "data/papers/other.yml").read_text() == MESSY
    assert (root / "data/categories.yml").read_text() == categories


def test_malformed_file_gives_a_located_error_and_is_left_alone(
    catalog_dir: Callable[..., Path],
) -> None:
    broken = "id: x\ntitle: a: b\n"
    root = catalog_dir({"data/papers/x.yml": broken, "data/frameworks/horovod.yml": MESSY})
    result = CliRunner().invoke(cli, ["fmt", "--root", str(root)])
    assert result.exit_code == 1
    assert "data/papers/x.yml:2:9: error: malformed YAML" in result.output
    assert "Traceback" not in result.output
    assert (root / "data/papers/x.yml").read_text() == broken
    assert (root / "data/frameworks/horovod.yml").read_text() == CANONICAL


def test_a_failed_write_leaves_the_file_and_no_temporary(
    catalog_dir: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = catalog_dir({"data/frameworks/horovod.yml": MESSY})

    def boom(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        fmt.run(root)
    assert (root / "data/frameworks/horovod.yml").read_text() == MESSY
    assert sorted(p.name for p in (root / "data/frameworks").iterdir()) == ["horovod.yml"]


# --- the real catalog ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "file", entry_files(REPO), ids=lambda p: p.relative_to(REPO / "data").as_posix()
)
def test_real_data_file_formats_idempotently_without_changing_data(file: Path) -> None:
    text = file.read_text(encoding="utf-8")
    schema = fmt.schema_line(file, REPO)
    once = format_text(text, str(file), schema)
    assert format_text(once, str(file), schema) == once
    before, after = parse_yaml(text, "a").data, parse_yaml(once, "b").data
    for key in fmt.ONE_LINE_FIELDS:
        if isinstance(before.get(key), str):
            before[key] = " ".join(before[key].split())
    assert after == before


def test_a_file_that_is_no_entry_of_the_catalog_is_an_error(
    catalog_dir: Callable[..., Path], tmp_path: Path
) -> None:
    # A wrong path given to fmt --check (in a hook or a CI step) once passed without a word.
    root = catalog_dir({"data/frameworks/horovod.yml": CANONICAL})
    elsewhere = tmp_path / "elsewhere.yml"
    elsewhere.write_text(MESSY)
    readme = root / "README.md"
    readme.write_text("# List\n")
    result = CliRunner().invoke(
        cli, ["fmt", "--check", "--root", str(root), str(elsewhere), str(readme)]
    )
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert any(line.startswith(f"{elsewhere}:1:1: error: not an entry file") for line in lines)
    assert any(line.startswith("README.md:1:1: error: not an entry file") for line in lines)
    assert elsewhere.read_text() == MESSY


# --- fmt writes what validate reads ---------------------------------------------------------

ENTRY_HEAD = """\
id: x
kind: article
url: https://example.org/x
description: A page whose file says one thing to every YAML reader.
categories: [frameworks]
"""


def _typed(value: object) -> object:
    """Return a value with the type of every scalar spelt out (True is not 1, "1" is not 1)."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, value)


@pytest.mark.parametrize(
    "lines",
    [
        "title: ! 123\n",  # the non-specific tag: text "123" to libyaml; ruamel wrote 123
        "title: ! true\nvenue: ! 2024\n",  # the texts "true" and "2024"
        "title:\tA tab after the colon\n",  # libyaml reads it; ruamel refused the file
        "title: A title\t# a comment after a tab\nvenue:\tOSDI\t\n",
        "title: 2001-12-14t21:59:43.10-05:00\n",  # text to libyaml; a datetime to ruamel
        "title: 2024-1-5\nvenue: 2002-12-14 21:59:43.10 -5\n",
        "title: 1e3\n",  # text to YAML 1.1 (validate), a float to YAML 1.2 (ruamel)
    ],
)
def test_fmt_keeps_what_validate_reads(catalog_dir: Callable[..., Path], lines: str) -> None:
    root = catalog_dir({"data/articles/x.yml": ENTRY_HEAD + lines})
    file = root / "data/articles/x.yml"
    assert validate(root).problems == []  # valid before fmt ...
    data = parse_yaml(file.read_text(encoding="utf-8"), "x.yml").data
    result = CliRunner().invoke(cli, ["fmt", "--root", str(root)])
    assert result.exit_code == 0, result.output
    assert validate(root).problems == []  # ... valid after it, and it says the same
    assert _typed(parse_yaml(file.read_text(encoding="utf-8"), "x.yml").data) == _typed(data)
    assert CliRunner().invoke(cli, ["fmt", "--check", "--root", str(root)]).exit_code == 0


@pytest.mark.parametrize(
    ("lines", "where"),
    [
        ("title: A title\n<<: {venue: Merged}\n", "7:1"),  # ruamel merged it into the entry
        ("title: A title\nidentifiers:\n  doi: 10.1/x\n  <<: {arxiv: '1802.09941'}\n", "9:3"),
    ],
)
def test_merge_keys_are_refused_by_validate_and_fmt_alike(
    catalog_dir: Callable[..., Path], lines: str, where: str
) -> None:
    root = catalog_dir({"data/articles/x.yml": ENTRY_HEAD + lines})
    before = snapshot(root)
    message = (
        f"data/articles/x.yml:{where}: error: YAML merge keys (<<) are not allowed: readers "
        "disagree on what they mean; write the fields out [yaml-merge]"
    )
    assert [str(p) for p in validate(root).problems] == [message]
    result = CliRunner().invoke(cli, ["fmt", "--root", str(root)])
    assert result.exit_code == 1 and message in result.output
    assert snapshot(root) == before


def test_a_quoted_merge_key_is_only_a_name() -> None:
    assert parse_yaml('"<<": 1\n', "x.yml").data == {"<<": 1}


def test_fmt_refuses_rather_than_change_a_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # should the writer ever disagree with the reader, the file is refused at the value
    real = fmt.dump
    monkeypatch.setattr(fmt, "dump", lambda data, schema: real(data, schema) + "x-extra: 1\n")
    with pytest.raises(fmt.FormatError) as caught:
        format_text(ENTRY_HEAD + "title: A title\n", "x.yml", SCHEMA)
    assert str(caught.value).startswith("x.yml:1:1: error: fmt cannot keep what this value means")
    monkeypatch.setattr(
        fmt, "dump", lambda data, schema: real(data, schema).replace("A title", "B title")
    )
    with pytest.raises(fmt.FormatError, match=r"^x\.yml:6:8: error: fmt cannot keep"):
        format_text(ENTRY_HEAD + "title: A title\n", "x.yml", SCHEMA)
