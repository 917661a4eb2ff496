"""CSL-JSON export: the papers and books as items that Zotero, Mendeley and pandoc import.

Types follow the venue table in ``venues``: article-journal, paper-conference, book, and
article (which Zotero imports as a preprint) for arXiv-only papers, with ``number`` set to the
arXiv id and ``publisher`` to arXiv. Authors are split into family and given names.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ddl_catalog.citation import cite
from ddl_catalog.export.names import split_name
from ddl_catalog.model import Entry, Venue

#: CSL item types of the citation kinds.
_TYPES = {"book": "book", "article": "article-journal", "inproceedings": "paper-conference"}


def csl_type(entry: Entry, venues: Mapping[str, Venue] | None = None) -> str:
    """Return the CSL item type of an entry (``citation.cite`` decides)."""
    kind = cite(entry, venues or {}).kind
    if kind in _TYPES:
        return _TYPES[kind]
    return "article" if entry.kind == "paper" else "webpage"


def _author(author: str) -> dict[str, str]:
    name = split_name(author)
    if name.literal:
        return {"literal": name.literal}
    parts = {"family": name.family, "given": name.given}
    if name.suffix:
        parts["suffix"] = name.suffix
    return parts


def item(entry: Entry, venues: Mapping[str, Venue] | None = None) -> dict[str, Any]:
    """Build the CSL-JSON item of one entry: the venue edition's year, the first one beside it."""
    citation = cite(entry, venues or {})
    kind = csl_type(entry, venues)
    data: dict[str, Any] = {"id": entry.id, "type": kind, "title": entry.title}
    if citation.authors:
        data["author"] = [_author(a) for a in citation.authors]
    elif citation.team:
        data["author"] = [{"literal": citation.team}]
    if citation.year is not None:
        data["issued"] = {"date-parts": [[citation.year]]}
    if citation.first_year is not None:
        data["original-date"] = {"date-parts": [[citation.first_year]]}
    if citation.container:
        data["collection-title" if kind == "book" else "container-title"] = citation.container
    if citation.venue_short and kind != "book":
        data["container-title-short"] = citation.venue_short
    if citation.pages:
        data["page"] = citation.pages
    ids = entry.identifiers
    if ids.doi:
        data["DOI"] = ids.doi
    if ids.arxiv and kind == "article":
        data["number"] = ids.arxiv
        data["publisher"] = "arXiv"
    data["URL"] = entry.url
    return data


def render(entries: Iterable[Entry], venues: Mapping[str, Venue] | None = None) -> str:
    """Write entries as a CSL-JSON array, sorted by id, for reference managers."""
    items = [item(e, venues) for e in sorted(entries, key=lambda e: e.id)]
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"
