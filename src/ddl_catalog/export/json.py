"""JSON export: the whole catalog as a versioned envelope, described by export.schema.json.

``{"version": 1, "generated_from": {...}, "licence": "CC0-1.0", "categories": [...],
"tags": [...], "entries": [...]}``; ``licence`` is catalog.yml's (null when it names none).
Every entry carries every field (null or [] when unknown), so consumers never test for
missing keys. ``version`` changes only when a field changes meaning or goes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from ddl_catalog import __version__, settings
from ddl_catalog.citation import cite
from ddl_catalog.model import Catalog, Entry, Release, Venue

#: Version of the envelope's format; bump on incompatible changes.
FORMAT_VERSION = 1


def entry_record(entry: Entry, venues: Mapping[str, Venue] | None = None) -> dict[str, Any]:
    """Return an entry as a plain mapping with every field present.

    ``citation`` says how the entry is cited, as BibTeX and CSL-JSON cite it: the year of the
    venue's edition (``year`` stays the first publication's), the venue as readers name it
    that year, and its full name.
    """
    ids = entry.identifiers
    cited = cite(entry, venues or {})
    return {
        "id": entry.id,
        "kind": entry.kind,
        "title": entry.title,
        "url": entry.url,
        "description": entry.description,
        "categories": list(entry.categories),
        "tags": list(entry.tags),
        "authors": list(entry.authors),
        "more_authors": entry.more_authors,
        "team": entry.team,
        "year": entry.year,
        "venue": entry.venue,
        "venue_year": entry.venue_year,
        "pages": entry.pages,
        "citation": {
            "year": cited.year,
            "venue": cited.venue_label,
            "container": cited.container,
        },
        "identifiers": {"arxiv": ids.arxiv, "doi": ids.doi, "github": ids.github},
        "links": [{"type": ln.type, "url": ln.url, "title": ln.title} for ln in entry.links],
        "related": [{"id": r.id, "relation": r.relation} for r in entry.related],
        "added": entry.added,
        "status": entry.status,
        "archive_url": entry.archive_url,
        "maintenance": _maintenance(entry),
        "capabilities": _capabilities(entry),
        "source": entry.source,
    }


def _maintenance(entry: Entry) -> dict[str, Any] | None:
    """Return an entry's maintenance state with every field present, or None."""
    state = entry.maintenance
    if state is None:
        return None
    release = state.release
    return {
        "state": state.state,
        "as_of": state.as_of,
        "checked": state.checked,
        "last_commit": state.last_commit,
        "last_commit_url": state.last_commit_url,
        "newest_commit": state.newest_commit,
        "commits_in_year": state.commits_in_year,
        "release": (
            {"version": release.version, "date": release.date, "url": release.url}
            if isinstance(release, Release)
            else release
        ),
        "notice": state.notice,
        "source": state.source,
        "evidence": state.evidence,
        "moved_to": state.moved_to,
        "superseded_by": state.superseded_by,
    }


def _capabilities(entry: Entry) -> dict[str, Any] | None:
    """Return an entry's capability cells with every field present, or None."""
    matrix = entry.capabilities
    if matrix is None:
        return None
    return {
        "as_of": matrix.as_of,
        "checked": matrix.checked,
        "cells": {
            key: {
                "value": cell.value,
                "note": cell.note,
                "source": cell.source,
                "via": cell.via,
                "covers": cell.covers,
                "as_of": cell.as_of,
            }
            for key, cell in matrix.cells.items()
        },
    }


def document(catalog: Catalog, entries: Iterable[Entry]) -> dict[str, Any]:
    """Build the envelope for some entries of a catalog."""
    records = [entry_record(e, catalog.venues) for e in sorted(entries, key=lambda e: e.id)]
    digest = hashlib.sha256(
        json.dumps(records, ensure_ascii=False, sort_keys=True).encode()
    ).hexdigest()
    return {
        "version": FORMAT_VERSION,
        "generated_from": {
            "tool": "ddl-catalog",
            "tool_version": __version__,
            "entries_sha256": digest,
        },
        "licence": settings.of(catalog).licence,
        "categories": [
            {"id": c.id, "title": c.title, "description": c.description, "parent": c.parent}
            for c in catalog.categories.values()
        ],
        "tags": [{"id": t.id, "description": t.description} for t in catalog.tags.values()],
        "entries": records,
    }


def render(catalog: Catalog, entries: Iterable[Entry]) -> str:
    """Write the envelope as indented UTF-8 JSON, for tools that want the catalog as data."""
    return json.dumps(document(catalog, entries), ensure_ascii=False, indent=2) + "\n"
