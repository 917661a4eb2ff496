"""Rule ``identifier-mismatch``: the url and the identifiers of an entry agree."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ddl_catalog import identity
from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem

ID = "identifier-mismatch"


def check(ctx: Context) -> Iterator[Problem]:
    """Report an arXiv or GitHub url whose id differs from the one under identifiers."""
    for doc in ctx.entries:
        url, ids = doc.data.get("url"), doc.data.get("identifiers")
        if not isinstance(url, str) or not isinstance(ids, Mapping):
            continue
        found = identity.analyse(url)
        from_url = found.arxiv
        stated = ids.get("arxiv")
        if from_url and isinstance(stated, str) and identity.normalize_arxiv(stated) != from_url:
            yield problem(
                doc,
                ("identifiers", "arxiv"),
                f"identifiers.arxiv '{stated}' differs from the url's arXiv id {from_url}",
                ID,
            )
        repo = found.github
        stated_repo = ids.get("github")
        if repo and isinstance(stated_repo, str) and identity.canonical_github(stated_repo) != repo:
            yield problem(
                doc,
                ("identifiers", "github"),
                f"identifiers.github '{stated_repo}' differs from the url's repository {repo}",
                ID,
            )
