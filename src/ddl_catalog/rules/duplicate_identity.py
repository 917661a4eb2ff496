"""Rule ``duplicate-identity``: no two entries describe the same resource.

Same arXiv id (any URL form), DOI, GitHub repository (across transfers) or normalised URL.
"""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog import identity
from ddl_catalog.load import Document, Problem
from ddl_catalog.rules.base import Context, problem

ID = "duplicate-identity"


def check(ctx: Context) -> Iterator[Problem]:
    """Report each entry that shares a canonical identity with an earlier one (path order)."""
    owner: dict[tuple[str, str], Document] = {}
    for doc in sorted(ctx.entries, key=lambda d: d.path):
        clashes: dict[str, tuple[tuple[str, str], Document]] = {}
        keys = identity.identity_keys(doc.data)
        for key in sorted(keys):
            first = owner.get(key)
            if first is not None and first is not doc:
                clashes.setdefault(first.path, (key, first))
        for key, first in clashes.values():
            yield problem(
                doc,
                ("url",),
                f"same {identity.describe_key(key)} as {first.path}: "
                "one resource gets one entry; merge them (extra URLs go under 'links')",
                ID,
            )
        for key in keys:
            owner.setdefault(key, doc)
