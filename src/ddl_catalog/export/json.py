"""JSON export: the whole catalog as a versioned envelope, described by export.schema.json.

``{"version": 1, "generated_from": {...}, "licence": "CC0-1.0", "categories": [...],
"tags": [...], "entries": [...]}``; ``licence`` is catalog.yml's (null when it names none).
Every entry carries every field (null or [] when unknown), so consumers never test for
missing keys. ``version`` changes only when a field changes meaning or goes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from ddl_catalog import __version__, settings
from ddl_catalog.model import Catalog, Entry

#: Version of the envelope's format; bump on incompatible changes.
FORMAT_VERSION = 1


def entry_record(entry: Entry) -> dict[str, Any]:
    """Return an entry as a plain mapping with every field present."""
    ids = entry.identifiers
    return {
        "id": entry.id,
        "kind": entry.kind,
        "title": entry.title,
        "url": entry.url,
        "description": entry.description,
        "categories": list(entry.categories),
        "tags": list(entry.tags),
        "authors": list(entry.authors),
        "year": entry.year,
        "venue": entry.venue,
        "venue_year": entry.venue_year,
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
    return {
        "state": state.state,
        "checked": state.checked,
        "last_commit": state.last_commit,
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
        "cells": {
            key: {"value": cell.value, "note": cell.note, "source": cell.source}
            for key, cell in matrix.cells.items()
        },
    }


def document(catalog: Catalog, entries: Iterable[Entry]) -> dict[str, Any]:
    """Build the envelope for some entries of a catalog."""
    records = [entry_record(e) for e in sorted(entries, key=lambda e: e.id)]
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
