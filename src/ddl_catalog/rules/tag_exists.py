"""Rule ``unknown-tag``: every tag comes from the controlled list in data/tags.yml."""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem, strings
from ddl_catalog.suggest import did_you_mean

ID = "unknown-tag"


def check(ctx: Context) -> Iterator[Problem]:
    """Report tags missing from the controlled list."""
    if not ctx.has_tags:
        return
    known = sorted(ctx.tags)
    for doc, value in ctx.field_values("tags"):
        for index, tag in enumerate(strings(value)):
            if tag not in ctx.tags:
                hint = did_you_mean(tag, known)
                yield problem(
                    doc,
                    ("tags", index),
                    f"unknown tag '{tag}'{hint}: use a tag from data/tags.yml or add it there",
                    ID,
                )
