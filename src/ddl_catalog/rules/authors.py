"""Rule ``authors``: a paper says who wrote it, so that a citation has an author.

``authors`` lists the people in citation order; a work whose byline is a team ("DeepSeek-AI",
"Llama Team, AI @ Meta") says so with ``team``, which citations print as a corporate author.
A paper with neither is a warning: a draft from ``add`` or ``import`` may not know its authors
yet, and ``validate --strict`` (what a pull request's CI runs) refuses it.
"""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem

ID = "authors"
#: Kinds whose citations need an author.
CITED_KINDS = ("paper",)


def check(ctx: Context) -> Iterator[Problem]:
    """Report papers with neither authors nor a team, and a team listed as an author."""
    for doc in ctx.entries:
        data = doc.data
        if not isinstance(data, dict) or data.get("kind") not in CITED_KINDS:
            continue
        authors, team = data.get("authors"), data.get("team")
        if not authors and not team:
            yield problem(
                doc,
                ("title",),
                "a paper needs its authors (in citation order), or `team` when its byline is "
                "a team rather than people",
                ID,
                key=True,
                severity="warning",
            )
        if isinstance(authors, list) and isinstance(team, str) and team in authors:
            index = authors.index(team)
            yield problem(
                doc,
                ("authors", index),
                f"'{team}' is the team: keep it in `team` only, and list the people in authors",
                ID,
            )
