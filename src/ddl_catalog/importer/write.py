"""Draft entries -> YAML files: canonical layout, schema comment, atomic, never overwriting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ddl_catalog import settings
from ddl_catalog.edit import fmt
from ddl_catalog.files import write_atomic
from ddl_catalog.importer.plan import Draft
from ddl_catalog.rules.maintenance_missing import needs_state


class WriteError(Exception):
    """A draft could not be written (the file exists, or the folder is not writable)."""


def render(draft: Draft, added: str, root: Path, path: Path) -> str:
    """Return the YAML text of a draft in the catalog's canonical layout (as ``fmt`` writes it)."""
    data: dict[str, Any] = {
        "id": draft.id,
        "kind": draft.kind,
        "title": draft.title,
        "url": draft.url,
        "description": draft.description,
        "categories": list(draft.categories),
        "added": added,
    }
    if draft.tags:
        data["tags"] = list(draft.tags)
    if draft.year is not None:
        data["year"] = draft.year
    if draft.venue:
        data["venue"] = draft.venue
    if draft.identifiers:
        data["identifiers"] = dict(draft.identifiers)
    if draft.links:
        data["links"] = [
            {"type": link.type, "url": link.url, **({"title": link.title} if link.title else {})}
            for link in draft.links
        ]
    if needs_state(draft.kind, data.get("identifiers"), settings.load(root).maintained_kinds):
        # A list says nothing of upkeep: the draft says so, for the reviewer (or enrich) to settle.
        data["maintenance"] = {"state": "unknown", "checked": added}
    return fmt.dump(data, fmt.schema_line(path, root))


def write_new(path: Path, text: str) -> None:
    """Write text to path atomically, and fail (WriteError) rather than replace an existing file."""
    try:
        write_atomic(path, text, fsync=True, exclusive=True)
    except FileExistsError as exc:
        raise WriteError(f"{path}: already exists; not overwritten") from exc
