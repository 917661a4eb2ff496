"""Rule ``duplicate-related``: an entry names each related entry once.

The same id twice under ``related`` (with the same relation or another) says nothing more, and
every page listed it again: once per item, and once more for the other entry's own link back.
"""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, mappings, problem

ID = "duplicate-related"


def check(ctx: Context) -> Iterator[Problem]:
    """Report every related item whose id an earlier item of the same entry already names."""
    for doc, value in ctx.field_values("related"):
        first: dict[str, int] = {}
        for index, item in mappings(value):
            target = item.get("id")
            if not isinstance(target, str):
                continue
            if target not in first:
                first[target] = index
                continue
            line, _ = doc.where(("related", first[target], "id"))
            yield problem(
                doc,
                ("related", index, "id"),
                f"related entry '{target}' is already listed (related[{first[target]}], line "
                f"{line}): name each entry once; keep the one relation that says the most",
                ID,
            )
