"""ddl-catalog import on bad input: one located error line, exit 1, no traceback, no writes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import real_tree_catalog, snapshot
from ddl_catalog.cli import cli

SEED = next((Path(__file__).parent / "fixtures" / "seeds").glob("004_*.txt"))


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    return real_tree_catalog(tmp_path / "catalog")


def run(root: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["import", "--root", str(root), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("content", "where", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "3:1", "binary file"),
        (b"# List\n\n- [Caf\xe9](https://a.example/)\n", "3:7", "not UTF-8"),
        (b"", "1:1", "empty file"),
        (b"  \n\n\t\n", "1:1", "empty file"),
        (b"# Just prose\n\nSee [this](https://a.example/) page.\n", "1:1", "no list items"),
        # a line past the documented limit (MAX_LINE) is refused at its own line, unparsed
        (b"# List\n\n- " + b"[" * 2_000_000 + b"\n", "3:16385", "line is 2,000,002 characters"),
        (b"# L\n\n<details>" + b"<summary>" * 100_000 + b"\n", "3:16385", "characters long"),
    ],
)
def test_bad_markdown_gives_one_located_error(
    catalog: Path, tmp_path: Path, content: bytes, where: str, message: str
) -> None:
    bad = tmp_path / "bad.md"
    bad.write_bytes(content)
    before = snapshot(catalog)
    code, output = run(catalog, str(bad))
    assert code == 1
    assert output.startswith(f"{bad}:{where}: error: ")
    assert message in output
    assert output.count("\n") == 1
    assert snapshot(catalog) == before


def test_missing_file_and_directory(catalog: Path, tmp_path: Path) -> None:
    code, output = run(catalog, str(tmp_path / "nope.md"))
    assert (code, output.startswith(f"{tmp_path / 'nope.md'}:1:1: error: cannot read")) == (1, True)
    code, output = run(catalog, str(tmp_path))
    assert code == 1 and "a directory, not a file" in output


def test_a_fifo_or_a_device_is_refused_unread(catalog: Path, tmp_path: Path) -> None:
    # Their size says 0: a size check alone would let a read wait forever (a FIFO no one
    # writes to) or fill the memory (/dev/zero).
    fifo = tmp_path / "list.md"
    os.mkfifo(fifo)
    before = snapshot(catalog)
    code, output = run(catalog, str(fifo))
    assert (code, output) == (
        1,
        f"{fifo}:1:1: error: cannot read file: a named pipe (FIFO), not a file\n",
    )
    code, output = run(catalog, "/dev/zero")
    assert (code, output) == (1, "/dev/zero:1:1: error: cannot read file: a device, not a file\n")
    assert snapshot(catalog) == before


def test_a_list_over_the_size_limit_is_refused_unread(catalog: Path, tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_bytes(b"# L\n\n" + b"- [a](https://a.example/)\n" * 300_000)
    code, output = run(catalog, str(big))
    assert code == 1
    limit = "file is 7,800,005 bytes, over the 5,242,880-byte limit for a list to import"
    assert output == f"{big}:1:1: error: {limit}\n"


def test_root_without_a_catalog(tmp_path: Path) -> None:
    code, output = run(tmp_path, str(SEED))
    assert code == 1
    assert "categories.yml:1:1: error: no data/categories.yml" in output


def test_unreadable_categories_file(catalog: Path) -> None:
    (catalog / "data" / "categories.yml").write_text("categories: [\n", encoding="utf-8")
    code, output = run(catalog, "--dry-run", str(SEED))
    assert code == 1
    assert output.startswith("data/categories.yml:")
    assert ": error: " in output


def test_html_lines_without_closing_tags_are_read_as_text(catalog: Path, tmp_path: Path) -> None:
    """Opening <summary> and <a> tags with no closing tag (the pattern that made the lazy
    regular expressions rescan the line) leave the line as it is; the real items still import."""
    opening = "<summary>" * 1_500 + "\n<li>" + '<a href="https://x.example/">' * 500 + "\n"
    items = "- [Real Tool](https://tool.example/) - A real item.\n"
    source = tmp_path / "list.md"
    source.write_text(f"# List\n\n## Tools\n\n<details>\n{opening}</details>\n\n{items}")
    code, output = run(catalog, str(source), "--dry-run")
    assert code == 0, output
    assert "Real Tool" in output


@pytest.mark.parametrize(
    ("linked", "says"),
    [
        ("data/articles", "data/articles/foo.yml:1:1: error: not written: a symbolic link"),
        ("data/categories.yml", "data/categories.yml:1:1: error: refused without reading"),
    ],
)
def test_a_symbolic_link_out_of_the_catalog_is_not_written_through(
    catalog: Path, tmp_path: Path, linked: str, says: str
) -> None:
    # validate refuses such a link; writing drafts (or new categories) through it would put
    # files wherever it points.
    outside = tmp_path / "outside"
    outside.mkdir()
    place = catalog / linked
    if place.exists():
        shutil.move(place, outside / place.name)
        place.symlink_to(outside / place.name)
    else:
        place.symlink_to(outside, target_is_directory=True)
    listing = tmp_path / "list.md"
    listing.write_text("# L\n\n## Odd Things\n\n- [Foo](https://example.com/foo) - A foo thing.\n")
    before, outside_before = snapshot(catalog), snapshot(outside)
    code, output = run(catalog, str(listing))
    assert code == 1
    assert output.startswith(says)
    assert "leads outside the catalog" in output
    assert (snapshot(catalog), snapshot(outside)) == (before, outside_before)


def test_adding_a_category_keeps_every_other_line_of_the_tree(tmp_path: Path) -> None:
    """import adds categories for new headings and leaves the quoting of the rest as it was."""
    from conftest import REPO
    from ddl_catalog.importer import add_categories
    from ddl_catalog.importer.plan import HeadingMap, Plan

    tree = tmp_path / "categories.yml"
    original = (REPO / "data" / "categories.yml").read_text(encoding="utf-8")
    tree.write_text(original, encoding="utf-8")
    heading = HeadingMap(line=3, title="Brand new topic", category="brand-new-topic", known=False)
    plan = Plan(source="list.md", headings=[heading])
    assert add_categories(tree, plan, set()) == ["brand-new-topic"]
    after = tree.read_text(encoding="utf-8")
    assert after.startswith(original)  # every line before, byte for byte (quotes included)
    assert after[len(original) :].strip().startswith("- id: brand-new-topic")
