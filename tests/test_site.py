"""The website: strict build, links and anchors, permalinks, determinism, escaping, page splits."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import markupsafe
import pytest
import yaml
from click.testing import CliRunner

from conftest import GOOD_FRAMEWORK, GOOD_PAPER
from ddl_catalog.cli import cli
from ddl_catalog.model import Catalog, Entry
from ddl_catalog.model.build import open_catalog
from ddl_catalog.render import site_pages
from ddl_catalog.render.site import SiteError, build_site, data_epoch
from ddl_catalog.render.site_pages import PageBuilder, md_text, page_url, relative, safe_url
from ddl_catalog.render.svg import year_chart

REPO = Path(__file__).resolve().parent.parent
MAX_PAGE = 1_000_000

EVIL = """\
id: evil2020xss
kind: paper
title: <img src=x onerror=alert(1)>
url: https://example.org/evil
description: See [x](javascript:alert(1)) and <script>alert(2)</script> for *details*.
categories: [data-parallelism]
authors: [Eve <b>Bold</b> Hacker]
year: 2020
venue: "<svg onload=alert(3)>"
links:
  - type: code
    url: https://example.org/code
    title: "\\"><script>alert(4)</script>"
related:
  - id: horovod
    relation: implements
"""


def site_sources(root: Path) -> Path:
    """Copy the site's sources (mkdocs.yml, docs/, templates/site) beside a synthetic catalog."""
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "docs", root / "docs", dirs_exist_ok=True)
    shutil.copytree(REPO / "templates" / "site", root / "templates" / "site", dirs_exist_ok=True)
    return root


def with_options(root: Path, **options: int) -> Path:
    """Give the site these options (catalog.yml's ``site:``); return ``root``."""
    settings = root / "catalog.yml"
    text = (
        settings.read_text(encoding="utf-8")
        if settings.exists()
        else ("title: Awesome Test\ndescription: A test catalog of things.\n")
    )
    lines = "".join(f"  {name}: {value}\n" for name, value in options.items())
    settings.write_text(text.rstrip("\n") + "\nsite:\n" + lines, encoding="utf-8")
    return root


# -- an HTML link checker ---------------------------------------------------------------------


class _Links(HTMLParser):
    """Collect ids, hrefs and srcs of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []
        self.loads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("script", "img", "iframe", "source", "video", "audio") and found.get("src"):
            self.loads.append(found["src"] or "")
        if tag == "link" and found.get("rel") not in ("canonical", "prev", "next", "alternate"):
            self.loads.append(found.get("href") or "")
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.ids.add(value)
            elif name in ("href", "src") or (name == "data-ddl-moved"):
                self.links.append((tag, value))


def parse(path: Path) -> _Links:
    """Parse one HTML file."""
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def html_pages(site: Path) -> Iterator[Path]:
    """Yield every HTML page of a built site except the 404 page (it uses absolute URLs)."""
    for path in sorted(site.rglob("*.html")):
        if path.name != "404.html":
            yield path


def broken_links(site: Path) -> list[str]:
    """Return every internal href/src of the site whose file or anchor does not exist."""
    parsed = {p: parse(p) for p in html_pages(site)}
    problems = []
    for page, links in parsed.items():
        base = "/" + page.relative_to(site).as_posix()
        for tag, href in links.links:
            scheme = urlsplit(href).scheme.lower()
            if scheme in ("http", "https"):
                continue
            if scheme or href.startswith("//"):
                problems.append(f"{base}: non-http(s) URL {href!r} in <{tag}>")
                continue
            target = urlsplit(urljoin(base, href))
            path = unquote(target.path)
            file = site / path.lstrip("/")
            if path.endswith("/"):
                file = file / "index.html"
            if not file.is_file():
                problems.append(f"{base}: {href!r} -> missing {path}")
                continue
            if target.fragment and file.suffix == ".html":
                ids = parsed[file].ids if file in parsed else parse(file).ids
                if unquote(target.fragment) not in ids:
                    problems.append(f"{base}: {href!r} -> no anchor #{target.fragment}")
    return problems


# -- the real catalog -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the site of the real catalog once for this module (strict: warnings fail)."""
    return build_site(REPO, site_dir=tmp_path_factory.mktemp("real") / "site")


def test_every_internal_link_and_anchor_resolves(real_site: Path) -> None:
    assert broken_links(real_site) == []


def card_page(catalog: Catalog, entry: Entry, site: Path | None = None) -> str:
    """Return the site path of the page with an entry's card: its primary category's page.

    Given the built site, the part of that page that holds the card (``<page>/2/`` ...).
    """
    category = catalog.categories[entry.primary_category]
    base = f"{category.parent}/{category.id}/" if category.parent else f"{category.id}/"
    if site is not None:
        for part in [base] + [f"{base}{n}/" for n in range(2, 100)]:
            page = site / part / "index.html"
            if not page.is_file():
                break
            if f'<h3 id="{entry.id}">' in page.read_text(encoding="utf-8"):
                return part
    return base


def test_every_entry_has_its_permalink_on_its_top_category_page(real_site: Path) -> None:
    """A card lives on its subcategory's page; the top-level page keeps its old anchor."""
    catalog = open_catalog(REPO)
    for entry in catalog:
        category = catalog.categories[entry.primary_category]
        top = category.parent or category.id
        home = card_page(catalog, entry, real_site)
        assert f'<h3 id="{entry.id}">' in (real_site / home / "index.html").read_text("utf-8")
        page = (real_site / top / "index.html").read_text(encoding="utf-8")
        if category.parent:  # the overview's line (or, past its limit, the map) leads there
            moved = relative(f"{top}/", f"{home}#{entry.id}")
            assert f'id="{entry.id}" data-ddl-moved="{moved}"' in page or (
                f'"{entry.id}": "{moved}"' in page
            ), entry.id
        elif home == f"{top}/":
            assert f'<h3 id="{entry.id}">' in page
        else:  # a card on a later part: the first keeps its anchor
            moved = relative(f"{top}/", f"{home}#{entry.id}")
            assert f'id="{entry.id}" data-ddl-moved="{moved}"' in page or (
                f'"{entry.id}": "{moved}"' in page
            ), entry.id


def test_every_category_anchor_and_former_id_still_resolves(real_site: Path) -> None:
    """Subcategory anchors, and the former ids of merged categories, keep leading somewhere."""
    catalog = open_catalog(REPO)
    for category in catalog.categories.values():
        if category.parent is None:
            assert (real_site / category.id / "index.html").is_file()
            continue
        ids = parse(real_site / category.parent / "index.html").ids
        for name in (category.id, *category.aliases):
            assert name in ids, f"/{category.parent}/#{name} missing"
    assert "cmake" in catalog.categories["developer-tools"].aliases


def test_pages_exist_and_none_is_too_big(real_site: Path) -> None:
    catalog = open_catalog(REPO)
    expected = [f"{t.id}/index.html" for t in catalog.top_categories()] + [
        "index.html",
        "explore/index.html",
        "explore/index.json",
        "explore/text.json",
        "papers-by-year/index.html",
        "kinds/papers/index.html",
        "kinds/software/index.html",
        "tags/index.html",
        "contributing/index.html",
        "data-format/index.html",
        "search/search_index.json",
    ]
    for rel in expected:
        assert (real_site / rel).is_file(), rel
    sizes = {p: p.stat().st_size for p in real_site.rglob("*.html")}
    assert max(sizes.values()) < MAX_PAGE
    for top in catalog.top_categories():  # one page per subtopic, under its topic's
        for child in catalog.children(top.id):
            assert (real_site / top.id / child.id / "index.html").is_file(), child.id
    for page in sizes:  # an empty front matter would show as a "---" heading
        assert '<h2 id="-">' not in page.read_text(encoding="utf-8"), page


def test_generated_pages_are_not_written_to_docs(real_site: Path) -> None:
    docs = {p.name for p in (REPO / "docs").glob("*.md")}
    assert "explore.md" not in docs
    assert "parallelism.md" not in docs


def test_home_has_counts_recent_and_downloads(real_site: Path) -> None:
    catalog = open_catalog(REPO)
    home = (real_site / "index.html").read_text(encoding="utf-8")
    assert f"{len(catalog)} entries" in home
    assert 'id="recently-added"' in home
    for path in (
        "api/catalog.json",
        "api/catalog.schema.json",
        "catalog.csv",
        "papers.bib",
        "papers.json",
        "feed.xml",
    ):
        assert f'href="{path}"' in home
        assert (real_site / path).is_file()


def test_each_category_links_its_bibtex(real_site: Path) -> None:
    catalog = open_catalog(REPO)
    home = (real_site / "index.html").read_text(encoding="utf-8")
    for top in catalog.top_categories():
        if not any(
            e.kind in ("paper", "book")
            for c in [top.id, *top.children]
            for e in catalog.in_category(c)
        ):
            continue
        page = (real_site / top.id / "index.html").read_text(encoding="utf-8")
        assert f'href="../bib/{top.id}.bib"' in page, top.id
        assert f'href="bib/{top.id}.bib"' in home, top.id
        assert (real_site / "bib" / f"{top.id}.bib").read_text(encoding="utf-8").startswith("@")


def test_enrichment_flags_show_on_cards(catalog_dir: Callable[..., Path]) -> None:
    root = site_sources(catalog_dir({"data/frameworks/horovod.yml": GOOD_FRAMEWORK}))
    (root / "data" / "metadata").mkdir()
    record = {"archived": False, "pushed_at": "2021-03-04", "fetched": "2026-01-01"}
    (root / "data" / "metadata" / "github.json").write_text(
        json.dumps({"records": {"horovod/horovod": record}}), encoding="utf-8"
    )
    page = (build_site(root) / "frameworks" / "index.html").read_text(encoding="utf-8")
    card = page[page.index('<h3 id="horovod">') : page.index("</article>")]
    assert '<span class="ddl-badge ddl-badge--flag">Inactive since 2021-03-04</span>' in card


CAFFE_ON_SPARK = """\
id: caffeonspark
kind: library
title: CaffeOnSpark
url: https://github.com/yahoo/CaffeOnSpark
description: Distributed Caffe training on Spark clusters.
categories: [frameworks]
"""

DEMYSTIFYING = """\
id: bennun2019demystifying
kind: paper
title: Demystifying Parallel and Distributed Deep Learning
url: https://arxiv.org/abs/1802.09941
description: Surveys the parallelism of deep learning training and inference.
categories: [surveys]
authors: [Tal Ben-Nun, Torsten Hoefler]
year: 2019
identifiers:
  doi: 10.1145/3320060
"""


def recorded_metadata(root: Path, fetched: str = "2026-01-01") -> None:
    """Write data/metadata/ as ``enrich`` does, from the API responses in tests/fixtures/net."""
    from dataclasses import asdict

    from ddl_catalog.net.enrich import arxiv, crossref, github

    net = Path(__file__).parent / "fixtures" / "net"
    records = {
        "github": {
            "horovod/horovod": github.parse(
                json.loads((net / "github_repo_horovod.json").read_text())
            ),
            "yahoo/caffeonspark": github.parse(
                json.loads((net / "github_repo_archived.json").read_text())
            ),
        },
        "arxiv": arxiv.parse_feed((net / "arxiv_1802.09941.xml").read_bytes()),
        "crossref": {
            "10.1145/3320060": crossref.parse(
                json.loads((net / "crossref_10.1145_3320060.json").read_text())
            )
        },
    }
    folder = root / "data" / "metadata"
    folder.mkdir(parents=True, exist_ok=True)
    for source, found in records.items():
        document = {
            "source": source,
            "records": {key: dict(asdict(r), fetched=fetched) for key, r in found.items()},
        }
        (folder / f"{source}.json").write_text(json.dumps(document, indent=2), encoding="utf-8")


def card_of(page: str, entry_id: str) -> str:
    """Return the HTML of one card."""
    card = page[page.index(f'<h3 id="{entry_id}">') :]
    return card[: card.index("</article>")]


def test_cards_show_recorded_enrichment_and_nothing_without_it(
    catalog_dir: Callable[..., Path],
) -> None:
    files = {
        "data/frameworks/horovod.yml": GOOD_FRAMEWORK,
        "data/libraries/caffeonspark.yml": CAFFE_ON_SPARK,
        "data/papers/bennun2019demystifying.yml": DEMYSTIFYING,
    }
    bare = build_site(site_sources(catalog_dir(files)))
    root = site_sources(catalog_dir(files))
    recorded_metadata(root)
    site = build_site(root)

    frameworks = (site / "frameworks" / "index.html").read_text(encoding="utf-8")
    horovod = card_of(frameworks, "horovod")
    facts = '<p class="ddl-facts" data-search-exclude>★ 14,011 stars · last push 2023-12-15'
    assert facts in horovod
    assert '(GitHub, as of <time datetime="2026-01-01">2026-01-01</time>)' in horovod
    assert "licence" not in horovod  # GitHub said NOASSERTION: no licence is claimed
    caffe = card_of(frameworks, "caffeonspark")
    assert "★ 1,268 stars · last push 2019-08-03 · licence Apache-2.0" in caffe
    assert "Repository archived" in caffe

    surveys = (site / "surveys" / "index.html").read_text(encoding="utf-8")
    paper = card_of(surveys, "bennun2019demystifying")
    assert (
        'Published in ACM Computing Surveys <span class="ddl-as-of">(Crossref, as of '
        '<time datetime="2026-01-01">2026-01-01</time>)</span>'
    ) in paper
    assert 'arXiv <a href="https://arxiv.org/abs/1802.09941">1802.09941</a>' in paper
    assert 'DOI <a href="https://doi.org/10.1145/3320060">10.1145/3320060</a>' in paper

    # Without data/metadata/ the same cards build and show no fetched fact.
    for page in ("frameworks", "surveys"):
        html_text = (bare / page / "index.html").read_text(encoding="utf-8")
        for fetched in ("ddl-facts", "as of", "stars", "last push", "Published in"):
            assert fetched not in html_text, (page, fetched)
    # A paper's own identifiers show either way.
    assert "DOI <a" in (bare / "surveys" / "index.html").read_text(encoding="utf-8")


def test_horovod_card(real_site: Path) -> None:
    html = (real_site / "parallelism/data-parallelism/index.html").read_text(encoding="utf-8")
    card = html[html.index('<h3 id="horovod">') :]
    card = card[: card.index("</article>")]
    assert (
        "https://github.com/ddl-catalog/ddl-catalog/edit/main/data/frameworks/horovod.yml" in card
    )
    assert 'class="ddl-tag" href="../../explore/?tag=mpi"' in card  # a tag opens Explore
    assert "../tags/#tag:mpi" not in card
    assert 'class="md-tag"' not in html  # no page-level tag chips: the cards carry their tags
    assert "Framework" in card


def test_paper_card_has_a_copy_bibtex_button_and_no_code_block(real_site: Path) -> None:
    page = (real_site / "frameworks/framework-native/index.html").read_text(encoding="utf-8")
    card = page[page.index('<h3 id="abadi2016tensorflow">') :]
    card = card[: card.index("</article>")]
    # Material's clipboard integration copies data-clipboard-text: the record as papers.bib has
    # it, without a <pre> block per card (each one costs the page a layout on a phone).
    button = '<button type="button" class="ddl-copy-bib__button" data-clipboard-text="([^"]*)"'
    found = re.search(button, card)
    assert found is not None
    record = html.unescape(found.group(1))
    bib = (real_site / "bib" / "entries" / "abadi2016tensorflow.bib").read_text(encoding="utf-8")
    assert record == bib.strip() and record.startswith("@")
    assert "<pre" not in card and "<details" not in card
    assert ".no-js .ddl-copy-bib { display: none; }" in (REPO / "docs/assets/extra.css").read_text(
        encoding="utf-8"
    )


def test_each_paper_card_links_its_own_bibtex_file_and_permalink(real_site: Path) -> None:
    from ddl_catalog.export.bibtex import entry_bibtex

    catalog = open_catalog(REPO)
    papers = [e for e in catalog if e.kind in ("paper", "book")]
    assert papers
    for entry in papers:
        home = card_page(catalog, entry, real_site)
        html_text = (real_site / home / "index.html").read_text(encoding="utf-8")
        card = html_text[html_text.index(f'<h3 id="{entry.id}">') :]
        card = card[: card.index("</article>")]
        bib_href = relative(home, f"bib/entries/{entry.id}.bib")
        assert f'href="{bib_href}" download="{entry.id}.bib"' in card
        assert f'class="ddl-permalink" href="#{entry.id}"' in card
        bib = (real_site / "bib" / "entries" / f"{entry.id}.bib").read_text(encoding="utf-8")
        assert bib == entry_bibtex(entry, catalog.venues) and bib.startswith("@")
    framework = next(e for e in catalog if e.kind == "framework")
    assert not (real_site / "bib" / "entries" / f"{framework.id}.bib").exists()


def test_related_entries_link_both_ways(real_site: Path) -> None:
    catalog = open_catalog(REPO)
    pairs = [(e, r) for e in catalog for r in e.related]
    assert pairs, "the real catalog states at least one relation"
    entry, rel = pairs[0]
    for source, target in ((entry.id, rel.id), (rel.id, entry.id)):
        src = catalog.get(source)
        assert src is not None
        html = (real_site / card_page(catalog, src, real_site) / "index.html").read_text(
            encoding="utf-8"
        )
        card = html[html.index(f'<h3 id="{source}">') :]
        card = card[: card.index("</article>")]
        assert f"#{target}" in card.split('class="ddl-related"')[1]


def test_no_third_party_requests_when_read(real_site: Path) -> None:
    for page in html_pages(real_site):
        for href in parse(page).loads:
            assert not urlsplit(href).netloc, f"{page} loads {href}"
    html = (real_site / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis" not in html
    assert 'data-md-component="source"' not in html  # no api.github.com facts fetch


def test_explore_index_holds_every_entry(real_site: Path) -> None:
    index = json.loads((real_site / "explore" / "index.json").read_text(encoding="utf-8"))
    catalog = open_catalog(REPO)
    assert [row["id"] for row in index["entries"]] == [e.id for e in catalog]
    horovod = next(r for r in index["entries"] if r["id"] == "horovod")
    assert horovod["h"] == "../parallelism/data-parallelism/#horovod"
    # Authors and descriptions are only the text filter's: a file of their own, fetched on use.
    assert not {"a", "d"} & set(horovod)
    words = json.loads((real_site / "explore" / "text.json").read_text(encoding="utf-8"))
    assert list(words) == sorted(e.id for e in catalog)
    zero = catalog.get("rajbhandari2020zero")
    assert zero is not None
    assert words[zero.id].startswith(zero.authors[0]) and words[zero.id].endswith(zero.description)


def test_search_finds_horovod_at_its_anchor(real_site: Path) -> None:
    index = json.loads((real_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = {d["location"] for d in index["docs"]}
    assert "parallelism/data-parallelism/#horovod" in locations


def test_search_has_a_section_per_card_with_its_text(real_site: Path) -> None:
    """The engine indexes each card (its heading carries the id) and no page-level tags."""
    index = json.loads((real_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    docs = {d["location"]: d for d in index["docs"]}
    order = [d["location"] for d in index["docs"]]
    catalog = open_catalog(REPO)
    for entry in catalog:
        page = card_page(catalog, entry, real_site)
        doc = docs[f"{page}#{entry.id}"]
        assert doc["title"] == html.escape(entry.title, quote=False)
        assert html.escape(entry.description, quote=False) in doc["text"]
        assert not doc.get("tags")  # a tag would rank every card of its page first
        # Material's search groups a section under the first document of its page.
        assert order.index(page) < order.index(f"{page}#{entry.id}")


def test_search_index_leaves_out_what_is_searched_elsewhere(real_site: Path) -> None:
    """No card repeats its other categories, related entries or bare link types."""
    index = json.loads((real_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    ids = {e.id for e in open_catalog(REPO)}
    cards = [d for d in index["docs"] if d["location"].partition("#")[2] in ids]
    assert len(cards) >= len(ids)
    for doc in cards:
        assert "<p>Also in: " not in doc["text"], doc["location"]
        assert "<p>Related: " not in doc["text"], doc["location"]
        assert not re.search(r"<p>(Code|Paper|Docs|Website|Blog)( · |: |</p>)", doc["text"])


def test_no_block_marker_is_left_in_a_page(real_site: Path) -> None:
    for page in real_site.rglob("*.html"):
        assert "ddl-catalog:block" not in page.read_text(encoding="utf-8"), page


def test_cards_render_without_materials_search(catalog_dir: Callable[..., Path]) -> None:
    root = site_sources(catalog_dir({"data/papers/dean2012large.yml": GOOD_PAPER}))
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    (root / "mkdocs.yml").write_text(
        config.replace("plugins:\n  - search\n", "plugins: []\n"), encoding="utf-8"
    )
    site = build_site(root)
    page = (site / "parallelism" / "index.html").read_text(encoding="utf-8")
    assert '<h3 id="dean2012large">' in page
    assert "ddl-catalog:block" not in page
    assert not (site / "search" / "search_index.json").exists()


def test_hand_written_pages_may_link_a_card(catalog_dir: Callable[..., Path]) -> None:
    root = site_sources(catalog_dir({"data/papers/dean2012large.yml": GOOD_PAPER}))
    see = root / "docs" / "see.md"
    see.write_text("# See\n\nRead [Dean](parallelism.md#dean2012large).\n", encoding="utf-8")
    site = build_site(root)  # strict: an unknown anchor would fail the build
    assert 'href="../parallelism/#dean2012large"' in (site / "see" / "index.html").read_text(
        encoding="utf-8"
    )
    see.write_text("# See\n\nRead [Dean](parallelism.md#no-such-card).\n", encoding="utf-8")
    with pytest.raises(SiteError, match="no-such-card"):
        build_site(root)


def test_same_data_gives_byte_identical_site(tmp_path: Path) -> None:
    first = build_site(REPO, site_dir=tmp_path / "a")
    second = build_site(REPO, site_dir=tmp_path / "b")
    files_a = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    assert files_a == files_b
    for rel in files_a:
        assert (first / rel).read_bytes() == (second / rel).read_bytes(), rel
    epoch = data_epoch(open_catalog(REPO))
    day = __import__("datetime").datetime.fromtimestamp(epoch, tz=__import__("datetime").UTC)
    sitemap = (first / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<lastmod>{day:%Y-%m-%d}</lastmod>" in sitemap
    assert "SOURCE_DATE_EPOCH" not in os.environ or os.environ["SOURCE_DATE_EPOCH"] != str(epoch)


def test_source_date_epoch_is_honoured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000000000")  # 2001-09-09
    site = build_site(REPO, site_dir=tmp_path / "site")
    assert "<lastmod>2001-09-09</lastmod>" in (site / "sitemap.xml").read_text(encoding="utf-8")


# -- synthetic catalogs -----------------------------------------------------------------------


def test_hostile_fields_render_inert(catalog_dir: Callable[..., Path], tmp_path: Path) -> None:
    root = site_sources(
        catalog_dir(
            {"data/papers/evil2020xss.yml": EVIL, "data/frameworks/horovod.yml": GOOD_FRAMEWORK}
        )
    )
    site = build_site(root)
    pages = [p.read_text(encoding="utf-8") for p in site.rglob("*.html")]
    text = "\n".join(pages)
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    for needle in ("<img src=x", "<script>alert", "<svg onload", "<b>Bold</b>"):
        assert needle not in text, needle
    assert not re.search(r"""(href|src)\s*=\s*["']?\s*javascript:""", text, re.IGNORECASE)
    assert broken_links(site) == []
    index = (site / "explore" / "index.json").read_text(encoding="utf-8")
    assert "javascript:" not in json.dumps([r["h"] for r in json.loads(index)["entries"]])
    search = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "<img src=x" not in search
    assert "<script>" not in search
    evil = next(d for d in json.loads(search)["docs"] if d["location"].endswith("#evil2020xss"))
    assert evil["title"] == "&lt;img src=x onerror=alert(1)&gt;"


#: A hostile title for categories and settings: every page must show it as text.
HOSTILE_TITLE = "Tools <img src=x onerror=alert(1)></title><script>alert(2)</script>"


class _Live(HTMLParser):
    """Collect what would run in a browser (event handlers, scripts, javascript: links) and
    the text of <title>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.live: list[str] = []
        self.title = ""
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.startswith("on") or (value or "").strip().lower().startswith("javascript:"):
                self.live.append(f"<{tag} {name}={value!r}>")
        if tag == "img" and dict(attrs).get("src") == "x":
            self.live.append("<img src=x>")
        self._in = tag if tag in ("title", "script") else None

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "title":
            self.title += data
        elif self._in == "script" and "alert(" in data:
            self.live.append(f"<script>{data[:40]}")


def test_hostile_category_and_settings_values_show_as_text_on_every_page(
    catalog_dir: Callable[..., Path],
) -> None:
    files = {
        f"data/papers/author{n:03d}2019paper.yml": GOOD_PAPER.replace(
            "dean2012large", f"author{n:03d}2019paper"
        )
        .replace("6aca97005c68f1206823815f66102863-Abstract.html", f"x{n}")
        .replace("[parallelism, data-parallelism]", "[data-parallelism, frameworks]")
        for n in range(12)
    }
    files["data/frameworks/horovod.yml"] = GOOD_FRAMEWORK + (
        'maintenance:\n  state: active\n  checked: "2026-06-20"\n  last_commit: "2026-06-20"\n'
        "  source: https://github.com/horovod/horovod/commit/2626dc8\n"
        "  evidence: Newest commit is recent.\n"
        'capabilities:\n  as_of: "2026-06-20"\n  cells:\n    data-parallel:\n'
        '      value: "yes"\n      note: "<img src=x onerror=alert(3)>"\n'
        "      source: https://github.com/horovod/horovod\n"
    )
    root = site_sources(catalog_dir(files))
    categories = root / "data" / "categories.yml"
    text = categories.read_text(encoding="utf-8")
    for plain in ("Surveys", "Parallelism", "Data parallelism", "Frameworks"):
        hostile = f"{plain.split()[0]} {HOSTILE_TITLE}"
        text = text.replace(f"title: {plain}\n", f"title: {json.dumps(hostile)}\n")
    text = text.replace(
        "description: Replicas trained on shards of the data.",
        f"description: {json.dumps('Replicas ' + HOSTILE_TITLE)}",
    )
    categories.write_text(text, encoding="utf-8")
    settings = root / "catalog.yml"
    settings.write_text(
        settings.read_text(encoding="utf-8")
        + "capabilities:\n"
        + '  title: "[x](javascript:alert(4)) <img src=x onerror=alert(5)>"\n'
        + '  intro: "See [here](javascript:alert(5)) and <script>alert(6)</script>"\n'
        + "  columns:\n"
        + f"    - {{id: data-parallel, label: {json.dumps('DP <img src=x onerror=alert(7)>')}, "
        + 'group: "<b onclick=alert(8)>G</b>", help: "\\"><img src=x onerror=alert(9)>"}\n',
        encoding="utf-8",
    )
    with_options(root, page_budget=3000)  # parts: their titles come from the page's heading
    site = build_site(root)
    seen: dict[str, _Live] = {}
    for page in sorted(site.rglob("*.html")):
        parsed = _Live()
        parsed.feed(page.read_text(encoding="utf-8"))
        seen[page.relative_to(site).as_posix()] = parsed
        assert parsed.live == [], page
    assert (site / "parallelism" / "data-parallelism" / "2" / "index.html").is_file()
    assert seen["parallelism/data-parallelism/2/index.html"].title.startswith(
        f"Data {HOSTILE_TITLE} (2) - "
    )
    assert seen["surveys/index.html"].title.startswith(f"Surveys {HOSTILE_TITLE} - ")
    shown = html.escape(HOSTILE_TITLE, quote=False)  # the title as text: the nav, home, tags
    for page in ("index.html", "frameworks/index.html", "explore/index.html"):
        assert shown in (site / page).read_text(encoding="utf-8"), page
    compare = (site / "compare" / "index.html").read_text(encoding="utf-8")
    assert html.escape("[x](javascript:alert(4))", quote=False) in compare
    search = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "<img" not in search and "<script" not in search and "</title>" not in search


def topic_timeline(site: Path) -> tuple[str, str]:
    """Return the built topic page that draws a timeline (not /timeline/) and its SVG."""
    page = next(
        p.read_text(encoding="utf-8")
        for p in site.rglob("index.html")
        if 'class="ddl-timeline-svg"' in p.read_text(encoding="utf-8")
        and "timeline" not in p.parent.name
    )
    start = page.index('<svg class="ddl-timeline-svg"')
    return page, page[start : page.index("</svg>", start) + 6]


def forty_papers(*, over_years: bool = False) -> dict[str, str]:
    """Return forty papers of one category, each its own id, title and URL (a long list).

    ``over_years`` spreads them over ten years, four a year (else all are from 2012).
    """
    return {
        f"data/papers/author{n:03d}2019paper.yml": GOOD_PAPER.replace(
            "dean2012large", f"author{n:03d}2019paper"
        )
        .replace("year: 2012", f"year: {2000 + n // 4}" if over_years else "year: 2012")
        .replace("Large Scale Distributed Deep Networks", f"Paper number {n}")
        .replace(
            "https://proceedings.neurips.cc/paper/2012/hash/6aca97005c68f1206823815f66102863-Abstract.html",
            f"https://example.org/paper/{n}",
        )
        for n in range(40)
    }


def test_big_categories_are_split_and_permalinks_still_work(
    catalog_dir: Callable[..., Path],
) -> None:
    root = with_options(site_sources(catalog_dir(forty_papers())), page_budget=12_000)
    site = build_site(root)
    parts = sorted(p.parent.name for p in (site / "parallelism").glob("*/index.html"))
    assert parts, "expected parts under /parallelism/"
    base = parse(site / "parallelism" / "index.html")
    assert "author039-2019paper" not in base.ids
    assert "author0392019paper" in base.ids  # a stub anchor that leads to its part
    moved = [href for tag, href in base.links if tag == "li"]
    assert any(href.startswith(tuple(f"{p}/#" for p in parts)) for href in moved)
    assert broken_links(site) == []


def test_long_one_line_lists_have_a_budget_of_their_own(
    catalog_dir: Callable[..., Path],
) -> None:
    """Year and kind lists come in parts by their own budget; category pages keep theirs."""
    papers = forty_papers(over_years=True)
    root = with_options(site_sources(catalog_dir(papers)), list_budget=8000, page_elements=100_000)
    site = build_site(root)
    assert list((site / "papers-by-year").glob("*/index.html")), "the year list is in parts"
    assert list((site / "kinds" / "papers").glob("*/index.html")), "so is the kind list"
    parts = [p for p in (site / "parallelism").rglob("index.html") if p.parent.name.isdigit()]
    assert parts == [], "cards keep the page budget"
    assert broken_links(site) == []
    # A year that now starts on a later part keeps its old anchor on the first: a stub the
    # site script follows.
    first = (site / "papers-by-year" / "index.html").read_text(encoding="utf-8")
    later = "".join(
        p.read_text(encoding="utf-8") for p in (site / "papers-by-year").glob("*/index.html")
    )
    moved = re.findall(r'<span id="(year-\d+)" data-ddl-moved="(\d+/#year-\d+)"></span>', first)
    assert moved
    for anchor, href in moved:
        assert href.endswith(f"/#{anchor}") and f'<h2 id="{anchor}">' in later
        assert f'<h2 id="{anchor}">' not in first


def test_the_real_catalogs_lists_come_in_parts_that_keep_every_year_anchor(
    real_site: Path,
) -> None:
    """The year list in parts of at most ~230 lines; /papers-by-year/#year-N always resolves."""
    catalog = open_catalog(REPO)
    years = {e.year for e in catalog if e.kind == "paper" and e.year is not None}
    first = (real_site / "papers-by-year" / "index.html").read_text(encoding="utf-8")
    for year in years:
        assert f'id="year-{year}"' in first, year
    for page in (real_site / "papers-by-year").rglob("index.html"):
        assert page.read_text(encoding="utf-8").count("<li><a href=") <= 260, page


def test_failed_build_keeps_the_old_site(catalog_dir: Callable[..., Path]) -> None:
    root = site_sources(catalog_dir({"data/papers/dean2012large.yml": GOOD_PAPER}))
    site = build_site(root)
    marker = site / "marker.txt"
    marker.write_text("old", encoding="utf-8")
    (root / "data" / "papers" / "broken.yml").write_text("id: [oops\n", encoding="utf-8")
    with pytest.raises(SiteError, match="the catalog has 1 error"):
        build_site(root)
    assert marker.read_text(encoding="utf-8") == "old"
    assert not [p for p in root.iterdir() if p.name.startswith(".site-")]


def test_cli_site_reports_one_line_on_bad_data(catalog_dir: Callable[..., Path]) -> None:
    root = site_sources(catalog_dir({"data/papers/broken.yml": "id: [oops\n"}))
    result = CliRunner().invoke(cli, ["site", "--root", str(root)])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")
    assert "Traceback" not in result.output
    assert not (root / "site").exists()


def test_cli_site_builds(catalog_dir: Callable[..., Path]) -> None:
    root = site_sources(catalog_dir({"data/papers/dean2012large.yml": GOOD_PAPER}))
    result = CliRunner().invoke(cli, ["site", "--root", str(root)])
    assert result.exit_code == 0, result.output
    assert (root / "site" / "parallelism" / "index.html").is_file()


def test_cli_site_without_mkdocs_yml(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["site", "--root", str(tmp_path)])
    assert result.exit_code == 1
    assert "mkdocs.yml not found" in result.output


def test_serve_watches_data_templates_and_docs(catalog_dir: Callable[..., Path]) -> None:
    """A preview restages when an entry, a template or a hand-written page changes."""
    from ddl_catalog.render import site as site_module

    root = site_sources(catalog_dir({"data/papers/dean2012large.yml": GOOD_PAPER}))
    seen = site_module._snapshot(root)
    for path in (
        root / "data" / "papers" / "dean2012large.yml",
        root / "templates" / "site" / "category.md.j2",
        root / "docs" / "index.md",
        root / "catalog.yml" if (root / "catalog.yml").exists() else root / "mkdocs.yml",
    ):
        assert str(path) in seen, path


def test_restaging_rewrites_only_the_pages_that_changed(catalog_dir: Callable[..., Path]) -> None:
    """A preview copies only changed files, so the engine rebuilds what the edit touched."""
    from ddl_catalog.render import engines
    from ddl_catalog.render import site as site_module

    root = site_sources(catalog_dir({"data/papers/dean2012large.yml": GOOD_PAPER}))
    work = root / "build" / "site-serve"
    config = site_module._restage(root, engines.MKDOCS, work)
    assert config == work / "mkdocs.yml" and (work / "docs" / "parallelism.md").is_file()
    stamps = {p: p.stat().st_mtime_ns for p in work.rglob("*.md")}
    time.sleep(0.01)
    paper = root / "data" / "papers" / "dean2012large.yml"
    paper.write_text(
        paper.read_text(encoding="utf-8").replace("Large Scale", "Larger Scale"), "utf-8"
    )
    site_module._restage(root, engines.MKDOCS, work)
    changed = {
        p.relative_to(work).as_posix() for p, t in stamps.items() if p.stat().st_mtime_ns != t
    }
    assert "docs/parallelism.md" in changed
    assert "docs/contributing.md" not in changed


def test_the_staged_config_adds_the_package_assets_after_the_catalogs_own(
    catalog_dir: Callable[..., Path],
) -> None:
    """An adopter's mkdocs.yml lists only its own additions; the package's come after, once."""
    from ddl_catalog.render import engines
    from ddl_catalog.render import site as site_module

    root = site_sources(catalog_dir({"data/papers/dean2012large.yml": GOOD_PAPER}))
    config_file = root / "mkdocs.yml"
    config_file.write_text(
        config_file.read_text(encoding="utf-8")
        + "extra_css: [assets/mine.css, assets/search.css]\n"
        + "extra_javascript:\n  - path: assets/mine.js\n    type: module\n",
        encoding="utf-8",
    )
    staged = yaml.safe_load(
        site_module._restage(root, engines.MKDOCS, root / "build" / "s").read_text("utf-8")
    )
    assert staged["extra_css"] == [
        "assets/mine.css",
        "assets/search.css",
        "assets/extra.css",
        "assets/compare.css",
    ]
    assert staged["extra_javascript"] == [
        {"path": "assets/mine.js", "type": "module"},
        "assets/compare.js",
        "assets/explore.js",
        "assets/order.js",
        "assets/search.js",
    ]


# -- small pieces -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.org/a?b=c", "https://example.org/a?b=c"),
        ("HTTP://example.org", "HTTP://example.org"),
        ("javascript:alert(1)", "#"),
        (" JavaScript:alert(1)", "#"),
        ("data:text/html,x", "#"),
        ("//evil.example", "#"),
        ('https://x.org/"onmouseover=', "#"),
        ("", "#"),
    ],
)
def test_safe_url(url: str, expected: str) -> None:
    assert safe_url(url) == expected


def test_md_text_escapes_markdown_and_html() -> None:
    assert str(md_text("[x](javascript:alert(1))")) == r"\[x\]\(javascript:alert\(1\)\)"
    assert str(md_text("<img src=x>")) == "&lt;img src=x&gt;"
    assert str(md_text("*a* _b_ `c`")) == r"\*a\* \_b\_ \`c\`"


@pytest.mark.parametrize(
    ("src", "frm", "to", "href"),
    [
        ("index.md", "", "frameworks/#horovod", "frameworks/#horovod"),
        ("explore.md", "explore/", "frameworks/#horovod", "../frameworks/#horovod"),
        ("a/2.md", "a/2/", "a/#x", "../#x"),
        ("a.md", "a/", "a/#x", "#x"),
        ("a.md", "a/", "a/", "./"),
        ("a.md", "a/", "tags/#tag:mpi", "../tags/#tag:mpi"),
    ],
)
def test_relative_links(src: str, frm: str, to: str, href: str) -> None:
    assert page_url(src) == frm
    assert relative(frm, to) == href


def test_year_chart_has_a_bar_per_year_with_papers() -> None:
    svg = year_chart({2012: 2, 2015: 5}, {2012: "#year-2012", 2015: "#year-2015"}, label="P<1>")
    assert svg.count('class="ddl-bar"') == 2
    assert "P&lt;1&gt;" in svg
    assert 'href="#year-2015"' in svg
    assert year_chart({}, {}, label="x").startswith("<p")


def test_a_subcategory_named_like_a_page_number_or_index_is_refused(
    catalog_dir: Callable[..., Path],
) -> None:
    """/<top>/2/ is a part page and /<top>/index/ the topic's own: no subtopic takes them.

    validate reports it (test_cli_validate); the site refuses it too, for a catalog model
    built without validation.
    """
    from ddl_catalog.model.build import build
    from ddl_catalog.render.site_pages import SiteDataError
    from ddl_catalog.validate import validate

    root = catalog_dir()
    tree = root / "data" / "categories.yml"
    text = tree.read_text(encoding="utf-8")
    for name in ("'2'", "index"):
        tree.write_text(text.replace("- id: data-parallelism", f"- id: {name}", 1), "utf-8")
        assert f"id: {name}" in tree.read_text(encoding="utf-8")
        report = validate(root)
        assert [p.rule for p in report.errors] == ["page-clash"]
        catalog = build(root, report)
        page = f"/parallelism/{name.strip(chr(39))}/"
        with pytest.raises(SiteDataError, match=f"clashes with the page {page} of the topic"):
            PageBuilder(catalog, REPO / "templates" / "site", edit_base="https://example.org/")


def test_tags_page_lists_every_tag_with_its_meaning_and_count(real_site: Path) -> None:
    """One line per tag of data/tags.yml: it opens Explore filtered by the tag."""
    catalog = open_catalog(REPO)
    page = (real_site / "tags" / "index.html").read_text(encoding="utf-8")
    content = page[page.index('<h1 id="tags">') : page.index("</article>")]
    assert content.count("<dt id=") == len(catalog.tags)
    mpi = sum("mpi" in e.tags for e in catalog)
    assert (
        f'<dt id="tag-mpi"><a class="ddl-tag" href="../explore/?tag=mpi">mpi</a> '
        f'<span class="ddl-compact-meta">{mpi} entries</span></dt>'
    ) in content
    assert f"<dd>{html.escape(catalog.tags['mpi'].description, quote=False)}</dd>" in content


def test_list_lines_leave_out_what_their_headings_say(real_site: Path) -> None:
    """Papers by year: no "Paper, 2019" under "2019"; kind pages: no kind under the kind."""
    metas = re.compile(r'<span class="ddl-compact-meta">([^<]*)</span>')
    by_year = metas.findall((real_site / "papers-by-year" / "index.html").read_text("utf-8"))
    assert by_year and not any(m.startswith("Paper") or re.match(r"\d{4}", m) for m in by_year)
    kinds = metas.findall((real_site / "kinds" / "papers" / "index.html").read_text("utf-8"))
    assert kinds and not any(m.startswith(("Paper", "Book")) for m in kinds)
    overview = metas.findall((real_site / "parallelism" / "index.html").read_text("utf-8"))
    assert "Framework, 2017" in overview  # elsewhere the line still says kind and year


def test_compare_page_shows_every_framework_cell_with_its_source(real_site: Path) -> None:
    catalog = open_catalog(REPO)
    page = (real_site / "compare" / "index.html").read_text(encoding="utf-8")
    framed = [e for e in catalog if e.capabilities is not None]
    assert len(framed) >= 25
    for entry in framed:
        assert f">{html.escape(entry.title, quote=False)}</a>" in page, entry.id
        assert entry.capabilities is not None
        for cell in entry.capabilities.cells.values():
            if cell.source:
                assert f'href="{html.escape(cell.source)}"' in page, (entry.id, cell.source)
    # A screen reader hears each value in words, not as a symbol; a note is data the script
    # opens on a tap or a key (never a hover-only title: tests/browser/test_compare_browser.py).
    # Every value and note is on the framework's card too (one line in a closed details: a card
    # stays light), with what it comes via and what its evidence covers.
    assert re.search(r'<a href="https://[^"]+" aria-label="DP: yes" data-note="[^"]+">', page)
    assert not re.search(r'<td class="ddl-cell[^>]*><[^>]* title=', page)
    for entry in framed:
        assert entry.capabilities is not None
        text = (real_site / card_page(catalog, entry, real_site) / "index.html").read_text("utf-8")
        card = text[text.index(f'<h3 id="{entry.id}">') :]
        caps = card[card.index('<details class="ddl-caps"') : card.index("</details>")]
        for cell in entry.capabilities.cells.values():
            via = catalog.get(cell.via) if cell.via else None
            said = f": {cell.value}"
            said += f" via {markupsafe.escape(via.title)}" if via else ""
            said += f" on {markupsafe.escape(cell.covers)}" if cell.covers else ""
            said += f" ({markupsafe.escape(cell.note)})" if cell.note else ""
            assert said in caps, (entry.id, said)
    # Cards say the curated state and link its evidence.
    home = real_site / card_page(catalog, catalog.get("dmtk"), real_site) / "index.html"  # type: ignore[arg-type]
    assert 'class="ddl-maintenance ddl-maintenance--unmaintained">Unmaintained · newest commit' in (
        home.read_text(encoding="utf-8")
    )
    # One-line lists carry the same warning as the README's line.
    listing = next((real_site / "kinds").glob("*/index.html")).parent.parent
    lines = "".join(p.read_text(encoding="utf-8") for p in listing.glob("*/index.html"))
    assert "Microsoft Distributed Machine Learning Toolkit (DMTK)" in lines
    assert '<span class="ddl-compact-state">Unmaintained: last commit 2017-07.</span>' in lines


def test_every_leaf_topic_page_has_a_timeline_of_links_and_its_text(real_site: Path) -> None:
    """A mark per work (software that implements a paper of it shares the paper's), the list
    under the figure names every work, and the timeline is folded: the cards come first."""
    catalog = open_catalog(REPO)
    for category in catalog.categories.values():
        if category.children:
            continue
        dated = [e for e in catalog.in_category(category.id) if e.year is not None]
        page_path = f"{category.parent}/{category.id}/" if category.parent else f"{category.id}/"
        page = (real_site / page_path / "index.html").read_text(encoding="utf-8")
        if len(dated) < 2:
            assert "ddl-timeline-svg" not in page
            continue
        start = page.index('<svg class="ddl-timeline-svg"')
        svg = page[start : page.index("</svg>", start) + 6]
        drawn = min(len(dated), site_pages.TIMELINE_LIMIT)  # past it, the landmarks only
        marks = svg.count("<a href=")
        rings = svg.count('class="ddl-tl-ring"')
        assert 0 < marks <= drawn and rings <= marks, category.id
        assert marks == svg.count('class="ddl-tl-mark') == svg.count("<title>")
        folded = page[page.index('<details class="ddl-timeline"') :]
        assert folded.index("<svg") < folded.index("</details>")
        if 'id="entries"' in page:  # with cards, the timeline folds beside their order
            assert page.index('<details class="ddl-timeline"') > page.index('id="entries"')
        text = page[page.index('class="ddl-timeline-list"') :]
        for entry in dated if drawn == len(dated) else ():
            assert f">{markupsafe.escape(entry.title)}</a>" in text, entry.id
    landmarks = (real_site / "timeline" / "index.html").read_text(encoding="utf-8")
    assert landmarks.count('class="ddl-tl-mark') >= 10
    assert landmarks.count('class="ddl-tl-lane"') >= 5  # a band per topic
    assert '<details class="ddl-timeline"' not in landmarks  # its own page: open


def test_timeline_svg_escapes_titles_and_links_each_mark() -> None:
    from ddl_catalog.render.svg import Mark, timeline

    drawn = timeline(
        [
            Mark("a", 2019, 'GPipe <script>alert(1)</script> & "quotes"', "../a/#a"),
            Mark("b", 2021, "B" * 80, "../b/#b", software=True),
            Mark("c", 2021, "C", "../c/#c", with_code=True, lane=1),
        ],
        [("b", "a"), ("b", "missing"), ("c", "a")],
        label="Timeline <x>",
        caption_id="t",
        lanes=["Topic <one>", "Two"],
    )
    assert "<script>" not in drawn and "&lt;script&gt;" in drawn
    assert "Topic &lt;one&gt;" in drawn
    assert drawn.count("<a href=") == 3 and drawn.count('class="ddl-tl-edge"') == 2
    assert drawn.count("<rect") == 1 and drawn.count('class="ddl-tl-ring"') == 1
    assert "B" * 80 in drawn  # full titles: every mark is named by its whole title
    # Two years, two columns; the arcs rise above the marks (no bundle on one edge).
    assert drawn.count('class="ddl-tl-year"') == 2


def test_a_paper_and_its_code_are_one_mark(
    catalog_dir: Callable[..., Path],
) -> None:
    """Software implementing one paper of a timeline, within a year, is drawn as its mark."""
    papers = forty_papers(over_years=True)
    papers["data/libraries/paper-zero-code.yml"] = (
        "id: paper-zero-code\nkind: library\ntitle: The code of paper zero\n"
        "url: https://github.com/example/zero\n"
        "description: The reference implementation of paper number zero, as a library.\n"
        "categories: [parallelism, data-parallelism]\nyear: 2000\n"
        "related:\n  - id: author0002019paper\n    relation: implements\n"
    )
    site = build_site(site_sources(catalog_dir(papers)))
    page, svg = topic_timeline(site)
    assert "#paper-zero-code" not in svg and svg.count('class="ddl-tl-ring"') == 1
    listing = page[page.index('class="ddl-timeline-list"') :]
    assert "with its code: <a" in listing and "The code of paper zero</a>" in listing


def test_a_long_topic_timeline_draws_its_landmarks_and_says_how_many_of_all(
    catalog_dir: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past TIMELINE_LIMIT works a timeline keeps the most built-on ones and says so."""
    from ddl_catalog.render import site_pages

    papers = forty_papers(over_years=True)
    # Paper 0, the oldest, is built on by three later ones: it is drawn whatever its year.
    for n in (37, 38, 39):
        path = f"data/papers/author{n:03d}2019paper.yml"
        papers[path] += "related:\n  - id: author0002019paper\n    relation: builds-on\n"
    monkeypatch.setattr(site_pages, "TIMELINE_LIMIT", 10)
    site = build_site(site_sources(catalog_dir(papers)))
    page, svg = topic_timeline(site)
    assert svg.count("<a href=") == 10
    assert "10 of its 40 works" in page
    assert "#author0002019paper" in svg and "Paper number 0 (2000)<" in svg


def test_long_one_line_lists_on_a_topic_page_stop_at_a_limit_and_keep_every_anchor(
    catalog_dir: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Overview lines and later-part stubs past LINE_LIMIT: counted, linked, anchors in a map."""
    from ddl_catalog.render import site_pages

    monkeypatch.setattr(site_pages, "LINE_LIMIT", 10)
    papers = {
        path: text.replace(
            "categories: [parallelism, data-parallelism]", "categories: [data-parallelism]"
        )
        for path, text in forty_papers().items()
    }
    root = with_options(site_sources(catalog_dir(papers)), page_budget=12_000)
    site = build_site(root)
    for page in (
        site / "parallelism" / "index.html",
        site / "parallelism" / "data-parallelism" / "index.html",
    ):
        text = page.read_text(encoding="utf-8")
        lines = re.findall(r'<li id="(author\d+2019paper)" data-ddl-moved="', text)
        found = re.search(
            r'<script type="application/json" id="[^"]+" class="ddl-moved-map">(.*?)</script>', text
        )
        assert found, page
        mapped = json.loads(found.group(1))
        assert len(lines) == 10 and lines and not set(lines) & set(mapped), page
        cards = set(re.findall(r'<h3 id="(author\d+2019paper)"', text))
        # Every paper is reachable from this page's anchors: a card, a line or the map.
        assert cards | set(lines) | set(mapped) == {f"author{n:03d}2019paper" for n in range(40)}
        for href in mapped.values():
            assert not href.startswith(("http", "//", "javascript")), href
    overview = (site / "parallelism" / "index.html").read_text(encoding="utf-8")
    assert re.search(r"and \d+ more in Data parallelism</a>", overview)


#: One entry card of a built page, its id as group 1.
CARD = re.compile(r'<article class="ddl-entry[^"]*"[^>]*>\n<h3 id="([^"]+)">.*?</article>', re.S)


def test_a_category_page_holds_its_budget_of_elements_whatever_its_bytes(
    catalog_dir: Callable[..., Path],
) -> None:
    root = with_options(site_sources(catalog_dir(forty_papers())), page_elements=300)
    site = build_site(root)
    pages = sorted((site / "parallelism").glob("**/index.html"))
    cards = [CARD.findall(p.read_text(encoding="utf-8")) for p in pages]
    assert sum(map(len, cards)) == 40 and len(pages) > 2, [len(c) for c in cards]
    for page, text in zip(pages, (p.read_text(encoding="utf-8") for p in pages), strict=True):
        elements = sum(len(re.findall(r"<[a-zA-Z]", m.group(0))) for m in CARD.finditer(text))
        assert elements <= 300, (page, elements)


def test_the_element_estimate_of_a_card_is_its_rendered_count(real_site: Path) -> None:
    """The page plan counts a card's elements without rendering it: the count must hold."""
    catalog = open_catalog(REPO)
    builder = PageBuilder(catalog, REPO / "templates" / "site", edit_base="x", bib_files={})
    seen = 0
    for page in real_site.rglob("index.html"):
        for card in CARD.finditer(page.read_text(encoding="utf-8")):
            entry = catalog.get(card.group(1))
            assert entry is not None
            rendered = len(re.findall(r"<[a-zA-Z]", card.group(0)))
            assert builder._card_elements(entry) == rendered, entry.id
            seen += 1
    assert seen == len(catalog)


def test_no_page_element_takes_an_entry_id(catalog_dir: Callable[..., Path]) -> None:
    """A topic titled like an entry, an entry called "entries": anchors lead to the cards."""
    files = {
        "data/frameworks/horovod.yml": GOOD_FRAMEWORK,
        "data/papers/dean2012large.yml": GOOD_PAPER.replace("dean2012large", "entries"),
    }
    files["data/papers/dean2012large.yml"] = files["data/papers/dean2012large.yml"].replace(
        "id: entries", "id: dean2012large"
    )
    root = site_sources(catalog_dir(files))
    (root / "data/papers/dean2012large.yml").rename(root / "data/papers/entries.yml")
    text = (root / "data/papers/entries.yml").read_text(encoding="utf-8")
    (root / "data/papers/entries.yml").write_text(
        text.replace("id: dean2012large", "id: entries"), encoding="utf-8"
    )
    tree = root / "data" / "categories.yml"
    tree.write_text(
        tree.read_text(encoding="utf-8").replace("title: Frameworks\n", "title: Horovod\n"),
        encoding="utf-8",
    )
    site = build_site(root)
    for page in site.rglob("index.html"):
        ids = re.findall(r'\sid="([^"]+)"', page.read_text(encoding="utf-8"))
        assert len(ids) == len(set(ids)), (page, sorted(i for i in ids if ids.count(i) > 1))
    frameworks = (site / "frameworks" / "index.html").read_text(encoding="utf-8")
    assert '<h3 id="horovod">' in frameworks and 'id="horovod"' not in frameworks.replace(
        '<h3 id="horovod">', ""
    ).replace("data-ddl-moved", "")
    parallelism = (site / "parallelism" / "index.html").read_text(encoding="utf-8")
    assert '<h3 id="entries">' in parallelism
    assert '<h2 class="ddl-entries-heading" id="entries-2">Entries' in parallelism


# -- order, venues, what is new (issue 32) -----------------------------------------------------


def test_topic_cards_come_in_reading_order_picks_first(real_site: Path) -> None:
    from ddl_catalog.model.order import reading_order

    catalog = open_catalog(REPO)
    for category in catalog.categories.values():
        path = f"{category.parent}/{category.id}/" if category.parent else f"{category.id}/"
        page = (real_site / path / "index.html").read_text(encoding="utf-8")
        shown = CARD.findall(page)
        picks = [pick for pick, _why in category.start_here]
        expected = reading_order(catalog.in_category(category.id, primary=True), picks)
        assert shown == [e.id for e in expected][: len(shown)], category.id
        if len(shown) > 1:
            assert 'class="ddl-order"' in page and "data-ddl-sort" in page


def test_every_venue_paper_is_listed_once_under_its_edition(real_site: Path) -> None:
    catalog = open_catalog(REPO)
    index = (real_site / "venues" / "index.html").read_text(encoding="utf-8")
    by_venue: dict[str, set[str]] = {}
    for entry in catalog:
        if entry.venue:
            by_venue.setdefault(entry.venue, set()).add(entry.id)
    ids = {e.id for e in catalog}
    for venue_id, expected in by_venue.items():
        slug = site_pages.venue_slug(venue_id)
        assert f'href="{slug}/"' in index, venue_id
        pages = sorted((real_site / "venues" / slug).rglob("index.html"))
        html = "".join(p.read_text(encoding="utf-8") for p in pages)
        listed = re.findall(r'<li><a href="[^"#]*#([^"]+)">', html)
        assert sorted(listed) == sorted(expected), venue_id
        for year in {e.venue_year for e in catalog if e.venue == venue_id and e.venue_year}:
            anchor = f"{slug}-{year}"
            assert f'id="{anchor}"' in html and anchor not in ids
    sosp = (real_site / "venues" / "sosp" / "index.html").read_text(encoding="utf-8")
    assert "ACM Symposium on Operating Systems Principles" in sosp


def test_whats_new_lists_every_addition_once_newest_first(real_site: Path) -> None:
    catalog = open_catalog(REPO)
    pages = [real_site / "new" / "index.html"]
    pages += sorted((real_site / "new").glob("*/index.html"), key=lambda p: int(p.parent.name))
    html = "".join(p.read_text(encoding="utf-8") for p in pages)
    days = re.findall(r'<time class="ddl-added" datetime="([0-9-]+)">', html)
    assert len(days) == sum(1 for e in catalog if e.added)
    assert days == sorted(days, reverse=True)
    home = (real_site / "index.html").read_text(encoding="utf-8")
    assert home.count('<time class="ddl-added"') == site_pages.HOME_RECENT
    for name in ("Topics", "Compare", "Timeline", "Explore", "Venues", "What&#39;s new"):
        assert f"<strong>{name}</strong>" in home, name


def test_venue_names_and_editions_are_escaped(catalog_dir: Callable[..., Path]) -> None:
    """A venue series whose name holds markup reaches its pages as text."""
    from conftest import GOOD_PAPER

    root = site_sources(
        catalog_dir(
            {
                "data/venues.yml": (
                    "venues:\n  - id: NIPS\n    name: '<b>Neural</b> & <i>Information</i>'\n"
                    "    type: conference\n    since: 1987\n"
                ),
                "data/papers/dean2012large.yml": GOOD_PAPER,
            }
        )
    )
    site = build_site(root)
    page = (site / "venues" / "nips" / "index.html").read_text(encoding="utf-8")
    assert "<b>Neural</b>" not in page and "&lt;b&gt;Neural&lt;/b&gt;" in page
    index = (site / "venues" / "index.html").read_text(encoding="utf-8")
    assert "<i>Information</i>" not in index and 'id="nips-2012"' in page
