"""Rule ``title-style``: a title is a real title, not blank, a URL or a slug."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem

ID = "title-style"
_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+){3,}/?$")


def _is_url(text: str) -> bool:
    """Say whether text starts like a URL: ASCII letters, then ``://``."""
    scheme, separator, _ = text.partition("://")
    return bool(separator) and scheme.isascii() and scheme.isalpha()


def check(ctx: Context) -> Iterator[Problem]:
    """Report titles that are blank, URLs, slugs or carry stray whitespace."""
    for doc, title in ctx.field_values("title"):
        if not isinstance(title, str):
            continue
        if not title.strip():  # the schema asks for one character: a space must not do
            yield problem(doc, ("title",), "title is blank: give the resource's real title", ID)
            continue
        if _is_url(title.strip()):
            yield problem(doc, ("title",), "title is a URL: give the resource's real title", ID)
        elif _SLUG.match(title.strip()):
            yield problem(doc, ("title",), "title looks like a URL slug: give the real title", ID)
        if title != title.strip() or "  " in title or "\n" in title:
            yield problem(
                doc, ("title",), "title has line breaks or doubled spaces", ID, severity="warning"
            )
