"""The two site engines build the same site from the real catalog.

MkDocs + Material (the default) and Zensical each build the real catalog once for this module,
into temporary folders, and the builds are compared:

- the same HTML pages;
- on each page the same element ids, except the few a theme writes for itself (``THEME_IDS``,
  each with its reason);
- every internal link, stylesheet, script and image of either build lands on a file of that
  build (and on an id of the page, for a link with a #fragment) without climbing above the
  site's root, which matters because the site is published under a path (/ddl-catalog/); and
  each page links to the same places in both builds;
- the moved-card map of every split list and the target of every stub agree and land;
- every search landing of the default build is one of the other's, and lands;
- the sitemap names the same pages, and every other file (exports, feed, BibTeX, Explore's
  data) is the same byte for byte, except the files an engine's theme or search owns
  (``ENGINE_FILES``, each with its reason).

The differences a reader or an adopter can notice are in docs/use-it-for-your-own-list.md
("Choosing the site engine"). Marked ``engines`` (about half a minute: two builds): `make test`
runs it, ``pytest -m 'not engines'`` leaves it out.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from ddl_catalog import mkdocs_yml
from ddl_catalog.render import engines
from ddl_catalog.render.site import build_site, links_from_source

pytestmark = pytest.mark.engines

REPO = Path(__file__).resolve().parent.parent
DEFAULT, OTHER = "mkdocs", "zensical"

#: Element ids only one theme writes, and why. Everything else must be on the page in both.
THEME_IDS = {
    "__skip": "Zensical's skip link jumps to an element of its own with this id; Material's "
    "skip link jumps to the page's first heading, which both builds have",
    "__toc": "the small-screen toggle of the table of contents: each theme decides which pages "
    "get one (the table of contents itself, and every heading it lists, are the same)",
}
#: Files (a path, or a folder ending in /) only one engine writes, or writes its own way, and
#: why. Every other file of the built site must be in both, with the same bytes.
ENGINE_FILES = {
    "assets/javascripts/": "each theme's own scripts (Material adds lunr's language files)",
    "assets/stylesheets/": "each theme's own stylesheets (hashed names)",
    engines.MKDOCS.search_index: "each engine's own search index: its landings are compared",
    engines.ZENSICAL.search_index: "each engine's own search index: its landings are compared",
    "sitemap.xml": "the same pages in another order, and MkDocs adds the build date to each: "
    "the pages are compared",
    "sitemap.xml.gz": "the sitemap above, compressed",
}
#: Attributes that point at another file: (tag, attribute).
POINTERS = {
    ("a", "href"),
    ("area", "href"),
    ("link", "href"),
    ("script", "src"),
    ("img", "src"),
    ("source", "src"),
}


@dataclass
class Page:
    """What the comparison reads of one built HTML page."""

    ids: set[str] = field(default_factory=set)
    #: Every href/src of POINTERS, as written.
    links: list[str] = field(default_factory=list)
    #: The moved-card map (JSON) of a split list's page, as written.
    moved_map: str | None = None
    #: The target of each stub (``data-ddl-moved``), by its id.
    moved: dict[str, str] = field(default_factory=dict)


class _Reader(HTMLParser):
    """Collect a page's ids, pointers, moved-card map and stubs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._in_map = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if "id" in values:
            self.page.ids.add(values["id"])
        for name in ("href", "src"):
            if (tag, name) in POINTERS and name in values:
                self.page.links.append(values[name])
        if "data-ddl-moved" in values:
            self.page.moved[values.get("id", "")] = values["data-ddl-moved"]
        self._in_map = tag == "script" and "ddl-moved-map" in values.get("class", "").split()

    def handle_data(self, data: str) -> None:
        if self._in_map:
            self.page.moved_map = (self.page.moved_map or "") + data

    def handle_endtag(self, tag: str) -> None:
        self._in_map = False


@dataclass
class Build:
    """One engine's build of the real catalog."""

    engine: str
    root: Path
    pages: dict[str, Page]  # by path in the site ("parallelism/index.html")
    files: set[str]  # every file's path in the site

    def url_of(self, page: str) -> str:
        """Return a page's URL path below the site's root ("parallelism/")."""
        return page.removesuffix("index.html")


#: The path the site is published under (/ddl-catalog/): links must not climb above it.
BASE = urlsplit(mkdocs_yml.site_url(REPO) or "https://example.org/").path or "/"
HOST = "https://site.test"


def owned_by_engine(path: str) -> bool:
    """Tell whether a file of the built site is one ENGINE_FILES lists."""
    return any(
        path == owned or (owned.endswith("/") and path.startswith(owned)) for owned in ENGINE_FILES
    )


def resolve(build: Build, page: str, link: str) -> tuple[str, str, str] | None:
    """Return (file, query, fragment) a link of ``page`` lands on, None for an outside one.

    Fails the test when the link climbs above the site's root or names no file of the build.
    """
    parts = urlsplit(link)
    if parts.scheme or parts.netloc:
        return None
    here = f"{HOST}{BASE}{build.url_of(page)}"
    target = urlsplit(urljoin(here, link))
    path = unquote(target.path)
    assert path.startswith(BASE), f"{build.engine}: {page} links {link!r} above the site's root"
    rel = path.removeprefix(BASE)
    if rel == "" or rel.endswith("/"):
        rel += "index.html"
    elif rel not in build.files and f"{rel}/index.html" in build.files:
        rel += "/index.html"
    assert rel in build.files, f"{build.engine}: {page} links {link!r}, which is not in the site"
    return rel, target.query, unquote(target.fragment)


def lands(build: Build, page: str, link: str) -> tuple[str, str, str] | None:
    """Resolve a link and check that its #fragment is an id of the page it lands on."""
    found = resolve(build, page, link)
    if found is not None:
        target, _query, fragment = found
        if fragment and target.endswith(".html"):
            assert fragment in build.pages[target].ids, (
                f"{build.engine}: {page} links {link!r}, but {target} has no id {fragment!r}"
            )
    return found


def read_build(engine: str, site: Path) -> Build:
    """Read a built site: every file's path, and every HTML page's ids, links and stubs."""
    files = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    pages = {}
    for path in sorted(f for f in files if f.endswith(".html")):
        reader = _Reader()
        reader.feed((site / path).read_text(encoding="utf-8"))
        reader.close()
        pages[path] = reader.page
    return Build(engine, site, pages, files)


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Build]:
    """The real catalog built once with each engine, from one copy (the checkout may change)."""
    root = tmp_path_factory.mktemp("agree") / "catalog"
    root.mkdir()
    for name in ("catalog.yml", "mkdocs.yml"):
        shutil.copy(REPO / name, root / name)
    for name in ("data", "docs", "templates"):
        shutil.copytree(REPO / name, root / name)
    found = {}
    for engine in (DEFAULT, OTHER):
        site = build_site(root, site_dir=root.parent / f"site-{engine}", engine=engine)
        found[engine] = read_build(engine, site)
    return found


def test_both_engines_build_the_same_pages(builds: dict[str, Build]) -> None:
    default, other = builds[DEFAULT].pages, builds[OTHER].pages
    assert len(default) > 100  # the real catalog: topics, parts, kinds, years, docs ...
    assert sorted(set(default) - set(other)) == [], f"pages {OTHER} does not build"
    assert sorted(set(other) - set(default)) == [], f"pages only {OTHER} builds"


def test_every_page_has_the_same_ids_in_both_builds(builds: dict[str, Build]) -> None:
    differences = []
    for path, page in builds[DEFAULT].pages.items():
        theirs = builds[OTHER].pages[path].ids
        missing = sorted(page.ids - theirs - THEME_IDS.keys())
        extra = sorted(theirs - page.ids - THEME_IDS.keys())
        if missing or extra:
            differences.append(f"{path}: only {DEFAULT} {missing[:5]}, only {OTHER} {extra[:5]}")
    assert differences == [], "\n".join(differences[:20])


@pytest.mark.parametrize("engine", [DEFAULT, OTHER])
def test_every_link_of_a_build_lands_in_it(builds: dict[str, Build], engine: str) -> None:
    build = builds[engine]
    count = 0
    for path, page in build.pages.items():
        for link in page.links:
            count += lands(build, path, link or "./") is not None  # "" is the page itself
    assert count > 10_000  # every card's links are followed, not a handful


def test_each_page_links_to_the_same_places_in_both_builds(builds: dict[str, Build]) -> None:
    """A link of the default build lands in the other too, and each page links the same places.

    Theme files (ENGINE_FILES) and theme ids (THEME_IDS) are left out: the rest, nav included,
    is the same set of (file, query, fragment) on every page.
    """

    def places(build: Build, path: str) -> set[tuple[str, str, str]]:
        found = (resolve(build, path, link or "./") for link in build.pages[path].links)
        return {
            place
            for place in found
            if place is not None and not owned_by_engine(place[0]) and place[2] not in THEME_IDS
        }

    differences = []
    for path in builds[DEFAULT].pages:
        default, other = places(builds[DEFAULT], path), places(builds[OTHER], path)
        for target, _query, fragment in default:  # lands in the other build too
            if fragment and target.endswith(".html"):
                assert fragment in builds[OTHER].pages[target].ids, (path, target, fragment)
        if default != other:
            differences.append(
                f"{path}: only {DEFAULT} {sorted(default - other)[:3]}, "
                f"only {OTHER} {sorted(other - default)[:3]}"
            )
    assert differences == [], "\n".join(differences[:20])


def test_moved_cards_land_alike_in_both_builds(builds: dict[str, Build]) -> None:
    """The moved-anchor map of a split list's pages, and each stub's target, agree and land."""
    maps = stubs = 0
    for path, page in builds[DEFAULT].pages.items():
        theirs = builds[OTHER].pages[path]
        assert theirs.moved_map == page.moved_map, f"{path}: the moved-card maps differ"
        assert theirs.moved == page.moved, f"{path}: the stubs' targets differ"
        targets = list(page.moved.values())
        if page.moved_map is not None:
            moved = json.loads(page.moved_map)
            assert isinstance(moved, dict)
            targets += list(moved.values())
            maps += 1
        stubs += len(page.moved)
        for build in builds.values():
            for target in targets:
                lands(build, path, target)
    assert maps > 0 and stubs > 0  # the real catalog splits long lists and moves cards


def search_landings(build: Build) -> set[str] | None:
    """Return the locations of the engine's own search index, None when it writes none."""
    index = build.root / engines.get(build.engine).search_index
    if not index.is_file():
        return None
    data = json.loads(index.read_text(encoding="utf-8"))
    records = data.get("docs") or data.get("items") or []
    return {record["location"] for record in records}


def test_every_search_landing_of_the_default_build_lands_in_the_other(
    builds: dict[str, Build],
) -> None:
    default, other = search_landings(builds[DEFAULT]), search_landings(builds[OTHER])
    if default is None and other is None:
        pytest.skip("neither engine writes its own search index")
    assert default is not None and other is not None, "only one engine wrote its search index"
    assert sorted(default - other) == [], f"search landings {OTHER} does not index"
    for location in sorted(default):
        lands(builds[OTHER], "index.html", location or "./")


def test_the_sitemaps_name_the_same_pages(builds: dict[str, Build]) -> None:
    def pages(build: Build) -> list[str]:
        text = (build.root / "sitemap.xml").read_text(encoding="utf-8")
        return sorted(re.findall(r"<loc>\s*([^<\s]+)\s*</loc>", text))

    default = pages(builds[DEFAULT])
    assert len(default) > 100
    assert default == pages(builds[OTHER])
    for build in builds.values():
        assert (build.root / "sitemap.xml.gz").is_file(), build.engine


def test_every_other_file_is_the_same_in_both_builds(builds: dict[str, Build]) -> None:
    """Exports, feed, BibTeX, Explore's data, the catalog's assets: present and equal."""
    default, other = builds[DEFAULT], builds[OTHER]
    ours = {f for f in default.files if not owned_by_engine(f) and not f.endswith(".html")}
    theirs = {f for f in other.files if not owned_by_engine(f) and not f.endswith(".html")}
    assert sorted(ours - theirs) == [], f"files {OTHER} does not write"
    assert sorted(theirs - ours) == [], f"files only {OTHER} writes"
    for expected in ("feed.xml", "papers.bib", "catalog.csv", "api/catalog.schema.json"):
        assert expected in ours
    differing = [
        f for f in sorted(ours) if (default.root / f).read_bytes() != (other.root / f).read_bytes()
    ]
    assert differing == [], f"files that differ: {differing[:10]}"


@pytest.mark.parametrize(
    ("src_uri", "written", "for_zensical"),
    [
        (
            "parallelism.md",
            'href="auto-parallelism/#alpa"',
            'href="parallelism/auto-parallelism/#alpa"',
        ),
        ("parallelism/pipeline.md", 'href="../"', 'href="./"'),
        ("parallelism/pipeline.md", 'href="./"', 'href="pipeline/"'),
        ("parallelism/pipeline.md", 'href="2/#x"', 'href="pipeline/2/#x"'),
        ("kinds/papers.md", 'href="../../explore/?tag=gpu"', 'href="../explore/?tag=gpu"'),
        ("tags.md", 'src="../assets/a.svg"', 'src="assets/a.svg"'),
        ("index.md", 'href="parallelism/"', 'href="parallelism/"'),  # same folder either way
        ("kinds/index.md", 'href="../explore/"', 'href="../explore/"'),
    ],
)
def test_generated_links_are_rebased_for_an_engine_that_reads_them_from_the_source(
    src_uri: str, written: str, for_zensical: str
) -> None:
    assert links_from_source(f"<a {written}>x</a>", src_uri) == f"<a {for_zensical}>x</a>"


def test_links_that_name_no_other_file_are_left_alone() -> None:
    kept = (
        '<a href="#alpa">x</a> <a href="?tag=gpu">y</a> <a href="https://example.org/a/">z</a> '
        '<a href="/ddl-catalog/">r</a> <span data-href="a/" data-ddl-moved="2/#x">s</span> '
        '<a href="mailto:a@example.org">m</a>'
    )
    assert links_from_source(kept, "parallelism/pipeline.md") == kept
