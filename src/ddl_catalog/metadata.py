"""Read the committed metadata (``data/metadata/*.json``, written by ``ddl-catalog enrich``).

Renderers read metadata only through ``load_metadata``; it never touches the network, and a
missing or empty folder simply gives no metadata, so every output renders without it. Facts an
entry states by hand (title, authors, year, venue) always win over fetched ones: the metadata
only adds what the data does not hold (stars, last push, archived, licence).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ddl_catalog.identity import (
    arxiv_id,
    canonical_github,
    doi_from_url,
    github_repo,
    normalize_arxiv,
    normalize_doi,
)
from ddl_catalog.model import Catalog, Entry

METADATA_DIR = Path("data") / "metadata"
#: The files ``enrich`` writes, one per source.
SOURCES: tuple[str, ...] = ("github", "arxiv", "crossref")
#: A repository with no push for this many days before it was fetched is flagged stale.
STALE_DAYS = 730


class MetadataError(Exception):
    """A committed metadata file is unreadable or not in the expected form."""


@dataclass(frozen=True, slots=True)
class Metadata:
    """What the sources said about one entry (each part None when not fetched)."""

    entry_id: str
    github: dict[str, Any] | None = None
    arxiv: dict[str, Any] | None = None
    crossref: dict[str, Any] | None = None

    @property
    def archived(self) -> bool:
        """Return whether the entry's GitHub repository is archived (read-only)."""
        return bool(self.github and self.github.get("archived"))

    @property
    def stale(self) -> bool:
        """Return whether the repository had no push in the two years before it was fetched."""
        if not self.github:
            return False
        pushed, fetched = self.github.get("pushed_at"), self.github.get("fetched")
        if not isinstance(pushed, str) or not isinstance(fetched, str):
            return False
        try:
            age = date.fromisoformat(fetched[:10]) - date.fromisoformat(pushed[:10])
        except ValueError:
            return False
        return age.days > STALE_DAYS

    @property
    def flags(self) -> tuple[str, ...]:
        """Return the warnings to show next to the entry: ``archived`` and/or ``stale``."""
        return tuple(f for f, on in (("archived", self.archived), ("stale", self.stale)) if on)

    @property
    def stars(self) -> int | None:
        """Return the repository's star count, if fetched."""
        value = self.github.get("stars") if self.github else None
        return value if isinstance(value, int) else None

    @property
    def pushed_at(self) -> str | None:
        """Return the date (YYYY-MM-DD) of the repository's last push, if fetched."""
        value = self.github.get("pushed_at") if self.github else None
        return value[:10] if isinstance(value, str) else None


def entry_keys(entry: Entry) -> dict[str, str]:
    """Return the lookup key of an entry in each source: repo, arXiv id, DOI (when it has one)."""
    keys: dict[str, str] = {}
    repo = entry.identifiers.github or github_repo(entry.url)
    if repo:
        keys["github"] = canonical_github(repo)
    aid = normalize_arxiv(entry.identifiers.arxiv or "") or arxiv_id(entry.url)
    if aid:
        keys["arxiv"] = aid
    doi = normalize_doi(entry.identifiers.doi or "") or doi_from_url(entry.url)
    if doi:
        keys["crossref"] = doi
    return keys


def read_records(root: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """Return ``{source: {key: record}}`` from the committed files (missing files are empty)."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for source in SOURCES:
        path = root / METADATA_DIR / f"{source}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            found[source] = {}
            continue
        except (OSError, ValueError) as exc:
            raise MetadataError(f"{path}: unreadable metadata: {exc}") from exc
        records = data.get("records") if isinstance(data, dict) else None
        if not isinstance(records, dict):
            raise MetadataError(f"{path}: expected an object with 'records'")
        found[source] = {str(k): v for k, v in records.items() if isinstance(v, dict)}
    return found


def load_metadata(catalog: Catalog) -> dict[str, Metadata]:
    """Return ``{entry_id: Metadata}`` for the entries that have any fetched metadata."""
    records = read_records(catalog.root)
    result: dict[str, Metadata] = {}
    for entry in catalog:
        parts = {source: records[source].get(key) for source, key in entry_keys(entry).items()}
        if any(parts.values()):
            result[entry.id] = Metadata(
                entry.id, parts.get("github"), parts.get("arxiv"), parts.get("crossref")
            )
    return result
