"""Rule ``url-scheme``: every URL is an absolute http(s) address, so only those reach a page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from ddl_catalog import fields
from ddl_catalog.load import Document, Path_, Problem
from ddl_catalog.rules.base import Context, field_name, problem

ID = "url-scheme"
_SPACE = re.compile(r"\s")


def url_problem(url: str) -> str | None:
    """Return why ``url`` is not an acceptable absolute http(s) URL, or None if it is."""
    if _SPACE.search(url):
        return "contains spaces or line breaks; encode them or remove them"
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        return f"is not a valid URL ({exc})"
    scheme = parts.scheme.lower()
    if not scheme:
        return "is relative; write the absolute address starting with https://"
    if scheme not in ("http", "https"):
        hint = {
            "ftp": "; link an https copy or the DOI instead",
            "javascript": "; only web addresses are allowed",
            "data": "; only web addresses are allowed",
        }.get(scheme, "")
        return f"uses '{scheme}:', only http and https are allowed{hint}"
    host = parts.hostname  # each property of parts parses the netloc again: read it once
    if not host or ("." not in host and host != "localhost"):
        return "has no valid host name"
    if "@" in parts.netloc and (parts.username or parts.password):
        return "must not contain a user name or password"
    try:
        parts.port  # noqa: B018 - reading it checks it
    except ValueError:
        return "has an invalid port: a number from 0 to 65535 after the host"
    return None


def url_fields(data: Any, kind: str = "entry") -> Iterator[tuple[Path_, Any]]:
    """Yield (path, value) of every URL field of a file (``fields.URLS``: an entry's by default).

    Every field that holds an address is listed there once: the page's link, a link's, the
    maintenance evidence and its successor's home, a release's page, a capability's source.
    """
    for name in fields.URLS.get(kind, ()):
        yield from fields.values(data, name)


def check(ctx: Context) -> Iterator[Problem]:
    """Report URLs that are not absolute http(s), in the entries and the register."""
    for doc in ctx.entries:
        yield from check_document(doc)
    if ctx.register is not None:
        yield from check_document(ctx.register, "register")


def check_document(doc: Document, kind: str = "entry") -> Iterator[Problem]:
    """Report the bad URLs of one file (an entry, unless ``kind`` names another schema)."""
    if not isinstance(doc.data, dict):
        return
    for path, value in url_fields(doc.data, kind):
        if not isinstance(value, str):
            continue
        why = url_problem(value)
        if why:
            shown = value if len(value) <= 60 else value[:57] + "..."
            yield problem(doc, path, f"'{field_name(path)}' {why}: '{shown}'", ID)
