"""Rule ``unique-id``: no two entries share an id."""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog.load import Document, Problem
from ddl_catalog.rules.base import Context, problem

ID = "unique-id"


def check(ctx: Context) -> Iterator[Problem]:
    """Report every entry whose id an earlier file (in path order) already uses."""
    seen: dict[str, Document] = {}
    for doc in sorted(ctx.entries, key=lambda d: d.path):
        entry_id = doc.data.get("id")
        if not isinstance(entry_id, str):
            continue
        if entry_id in seen:
            first = seen[entry_id]
            line, _ = first.where(("id",))
            yield problem(
                doc,
                ("id",),
                f"id '{entry_id}' is already used by {first.path}:{line}: ids must be unique",
                ID,
            )
        else:
            seen[entry_id] = doc
