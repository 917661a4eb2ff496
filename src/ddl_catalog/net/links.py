"""Where the URLs to check come from: every URL field of the catalog, or text files."""

from __future__ import annotations

import html
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ddl_catalog.load import LoadError, read_bytes

#: An http(s) URL in text; its host may be an IPv6 literal in brackets (``http://[::1]:8080/``),
#: the only place a URL holds brackets unencoded.
_URL = re.compile(
    r"""https?://(?:\[[0-9a-f:.]+(?:%25[\w.~-]+)?\])?[^\s<>"'`\[\]{}|\\^]*""", re.IGNORECASE
)
_TRAILING = ".,;:!?*_~"
#: The largest input file read (a built site's biggest page is a few megabytes).
MAX_INPUT_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True, order=True)
class Occurrence:
    """Where a URL was found: a file and, for catalog entries, the field."""

    source: str
    where: str


class InputError(Exception):
    """An input file cannot be read."""


def catalog_urls(root: Path) -> dict[str, list[Occurrence]]:
    """Return every URL of the catalog with the fields holding it.

    Every URL field of an entry (``fields.URLS``): its address and links, and the evidence of
    its judgements too (a maintenance state's source, its commit and release pages, each
    capability cell's source), which readers follow as much as the rest.
    """
    from ddl_catalog import fields
    from ddl_catalog.load import load_file
    from ddl_catalog.model.build import open_catalog
    from ddl_catalog.rules.base import field_name

    found: dict[str, list[Occurrence]] = defaultdict(list)
    for entry in open_catalog(root):
        data = load_file(str(root / entry.source), entry.source).data
        for name in fields.URLS["entry"]:
            for path, value in fields.values(data, name):
                if isinstance(value, str):
                    found[value.strip()].append(Occurrence(entry.source, field_name(path)))
    return {url: sorted(occ) for url, occ in sorted(found.items())}


def file_urls(paths: Iterable[Path]) -> dict[str, list[Occurrence]]:
    """Return the http(s) URLs of Markdown, HTML or text files in order, with their lines."""
    found: dict[str, list[Occurrence]] = defaultdict(list)
    for path in paths:
        try:  # a regular file of bounded size: a FIFO or /dev/zero is refused, not read
            raw = read_bytes(path, str(path), MAX_INPUT_BYTES, "a file of links")
        except LoadError as exc:
            raise InputError(f"{path}: {exc.problem.message}") from exc
        text = raw.decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            for url in urls_in_text(line):
                found[url].append(Occurrence(str(path), f"line {number}"))
    return {url: sorted(set(occ)) for url, occ in found.items()}


def urls_in_text(text: str) -> list[str]:
    """Return the URLs of a line of Markdown, HTML or plain text, trimmed of punctuation."""
    urls = []
    for match in _URL.finditer(text):
        url = html.unescape(match.group(0))
        while url and (
            url[-1] in _TRAILING or (url[-1] == ")" and url.count(")") > url.count("("))
        ):
            url = url[:-1]
        if len(url) > len("https://"):
            urls.append(url)
    return urls
