"""Rule ``capability-column``: every capability cell names a column of catalog.yml.

The columns of the capability matrix belong to the catalog (``capabilities.columns`` in
catalog.yml), so that another list can compare other things; an entry's cell with an id that is
no column would silently never be shown.
"""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem

ID = "capability-column"


def columns(settings: object) -> list[str]:
    """Return the capability column ids catalog.yml defines, in order (none: empty)."""
    block = settings.get("capabilities") if isinstance(settings, dict) else None
    listed = block.get("columns") if isinstance(block, dict) else None
    if not isinstance(listed, list):
        return []
    return [c["id"] for c in listed if isinstance(c, dict) and isinstance(c.get("id"), str)]


def check(ctx: Context) -> Iterator[Problem]:
    """Report capability cells whose id is no column of catalog.yml."""
    known = columns(ctx.settings)
    for doc, value in ctx.field_values("capabilities"):
        cells = value.get("cells") if isinstance(value, dict) else None
        if not isinstance(cells, dict):
            continue
        for cell in cells:
            if cell in known:
                continue
            hint = (
                "columns are: " + ", ".join(known)
                if known
                else "catalog.yml defines no capabilities.columns"
            )
            yield problem(
                doc,
                ("capabilities", "cells", cell),
                f"capability '{cell}' is no column of the matrix; {hint}",
                ID,
                key=True,
            )
