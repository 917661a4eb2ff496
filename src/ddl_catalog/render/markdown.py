"""Markdown escaping shared by every Markdown output (README, site pages).

Data fields are plain text. These filters make sure a field can never turn into Markdown
syntax or raw HTML: a title such as ``<img src=x onerror=alert(1)>`` or a description holding
``[x](javascript:alert(1))`` renders as the literal characters. Only http(s) URLs are accepted
as link destinations.

GitHub also links bare addresses in text (GFM's autolinks: ``www.x.example``,
``https://x.example``), so ``md_text`` escapes the dot after ``www`` and the colon before
``//``: the text reads the same and no link comes of it. (An e-mail address stays a ``mailto:``
link on GitHub: its autolinks are found after escapes are resolved, so no escape prevents it.)
``md_paragraph`` is for the one field that may hold links, catalog.yml's intro: its
``[label](url)`` links with an http(s) URL stay links; everything else is ``md_text``.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

#: ASCII punctuation that means something in CommonMark or GitHub Flavored Markdown inline
#: text. A backslash before any ASCII punctuation is a valid escape, so escaping is always safe.
_SIGNIFICANT = frozenset("\\`*_[]<>|~!&#$")

_WHITESPACE = re.compile(r"\s+")

#: Where GFM would start an autolink in text: ``www.`` (any case) and ``scheme://``.
_AUTOLINK = re.compile(r"(?i)(?<=www)\.|:(?=//)")

#: An inline link ``[label](url)``: a label without brackets, a URL without white space or
#: angle brackets (parentheses only in balanced pairs, as in Wikipedia's addresses).
_INLINE_LINK = re.compile(r"\[([^\[\]]+)\]\(((?:[^\s()<>]|\([^\s()<>]*\))+)\)")

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
    return _escape(_WHITESPACE.sub(" ", str(value)).strip())


def _escape(text: str) -> str:
    """Backslash-escape every significant character and break GFM's autolinks."""
    escaped = "".join("\\" + ch if ch in _SIGNIFICANT else ch for ch in text)
    return _AUTOLINK.sub(lambda found: "\\" + found.group(), escaped)


def md_paragraph(value: object) -> str:
    """Render text as one Markdown paragraph: its http(s) ``[label](url)`` links, else literal.

    No HTML, comment, image, emphasis or other scheme's link can come out of it: an image, or
    a link to anything but http(s), shows as the characters that were written.
    """
    text = _WHITESPACE.sub(" ", str(value)).strip()
    parts: list[str] = []
    done = 0
    for link in _INLINE_LINK.finditer(text):
        label, target = link.groups()
        if text[link.start() - 1 : link.start()] == "!":
            continue  # an image: shown as written, escaped with the text around it
        try:
            url = md_url(target)
        except UnsafeURLError:
            continue  # another scheme: shown as written too
        parts += [_escape(text[done : link.start()]), f"[{_escape(label)}]({url})"]
        done = link.end()
    parts.append(_escape(text[done:]))
    return "".join(parts)


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
