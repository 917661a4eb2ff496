"""CSV export: one row per entry, for spreadsheets and pandas.

Lists are joined with "; " (links as "type url", relations as "relation id"), identifiers get a
column each, and any cell that a spreadsheet would run as a formula (it starts with =, +, -, @,
a tab or a carriage return) gets a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping

from ddl_catalog.citation import cite
from ddl_catalog.model import Entry, Release, Venue

#: The header row, in column order.
COLUMNS: tuple[str, ...] = (
    "id",
    "kind",
    "title",
    "url",
    "description",
    "categories",
    "tags",
    "authors",
    "team",
    "year",
    "venue",
    "venue_year",
    "pages",
    "cited_as",
    "arxiv",
    "doi",
    "github",
    "links",
    "related",
    "added",
    "status",
    "archive_url",
    "maintenance",
    "maintenance_as_of",
    "maintenance_checked",
    "maintenance_source",
    "last_commit",
    "latest_release",
)
#: How list cells are joined.
SEPARATOR = "; "
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: str) -> str:
    """Defuse a cell a spreadsheet would evaluate, by prefixing an apostrophe."""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def row(entry: Entry, venues: Mapping[str, Venue] | None = None) -> list[str]:
    """Return an entry's cells in COLUMNS order (``cited_as``: the venue a citation names)."""
    ids = entry.identifiers
    cited = cite(entry, venues or {})
    cells = [
        entry.id,
        entry.kind,
        entry.title,
        entry.url,
        entry.description,
        SEPARATOR.join(entry.categories),
        SEPARATOR.join(entry.tags),
        SEPARATOR.join([*entry.authors, *(["others"] if entry.more_authors else [])]),
        entry.team or "",
        "" if entry.year is None else str(entry.year),
        entry.venue or "",
        "" if entry.venue_year is None else str(entry.venue_year),
        entry.pages or "",
        cited.venue_label or "",
        ids.arxiv or "",
        ids.doi or "",
        ids.github or "",
        SEPARATOR.join(f"{ln.type} {ln.url}" for ln in entry.links),
        SEPARATOR.join(f"{r.relation} {r.id}" for r in entry.related),
        entry.added or "",
        entry.status,
        entry.archive_url or "",
        *_maintenance(entry),
    ]
    return [safe_cell(c) for c in cells]


def _maintenance(entry: Entry) -> list[str]:
    """Return the maintenance cells: state, its evidence's date, the day read, source, commit,
    release ("v1.2 2026-05-01", or "none")."""
    state = entry.maintenance
    if state is None:
        return ["", "", "", "", "", ""]
    release = state.release
    shown = f"{release.version} {release.date}" if isinstance(release, Release) else release or ""
    return [
        state.state,
        state.as_of or "",
        state.checked,
        state.source or "",
        state.last_commit or "",
        shown,
    ]


def render(entries: Iterable[Entry], venues: Mapping[str, Venue] | None = None) -> str:
    """Write entries as RFC 4180 CSV with a header row, sorted by id."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for entry in sorted(entries, key=lambda e: e.id):
        writer.writerow(row(entry, venues))
    return out.getvalue()
