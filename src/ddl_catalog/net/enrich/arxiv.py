"""arXiv API (Atom): title, authors, first-version date, primary category, DOI of a paper."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET  # documents with a DOCTYPE are refused before parsing
from dataclasses import dataclass
from typing import Any

import requests

from ddl_catalog.identity import normalize_arxiv
from ddl_catalog.net.enrich.base import EnrichError, NotFound, api_base, get

DEFAULT_API = "https://export.arxiv.org/api"
ENV_VAR = "DDL_ARXIV_API"
_NS = {
    "atom": "http://www.w3.org/2005/Atom",
    "arxiv": "http://arxiv.org/schemas/atom",
    "opensearch": "http://a9.com/-/spec/opensearch/1.1/",
}
_ABS_ID = re.compile(r"/abs/(?P<id>.+?)(?:v\d+)?$")


@dataclass(frozen=True, slots=True)
class ArxivRecord:
    """What arXiv says about one paper (its first version's date, its latest title)."""

    arxiv_id: str
    title: str
    authors: tuple[str, ...]
    published: str
    published_year: int
    primary_category: str | None
    doi: str | None
    journal_ref: str | None


def fetch(
    arxiv_id: str, session: requests.Session, base_url: str | None = None, **kwargs: Any
) -> ArxivRecord:
    """Fetch one paper by arXiv id (``1802.09941``, versions ignored); raises EnrichError."""
    aid = normalize_arxiv(arxiv_id)
    if aid is None:
        raise EnrichError(f"not an arXiv id: {arxiv_id!r}")
    record = fetch_many([aid], session, base_url, **kwargs).get(aid)
    if record is None:
        raise NotFound(
            f"{api_base(base_url, ENV_VAR, DEFAULT_API)}/query: arXiv has no paper {aid}"
        )
    return record


def fetch_many(
    arxiv_ids: list[str], session: requests.Session, base_url: str | None = None, **kwargs: Any
) -> dict[str, ArxivRecord]:
    """Fetch several papers in one request (arXiv asks for few, batched calls)."""
    ids = sorted({aid for aid in map(normalize_arxiv, arxiv_ids) if aid})
    if not ids:
        return {}
    url = f"{api_base(base_url, ENV_VAR, DEFAULT_API)}/query"
    params = {"id_list": ",".join(ids), "max_results": str(len(ids))}
    records = parse_feed(get(session, url, params=params, **kwargs), url)
    return {aid: records[aid] for aid in ids if aid in records}


#: An XML declaration that could define entities: <!DOCTYPE ...> or <!ENTITY ...>.
_DECLARATION = re.compile(rb"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)


def parse_feed(body: bytes, url: str = "arXiv") -> dict[str, ArxivRecord]:
    """Return the records of an arXiv Atom feed by version-less id; raises EnrichError."""
    # Entities can only be declared in a DOCTYPE, so a body without one cannot expand any
    # (a billion-laughs answer). Searched in the whole body: comments may come before it.
    if _DECLARATION.search(body):
        raise EnrichError(f"{url}: refusing an XML document with a DOCTYPE or ENTITY declaration")
    try:
        feed = ET.fromstring(body)  # noqa: S314 - no DOCTYPE, so no entity expansion
    except ET.ParseError as exc:
        raise EnrichError(f"{url}: malformed Atom feed ({exc})") from exc
    records: dict[str, ArxivRecord] = {}
    for entry in feed.findall("atom:entry", _NS):
        entry_id = _text(entry, "atom:id")
        if "api/errors" in entry_id:
            raise EnrichError(f"{url}: arXiv error: {_text(entry, 'atom:summary')}")
        match = _ABS_ID.search(entry_id)
        if match is not None:
            record = _record(entry, match.group("id"), url)
            records[record.arxiv_id] = record
    return records


def _record(entry: ET.Element, arxiv_id: str, url: str) -> ArxivRecord:
    """Build the record of one Atom entry."""
    published = _text(entry, "atom:published")
    if not re.match(r"^\d{4}-", published):
        raise EnrichError(f"{url}: entry {arxiv_id} has no published date")
    primary = entry.find("arxiv:primary_category", _NS)
    return ArxivRecord(
        arxiv_id=arxiv_id,
        title=" ".join(_text(entry, "atom:title").split()),
        authors=tuple(
            " ".join((a.findtext("atom:name", "", _NS)).split())
            for a in entry.findall("atom:author", _NS)
        ),
        published=published[:10],
        published_year=int(published[:4]),
        primary_category=primary.get("term") if primary is not None else None,
        doi=_text(entry, "arxiv:doi").lower() or None,
        journal_ref=" ".join(_text(entry, "arxiv:journal_ref").split()) or None,
    )


def _text(element: ET.Element, path: str) -> str:
    """Return the stripped text of a child element, or an empty string."""
    return (element.findtext(path, "", _NS) or "").strip()
