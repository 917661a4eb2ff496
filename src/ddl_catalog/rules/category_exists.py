"""Rule ``unknown-category``: every category an entry names exists in data/categories.yml."""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem, strings
from ddl_catalog.suggest import did_you_mean

ID = "unknown-category"


def check(ctx: Context) -> Iterator[Problem]:
    """Report category ids that the category tree does not define."""
    if not ctx.has_categories:
        return
    known = list(ctx.categories)
    for doc, value in ctx.field_values("categories"):
        for index, category in enumerate(strings(value)):
            if category in ctx.aliases:
                target = ctx.aliases[category]
                yield problem(
                    doc,
                    ("categories", index),
                    f"category '{category}' is now part of '{target}': use '{target}'",
                    ID,
                )
            elif category not in ctx.categories:
                hint = did_you_mean(category, known)
                yield problem(
                    doc,
                    ("categories", index),
                    f"unknown category '{category}'{hint}: use an id from data/categories.yml",
                    ID,
                )
