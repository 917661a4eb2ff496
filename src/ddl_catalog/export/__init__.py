"""Exports: the catalog as JSON, CSV, BibTeX, CSL-JSON and an Atom feed.

One module per format; this one holds the registry of formats, the choice of entries
(``--category``), the atomic file writer, and ``site_files``, which writes every export into a
built site at stable URLs (listed in SITE_FILES).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from json import dumps as json_string  # not ``import json``: export.json is the JSON export
from pathlib import Path

from ddl_catalog import files, mkdocs_yml
from ddl_catalog.model import Catalog, Entry
from ddl_catalog.schema import validators


class ExportError(Exception):
    """An export cannot be made (unknown format or category, unwritable file)."""


@dataclass(frozen=True, slots=True)
class Format:
    """An export format: its name on the command line and its renderer."""

    name: str
    render: Callable[[Catalog, Sequence[Entry], str | None], str]


def _json(catalog: Catalog, entries: Sequence[Entry], site_url: str | None) -> str:
    from ddl_catalog.export import json

    return json.render(catalog, entries)


def _csv(catalog: Catalog, entries: Sequence[Entry], site_url: str | None) -> str:
    from ddl_catalog.export import csv

    return csv.render(entries, catalog.venues)


def _bibtex(catalog: Catalog, entries: Sequence[Entry], site_url: str | None) -> str:
    from ddl_catalog.export import bibtex

    return bibtex.render(bibtex.citable(entries), catalog.venues)


def _csljson(catalog: Catalog, entries: Sequence[Entry], site_url: str | None) -> str:
    from ddl_catalog.export import bibtex, csl

    return csl.render(bibtex.citable(entries), catalog.venues)


def _atom(catalog: Catalog, entries: Sequence[Entry], site_url: str | None) -> str:
    from ddl_catalog import settings
    from ddl_catalog.export import atom

    return atom.render(entries, site_url=site_url, config=settings.of(catalog))


#: Every format, by its command-line name.
FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("json", _json),
        Format("csv", _csv),
        Format("bibtex", _bibtex),
        Format("csljson", _csljson),
        Format("atom", _atom),
    )
}

#: Where each export lives in the site (path relative to the site root -> format).
SITE_FILES: dict[str, str] = {
    "api/catalog.json": "json",
    "catalog.csv": "csv",
    "papers.bib": "bibtex",
    "papers.json": "csljson",
    "feed.xml": "atom",
}
#: The published JSON Schema of api/catalog.json.
SCHEMA_FILE = "api/catalog.schema.json"
#: Per-category BibTeX files: BIB_DIR/<top-category-id>.bib.
BIB_DIR = "bib"
#: One BibTeX file per paper or book, to cite one entry: ENTRY_BIB_DIR/<entry-id>.bib.
ENTRY_BIB_DIR = f"{BIB_DIR}/entries"


def configured_site_url(root: Path) -> str | None:
    """Return the published site's address (mkdocs.yml's site_url, else catalog.yml's)."""
    from ddl_catalog import settings

    try:
        return mkdocs_yml.published_url(root, settings.load(root).site_url)
    except settings.SettingsError:
        return mkdocs_yml.site_url(root)  # validate says what is wrong with catalog.yml


def select(catalog: Catalog, category: str | None = None) -> list[Entry]:
    """Return the entries filed under a category or its subcategories (all when None)."""
    if category is None:
        return list(catalog.entries)
    if category not in catalog.categories:
        raise ExportError(f"unknown category {category!r}; see data/categories.yml")
    wanted = {category, *catalog.categories[category].children}
    return [e for e in catalog.entries if wanted.intersection(e.categories)]


def render(
    catalog: Catalog, fmt: str, *, category: str | None = None, site_url: str | None = None
) -> str:
    """Render one export of the catalog (optionally of one category) as text."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return FORMATS[fmt].render(catalog, select(catalog, category), site_url)


def schema_text(site_url: str | None = None) -> str:
    """Return the JSON Schema of the JSON export, as published with it.

    Its ``$id`` is where the catalog publishes it (``site_url``/api/catalog.schema.json); with
    no site URL the schema has no ``$id``.
    """
    with open(validators.schema_path("export"), encoding="utf-8") as handle:
        text = handle.read()
    if site_url:
        where = json_string(site_url.rstrip("/") + "/" + SCHEMA_FILE)
        return re.sub(r'"\$id": "[^"]*"', lambda _: f'"$id": {where}', text, count=1)
    return re.sub(r'\n *"\$id": "[^"]*",', "", text, count=1)


def write_atomic(path: Path, text: str) -> None:
    """Write text to path atomically (files.write_atomic); errors become one ExportError line."""
    try:
        files.write_atomic(path, text)
    except OSError as err:
        raise ExportError(f"cannot write {path}: {err.strerror or err}") from err


def category_bib_files(catalog: Catalog) -> dict[str, str]:
    """Map each top category holding papers or books to its BibTeX file's site path, for links."""
    from ddl_catalog.export import bibtex

    return {
        top.id: f"{BIB_DIR}/{top.id}.bib"
        for top in catalog.top_categories()
        if bibtex.citable(select(catalog, top.id))
    }


def entry_bib_files(catalog: Catalog) -> dict[str, str]:
    """Map each paper and book to the site path of its own BibTeX file, for its card's link."""
    from ddl_catalog.export import bibtex

    return {e.id: entry_bib_path(e.id) for e in bibtex.citable(catalog.entries)}


def entry_bib_path(entry_id: str) -> str:
    """Return the site path of one entry's BibTeX file (ids are file-name safe: a-z, 0-9, -)."""
    return f"{ENTRY_BIB_DIR}/{entry_id}.bib"


def site_files(catalog: Catalog, site_dir: Path, *, site_url: str | None = None) -> list[Path]:
    """Write every export into a built site at its stable URL; return the paths written."""
    from ddl_catalog.export import bibtex

    outputs: dict[str, str] = {
        rel: render(catalog, fmt, site_url=site_url) for rel, fmt in SITE_FILES.items()
    }
    outputs[SCHEMA_FILE] = schema_text(site_url)
    for category, rel in category_bib_files(catalog).items():
        outputs[rel] = bibtex.render(bibtex.citable(select(catalog, category)), catalog.venues)
    for entry in bibtex.citable(catalog.entries):
        outputs[entry_bib_path(entry.id)] = bibtex.entry_bibtex(entry, catalog.venues)
    written = []
    for rel, text in sorted(outputs.items()):
        path = site_dir / rel
        write_atomic(path, text)
        written.append(path)
    return written
