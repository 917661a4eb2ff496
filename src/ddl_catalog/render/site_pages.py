"""The website's generated pages: Markdown files built from the catalog and Jinja templates.

Nothing here knows about a site engine; :mod:`ddl_catalog.render.site` writes the
:class:`SitePage` objects as files beside the hand-written docs and runs the engine. A page is
plain Markdown with blocks of raw HTML (cards, entry lists), which every engine passes through as
they are. Every field of the data reaches a page through Jinja autoescape (HTML) or
:func:`md_text` (Markdown headings), every URL through :func:`safe_url`, and a page's front
matter through :func:`front_matter`.

A card's heading carries the entry's id, so each engine's search indexes a card as a section of
its own that lands on it; the parts of a card that are not its own text (tags, links to other
entries, the edit line) carry ``data-search-exclude``, which both engines honour.
"""

from __future__ import annotations

import functools
import html
import json
import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from ddl_catalog import matrix, settings
from ddl_catalog.citation import venue_label
from ddl_catalog.metadata import Metadata, MetadataError, entry_keys, load_metadata
from ddl_catalog.mkdocs_yml import page_clash
from ddl_catalog.model import KIND_LABELS, MAINTENANCE_LABELS, Catalog, Entry, order
from ddl_catalog.render.readme import authors_text

#: Kind groups, each one page under kinds/<slug>/: (slug, title, kinds).
KIND_GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("papers", "Papers", ("paper",)),
    ("software", "Frameworks and libraries", ("framework", "library")),
    ("learning", "Learning resources", ("article", "talk", "tutorial", "book")),
    ("benchmarks-datasets", "Benchmarks and datasets", ("benchmark", "dataset")),
    ("references", "Lists and documentation", ("list", "docs")),
)

#: Files the exports add to site/ (path, label); the home page's Downloads section links them.
DOWNLOADS: tuple[tuple[str, str], ...] = (
    ("api/catalog.json", "The whole catalog as JSON"),
    ("catalog.csv", "The whole catalog as CSV"),
    ("papers.bib", "Every paper as BibTeX"),
    ("papers.json", "Every paper as CSL-JSON"),
    ("feed.xml", "Feed of recently added entries (Atom)"),
    ("api/catalog.schema.json", "JSON Schema of the catalog JSON"),
)

#: Default budget of the cards of a category page, in estimated bytes (about what their HTML
#: takes); a bigger page is split in parts, the first keeping a stub (and so the old anchor) of
#: every card that moved. At 2,000 entries the largest subtopic was one page of 413 KB and
#: 4,900 elements (1 s of blocking time on Lighthouse's phone, 17 points under the theme's docs
#: page); at 100 KB and 42 cards it was still 14 under.
PAGE_BUDGET = 80_000
#: Default budget of a category page's content in elements (cards, the timeline and the
#: stubs of later cards; the theme's header, navigation and footer add about 350). A phone's
#: style and layout passes cost about one element each: at 2,000 entries the largest subtopic
#: held 30 cards and a 60-work timeline, 1,850 elements in all, and scored 13 points under the
#: docs page (470 elements); the topic page of 1,300 elements scored 3 under.
ELEMENT_BUDGET = 800
#: Cards of a category page laid out at load; the rest are laid out as they near the screen
#: (``content-visibility: auto``), so the page's load costs a phone about the same however
#: many cards it holds (at 2,000 entries, a part of 21 cards: 202 ms of blocking time on
#: Lighthouse's phone, 89 ms with all but three deferred, as the docs page). Three cards fill a
#: phone's screen.
EAGER_CARDS = 3
#: Default budget of the one-line lists (papers by year, kinds), in estimated bytes (about
#: 2.5 times what their lines take): about 230 lines a page. At 395 lines (the real catalog's
#: papers by year, one page) Lighthouse's phone scored the page 9 points under the docs page;
#: sections that start on a later part keep their old anchors through a stub on the first.
LIST_BUDGET = 150_000

#: Rows of the Compare page shown at first when JavaScript runs (the rest on "Show all", or when
#: a filter finds them): 30 rows of 16 cells are about what the real catalog's page holds, and
#: what a throttled phone lays out within the theme's own pages' budget (at 100 rows, a
#: Lighthouse phone spent 3 s on style and layout). Without JavaScript every row shows.
COMPARE_FIRST = 30

#: Works a timeline draws at most: the real catalog's largest topic has about 50 dated works;
#: past the limit a topic's timeline keeps its start-here picks and the works most built on
#: (every work still has its card on the page), so the drawing stays readable and light.
TIMELINE_LIMIT = 60
#: The field-wide timeline (its own page, a band per topic) draws more of them.
LANDMARK_LIMIT = 150

#: One-line lists on a category page that grow with the catalog are shown up to a limit: a
#: topic's overview lines per subtopic, the lines of its cards on later parts, and the entries
#: filed elsewhere. Past it, the page says how many more and where they are, and the anchors of
#: the lines left out go into a small JSON map the site script follows (old links still arrive
#: without an element each). The real catalog stays under every limit.
LINE_LIMIT = 40
SEE_ALSO_LIMIT = 50

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")
_SAFE_SCHEMES = ("http://", "https://")
# Whitespace (\s is str.isspace's set) and the characters that could end an attribute or a tag.
_UNSAFE_IN_URL = re.compile(r"[\s<>\"'`]")


class SiteDataError(Exception):
    """The catalog cannot be laid out as a site (for example an id that clashes with a page)."""


def safe_url(value: object) -> str:
    """Return the URL when it is absolute http(s), else "#", so no other scheme reaches an href."""
    text = str(value or "").strip()
    return (
        text if text.lower().startswith(_SAFE_SCHEMES) and not _UNSAFE_IN_URL.search(text) else "#"
    )


def md_text(value: object) -> Markup:
    """Escape text for inline Markdown: no emphasis, link or raw HTML can come out of it."""
    return escape(_MD_SPECIAL.sub(r"\\\1", str(value)))


def page_url(src_uri: str) -> str:
    """Return the site URL (directory style) of a Markdown source path."""
    stem = src_uri.removesuffix(".md")
    if stem == "index":
        return ""
    return stem.removesuffix("/index") + "/"


def relative(from_url: str, to_url: str) -> str:
    """Return the href that leads from the page at ``from_url`` to ``to_url`` (may hold #)."""
    path, _, fragment = to_url.partition("#")
    rel = _relative_path(from_url, path)
    if not rel and not fragment:
        rel = "./"
    return rel + ("#" + fragment if fragment else "")


@functools.cache
def _relative_path(from_url: str, path: str) -> str:
    """Return the path part of :func:`relative` ("" for the same page); a site has few pairs."""
    rel = posixpath.relpath("/" + path, "/" + from_url) if path != from_url else ""
    if rel and path.endswith("/") and not rel.endswith("/"):
        rel += "/"
    return "" if rel == "./" else rel


def explore_tag(from_url: str, tag: str) -> str:
    """Return the href of the Explore view filtered by one tag (tags page: browse them all)."""
    return relative(from_url, page_url("explore.md")) + "?" + urlencode({"tag": tag})


def venue_slug(venue_id: str) -> str:
    """Return the path segment of a venue's page: "USENIX ATC" -> "usenix-atc"."""
    return re.sub(r"[^a-z0-9]+", "-", venue_id.casefold()).strip("-") or "venue"


MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

#: How many of the latest additions the home page lists (with their dates).
HOME_RECENT = 10

#: How the venues page groups series, by their type in data/venues.yml.
VENUE_TYPES: tuple[tuple[str, str], ...] = (
    ("conference", "Conferences"),
    ("workshop", "Workshops"),
    ("journal", "Journals"),
)


def front_matter(
    title: str, *, edit_url: str = "", exclude_search: bool = False, hide: Sequence[str] = ()
) -> str:
    """Return a page's YAML front matter.

    ``title`` is HTML-escaped, then JSON-quoted (JSON is YAML): the engines print a page's
    ``title`` meta as it is in ``<title>``, where an unescaped ``</title><script>`` would be live
    markup. ``edit_url`` is what the page's edit button opens (the theme override
    ``partials/actions.html`` reads it); empty, the page has none (a generated page has no
    Markdown file to edit).
    """
    lines = ["---", f"title: {json.dumps(html.escape(title))}", f"edit_url: {json.dumps(edit_url)}"]
    if exclude_search:
        lines += ["search:", "  exclude: true"]
    if hide:
        lines += ["hide:", *(f"  - {item}" for item in hide)]
    return Markup("\n".join([*lines, "---", "", ""]))  # noqa: S704 - escaped and quoted above


@dataclass(frozen=True)
class SitePage:
    """One generated page: where it goes, its Markdown source and what made it."""

    src_uri: str
    markdown: str
    title: str
    in_nav: bool = True
    #: What the page shows, for messages ("the page of category 'architecture'").
    origin: str = "a generated page"


@dataclass(frozen=True, slots=True)
class RelatedView:
    """A related entry as its card shows it."""

    relation: str
    title: str
    href: str


#: How each relation reads on a card, in the order the groups are shown. A work related to the
#: card in several ways is listed once, under the first of these that applies.
RELATION_GROUPS: tuple[tuple[str, str], ...] = (
    ("builds-on", "Builds on"),
    ("built-on-by", "Built on by"),
    ("supersedes", "Supersedes"),
    ("superseded-by", "Superseded by"),
    ("implements", "Implements"),
    ("implemented-by", "Implemented by"),
    ("describes", "Describes"),
    ("described-by", "Described by"),
    ("part-of", "Part of"),
    ("has-part", "Has part"),
    ("see-also", "See also"),
)
#: Links a relation group shows at once; the rest fold under "N more"...
RELATED_SHOWN = 4
#: ... up to this many in all; past it the card says how many more (a work that thousands of
#: others build on keeps a card of bounded size).
RELATED_LIMIT = 40


@dataclass(frozen=True, slots=True)
class RelatedGroup:
    """One relation's links on a card: shown, folded, and how many more are left out."""

    label: str
    shown: tuple[RelatedView, ...]
    folded: tuple[RelatedView, ...]
    more: int


@dataclass(frozen=True, slots=True)
class CardView:
    """What the card template shows of one entry (attributes, not a dict: Jinja reads them fast)."""

    e: Entry
    kind: str
    authors: tuple[str, ...]
    more_authors: int
    tags: list[tuple[str, str]]
    related: list[RelatedGroup]
    bibtex: str | None
    edit: str
    categories: list[tuple[str, str]]
    flags: tuple[str, ...] = ()
    #: Relative link to the entry's own BibTeX file (papers and books, when exports are built).
    bib_file: str | None = None
    #: What the enrichment knows (data/metadata/); empty when nothing was fetched.
    facts: FactsView | None = None
    #: The curated maintenance state as the card says it (None: the entry gives none).
    maintenance: str | None = None
    #: The venue as cited ("NeurIPS 2019", "NIPS 2017"), None without one.
    venue: str | None = None
    #: The team credited as author, shown when the work lists no people.
    team: str | None = None
    #: The capability matrix's row of a framework: label, value, note, via, covers and limits
    #: per column (matrix.card_cells), "unknown" where the entry has no cell; empty for entries
    #: outside the matrix. (The sources are linked from the Compare page's cells.)
    caps: tuple[matrix.CardCell, ...] = ()


@dataclass(frozen=True, slots=True)
class FactsView:
    """Fetched facts a card shows: the repository's, and a paper's venue and identifiers."""

    #: The repository's facts (stars, last push, licence), each a short phrase.
    repo: tuple[str, ...] = ()
    #: The date GitHub was asked (YYYY-MM-DD).
    repo_as_of: str | None = None
    #: A paper's venue when only a source knows it: (venue, source name, as-of date).
    venue: tuple[str, str, str] | None = None
    #: Identifiers as (label, text, http(s) URL): arXiv, DOI.
    ids: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class CompactView:
    """A one-line view of an entry that links to its card (a stub keeps a moved card's id)."""

    e: Entry
    href: str
    kind: str
    stub: bool
    #: Carries the entry's id and points to its card on another page (with the one-line meta).
    moved: bool = False
    #: The warning of software no longer looked after ("Unmaintained: last commit 2017-07."),
    #: as the README's line carries it (None for active, unknown or no state).
    marker: str | None = None
    #: The venue as cited ("NeurIPS 2019"), None without one.
    venue: str | None = None


class Anchors:
    """Every id a generated page gives an element besides cards: none can be an entry's id.

    A card's anchor is its entry's id, on whatever page the card lands, and old links and the
    stubs of moved cards lead there. So every other element id the site writes (a topic's
    heading, "Entries", "More in this category", a timeline's caption, the map of moved
    anchors) is claimed here, once for the whole site, from a list of candidates: the first one
    that no entry (and no earlier claim) has. A topic titled "Horovod" with an entry
    ``horovod`` gets its heading at ``category-horovod`` and the card keeps ``horovod``.
    """

    def __init__(self, catalog: Catalog) -> None:
        self._taken = {e.id for e in catalog}
        #: Fixed elements of a category page: {"entries": ..., "more": ..., "moved_map": ...}.
        self.page = {
            "entries": self.claim("entries"),
            "more": self.claim("more-in-this-category"),
            "moved_map": self.claim("ddl-moved-map"),
        }
        self.category: dict[str, str] = {}
        self.timeline: dict[str, str] = {}
        for cat in catalog.categories.values():  # tree order: deterministic claims
            for name in (cat.id, *cat.aliases):
                self.category[name] = self.claim(name, f"category-{name}")
            self.timeline[cat.id] = self.claim(f"timeline-{cat.id}")
        self.landmarks = self.claim("timeline-landmarks")

    def claim(self, *candidates: str) -> str:
        """Return the first candidate no entry nor earlier claim has (else one numbered)."""
        for candidate in candidates:
            if candidate not in self._taken:
                self._taken.add(candidate)
                return candidate
        base, number = candidates[-1], 2
        while f"{base}-{number}" in self._taken:
            number += 1
        self._taken.add(f"{base}-{number}")
        return f"{base}-{number}"


@dataclass(frozen=True)
class SiteFile:
    """One generated non-page file (the Explore index, the chart)."""

    src_uri: str
    content: str


@dataclass
class Layout:
    """Where each entry's card lives: entry id -> page URL, and the pages in nav order."""

    home_of: dict[str, str] = field(default_factory=dict)
    pages: list[SitePage] = field(default_factory=list)
    files: list[SiteFile] = field(default_factory=list)

    def permalink(self, entry_id: str) -> str:
        """Return the site URL of an entry's card: <page>#<id>."""
        return f"{self.home_of[entry_id]}#{entry_id}"


def bibtex(entry: Entry, catalog: Catalog) -> str | None:
    """Return a paper's or book's BibTeX record as papers.bib has it (None for other kinds)."""
    from ddl_catalog.export.bibtex import CITABLE_KINDS, entry_bibtex

    if entry.kind not in CITABLE_KINDS:
        return None
    return entry_bibtex(entry, catalog.venues).strip()


class PageBuilder:
    """Build every generated page of the site from a catalog and the templates folder."""

    def __init__(
        self,
        catalog: Catalog,
        templates: Path,
        *,
        edit_base: str,
        budget: int = PAGE_BUDGET,
        elements: int = ELEMENT_BUDGET,
        list_budget: int = LIST_BUDGET,
        bib_files: Mapping[str, str] | None = None,
    ) -> None:
        self.catalog = catalog
        #: Top category id -> site path of its BibTeX download (exports write them).
        self.bib_files = dict(bib_files or {})
        #: Entry id -> site path of the entry's own BibTeX file (papers and books), when the
        #: exports are written with the site (they are whenever ``bib_files`` is given).
        self.entry_bib: dict[str, str] = {}
        if bib_files is not None:
            from ddl_catalog.export import entry_bib_files

            self.entry_bib = entry_bib_files(catalog)
        try:
            self.metadata = load_metadata(catalog)
        except MetadataError as err:
            raise SiteDataError(str(err)) from err
        self.edit_base = edit_base
        #: Where a topic page's edit button leads: the category tree it is generated from.
        self.edit_categories = f"{edit_base}data/categories.yml" if edit_base else ""
        self.budget = budget
        #: A category page's budget of content elements (cards, timeline, stubs).
        self.elements = elements
        #: The one-line lists' budget (their lines are lighter than cards: a budget of their own).
        self.list_budget = list_budget
        self.env = Environment(
            loader=FileSystemLoader(str(templates)),
            autoescape=True,
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        self.env.filters["safe_url"] = safe_url
        self.env.filters["md"] = md_text
        self.env.globals["front_matter"] = front_matter
        self.env.globals["kind_rank"] = {kind: n for n, kind in enumerate(order.KIND_ORDER)}
        self.env.globals["order_sentence"] = order.SENTENCE
        self.layout = Layout()
        self.anchors = Anchors(catalog)
        self._section_url: dict[str, str] = {}
        #: (venue id, edition year) -> site URL of that edition's list (venue pages).
        self._edition_url: dict[tuple[str, int | None], str] = {}
        self._check_ids()

    def _check_ids(self) -> None:
        """Refuse top-level category ids that would overwrite one of the site's own pages."""
        for top in self.catalog.top_categories():
            if clash := page_clash(top.id):
                raise SiteDataError(f"{clash}; rename the category")
            for child in self.catalog.children(top.id):
                if clash := page_clash(child.id, top.id):
                    raise SiteDataError(f"{clash}; rename the category")

    def _page(
        self,
        template: str,
        src_uri: str,
        nav_title: str,
        in_nav: bool,
        /,
        origin: str = "a generated page",
        **context: Any,
    ) -> SitePage:
        """Render one page's Markdown (its template writes the front matter)."""
        markdown = self.env.get_template(template).render(page_title=nav_title, **context)
        return SitePage(src_uri, markdown, nav_title, in_nav, origin)

    def anchor_of(self, category_id: str) -> str:
        """Return the anchor of a category's heading (``Anchors`` keeps it off entry ids)."""
        return self.anchors.category[category_id]

    # -- the whole site ----------------------------------------------------------------------

    def build(self) -> Layout:
        """Lay out every page: categories first (they own the cards), then the rest."""
        plans = []
        for top in self.catalog.top_categories():
            plans.append(self._plan_category(top.id))
            plans += [self._plan_category(child.id) for child in self.catalog.children(top.id)]
        for plan in plans:
            self._section_url[plan.category_id] = plan.parts[0][0]
            for part_url, section_list in plan.parts:
                for _title, _anchor, entries in section_list:
                    for entry in entries:
                        self.layout.home_of[entry.id] = part_url
        for plan in plans:
            self.layout.pages += self._render_category(plan)
        self.layout.pages += self._kind_pages()
        self.layout.pages += self._venue_pages()
        self.layout.pages += self._year_pages()
        self.layout.pages += self._new_pages()
        self.layout.pages.append(self._explore_page())
        if matrix.rows(self.catalog):
            self.layout.pages.append(self._compare_page())
        if (landmarks := self._landmarks_page()) is not None:
            self.layout.pages.append(landmarks)
        if self.catalog.tags:
            self.layout.pages.append(self._tags_page())
        return self.layout

    # -- tags --------------------------------------------------------------------------------

    def _tags_page(self) -> SitePage:
        """Render the tags page: every tag with its description and count, linking Explore."""
        url = page_url("tags.md")
        counts: dict[str, int] = {}
        for entry in self.catalog:
            for tag in entry.tags:
                counts[tag] = counts.get(tag, 0) + 1
        tags = [
            (tag.id, tag.description, counts.get(tag.id, 0), explore_tag(url, tag.id))
            for tag in sorted(self.catalog.tags.values(), key=lambda t: t.id)
        ]
        return self._page("tags.md.j2", "tags.md", "Tags", True, tags=tags)

    # -- category pages ----------------------------------------------------------------------

    def _plan_category(self, category_id: str) -> _CategoryPlan:
        """Plan a category's page: a top-level one, or one subcategory of it (a page each).

        Cards live on the page of their entry's primary category; a page past its budget of
        bytes or elements is split in parts. The first part also holds the timeline, the
        start-here list and the stubs of the later parts' cards, so its cards get less room. A
        top-level page with subcategories lists their entries in one line each (an overview),
        so its old anchors keep leading to the cards.
        """
        cat = self.catalog.categories[category_id]
        first_src = f"{cat.id}.md" if cat.parent is None else f"{cat.parent}/{cat.id}.md"
        entries = self._in_order(cat.id, primary=True)
        sections: list[tuple[str, str, list[Entry]]] = [("", "", entries)]
        costs = {e.id: (self._card_size(e), self._card_elements(e)) for e in entries}
        budget = (self.budget, self.elements)
        fixed = self._first_part_elements(cat.id)
        parts = self._split(sections, costs, (self.budget, self.elements - fixed), budget)
        if len(parts) > 1:
            # The first part also lists the later parts' first entries (stubs that keep their
            # ids): plan again with room for them, so no page grows far past the budget.
            later = [e for part in parts[1:] for _t, _a, es in part for e in es][:LINE_LIMIT]
            room = (
                self.budget - sum(map(_stub_size, later)),
                self.elements - fixed - 2 * len(later) - 2,
            )
            parts = self._split(sections, costs, room, budget)
        base = page_url(first_src)
        urls = [base if i == 0 else f"{base}{i + 1}/" for i in range(len(parts))]
        return _CategoryPlan(cat.id, first_src, list(zip(urls, parts, strict=True)))

    def _split(
        self,
        sections: Sequence[tuple[str, str, Sequence[Entry]]],
        costs: Mapping[str, tuple[int, int]],
        first: tuple[int, int],
        rest: tuple[int, int],
    ) -> list[list[tuple[str, str, list[Entry]]]]:
        """Cut sections into parts within budgets of (bytes, elements): ``first``, then ``rest``.

        A part holds at least one entry, however costly.
        """
        parts: list[list[tuple[str, str, list[Entry]]]] = [[]]
        used_bytes, used_elements = 0, 0
        budget_bytes, budget_elements = first
        for title, anchor, entries in sections:
            current: list[Entry] = []
            parts[-1].append((title, anchor, current))
            for entry in entries:
                size, elements = costs[entry.id]
                full = (
                    used_bytes + size > budget_bytes or used_elements + elements > budget_elements
                )
                if used_bytes and full:
                    current = []
                    parts.append([(title, anchor, current)])
                    used_bytes, used_elements = 0, 0
                    budget_bytes, budget_elements = rest
                current.append(entry)
                used_bytes += size
                used_elements += elements
        return parts

    def _first_part_elements(self, category_id: str) -> int:
        """Estimate the elements a category's first part holds besides cards and stubs.

        The timeline (about five a work: its node, label and arrow, and its line in the text
        version), the start-here list, and the one-line list of entries filed elsewhere.
        """
        cat = self.catalog.categories[category_id]
        elements = 3 + 2 * len(cat.start_here)
        if not cat.children:
            dated = sum(1 for e in self.catalog.in_category(cat.id) if e.year is not None)
            elements += 10 + 5 * min(dated, TIMELINE_LIMIT) if dated >= 2 else 0
        secondary = len(self.catalog.in_category(cat.id, primary=False))
        return elements + 3 * min(secondary, SEE_ALSO_LIMIT)

    def _card_size(self, entry: Entry) -> int:
        """Estimate a card's HTML size without rendering links (enough to plan parts).

        A framework's capabilities are left out: one line of text in a closed <details>, a
        few elements the browser does not lay out until the reader opens it.
        """
        return (
            900
            + len(entry.description)
            + 3 * len(entry.title)
            + 30 * len(entry.authors)
            + (400 if entry.kind == "paper" else 0)
            + 150 * (len(entry.links) + len(entry.tags))
            + sum(
                120 + len(view.title)
                for group in self.related_groups(entry, "")
                for view in (*group.shown, *group.folded)
            )
            + (len(entry.maintenance.evidence or "") + 200 if entry.maintenance else 0)
        )

    def _card_elements(self, entry: Entry) -> int:
        """Count the elements of an entry's card as the card template writes them.

        Counted, not rendered: the links of a card need the layout this estimate helps plan.
        (A test holds it to the rendered cards of the real catalog.)
        """
        from ddl_catalog.export.bibtex import CITABLE_KINDS

        facts = card_facts(entry, self.metadata.get(entry.id))
        groups = self.related_groups(entry, "")
        badges = len(metadata_flags(self.metadata.get(entry.id)))
        badges += (entry.status in ("archived", "dead")) + bool(
            entry.status == "dead" and entry.archive_url
        )
        elements = (
            6  # article, h3 and its two links, the meta line and its kind badge
            + badges
            + (entry.year is not None)
            + (entry.venue is not None)
            + (1 if entry.authors or entry.team else 0)
            + 1  # description
            + (1 + len(entry.links) if entry.links else 0)
            + (1 + len(entry.tags) if entry.tags else 0)
            + (len(entry.categories) if len(entry.categories) > 1 else 0)
            + (1 if groups else 0)  # the related block
            + sum(2 + len(g.shown) + (2 + len(g.folded) if g.folded else 0) for g in groups)
            + 3  # the edit line: permalink, edit link
            + (1 if entry.id in self.entry_bib else 0)
            + (2 if entry.kind in CITABLE_KINDS else 0)  # the copy button and its span
            + (4 if entry.capabilities is not None else 0)
        )
        if entry.maintenance is not None:
            evidence = entry.maintenance.evidence
            elements += 1 + (1 + bool(entry.maintenance.source) if evidence else 0)
        if facts is not None:
            if facts.repo:
                elements += 3 if facts.repo_as_of else 1
            if facts.venue or facts.ids:
                elements += 1 + (2 if facts.venue else 0) + len(facts.ids)
        return elements

    def _render_category(self, plan: _CategoryPlan) -> list[SitePage]:
        """Render the pages of one category's page plan (one, or a first page plus parts)."""
        cat = self.catalog.categories[plan.category_id]
        top = self.catalog.categories[cat.parent] if cat.parent else None
        urls = [url for url, _sections in plan.parts]
        base = plan.first_src.removesuffix(".md")
        pages: list[SitePage] = []
        for index, (url, sections) in enumerate(plan.parts):
            entries = [e for _heading, _anchor, es in sections for e in es]
            cards = [self.card(e, url) for e in entries]
            secondary = self._in_order(cat.id, primary=False) if index == 0 else []
            later = []
            if index == 0:
                later = [e for _url, rest in plan.parts[1:] for _h, _a, es in rest for e in es]
            overview = self._overview(cat.id, url) if index == 0 and not top else []
            # Anchors of the lines left out (later cards, overview lines past the limit).
            moved_map = {
                e.id: relative(url, self.layout.permalink(e.id)) for e in later[LINE_LIMIT:]
            }
            for view in overview:
                moved_map.update(view.pop("hidden"))
            tags = sorted({t for e in entries for t in e.tags})
            page = self._page(
                "category.md.j2",
                plan.first_src if index == 0 else f"{base}/{index + 1}.md",
                cat.title,
                index == 0,
                origin=f"the page of category '{cat.id}'",
                edit_url=self.edit_categories,
                cat=cat,
                anchor=self.anchor_of(cat.id),
                ids=self.anchors.page,
                # Former ids of merged categories keep their links working here.
                aliases=[self.anchor_of(a) for a in cat.aliases] if index == 0 else [],
                parent=(top.title, relative(url, self._category_url(top.id))) if top else None,
                part=index + 1,
                parts=[(relative(url, u), n + 1) for n, u in enumerate(urls)],
                cards=cards,
                eager=EAGER_CARDS,
                secondary=[self.compact(e, url) for e in secondary[:SEE_ALSO_LIMIT]],
                secondary_more=(
                    (len(secondary) - SEE_ALSO_LIMIT, self._explore_category(url, cat.id))
                    if len(secondary) > SEE_ALSO_LIMIT
                    else None
                ),
                overview=overview,
                later=[self.compact(e, url, stub=True) for e in later[:LINE_LIMIT]],
                later_more=max(0, len(later) - LINE_LIMIT),
                moved_map=dict(sorted(moved_map.items())),
                tags=tags,
                timeline=(
                    self._timeline(
                        self.catalog.in_category(cat.id),
                        url,
                        self.anchors.timeline[cat.id],
                        cat.title,
                    )
                    if index == 0 and not cat.children
                    else None
                ),
                start=[
                    (picked.title, relative(url, self.layout.permalink(picked.id)), why)
                    for entry_id, why in (cat.start_here if index == 0 else ())
                    if (picked := self.catalog.get(entry_id)) is not None
                ],
                bib=(
                    relative(url, self.bib_files[cat.id])
                    if index == 0 and cat.id in self.bib_files
                    else None
                ),
            )
            pages.append(page)
        return pages

    def _in_order(self, category_id: str, *, primary: bool) -> list[Entry]:
        """Return a category's entries in reading order (model/order.py: picks first)."""
        picks = [entry_id for entry_id, _why in self.catalog.categories[category_id].start_here]
        return order.reading_order(self.catalog.in_category(category_id, primary=primary), picks)

    def _explore_category(self, from_url: str, category_id: str) -> str:
        """Return the href of the Explore view of one category (filed elsewhere included)."""
        return (
            relative(from_url, page_url("explore.md")) + "?" + urlencode({"category": category_id})
        )

    def _overview(self, top_id: str, from_url: str) -> list[dict[str, Any]]:
        """List a top-level category's subcategories, each with its entries in one line."""
        views = []
        for child in self.catalog.children(top_id):
            entries = self._in_order(child.id, primary=True)
            hidden = {
                e.id: relative(from_url, self.layout.permalink(e.id)) for e in entries[LINE_LIMIT:]
            }
            views.append(
                {
                    "title": child.title,
                    "anchor": self.anchor_of(child.id),
                    "aliases": [self.anchor_of(alias) for alias in child.aliases],
                    "description": child.description,
                    "href": relative(from_url, self._section_url[child.id]),
                    "count": len(entries),
                    "also": len(self.catalog.in_category(child.id, primary=False)),
                    "entries": [
                        self.compact(e, from_url, moved=True) for e in entries[:LINE_LIMIT]
                    ],
                    "more": len(hidden),
                    "hidden": hidden,
                }
            )
        return views

    # -- views of an entry -------------------------------------------------------------------

    def card(self, entry: Entry, from_url: str) -> CardView:
        """Return what the card template needs for one entry, links made relative."""
        related = self.related_groups(entry, from_url)
        return CardView(
            e=entry,
            kind=KIND_LABELS[entry.kind][0],
            authors=entry.authors[:8],
            more_authors=max(0, len(entry.authors) - 8),
            venue=venue_label(entry, self.catalog.venues),
            team=entry.team,
            tags=[(t, explore_tag(from_url, t)) for t in entry.tags],
            related=related,
            bibtex=bibtex(entry, self.catalog),
            bib_file=(
                relative(from_url, self.entry_bib[entry.id]) if entry.id in self.entry_bib else None
            ),
            edit=self.edit_base + entry.source,
            flags=metadata_flags(self.metadata.get(entry.id)),
            facts=card_facts(entry, self.metadata.get(entry.id)),
            maintenance=matrix.detail(entry, self.catalog),
            caps=matrix.card_cells(self.catalog, entry),
            categories=[
                (self.catalog.categories[c].title, relative(from_url, self._category_url(c)))
                for c in entry.categories[1:]
            ],
        )

    def related_groups(self, entry: Entry, from_url: str) -> list[RelatedGroup]:
        """Group an entry's related works by relation, each work once, long groups folded."""
        seen: set[str] = set()
        by_relation: dict[str, list[RelatedView]] = {}
        order = {relation: n for n, (relation, _label) in enumerate(RELATION_GROUPS)}
        pairs = sorted(self.catalog.related_of(entry.id), key=lambda p: order.get(p[0], 99))
        for relation, other in pairs:
            if other.id in seen or other.id == entry.id:
                continue
            seen.add(other.id)
            href = relative(from_url, self.layout.permalink(other.id)) if from_url else ""
            by_relation.setdefault(relation, []).append(RelatedView(relation, other.title, href))
        groups = []
        for relation, label in RELATION_GROUPS:
            views = by_relation.get(relation, [])
            if views:
                kept = views[:RELATED_LIMIT]
                groups.append(
                    RelatedGroup(
                        label,
                        tuple(kept[:RELATED_SHOWN]),
                        tuple(kept[RELATED_SHOWN:]),
                        len(views) - len(kept),
                    )
                )
        return groups

    def _category_url(self, category_id: str) -> str:
        """Return the URL of a category's page or section."""
        cat = self.catalog.categories[category_id]
        if cat.parent is None:
            return page_url(f"{cat.id}.md")
        return self._section_url[cat.id]

    def compact(
        self, entry: Entry, from_url: str, *, stub: bool = False, moved: bool = False
    ) -> CompactView:
        """Return a one-line view of an entry that links to its card."""
        return CompactView(
            entry,
            relative(from_url, self.layout.permalink(entry.id)),
            KIND_LABELS[entry.kind][0],
            stub,
            moved,
            matrix.marker(entry, self.catalog),
            venue_label(entry, self.catalog.venues),
        )

    # -- kind groups and years ---------------------------------------------------------------

    def _kind_pages(self) -> list[SitePage]:
        """Render one page per kind group, its entries by kind in reading order (order.py)."""
        pages: list[SitePage] = []
        for slug, title, kinds in KIND_GROUPS:
            sections = [
                (
                    KIND_LABELS[kind][1],
                    f"kind-{kind}",
                    sorted((e for e in self.catalog if e.kind == kind), key=order.kind_key),
                )
                for kind in kinds
            ]
            sections = [s for s in sections if s[2]]
            pages += self._list_pages(
                f"kinds/{slug}",
                title,
                sections,
                omit=("kind",),
                rule="by kind; papers and other writings newest first, software and the rest "
                "by name.",
                sortable=True,
            )[0]
        return pages

    def _year_pages(self) -> list[SitePage]:
        """Render papers by year, newest first, with the bar chart on the first page."""
        from ddl_catalog.render.svg import year_chart

        papers = [e for e in self.catalog if e.kind == "paper"]
        years = sorted({e.year for e in papers if e.year is not None}, reverse=True)
        sections = [
            (
                str(year),
                f"year-{year}",
                sorted(
                    (e for e in papers if e.year == year), key=lambda e: (e.title.lower(), e.id)
                ),
            )
            for year in years
        ]
        undated = sorted((e for e in papers if e.year is None), key=lambda e: e.title.lower())
        if undated:
            sections.append(("Year unknown", "year-unknown", undated))
        counts = {year: len(s[2]) for year, s in zip(years, sections, strict=False)}
        pages, anchors = self._list_pages(
            "papers-by-year",
            "Papers by year",
            sections,
            chart=True,
            omit=("kind", "year"),
            rule="newest year first; inside a year, by title.",
            notes=self._editions_by_year(),
        )
        base = page_url("papers-by-year.md")
        hrefs = {year: relative(base, f"{anchors[f'year-{year}']}#year-{year}") for year in counts}
        chart = year_chart(counts, hrefs, label="Number of papers per year")
        first = pages[0]
        pages[0] = replace(first, markdown=first.markdown.replace("<!-- chart -->", chart))
        return pages

    def _venue_pages(self) -> list[SitePage]:
        """Render the venues page and one page per venue, its papers by edition, newest first.

        Every edition's list gets an anchor of its own (``sosp-2025``), claimed away from entry
        ids; the papers-by-year page links them.
        """
        by_venue: dict[str, list[Entry]] = {}
        for entry in self.catalog:
            if entry.venue:
                by_venue.setdefault(entry.venue, []).append(entry)
        if not by_venue:
            return []
        slugs: dict[str, str] = {}
        taken: set[str] = set()
        for venue_id in sorted(by_venue, key=lambda v: (v.casefold(), v)):
            slug = base = venue_slug(venue_id)
            number = 2
            while slug in taken:
                slug, number = f"{base}-{number}", number + 1
            taken.add(slug)
            slugs[venue_id] = slug
        pages: list[SitePage] = []
        groups: dict[str, list[dict[str, Any]]] = {}
        index_url = page_url("venues.md")
        for venue_id, slug in slugs.items():
            venue = self.catalog.venues.get(venue_id)
            editions: dict[int | None, list[Entry]] = {}
            for entry in by_venue[venue_id]:
                editions.setdefault(entry.venue_year, []).append(entry)
            years = sorted((y for y in editions if y is not None), reverse=True)
            sections: list[tuple[str, str, Sequence[Entry]]] = []
            for year in [*years, *([None] if None in editions else [])]:
                short = venue.short_for(year) if venue is not None else venue_id
                heading = f"{short} {year}" if year is not None else f"{short}, edition not given"
                anchor = self.anchors.claim(f"{slug}-{year if year is not None else 'undated'}")
                sections.append(
                    (
                        heading,
                        anchor,
                        sorted(editions[year], key=lambda e: (e.title.casefold(), e.id)),
                    )
                )
            name = venue.name if venue is not None else venue_id
            kind = venue.type if venue is not None else "other"
            src = f"venues/{slug}.md"
            venue_pages, starts = self._list_pages(
                f"venues/{slug}",
                f"{venue_id}: {name}" if name != venue_id else venue_id,
                sections,
                omit=("venue",),
                rule="newest edition first; inside an edition, by title.",
                intro=self._venue_intro(venue, len(by_venue[venue_id])),
                back=("All venues", index_url),
                in_nav=False,
            )
            pages += venue_pages
            for (_heading, anchor, _es), year in zip(
                sections, [*years, *([None] if None in editions else [])], strict=True
            ):
                self._edition_url[(venue_id, year)] = f"{starts[anchor]}#{anchor}"
            groups.setdefault(kind, []).append(
                {
                    "id": venue_id,
                    "name": name,
                    "href": relative(index_url, page_url(src)),
                    "count": len(by_venue[venue_id]),
                    "editions": [
                        (
                            str(year) if year is not None else "edition not given",
                            relative(index_url, self._edition_url[(venue_id, year)]),
                            len(editions[year]),
                        )
                        for year in [*years, *([None] if None in editions else [])]
                    ],
                }
            )
        labels = dict(VENUE_TYPES)
        ordered = [t for t, _label in VENUE_TYPES if t in groups] + sorted(
            t for t in groups if t not in labels
        )
        index = self._page(
            "venues.md.j2",
            "venues.md",
            "Venues",
            True,
            groups=[
                (
                    labels.get(t, "Other venues"),
                    self.anchors.claim(f"venues-{t}"),
                    sorted(groups[t], key=lambda v: v["id"].casefold()),
                )
                for t in ordered
            ],
            total=sum(len(es) for es in by_venue.values()),
            count=len(by_venue),
            years_href=relative(index_url, page_url("papers-by-year.md")),
        )
        return [index, *pages]

    def _venue_intro(self, venue: Any, count: int) -> str:
        """Return the line under a venue page's title: its type, first edition and count."""
        parts = []
        if venue is not None:
            parts.append(venue.type.capitalize())
            if venue.since is not None:
                parts.append(f"since {venue.since}")
            if venue.former:
                formerly = ", ".join(f"{short} (until {until})" for short, until in venue.former)
                parts.append(f"formerly {formerly}")
        parts.append(f"{count} {'work' if count == 1 else 'works'} in the catalog")
        return " · ".join(parts) + "."

    def _new_pages(self) -> list[SitePage]:
        """Render "What's new": every addition by the month it was added, newest first."""
        by_title = sorted(
            (e for e in self.catalog if e.added), key=lambda e: (e.title.casefold(), e.id)
        )
        added = sorted(by_title, key=lambda e: e.added or "", reverse=True)  # stable: titles
        if not added:
            return []
        months: dict[str, list[Entry]] = {}
        for entry in added:
            months.setdefault((entry.added or "")[:7], []).append(entry)
        sections: list[tuple[str, str, Sequence[Entry]]] = []
        for month, entries in months.items():  # newest first, as sorted
            year, number = month.split("-")
            heading = f"{MONTHS[int(number) - 1]} {year} ({len(entries)})"
            sections.append((heading, self.anchors.claim(f"added-{month}"), entries))
        limit = settings.of(self.catalog).feed_limit
        return self._list_pages(
            "new",
            "What's new",
            sections,
            rule="by the day an entry was added, newest first; a day's additions by title.",
            intro=(
                f"Every addition to the catalog, {len(added)} in all, by the month it was "
                f"added. The Atom feed carries the {limit} newest."
            ),
            back=("Subscribe to the Atom feed", "feed.xml"),
            added=True,
        )[0]

    def _editions_by_year(self) -> dict[str, list[tuple[str, str]]]:
        """Return, for each year section of papers by year, links to that year's venue editions."""
        counts: dict[tuple[str, int], int] = {}
        for entry in self.catalog:
            if entry.venue and entry.venue_year is not None:
                key = (entry.venue, entry.venue_year)
                counts[key] = counts.get(key, 0) + 1
        notes: dict[str, list[tuple[str, str]]] = {}
        for (venue_id, year), count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            venue = self.catalog.venues.get(venue_id)
            short = venue.short_for(year) if venue is not None else venue_id
            target = self._edition_url[(venue_id, year)]
            notes.setdefault(f"year-{year}", []).append((f"{short} {year} ({count})", target))
        return notes

    def _list_pages(
        self,
        base_src: str,
        title: str,
        sections: Sequence[tuple[str, str, Sequence[Entry]]],
        *,
        chart: bool = False,
        omit: tuple[str, ...] = (),
        rule: str = "",
        sortable: bool = False,
        intro: str = "",
        back: tuple[str, str] | None = None,
        in_nav: bool = True,
        notes: Mapping[str, Sequence[tuple[str, str]]] | None = None,
        added: bool = False,
    ) -> tuple[list[SitePage], dict[str, str]]:
        """Render sections of one-line entries, split into numbered parts when too big.

        Returns the pages and, for each section anchor, the URL of the page it starts on.
        ``chart`` leaves a place for a chart on the first page; ``omit`` names what the lines
        leave out because their headings say it ("kind", "year"); ``rule`` is the order the
        page states, and ``sortable`` lets the reader re-sort each section (order.js);
        ``intro`` is text under the title and ``back`` a (label, site URL) link after it;
        ``notes`` gives a section (by anchor) a line of links, (label, site URL) each;
        ``added`` starts each line with the day its entry was added.
        """
        # Lines are budgeted by their bytes alone (each is three elements, a fixed share).
        costs = {
            e.id: (400 + len(e.title) + len(e.description), 0)
            for _h, _a, es in sections
            for e in es
        }
        budget = (self.list_budget, 0)
        parts = self._split(sections, costs, budget, budget)
        srcs = [f"{base_src}.md"] + [f"{base_src}/{i + 1}.md" for i in range(1, len(parts))]
        urls = [page_url(s) for s in srcs]
        starts: dict[str, str] = {}
        for url, part in zip(urls, parts, strict=True):
            for _h, anchor, entries in part:
                if entries:
                    starts.setdefault(anchor, url)
        pages = []
        for index, (src, url, part) in enumerate(zip(srcs, urls, parts, strict=True)):
            page = self._page(
                "list.md.j2",
                src,
                title,
                in_nav and index == 0,
                title=title if index == 0 else f"{title} ({index + 1})",
                first=index == 0,
                part=index + 1,
                parts=[(relative(url, u), n + 1) for n, u in enumerate(urls)],
                sections=[(h, a, [self.compact(e, url) for e in es]) for h, a, es in part if es],
                chart=chart and index == 0,
                omit=omit,
                rule=rule,
                sortable=sortable,
                added=added,
                intro=intro,
                back=(back[0], relative(url, back[1])) if back else None,
                notes={
                    anchor: [(label, relative(url, target)) for label, target in links]
                    for anchor, links in (notes or {}).items()
                },
                # Links to a section that starts on a later part (#year-2019 from before the
                # list was split) are sent on by the site script, as a card's are.
                moved=[
                    (anchor, f"{relative(url, start)}#{anchor}")
                    for anchor, start in starts.items()
                    if index == 0 and start != url
                ],
            )
            pages.append(page)
        return pages, starts

    # -- explore -----------------------------------------------------------------------------

    def _explore_page(self) -> SitePage:
        """Render the Explore page, its JSON index (a row per entry) and the text filter's words."""
        url = page_url("explore.md")
        rows = []
        for e in self.catalog:
            top = [self.catalog.categories[c].parent or c for c in e.categories]
            rows.append(
                {
                    "id": e.id,
                    "t": e.title,
                    "k": e.kind,
                    "y": e.year,
                    "c": list(dict.fromkeys(list(e.categories) + top)),
                    "g": list(e.tags),
                    "h": relative(url, self.layout.permalink(e.id)),
                    "m": e.maintenance.state if e.maintenance else None,
                    "v": e.venue,
                    "vl": venue_label(e, self.catalog.venues),
                }
            )
        index = {
            "kinds": [[k, KIND_LABELS[k][0]] for k in self.catalog.count_by_kind()],
            "categories": [
                [c.id, c.title, c.parent or ""] for c in self.catalog.categories.values()
            ],
            "tags": sorted(self.catalog.tags),
            "states": [[k, v] for k, v in MAINTENANCE_LABELS.items()],
            "entries": rows,
        }
        text = json.dumps(index, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        self.layout.files.append(SiteFile("explore/index.json", text))
        # What only the text filter reads, fetched on its first use: authors and description.
        words = {
            e.id: " ".join(
                filter(
                    None,
                    (
                        authors_text(e.authors, team=e.team),
                        self.catalog.venues[e.venue].name
                        if e.venue and e.venue in self.catalog.venues
                        else None,
                        e.description,
                    ),
                )
            )
            for e in self.catalog
        }
        text = json.dumps(words, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        self.layout.files.append(SiteFile("explore/text.json", text))
        years = [e.year for e in self.catalog if e.year is not None]
        return self._page(
            "explore.md.j2",
            "explore.md",
            "Explore",
            True,
            kinds=index["kinds"],
            tops=[(c, self.catalog.children(c.id)) for c in self.catalog.top_categories()],
            tags=index["tags"],
            year_min=min(years, default=1950),
            year_max=max(years, default=1950),
            count=len(rows),
            venues=sorted(
                Counter(e.venue for e in self.catalog if e.venue).items(),
                key=lambda kv: kv[0].casefold(),
            ),
            states=[
                (k, v) for k, v in MAINTENANCE_LABELS.items() if any(r["m"] == k for r in rows)
            ],
        )

    # -- timelines ---------------------------------------------------------------------------

    def _timeline(
        self,
        entries: Iterable[Entry],
        url: str,
        caption_id: str,
        name: str,
        *,
        lanes: bool = False,
    ) -> dict[str, Any] | None:
        """Lay out the timeline of some entries (those with a year), or None for fewer than 2.

        Software that implements one paper of the timeline, within a year of it, is drawn as
        that paper's mark (a paper and its code are one work); arrows to or from it go to the
        paper. With ``lanes`` every top-level topic is a lane (the field-wide timeline).
        """
        from ddl_catalog.render.svg import Mark, timeline

        dated = {e.id: e for e in entries if e.year is not None}
        if len(dated) < 2:
            return None
        total = len(dated)
        limit = LANDMARK_LIMIT if lanes else TIMELINE_LIMIT
        if total > limit:
            dated = self._landmarks(dated, limit)
        code = self._code_of_papers(dated)
        merged = {software: paper for paper, found in code.items() for software in found}
        shown = {i: e for i, e in dated.items() if i not in merged}
        href = {i: relative(url, self.layout.permalink(i)) for i in dated}
        edges = sorted(
            {
                (merged.get(e.id, e.id), merged.get(rel.id, rel.id))
                for e in dated.values()
                for rel in e.related
                if rel.relation == "builds-on" and rel.id in dated
            }
            - {(i, i) for i in shown}
        )
        tops = [top.id for top in self.catalog.top_categories()]
        lane_of = {
            i: tops.index(self.catalog.categories[e.primary_category].parent or e.primary_category)
            for i, e in shown.items()
        }
        used = sorted(set(lane_of.values())) if lanes else []
        marks = [
            Mark(
                e.id,
                e.year or 0,
                e.title,
                href[e.id],
                software=e.kind in ("framework", "library"),
                with_code=e.id in code,
                lane=used.index(lane_of[e.id]) if lanes else 0,
            )
            for e in shown.values()
        ]
        years: dict[int, list[dict[str, Any]]] = {}
        for e in sorted(shown.values(), key=lambda e: (e.year or 0, e.title.casefold(), e.id)):
            years.setdefault(e.year or 0, []).append(
                {
                    "title": e.title,
                    "href": href[e.id],
                    "builds": [(shown[b].title, href[b]) for a, b in edges if a == e.id],
                    "code": [(dated[c].title, href[c]) for c in code.get(e.id, ())],
                    "topic": (
                        self.catalog.categories[tops[lane_of[e.id]]].title if lanes else None
                    ),
                }
            )
        first, last = min(years), max(years)
        label = f"Timeline of {name}: {len(dated)} works from {first} to {last}"
        if total > len(dated):
            label = (
                f"Timeline of {name}: {len(dated)} of its {total} works from {first} to {last}"
                " (the start-here picks and the works most built on)"
            )
        svg = timeline(
            marks,
            edges,
            label=label,
            caption_id=caption_id,
            lanes=[self.catalog.categories[tops[i]].title for i in used],
            column=48 if lanes else 38,
        )
        links = f"{len(edges)} {'arrow points' if len(edges) == 1 else 'arrows point'}"
        return {
            "id": caption_id,
            "caption": f"{label}; {links} from a work to an earlier one it builds on.",
            "summary": (
                f"Timeline: {len(dated)} {'work' if len(dated) == 1 else 'works'}, "
                f"{first}–{last}, {len(edges)} lineage {'link' if len(edges) == 1 else 'links'}"
            ),
            "svg": Markup(svg),  # noqa: S704 - built from escaped values (render/svg.py)
            "years": sorted(years.items()),
        }

    def _code_of_papers(self, dated: Mapping[str, Entry]) -> dict[str, list[str]]:
        """Return paper id -> the software that implements it alone, within a year of it."""
        found: dict[str, list[str]] = {}
        for e in dated.values():
            if e.kind not in ("framework", "library") or e.year is None:
                continue
            papers = [
                r.id
                for r in e.related
                if r.relation == "implements"
                and r.id in dated
                and dated[r.id].kind == "paper"
                and abs((dated[r.id].year or 0) - e.year) <= 1
            ]
            if len(papers) == 1:
                found.setdefault(papers[0], []).append(e.id)
        return {paper: sorted(ids) for paper, ids in sorted(found.items())}

    def _start_here_ids(self) -> set[str]:
        """Return the ids every category's start-here list picks (the timelines keep them)."""
        return {i for c in self.catalog.categories.values() for i, _why in c.start_here}

    def _landmarks(self, dated: dict[str, Entry], limit: int = TIMELINE_LIMIT) -> dict[str, Entry]:
        """Keep ``limit`` works: start-here picks, then the most built on, then linked."""
        picks = self._start_here_ids()
        incoming: dict[str, int] = {}
        linked: set[str] = set()
        for e in dated.values():
            for rel in e.related:
                if rel.relation == "builds-on" and rel.id in dated:
                    incoming[rel.id] = incoming.get(rel.id, 0) + 1
                    linked.update((e.id, rel.id))

        def rank(e: Entry) -> tuple[int, int, int, int, str]:
            # Picks first, then most built on, then any arrow, then the newest; the id decides.
            return (
                e.id not in picks,
                -incoming.get(e.id, 0),
                e.id not in linked,
                -(e.year or 0),
                e.id,
            )

        kept = sorted(dated.values(), key=rank)[:limit]
        return {e.id: e for e in kept}

    def _landmarks_page(self) -> SitePage | None:
        """Render the field-wide timeline: every start-here pick and much-built-on work."""
        url = page_url("timeline.md")
        incoming: dict[str, int] = {}
        for e in self.catalog:
            for rel in e.related:
                if rel.relation == "builds-on":
                    incoming[rel.id] = incoming.get(rel.id, 0) + 1
        picks = self._start_here_ids()
        chosen = [e for e in self.catalog if e.id in picks or incoming.get(e.id, 0) >= 3]
        drawn = self._timeline(
            chosen, url, self.anchors.landmarks, "the field's landmarks", lanes=True
        )
        if drawn is None:
            return None
        return self._page("timeline.md.j2", "timeline.md", "Timeline", True, timeline=drawn)

    # -- compare -----------------------------------------------------------------------------

    def _compare_page(self) -> SitePage:
        """Render the capability matrix: a row per framework, a column per capability."""
        url = page_url("compare.md")
        config = settings.of(self.catalog)
        rows = [
            (
                row,
                relative(url, self.layout.permalink(row.entry.id)),
                matrix.detail(row.entry, self.catalog),
            )
            for row in matrix.rows(self.catalog)
        ]
        vias = {c.via.id for row, _, _ in rows for c in row.effective if c.via is not None}
        return self._page(
            "compare.md.j2",
            "compare.md",
            "Compare",
            True,
            title=config.capability_title,
            intro=config.capability_intro,
            groups=matrix.groups(self.catalog),
            rows=rows,
            first=COMPARE_FIRST,
            symbols=matrix.SYMBOLS,
            via_href={i: relative(url, self.layout.permalink(i)) for i in sorted(vias)},
            limits_text=matrix.limits_text,
            limits_data=matrix.limits_data,
        )

    # -- home --------------------------------------------------------------------------------

    def home_block(self, downloads: Iterable[tuple[str, str]] | None) -> str:
        """Render the generated part of the home page: counts, recent entries, downloads."""
        from_url = ""
        counts = self.catalog.count_by_kind()
        group_counts = [
            (
                title,
                relative(from_url, page_url(f"kinds/{slug}.md")),
                sum(counts.get(k, 0) for k in kinds),
            )
            for slug, title, kinds in KIND_GROUPS
        ]
        categories = [
            (
                top.title,
                relative(from_url, page_url(f"{top.id}.md")),
                len({e.id for c in [top.id, *top.children] for e in self.catalog.in_category(c)}),
            )
            for top in self.catalog.top_categories()
        ]
        by_title = sorted(
            (e for e in self.catalog if e.added), key=lambda e: (e.title.casefold(), e.id)
        )
        dated = sorted(by_title, key=lambda e: e.added or "", reverse=True)[:HOME_RECENT]
        generated = {page.src_uri for page in self.layout.pages}
        ways = [("Topics", "#topics", f"{len(categories)} topics, each with where to start")]
        ways += [
            (title, relative(from_url, page_url(src)), about)
            for title, src, about in (
                ("Compare", "compare.md", "training frameworks side by side, every cell sourced"),
                ("Timeline", "timeline.md", "the landmark works and what builds on them"),
                ("Explore", "explore.md", "filter and sort every entry"),
                ("Venues", "venues.md", "papers by conference and edition"),
                ("What's new", "new.md", "the latest additions, by month"),
            )
            if src in generated
        ]
        return self.env.get_template("home.md.j2").render(
            ways=ways,
            new_href=relative(from_url, page_url("new.md")) if "new.md" in generated else None,
            feed_limit=settings.of(self.catalog).feed_limit,
            total=len(self.catalog),
            kinds=[(KIND_LABELS[k][1], n) for k, n in counts.items()],
            groups=[g for g in group_counts if g[2]],
            categories=categories,
            recent=[self.compact(e, from_url) for e in dated],
            downloads=list(downloads) if downloads is not None else None,
            bib_files=[
                (top.title, self.bib_files[top.id])
                for top in self.catalog.top_categories()
                if top.id in self.bib_files
            ],
        )


def metadata_flags(meta: Metadata | None) -> tuple[str, ...]:
    """Return the badges that fetched metadata adds to a card (archived or inactive repository)."""
    if meta is None:
        return ()
    if meta.archived:
        return ("Repository archived",)
    if meta.stale:
        return (f"Inactive since {meta.pushed_at}",) if meta.pushed_at else ("Inactive",)
    return ()


def card_facts(entry: Entry, meta: Metadata | None) -> FactsView | None:
    """Return what a card shows of the fetched metadata and a paper's identifiers (or None).

    Repository facts come only from data/metadata/github.json and carry its fetch date; a
    paper's identifiers are its own (``identifiers`` or its URL's), its DOI failing that the
    one arXiv reported; a venue is shown from Crossref or arXiv only when the entry states none.
    """
    repo: list[str] = []
    as_of = None
    gh = meta.github if meta else None
    if meta is not None and gh:
        if meta.stars is not None:
            repo.append(f"★ {meta.stars:,} stars")
        if meta.pushed_at:
            repo.append(f"last push {meta.pushed_at}")
        if isinstance(gh.get("license"), str) and gh["license"]:
            repo.append(f"licence {gh['license']}")
        fetched = gh.get("fetched")  # an archived repository has its badge (metadata_flags)
        as_of = fetched[:10] if isinstance(fetched, str) and fetched[:10] else None
    venue = None
    ids: list[tuple[str, str, str]] = []
    if entry.kind in ("paper", "book"):
        arxiv = meta.arxiv if meta else None
        crossref = meta.crossref if meta else None
        if not entry.venue:
            for source, record, key in (
                ("Crossref", crossref, "venue"),
                ("arXiv", arxiv, "journal_ref"),
            ):
                value = record.get(key) if record else None
                fetched = record.get("fetched") if record else None
                if isinstance(value, str) and value.strip() and isinstance(fetched, str):
                    venue = (" ".join(value.split()), source, fetched[:10])
                    break
        keys = entry_keys(entry)  # the entry's own identifiers, or those its URL holds
        aid = keys.get("arxiv")
        if aid:
            ids.append(("arXiv", aid, f"https://arxiv.org/abs/{quote(aid, safe='/.')}"))
        doi = entry.identifiers.doi or keys.get("crossref")
        if not doi and arxiv and isinstance(arxiv.get("doi"), str):
            doi = arxiv["doi"]
        if doi:
            ids.append(("DOI", doi, f"https://doi.org/{quote(doi, safe='/.()-_;:')}"))
    if not repo and venue is None and not ids:
        return None
    return FactsView(tuple(repo), as_of, venue, tuple(ids))


def _stub_size(entry: Entry) -> int:
    """Estimate the HTML size of an entry's stub in "More in this category"."""
    return 110 + 3 * len(entry.id) + len(entry.title)


@dataclass(frozen=True)
class _CategoryPlan:
    """One category page's parts, (page URL, sections) in order."""

    category_id: str
    #: Markdown source of the first part: <top>.md, or <top>/<subcategory>.md.
    first_src: str
    parts: list[tuple[str, list[tuple[str, str, list[Entry]]]]]
