"""Markdown escaping shared by every Markdown output (README, site pages).

Data fields are plain text. These filters make sure a field can never turn into Markdown
syntax or raw HTML: a title such as ``<img src=x onerror=alert(1)>`` or a description holding
``[x](javascript:alert(1))`` renders as the literal characters. Only http(s) URLs are accepted
as link destinations.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

#: ASCII punctuation that means something in CommonMark or GitHub Flavored Markdown inline
#: text. A backslash before any ASCII punctuation is a valid escape, so escaping is always safe.
_SIGNIFICANT = frozenset("\\`*_[]<>|~!&#$")

_WHITESPACE = re.compile(r"\s+")

#: Characters that would end or break a link destination, and their percent-encodings.
_URL_UNSAFE = {
    " ": "%20",
    "\t": "%09",
    "(": "%28",
    ")": "%29",
    "<": "%3C",
    ">": "%3E",
    '"': "%22",
    "\\": "%5C",
    "`": "%60",
}


class UnsafeURLError(ValueError):
    """A URL that is not absolute http(s) was about to become a link."""


def md_text(value: object) -> str:
    """Escape a field for Markdown inline text, so it shows literally and never as markup."""
    text = _WHITESPACE.sub(" ", str(value)).strip()
    return "".join("\\" + ch if ch in _SIGNIFICANT else ch for ch in text)


def md_url(value: object) -> str:
    """Return an http(s) URL safe to put inside ``[text](...)``; raise UnsafeURLError otherwise."""
    url = str(value).strip()
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise UnsafeURLError(f"refusing to link a non-http(s) URL: {url!r}")
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in url):
        raise UnsafeURLError(f"refusing to link a URL with control characters: {url!r}")
    return "".join(_URL_UNSAFE.get(ch, ch) for ch in url)


def github_slug(text: str) -> str:
    """Return the anchor GitHub gives a heading with this plain text (before de-duplication)."""
    lowered = text.lower()
    kept = re.sub(r"[^\w\- ]", "", lowered)
    return kept.replace(" ", "-")


class Slugger:
    """Give headings GitHub's anchors, numbering repeats (``x``, ``x-1``, ``x-2``) like GitHub."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def slug(self, text: str) -> str:
        """Return the unique anchor for the next heading with this plain text."""
        base = github_slug(text)
        slug = base
        while slug in self._seen:
            self._seen[base] += 1
            slug = f"{base}-{self._seen[base]}"
        self._seen[slug] = 0
        return slug
