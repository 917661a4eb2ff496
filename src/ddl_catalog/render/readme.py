"""README.md: the catalog as an awesome list, rendered from templates/README.md.j2.

The layout lives in the template; this module decides what goes where:

* order: the reading order of ``model.order`` (the website's too): a section's start-here
  picks first, then by kind, writings newest first and everything else by name;
* an entry appears in full once, under its primary (first) category; each of its other
  categories names it in a short "Also relevant" line that says which section lists it, so a
  reader stays on the page (no link leaves GitHub for the website, and no URL repeats);
* secondary links are labelled by type (``code``, ``slides`` ...; ``slides 1``, ``slides 2``
  when an entry has several of a type);
* no URL appears twice (awesome-lint's double-link rule): a secondary link that repeats a URL
  already on the page is left out;
* size: if the full README would exceed SIZE_BUDGET bytes, the largest sections are shortened
  first, one at a time, until it fits (see ``_fit``); GitHub stops rendering past 512 KB.
"""

from __future__ import annotations

import difflib
import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ddl_catalog import files, matrix, mkdocs_yml, resources, settings
from ddl_catalog.citation import venue_label
from ddl_catalog.load import LoadError, read_bytes
from ddl_catalog.metadata import Metadata, MetadataError, load_metadata
from ddl_catalog.model import KIND_LABELS, Catalog, Category, Entry
from ddl_catalog.model.order import reading_order
from ddl_catalog.render.markdown import Slugger, md_paragraph, md_text, md_url

#: GitHub does not render a README larger than this.
GITHUB_README_LIMIT = 512 * 1024
#: Past this size the generator shortens sections (leaves room under GitHub's limit).
SIZE_BUDGET = 400 * 1024
#: The largest README file ``--check`` reads to compare (anything larger is stale anyway).
MAX_README_BYTES = 16 * 1024 * 1024
#: A shortened section lists this many entries (title and link only) ...
SHORT_ENTRIES = 25
#: ... and this many cross-references, then links to its page on the website.
SHORT_XREFS = 10
#: Papers show this many authors, then "et al.".
AUTHORS_SHOWN = 3
#: Surnames that awesome-lint's spell-check reads as technology names ("Dao" as the crypto term
#: DAO). Its message says "if referring to the technology"; a person's name is not, so an entry
#: whose shown authors include one is preceded by a comment that skips that one check for it.
NAMES_MISREAD_BY_SPELL_CHECK = frozenset({"Dao"})

TEMPLATE = "README.md.j2"

#: How counts name each kind ("1 paper", "3 libraries"): the site's labels in lower case, but
#: "documentation site(s)", since "3 documentation" does not count anything.
_KIND_COUNT_LABELS = {
    **{kind: (one.lower(), many.lower()) for kind, (one, many) in KIND_LABELS.items()},
    "docs": ("documentation site", "documentation sites"),
}


class ReadmeError(Exception):
    """The README cannot be rendered or written (bad template, unwritable file ...)."""


@dataclass(frozen=True, slots=True)
class LinkView:
    """A secondary link shown inline after an entry's description."""

    label: str
    url: str


@dataclass(frozen=True, slots=True)
class EntryView:
    """What the template needs to show one entry in full or compact form."""

    id: str
    title: str
    href: str
    description: str
    status_note: str | None
    people: str | None
    venue: str | None
    year: int | None
    links: tuple[LinkView, ...]
    #: The year of the venue's edition, when the data gives it (``venue`` already reads
    #: "ICLR 2024": this is for the "first published" note).
    venue_year: int | None = None
    #: The shown authors include a name that awesome-lint's spell-check misreads.
    skip_spell_check: bool = False


@dataclass(frozen=True, slots=True)
class XrefView:
    """Entries listed in full under another section, named by title under that section's title."""

    section: str
    titles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatrixView:
    """The compact capability table that opens one section, as aligned Markdown lines."""

    lines: tuple[str, ...]
    page: str | None


def table_lines(header: Sequence[str], rows: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """Return a Markdown table with every cell escaped and the pipes aligned (remark-lint).

    Cells are padded to the widest of their column, so the table reads as a table in the
    source too, which awesome-lint's table-pipe-alignment rule asks for.
    """
    cells = [[md_text(c) for c in header], *[[md_text(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    widths = [max(w, 3) for w in widths]

    def line(row: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"

    rule = "| " + " | ".join("-" * w for w in widths) + " |"
    return (line(cells[0]), rule, *(line(r) for r in cells[1:]))


@dataclass(frozen=True, slots=True)
class SectionView:
    """One category's section: heading, entries, cross-references, and whether it is shortened."""

    id: str
    title: str
    description: str
    depth: int
    anchor: str
    entries: tuple[EntryView, ...]
    xrefs: tuple[XrefView, ...]
    site_link: str
    #: Cross-referenced titles shown (the groups of ``xrefs`` hold several each).
    xref_count: int = 0
    shortened: bool = False
    total_entries: int = 0
    total_xrefs: int = 0
    matrix: MatrixView | None = None
    #: The category's start-here picks: (title, reason), shown above its entries.
    start: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ReadmeView:
    """Everything the template renders."""

    title: str
    intro: str
    build_note: str
    test_note: str
    code_of_conduct: bool
    site_url: str | None
    sections: tuple[SectionView, ...]
    total: int
    counts: tuple[tuple[int, str], ...]
    #: The data's licence (catalog.yml's SPDX id) and where its text is, or None.
    licence: str | None = None
    licence_url: str | None = None


def site_url_for(root: Path, config: settings.Settings | None = None) -> str | None:
    """Return the website's base URL: mkdocs.yml's site_url, else catalog.yml's, else None."""
    url = mkdocs_yml.published_url(root, (config or settings.load(root)).site_url)
    return url.rstrip("/") + "/" if url else None


def authors_text(
    authors: Sequence[str], *, team: str | None = None, more: bool = False
) -> str | None:
    """Return the authors in the README's form: all up to three, else the first three et al.

    A work credited to a team shows the team when it lists no people; ``more`` says the list
    holds only the first authors.
    """
    if not authors:
        return team
    if len(authors) <= AUTHORS_SHOWN and not more:
        return ", ".join(authors)
    return ", ".join(authors[:AUTHORS_SHOWN]) + " et al."


def link_key(url: str) -> str:
    """Return the form awesome-lint compares links in (no scheme, no www, no trailing slash)."""
    parts = urlsplit(url.strip())
    host = parts.netloc.lower().removeprefix("www.")
    path = parts.path.rstrip("/")
    query = "&".join(sorted(parts.query.split("&"))) if parts.query else ""
    return f"{host}{path}?{query}#{parts.fragment}"


def top_of(catalog: Catalog, category_id: str) -> str:
    """Return the id of the top-level category a category belongs to (itself if top-level)."""
    parent = catalog.categories[category_id].parent
    return parent if parent is not None else category_id


def section_link(catalog: Catalog, site: str | None, category_id: str) -> str:
    """Return the website address of a category's page (a subtopic's is under its topic's).

    Empty when the catalog has no website.
    """
    if not site:
        return ""
    top = top_of(catalog, category_id)
    return f"{site}{top}/" if top == category_id else f"{site}{top}/{category_id}/"


def cross_references(catalog: Catalog, entries: Sequence[Entry]) -> tuple[XrefView, ...]:
    """Group entries by the section that lists them in full, in the README's section order."""
    groups: dict[str, list[str]] = {}
    for entry in entries:
        groups.setdefault(entry.primary_category, []).append(entry.title)
    return tuple(
        XrefView(category.title, tuple(groups[category.id]))
        for top in catalog.top_categories()
        for category in (top, *catalog.children(top.id))
        if category.id in groups
    )


def build_view(
    catalog: Catalog, site: str | None, metadata: Mapping[str, Metadata] | None = None
) -> ReadmeView:
    """Arrange the catalog into sections, in categories.yml order, with the documented order.

    ``metadata`` (from ``ddl-catalog enrich``) adds flags for archived and inactive repositories.
    The title, the intro and the fields shown come from the catalog's settings (catalog.yml).
    """
    meta = metadata or {}
    config = settings.of(catalog)
    shown = frozenset(config.fields)
    slugger = Slugger()
    for heading in (config.title, "Contents"):
        slugger.slug(heading)
    main_urls = {link_key(_href(entry)) for entry in catalog.entries}
    seen_links: set[str] = set()
    sections: list[SectionView] = []
    for top in catalog.top_categories():
        for category, depth in [(top, 2)] + [(c, 3) for c in catalog.children(top.id)]:
            sections.append(
                _section(
                    catalog, site, category, depth, slugger, (main_urls, seen_links), meta, shown
                )
            )
    counts = catalog.count_by_kind()
    return ReadmeView(
        title=config.title,
        intro=config.description,
        # Each a comment on one line of a code block: a line break would end the block.
        build_note=" ".join(config.build_note.split()),
        test_note=" ".join(config.test_note.split()),
        code_of_conduct=(catalog.root / "CODE_OF_CONDUCT.md").is_file(),
        site_url=site,
        sections=tuple(sections),
        total=len(catalog),
        counts=tuple((n, _KIND_COUNT_LABELS[kind][n != 1]) for kind, n in counts.items()),
        licence=config.licence,
        licence_url=licence_url(config.licence),
    )


def licence_url(licence: str | None) -> str | None:
    """Return the SPDX page of a licence id (CC0-1.0), or None for no id or an expression."""
    if not licence or not re.fullmatch(r"[A-Za-z0-9.+-]+", licence):
        return None
    return f"https://spdx.org/licenses/{licence}.html"


def _section(
    catalog: Catalog,
    site: str | None,
    category: Category,
    depth: int,
    slugger: Slugger,
    urls: tuple[set[str], set[str]],
    meta: Mapping[str, Metadata],
    shown: frozenset[str] = frozenset(settings.FIELDS),
) -> SectionView:
    main_urls, seen_links = urls
    picks = [entry_id for entry_id, _why in category.start_here]
    primary = reading_order(catalog.in_category(category.id, primary=True), picks)
    table = None
    rows = matrix.rows(catalog) if category.id == settings.of(catalog).capability_section else []
    if rows:
        grouped = matrix.groups(catalog)
        table = MatrixView(
            lines=table_lines(
                ["Framework", *(name for name, _ in grouped)],
                [
                    [row.entry.title, *(matrix.compact(row, cols) for _, cols in grouped)]
                    for row in rows
                ],
            ),
            page=f"{site}compare/" if site else None,
        )
    secondary = reading_order(catalog.in_category(category.id, primary=False), picks)
    return SectionView(
        id=category.id,
        title=category.title,
        description=category.description,
        depth=depth,
        anchor=slugger.slug(category.title),
        entries=tuple(
            _entry_view(e, main_urls, seen_links, meta.get(e.id), shown, catalog) for e in primary
        ),
        xrefs=cross_references(catalog, secondary),
        site_link=section_link(catalog, site, category.id),
        xref_count=len(secondary),
        total_entries=len(primary),
        total_xrefs=len(secondary),
        matrix=table,
        start=tuple(
            (picked.title, why)
            for entry_id, why in category.start_here
            if (picked := catalog.get(entry_id)) is not None
        ),
    )


def _href(entry: Entry) -> str:
    if entry.status == "dead" and entry.archive_url:
        return entry.archive_url
    return entry.url


def _status_note(
    entry: Entry, meta: Metadata | None = None, catalog: Catalog | None = None
) -> str | None:
    """Say what a reader should know before following the link: the data's status first.

    A dead link comes first (the link itself is the problem), then the curated maintenance
    state, then the archived or stale flags of the metadata that ``enrich`` fetched.
    """
    if entry.status == "dead":
        return "Dead link, archived copy." if entry.archive_url else "Dead link."
    if catalog is not None and entry.maintenance is not None:
        return matrix.marker(entry, catalog)
    if entry.status == "archived":
        return "Archived."
    if meta is not None and meta.archived:
        return "Repository archived."
    if meta is not None and meta.stale:
        return f"Inactive: last commit {meta.pushed_at}." if meta.pushed_at else "Inactive."
    return None


def _entry_view(
    entry: Entry,
    main_urls: set[str],
    seen_links: set[str],
    meta: Metadata | None = None,
    shown: frozenset[str] = frozenset(settings.FIELDS),
    catalog: Catalog | None = None,
) -> EntryView:
    """Return what the template shows of an entry; ``shown`` names the optional fields."""
    links: list[LinkView] = []
    types = Counter(link.type for link in entry.links)
    numbers: Counter[str] = Counter()
    for link in entry.links if "links" in shown else ():
        numbers[link.type] += 1
        key = link_key(link.url)
        if key in main_urls or key in seen_links:
            continue
        seen_links.add(key)
        label = f"{link.type} {numbers[link.type]}" if types[link.type] > 1 else link.type
        links.append(LinkView(label, link.url))
    people = (
        authors_text(entry.authors, team=entry.team, more=entry.more_authors)
        if "authors" in shown
        else None
    )
    return EntryView(
        id=entry.id,
        title=entry.title,
        href=_href(entry),
        description=entry.description,
        status_note=_status_note(entry, meta, catalog),
        people=people,
        venue=venue_label(entry, catalog.venues if catalog else {}) if "venue" in shown else None,
        year=entry.year if "year" in shown else None,
        venue_year=entry.venue_year if "venue" in shown else None,
        links=tuple(links),
        skip_spell_check=not NAMES_MISREAD_BY_SPELL_CHECK.isdisjoint(
            re.findall(r"\w+", people or "")
        ),
    )


def _environment(root: Path | None = None) -> Any:
    """Return the Jinja environment: the catalog's templates/ first, then the package's."""
    import jinja2

    folders = [root / "templates"] if root is not None else []
    folders.append(resources.path("templates"))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(f) for f in folders if f.is_dir()]),
        autoescape=False,  # noqa: S701 - Markdown output; every field goes through md_text/md_url
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md_text"] = md_text
    env.filters["md_url"] = md_url
    env.filters["md_paragraph"] = md_paragraph
    return env


def _shorten(section: SectionView) -> SectionView:
    xrefs: list[XrefView] = []
    room = SHORT_XREFS
    for group in section.xrefs:
        if room <= 0:
            break
        xrefs.append(replace(group, titles=group.titles[:room]))
        room -= len(xrefs[-1].titles)
    return replace(
        section,
        entries=section.entries[:SHORT_ENTRIES],
        xrefs=tuple(xrefs),
        xref_count=sum(len(group.titles) for group in xrefs),
        shortened=True,
    )


def _fit(view: ReadmeView, template: Any) -> str:
    """Render the README, shortening the largest sections, one by one, to fit SIZE_BUDGET.

    Largest means most bytes in full form; ties go to the section that comes first. A
    shortened section shows its first SHORT_ENTRIES entries in compact form (title and link)
    and its first SHORT_XREFS cross-references, then links to its page on the website.
    """
    module = template.make_module({"view": view})
    text: str = str(module)
    total = len(text.encode())
    if total <= SIZE_BUDGET:
        return text
    full = [len(str(module.section(s)).encode()) for s in view.sections]
    sections = list(view.sections)
    for index in sorted(range(len(sections)), key=lambda i: (-full[i], i)):
        short = _shorten(sections[index])
        sections[index] = short
        total -= full[index] - len(str(module.section(short)).encode())
        if total <= SIZE_BUDGET:
            break
    text = template.render(view=replace(view, sections=tuple(sections)))
    return text


def render(catalog: Catalog, *, site_url: str | None = None) -> str:
    """Render the README of a catalog: same catalog, same bytes."""
    import jinja2

    site = site_url or site_url_for(catalog.root, settings.of(catalog))
    try:
        metadata = load_metadata(catalog)
    except MetadataError as err:
        raise ReadmeError(str(err)) from err
    try:
        template = _environment(catalog.root).get_template(TEMPLATE)
        text = _fit(build_view(catalog, site, metadata), template)
    except jinja2.TemplateError as err:
        raise ReadmeError(f"{TEMPLATE}: {err}") from err
    text = _tidy(text)
    size = len(text.encode())
    if size > GITHUB_README_LIMIT:
        raise ReadmeError(
            f"README.md would be {size // 1024} KB even with every section shortened; GitHub "
            f"renders at most {GITHUB_README_LIMIT // 1024} KB: lower SHORT_ENTRIES in readme.py"
        )
    return text


def _tidy(text: str) -> str:
    """Collapse runs of blank lines and end with exactly one newline."""
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n") + "\n"


def stale_diff(path: Path, text: str) -> str | None:
    """Return a unified diff from the file on disk to ``text``, or None when it is fresh."""
    current = ""
    if os.path.lexists(path):  # a regular file only, read up to a bound (not a FIFO, /dev/zero)
        try:
            raw = read_bytes(path, str(path), MAX_README_BYTES, "a README")
        except LoadError as err:
            raise ReadmeError(f"cannot check {path}: {err.problem.message}") from err
        current = raw.decode("utf-8", errors="replace")
    if current == text:
        return None
    return "".join(
        difflib.unified_diff(
            current.splitlines(keepends=True),
            text.splitlines(keepends=True),
            fromfile=f"{path.name} (on disk)",
            tofile=f"{path.name} (generated)",
        )
    )


def write_atomic(path: Path, text: str) -> None:
    """Write README.md atomically (files.write_atomic); errors become one ReadmeError line."""
    try:
        files.write_atomic(path.resolve(), text)
    except OSError as err:
        raise ReadmeError(f"cannot write {path}: {err.strerror}") from err
