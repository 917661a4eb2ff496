"""CSL-JSON export: the papers and books as items that Zotero, Mendeley and pandoc import.

Types follow the venue table in ``venues``: article-journal, paper-conference, book, and
article (which Zotero imports as a preprint) for arXiv-only papers, with ``number`` set to the
arXiv id and ``publisher`` to arXiv. Authors are split into family and given names.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ddl_catalog.export.names import split_name
from ddl_catalog.export.venues import is_journal
from ddl_catalog.model import Entry


def csl_type(entry: Entry) -> str:
    """Return the CSL item type of an entry, per the table in ``venues``."""
    if entry.kind == "book":
        return "book"
    if entry.kind == "paper" and entry.venue:
        return "article-journal" if is_journal(entry.venue) else "paper-conference"
    if entry.kind == "paper":
        return "article"
    return "webpage"


def _author(author: str) -> dict[str, str]:
    name = split_name(author)
    if name.literal:
        return {"literal": name.literal}
    parts = {"family": name.family, "given": name.given}
    if name.suffix:
        parts["suffix"] = name.suffix
    return parts


def item(entry: Entry) -> dict[str, Any]:
    """Build the CSL-JSON item of one entry."""
    kind = csl_type(entry)
    data: dict[str, Any] = {"id": entry.id, "type": kind, "title": entry.title}
    if entry.authors:
        data["author"] = [_author(a) for a in entry.authors]
    if entry.year is not None:
        data["issued"] = {"date-parts": [[entry.year]]}
    if entry.venue:
        data["collection-title" if kind == "book" else "container-title"] = entry.venue
    ids = entry.identifiers
    if ids.doi:
        data["DOI"] = ids.doi
    if ids.arxiv and kind == "article":
        data["number"] = ids.arxiv
        data["publisher"] = "arXiv"
    data["URL"] = entry.url
    return data


def render(entries: Iterable[Entry]) -> str:
    """Write entries as a CSL-JSON array, sorted by id, for reference managers."""
    items = [item(e) for e in sorted(entries, key=lambda e: e.id)]
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"
