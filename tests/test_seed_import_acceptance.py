"""Acceptance: a fresh ``init`` catalog imports the three real seed lists and builds at once.

The seeds (tests/fixtures/seeds/) are real awesome lists written as bullets. Recall is counted
independently of the importer: every list item that carries a web link of its own (badges,
tables of contents and meta sections, and links to the list's own repository left out) must
have one of its URLs in an entry of the catalog afterwards, drafted or merged into one.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from ddl_catalog import identity
from ddl_catalog.importer.markdown import own_repositories, repo_of
from ddl_catalog.load import load_file
from ddl_catalog.validate import entry_files

REPO = Path(__file__).resolve().parent.parent
SEEDS = sorted((REPO / "tests" / "fixtures" / "seeds").glob("*.txt"))
AWESOME_LINT = REPO / "tools" / "npm" / "node_modules" / ".bin" / "awesome-lint"
#: Recall each seed must reach.
MIN_RECALL = 0.95
#: Headings whose links are navigation or housekeeping, not entries.
META = {"contents", "table of contents", "toc", "contributing", "license", "licence"}
_BARE = re.compile(r"(?:https?|ftp)://[^\s<>\[\]()\"']+")
#: A labelled link item (``- slides: [..](..)``, ``- mirror: ..``) under a bold title.
_LABELLED = re.compile(r"^\s*[A-Za-z][A-Za-z0-9 /&._-]{0,30}:\s*\S")


def ddl(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the installed ddl-catalog (the repository venv's) as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "ddl_catalog", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env={**os.environ, "SOURCE_DATE_EPOCH": "1763856000"},
    )


def _urls(children: list[Token]) -> set[str]:
    """Return the web URLs an inline run links or writes out (badges left out)."""
    urls: set[str] = set()
    for j, child in enumerate(children):
        if child.type == "link_open":
            badge = j + 1 < len(children) and children[j + 1].type == "image"
            href = str(child.attrs.get("href", ""))
            if not badge and href.startswith(("http://", "https://", "ftp://")):
                urls.add(href)
        elif child.type == "text" and (j == 0 or children[j - 1].type != "link_open"):
            urls.update(m.group(0).rstrip(".,;:!?") for m in _BARE.finditer(child.content))
    return urls


def linked_items(text: str) -> list[tuple[int, set[str]]]:
    """Return (line, web URLs) of every list item with a link of its own, outside meta sections.

    A bold title followed by labelled items (``**Title**`` then ``- paper: [..](..)``) is one
    resource, as the list means it: its labelled links are counted once, together.
    """
    own = own_repositories(text)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    out: list[tuple[int, set[str]]] = []
    heading = ""
    depth = 0
    item_line = 0
    group: tuple[int, set[str]] | None = None  # the open bold title's resource
    for i, tok in enumerate(tokens):
        line = tok.map[0] + 1 if tok.map else 0
        if tok.type == "heading_open":
            heading = tokens[i + 1].content.replace("*", "").strip().lower()
            group = None
        elif tok.type == "list_item_open":
            depth += 1
            item_line = line
        elif tok.type == "list_item_close":
            depth -= 1
        elif tok.type == "paragraph_open" and not depth:
            content = tokens[i + 1].content.strip()
            bold = content.startswith("**") and content.endswith("**") and "](" not in content
            group = (line, set()) if bold else None
            if bold:
                out.append(group)
        elif tok.type == "inline" and depth and heading not in META:
            urls = {u for u in _urls(tok.children or []) if repo_of(u) not in own}
            if group is not None and _LABELLED.match(tok.content):
                group[1].update(urls)
            elif urls:
                out.append((item_line, urls))
    return [(line, urls) for line, urls in out if urls]


def catalog_urls(root: Path) -> set[str]:
    """Return the normalised main and link URLs of every entry of a catalog."""
    found: set[str] = set()
    for file in entry_files(root):
        data = load_file(file, file.name).data
        urls = [data.get("url"), *(ln.get("url") for ln in data.get("links") or [])]
        found.update(identity.normalize_url(u) for u in urls if isinstance(u, str))
    return found


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A fresh init catalog with the three seeds imported (--keep-descriptions) into it."""
    root = tmp_path_factory.mktemp("seeds") / "catalog"
    made = ddl("init", str(root), cwd=root.parent)
    assert made.returncode == 0, made.stdout + made.stderr
    reports = []
    for seed in SEEDS:
        result = ddl("import", "--keep-descriptions", str(seed), cwd=root)
        assert result.returncode == 0, result.stdout + result.stderr
        reports.append(result.stdout)
    return root, reports


@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.name[:3])
def test_recall_of_each_seed_is_at_least_95_percent(
    imported: tuple[Path, list[str]], seed: Path
) -> None:
    root, _ = imported
    items = linked_items(seed.read_text(encoding="utf-8"))
    have = catalog_urls(root)
    missing = [
        (line, sorted(urls))
        for line, urls in items
        if not any(identity.normalize_url(u) in have for u in urls)
    ]
    recall = 1 - len(missing) / len(items)
    print(f"{seed.name}: {len(items) - len(missing)}/{len(items)} items, recall {recall:.1%}")
    assert len(items) >= 15  # the count sees the list
    assert recall >= MIN_RECALL, missing


def test_the_catalog_validates_strictly_and_builds(imported: tuple[Path, list[str]]) -> None:
    root, reports = imported
    assert all("rewrite each TODO" not in report for report in reports)
    # Drafts keep what the lists say; the lists name no authors and no edition years, which
    # are warnings (rules authors and venue) for a person to fill in. Nothing else is left.
    validated = ddl("validate", cwd=root)
    assert validated.returncode == 0, validated.stdout + validated.stderr
    warned = [line for line in validated.stdout.splitlines() if ": warning: " in line]
    assert all(line.endswith(("[authors]", "[venue]")) for line in warned), warned
    built = ddl("build", cwd=root)
    assert built.returncode == 0, built.stdout + built.stderr
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "](https://github.com/dmlc/mxnet)" in readme  # seed 000's first framework
    assert "## Frameworks" in readme


@pytest.mark.skipif(
    not AWESOME_LINT.exists() and os.environ.get("CI") != "true",
    reason="awesome-lint not installed (make npm-tools)",
)
def test_the_imported_readme_passes_awesome_lint(imported: tuple[Path, list[str]]) -> None:
    root, _ = imported
    assert ddl("readme", cwd=root).returncode == 0
    result = subprocess.run(
        [str(REPO / "scripts" / "awesome-lint"), str(root / "README.md")],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "awesome-lint: 0 errors, 0 warnings" in out, out
