"""The site's own search index (render/search_index.py): content, determinism, safety, size.

The ranking itself runs in the browser (docs/assets/search.js) and is tested there
(tests/browser/test_search_browser.py, on each engine's build).
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from markdown.extensions.toc import slugify as markdown_slugify

from conftest import GOOD_FRAMEWORK, GOOD_PAPER
from ddl_catalog import resources
from ddl_catalog.citation import venue_label
from ddl_catalog.model import Catalog, Entry
from ddl_catalog.model.build import open_catalog
from ddl_catalog.render import engines, search_index
from ddl_catalog.render.search_index import (
    doc_page,
    dumps,
    entry_names,
    family_names,
    render_index,
    slugify,
)
from ddl_catalog.render.site import stage
from ddl_catalog.render.site_pages import Layout, PageBuilder, page_url

REPO = Path(__file__).resolve().parent.parent
#: Raw bytes an entry may take in the index on average (its description, at most a few hundred
#: characters, is about half of it): about 470 today; 5,000 entries stay under 3 MB.
BYTES_PER_ENTRY = 600

EVIL = """\
id: evil2020xss
kind: paper
title: <img src=x onerror=alert(1)>
url: https://example.org/evil
description: See [x](javascript:alert(1)) and <script>alert(2)</script> & "quotes" for *details*.
categories: [data-parallelism]
authors: [Eve <b>Bold</b> Hacker]
year: 2020
venue: "<svg onload=alert(3)>"
"""


def laid_out(catalog: Catalog) -> Layout:
    """Lay out a catalog's pages as the site build does (no engine, no files)."""
    builder = PageBuilder(catalog, resources.site_templates(REPO / "none"), edit_base="")
    return builder.build()


@pytest.fixture(scope="module")
def real() -> tuple[Catalog, Layout, dict[str, Any], dict[str, str]]:
    """The real catalog, its layout, its index (with the repository's docs), the files."""
    catalog = open_catalog(REPO)
    layout = laid_out(catalog)
    files = render_index(catalog, layout, REPO / "docs")
    return catalog, layout, json.loads(files[search_index.SRC_URI]), files


def entry(**fields: Any) -> Entry:
    """Return an entry built from a few fields (the rest filled in)."""
    data = {
        "id": "x",
        "kind": "library",
        "title": "X",
        "url": "https://example.org/x",
        "description": "A thing.",
        "categories": ["c"],
        **fields,
    }
    return Entry.from_dict(data, source="data/libraries/x.yml")


# -- content -------------------------------------------------------------------------------------


def test_every_entry_once_at_its_card(
    real: tuple[Catalog, Layout, dict[str, Any], dict[str, str]],
) -> None:
    catalog, layout, index, _files = real
    records = index["entries"]
    assert [r["id"] for r in records] == [e.id for e in catalog]  # once each, catalog order
    for record in records:
        page = index["pages"][record["p"]]
        assert f"{page['u']}#{record['id']}" == layout.permalink(record["id"])


def test_an_entry_record_holds_what_search_matches(
    real: tuple[Catalog, Layout, dict[str, Any], dict[str, str]],
) -> None:
    catalog, _layout, index, files = real
    by_id = {r["id"]: r for r in index["entries"]}
    for e in catalog:
        record = by_id[e.id]
        assert record["t"] == e.title and record["k"] == e.kind
        assert record.get("y") == e.year
        assert record.get("v") == venue_label(e, catalog.venues)
        assert record.get("g", []) == list(e.tags)
        assert record["k"] in index["kinds"]
    zero = by_id["rajbhandari2020zero"]
    assert zero["n"] == ["ZeRO"]  # the short name before the colon
    assert zero["a"].startswith("Rajbhandari, ")
    assert "n" not in by_id["nccl"]  # NVIDIA/nccl is its title again
    assert index["format"] == search_index.FORMAT
    # The descriptions are a file of their own, in the entries' order (read after the rest).
    assert index["text"] == search_index.TEXT_URI.rsplit("/", 1)[1]
    texts = json.loads(files[search_index.TEXT_URI])
    assert texts == [" ".join(e.description.split()) for e in catalog]
    assert all("d" not in r for r in index["entries"])
    assert index["kinds"]["docs"] == "Documentation"


def test_every_generated_page_is_a_result_once_and_later_parts_are_homes_only(
    real: tuple[Catalog, Layout, dict[str, Any], dict[str, str]],
) -> None:
    catalog, layout, index, _files = real
    pages = {p["u"]: p for p in index["pages"] if "#" not in p["u"]}
    for page in layout.pages:
        assert page_url(page.src_uri) in pages, page.src_uri
    for name in ("explore/", "compare/", "timeline/", "tags/", "papers-by-year/"):
        assert pages[name]["k"] == "Page" and "x" not in pages[name]
    topic = pages["parallelism/data-parallelism/"]
    assert topic["k"] == "Topic" and topic["o"] == "Parallelism"
    assert topic["d"] == catalog.categories["data-parallelism"].description
    # A later part of a split page is the home of its cards, not a result of its own.
    results = {p["u"]: p for p in index["pages"] if not p.get("x")}
    hidden = [p for p in index["pages"] if p.get("x")]
    assert hidden
    for page in hidden:
        first = re.sub(r"\d+/$", "", page["u"])
        assert first != page["u"] and results[first]["t"] == page["t"], page
    assert not any(re.search(r"/\d+/$", url) for url in results)


def test_the_docs_pages_and_their_sections(
    real: tuple[Catalog, Layout, dict[str, Any], dict[str, str]],
) -> None:
    _catalog, _layout, index, _files = real
    docs = {p["u"]: p for p in index["pages"] if p["k"] in ("Docs", "Section")}
    assert docs["data-format/"]["t"] == "Data format"
    section = docs["data-format/#start-here-datacategoriesyml"]
    assert section["t"] == "Start here (data/categories.yml)" and section["o"] == "Data format"
    assert docs["#contributing-pointer"]["k"] == "Section"  # an explicit { #id } on the home
    assert docs["architecture/#search"]["o"] == "How the toolchain works"


def test_short_names_acronyms_and_repositories() -> None:
    assert entry_names(entry(title="ZeRO: Memory Optimizations Toward Training")) == ["ZeRO"]
    assert entry_names(entry(title="Expert Parallelism Load Balancer (EPLB)")) == [
        "EPLB",
        "Expert Parallelism Load Balancer",
    ]
    assert entry_names(entry(title="Dogwild! – Distributed Hogwild for CPU & GPU")) == ["Dogwild!"]
    repo = entry(title="Stochastic Gradient Push", identifiers={"github": "fb/sgp_code"})
    assert entry_names(repo) == ["sgp_code"]
    # The repository from the URL, when no identifier names it; its title's own name not again.
    assert entry_names(entry(title="NCCL", url="https://github.com/NVIDIA/nccl")) == []
    assert (
        entry_names(entry(title="Megatron-LM", url="https://github.com/NVIDIA/Megatron-LM")) == []
    )
    long = "A" * 70
    assert entry_names(entry(title=f"{long}: and more")) == []


def test_family_names_are_bounded_and_keep_particles() -> None:
    people = [f"Given{n} Family{n}" for n in range(12)]
    assert family_names(entry(authors=people)) == (
        "Family0, Family1, Family2, Family3, Family4, Family5, Family11"
    )
    assert family_names(entry(authors=["Christopher De Sa", "Tal Ben-Nun"])) == "De Sa, Ben-Nun"
    assert family_names(entry(team="DeepSeek-AI")) == "DeepSeek-AI"
    assert family_names(entry()) == ""


# -- docs pages ----------------------------------------------------------------------------------

PAGE = """\
---
title: Guide
---
# Ignored, the front matter names it

Intro *with* a [link](x.md) and `<code>`.

## First steps { #start }

| a | b |
|---|---|

The first paragraph after a table.

```yaml
## not a heading
```

## Café & co.

## Café & co.
"""


def test_a_docs_page_gives_its_sections_with_the_engines_anchors() -> None:
    records = doc_page(PAGE, "guide/", "guide")
    assert records[0] == {
        "t": "Guide",
        "u": "guide/",
        "k": "Docs",
        "d": "Intro with a link and <code>.",
    }
    assert [(r["t"], r["u"]) for r in records[1:]] == [
        ("First steps", "guide/#start"),
        ("Café & co.", "guide/#cafe-co"),
        ("Café & co.", "guide/#cafe-co_1"),
    ]
    assert records[1]["d"] == "The first paragraph after a table."
    assert doc_page("---\nsearch:\n  exclude: true\n---\n# Hidden\n", "h/", "h") == []
    assert doc_page("No heading at all.\n", "my-page/", "my-page")[0]["t"] == "My page"


@pytest.mark.parametrize(
    "text", ["Start here (data/categories.yml)", "1. Install the toolchain", "Café — naïve", "a_b"]
)
def test_slugify_is_python_markdowns(text: str) -> None:
    assert slugify(text) == markdown_slugify(text, "-")


# -- determinism, safety, size -------------------------------------------------------------------


def test_the_same_catalog_gives_the_same_bytes(
    real: tuple[Catalog, Layout, dict[str, Any], dict[str, str]],
) -> None:
    _catalog, _layout, _index, files = real
    again = open_catalog(REPO)
    assert render_index(again, laid_out(again), REPO / "docs") == files


def test_data_stays_text_and_no_markup_or_foreign_url_gets_in(
    catalog_dir: Callable[..., Path],
) -> None:
    root = catalog_dir(
        {"data/papers/evil2020xss.yml": EVIL, "data/papers/dean2012large.yml": GOOD_PAPER}
    )
    docs = root / "docs"
    docs.mkdir()
    (docs / "page.md").write_text(
        "# <script>alert(5)</script> Title\n\n## [Go](javascript:alert(6))\n", encoding="utf-8"
    )
    catalog = open_catalog(root)
    files = render_index(catalog, laid_out(catalog), docs)
    text = files[search_index.SRC_URI]
    for written in files.values():  # written as \\u003c ..., inert wherever it is pasted
        assert not set("<>&") & set(written)
    assert "example.org" not in text  # an entry's own URL never: a result opens its card
    index = json.loads(text)
    evil = next(r for r in index["entries"] if r["id"] == "evil2020xss")
    assert evil["t"] == "<img src=x onerror=alert(1)>"  # the data as it is (shown as text)
    described = json.loads(files[search_index.TEXT_URI])[index["entries"].index(evil)]
    assert described.startswith("See [x](javascript:alert(1)) and <script>")  # text, as is
    assert evil["a"] == "Hacker"
    for page in index["pages"]:
        url = page["u"]
        assert not re.match(r"^[a-z][a-z0-9+.-]*:|^/|\\", url, re.I), url
        assert not re.search(r"[\s<>\"'`]", url), url
    assert "Title" in next(p["t"] for p in index["pages"] if p["u"] == "page/")


def test_the_index_stays_small(
    real: tuple[Catalog, Layout, dict[str, Any], dict[str, str]],
) -> None:
    catalog, _layout, index, files = real
    raw = "".join(files.values()).encode("utf-8")
    assert len(raw) < BYTES_PER_ENTRY * len(catalog) + 60_000
    assert len(gzip.compress(raw)) < len(raw) / 2.5
    for record in index["entries"]:
        assert len(dumps(record).encode("utf-8")) < 2_000, record["id"]
        assert len(record.get("a", "").split(", ")) <= search_index.FIRST_AUTHORS + 1


# -- the site build ------------------------------------------------------------------------------


def test_the_staged_site_serves_the_index(catalog_dir: Callable[..., Path], tmp_path: Path) -> None:
    root = catalog_dir(
        {"data/papers/dean2012large.yml": GOOD_PAPER, "data/frameworks/horovod.yml": GOOD_FRAMEWORK}
    )
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "docs", root / "docs")
    catalog = open_catalog(root)
    first = stage(root, catalog, engines.get("mkdocs"), tmp_path / "a").parent
    second = stage(root, open_catalog(root), engines.get("zensical"), tmp_path / "b").parent
    for uri in (search_index.SRC_URI, search_index.TEXT_URI):
        assert (first / "docs" / uri).read_bytes() == (second / "docs" / uri).read_bytes()
    served = first / "docs" / search_index.SRC_URI
    index = json.loads(served.read_text(encoding="utf-8"))
    assert [r["id"] for r in index["entries"]] == ["dean2012large", "horovod"]
    assert any(p["u"] == "data-format/" for p in index["pages"])


def test_the_header_partial_replaces_the_engines_search_in_both_engines() -> None:
    partial = REPO / "templates" / "site" / "overrides" / "partials" / "search.html"
    text = re.sub(r"\{#.*?#\}", "", partial.read_text(encoding="utf-8"), flags=re.S)
    assert "data-ddl-search=" in text and search_index.SRC_URI in text
    # What the engines' scripts look for to mount their search and fetch their index.
    for hook in ('name="search"', 'class="md-search"', 'data-md-component="search"'):
        assert hook not in text
    for name in engines.ENGINES:  # no engine's own override takes its place
        assert not (
            REPO / "templates" / "site" / f"overrides-{name}" / "partials" / "search.html"
        ).exists()
    init = REPO / "src" / "ddl_catalog" / "resources" / "init" / "mkdocs.yml"
    for config in (REPO / "mkdocs.yml", init):
        lines = config.read_text(encoding="utf-8").splitlines()
        data = yaml.safe_load("\n".join(line for line in lines if "@" not in line))  # init's slots
        assert "search" in data["plugins"]  # the headers include the partial only with it
        # search.js and search.css are added by the stage (test_site: the package's assets).
    assert (REPO / "docs" / "assets" / "search.js").is_file()
