"""Crossref works API: title, authors, venue and year of a DOI."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import requests

from ddl_catalog.net.enrich.base import EnrichError, api_base, get_json

DEFAULT_API = "https://api.crossref.org"
ENV_VAR = "DDL_CROSSREF_API"
#: Date fields of a work, most telling first; ``issued`` is the year citations use.
_DATE_FIELDS = ("issued", "published", "published-print", "published-online", "created")


@dataclass(frozen=True, slots=True)
class WorkRecord:
    """What Crossref says about one DOI."""

    doi: str
    title: str
    authors: tuple[str, ...]
    venue: str | None
    year: int | None
    type: str | None


def fetch(
    doi: str, session: requests.Session, base_url: str | None = None, **kwargs: Any
) -> WorkRecord:
    """Fetch one DOI from the Crossref works API; raises EnrichError."""
    url = f"{api_base(base_url, ENV_VAR, DEFAULT_API)}/works/{quote(doi, safe='/().;-_')}"
    data = get_json(session, url, headers={"Accept": "application/json"}, **kwargs)
    return parse(data, url)


def parse(data: Any, url: str = "Crossref") -> WorkRecord:
    """Build a record from a ``/works/{doi}`` JSON document; raises EnrichError."""
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, dict) or not isinstance(message.get("DOI"), str):
        raise EnrichError(f"{url}: unexpected payload (no message.DOI)")
    title = _first_text(message.get("title"))
    if title is None or not title.strip():
        raise EnrichError(f"{url}: the work has no title")
    subtitle = _first_text(message.get("subtitle"))
    if subtitle and subtitle.strip():
        title = f"{title.rstrip()}: {subtitle.strip()}"
    venue = _first_text(message.get("container-title"))
    authors = message.get("author")
    kind = message.get("type")
    return WorkRecord(
        doi=message["DOI"].lower(),
        title=" ".join(title.split()),
        authors=tuple(filter(None, map(_author, authors if isinstance(authors, list) else []))),
        venue=" ".join(venue.split()) if venue else None,
        year=_year(message),
        type=kind if isinstance(kind, str) else None,
    )


def _first_text(value: Any) -> str | None:
    """Return the first item of a Crossref list of strings (title, subtitle ...), or None.

    Crossref writes these fields as lists; anything else (an object, a number) is not used.
    """
    if isinstance(value, list) and value and isinstance(value[0], str):
        return value[0]
    return None


def _author(author: Any) -> str:
    """Return ``Given Family`` (or an organisation's name) of a Crossref author object."""
    if not isinstance(author, dict):
        return ""
    if author.get("name"):
        return str(author["name"]).strip()
    parts = [str(author.get(k) or "").strip() for k in ("given", "family")]
    return " ".join(p for p in parts if p)


def _year(message: dict[str, Any]) -> int | None:
    """Return the first year found in the work's date fields, in order of preference."""
    for name in _DATE_FIELDS:
        field = message.get(name)
        parts = field.get("date-parts") if isinstance(field, dict) else None
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            year = parts[0][0]
            if type(year) is int and 0 < year < 10_000:  # not True, not 10**400
                return year
    return None
