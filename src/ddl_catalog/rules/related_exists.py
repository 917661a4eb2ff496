"""Rule ``unknown-related``: related entries exist, and an entry does not relate to itself."""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, mappings, problem

ID = "unknown-related"


def check(ctx: Context) -> Iterator[Problem]:
    """Report related ids that no entry has."""
    ids = {doc.data.get("id") for doc in ctx.entries}
    for doc, value in ctx.field_values("related"):
        own = doc.data.get("id")
        for index, item in mappings(value):
            target = item.get("id")
            if not isinstance(target, str):
                continue
            if target == own:
                yield problem(doc, ("related", index, "id"), "an entry cannot relate to itself", ID)
            elif target not in ids:
                yield problem(
                    doc,
                    ("related", index, "id"),
                    f"related entry '{target}' does not exist: check the id (the file name)",
                    ID,
                )
