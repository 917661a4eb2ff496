"""What readers are shown of maintenance states and of the capability matrix.

One place for both outputs (the README and the website) so that a state reads the same
everywhere: the README marks what is no longer looked after on the entry's line, the site
shows every state; the matrix is catalog.yml's columns against the entries that have cells.
"""

from __future__ import annotations

from dataclasses import dataclass

from ddl_catalog import settings
from ddl_catalog.model import Catalog, Cell, Entry, Release
from ddl_catalog.settings import Column

#: How a cell's value is shown where space is short (the README's compact table, Explore).
SYMBOLS = {"yes": "✓", "partial": "◐", "no": "✗", "unknown": "?"}


def marker(entry: Entry, catalog: Catalog) -> str | None:
    """Return the short warning a one-line listing carries, or None for looked-after projects.

    Active projects and unknown states carry none: the marker is there to stop a reader from
    adopting what is no longer looked after, not to decorate every line.
    """
    state = entry.maintenance
    if state is None or state.state in ("active", "unknown"):
        return None
    if state.state == "unmaintained":
        since = f": last commit {state.last_commit[:7]}" if state.last_commit else ""
        return f"Unmaintained{since}."
    if state.state == "superseded" and state.superseded_by:
        successor = catalog.get(state.superseded_by)
        return f"Superseded by {successor.title}." if successor else "Superseded."
    return f"{state.label}."


def detail(entry: Entry, catalog: Catalog) -> str | None:
    """Return the state as a card shows it, each claim with the date of its evidence.

    "Active · newest commit of substance 2026-08-20 · release v0.17.4 (2026-07-30) · in what
    we read, up to 2026-08-22 (read 2026-11-25)": the state, the commit and release it rests on,
    the date the evidence ends (a snapshot's newest commit), and, apart, the day it was read, so
    that no one takes the reading day for the evidence's.
    """
    state = entry.maintenance
    if state is None:
        return None
    parts = [state.label]
    if state.state == "superseded" and state.superseded_by:
        successor = catalog.get(state.superseded_by)
        parts[0] += f" by {successor.title}" if successor else ""
    if state.last_commit:
        parts.append(f"newest commit of substance {state.last_commit}")
    release = state.release
    if isinstance(release, Release):
        parts.append(f"release {release.version} ({release.date})")
    elif release == "none":
        parts.append("no releases")
    read = f"read {state.checked}"
    if state.as_of:
        parts.append(f"in what we read, up to {state.as_of} ({read})")
    else:
        parts.append(read)
    return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class Row:
    """One framework of the matrix: its entry and a cell (or None) per column."""

    entry: Entry
    cells: tuple[tuple[Column, Cell | None], ...]


def columns(catalog: Catalog) -> tuple[Column, ...]:
    """Return the matrix's columns, as catalog.yml lists them (none: no matrix)."""
    return settings.of(catalog).capability_columns


def rows(catalog: Catalog) -> list[Row]:
    """Return a row for every entry with capabilities, by title (then id)."""
    cols = columns(catalog)
    found = [e for e in catalog.entries if e.capabilities is not None]
    found.sort(key=lambda e: (e.title.casefold(), e.id))
    return [
        Row(e, tuple((c, e.capabilities.cells.get(c.id) if e.capabilities else None) for c in cols))
        for e in found
    ]


def groups(catalog: Catalog) -> list[tuple[str, tuple[Column, ...]]]:
    """Return the columns grouped by their group, in first-seen order."""
    out: dict[str, list[Column]] = {}
    for column in columns(catalog):
        out.setdefault(column.group, []).append(column)
    return [(name, tuple(cols)) for name, cols in out.items()]


def compact(row: Row, group: tuple[Column, ...]) -> str:
    """Return one group of a row as the README shows it: labels of yes, ~label for partial."""
    shown = []
    for column, cell in row.cells:
        if column not in group or cell is None:
            continue
        if cell.value == "yes":
            shown.append(column.label)
        elif cell.value == "partial":
            shown.append(f"~{column.label}")
    return ", ".join(shown) or "–"
