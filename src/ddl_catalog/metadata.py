"""Read the committed metadata (``data/metadata/*.json``, written by ``ddl-catalog enrich``).

Renderers read metadata only through ``load_metadata``; it never touches the network, and a
missing or empty folder simply gives no metadata, so every output renders without it. Facts an
entry states by hand (title, authors, year, venue) always win over fetched ones: the metadata
only adds what the data does not hold (stars, last push, archived, licence).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
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
from ddl_catalog.load import FilePath, LoadError, Problem, forbidden_character, read_text
from ddl_catalog.model import Catalog, Entry

METADATA_DIR = Path("data") / "metadata"
#: The files ``enrich`` writes, one per source.
SOURCES: tuple[str, ...] = ("github", "arxiv", "crossref")
#: A repository with no push for this many days before it was fetched is flagged stale.
STALE_DAYS = 730
#: Larger metadata files are refused before they are read: a record is a few hundred bytes.
MAX_BYTES = 64 * 1024 * 1024
#: The rule id of metadata problems in ``validate``'s report.
RULE = "metadata"


class MetadataError(Exception):
    """A committed metadata file is unreadable or not in the expected form; a located problem."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def day(value: Any) -> str | None:
    """Return the date (YYYY-MM-DD) a fetched timestamp starts with, or None if it has none."""
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value[:10]).isoformat()
    except ValueError:
        return None


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
        return bool(self.github and self.github.get("archived") is True)

    @property
    def stale(self) -> bool:
        """Return whether the repository had no push in the two years before it was fetched."""
        if not self.github:
            return False
        pushed, fetched = day(self.github.get("pushed_at")), day(self.github.get("fetched"))
        if pushed is None or fetched is None:
            return False
        return (date.fromisoformat(fetched) - date.fromisoformat(pushed)).days > STALE_DAYS

    @property
    def flags(self) -> tuple[str, ...]:
        """Return the warnings to show next to the entry: ``archived`` and/or ``stale``."""
        return tuple(f for f, on in (("archived", self.archived), ("stale", self.stale)) if on)

    @property
    def stars(self) -> int | None:
        """Return the repository's star count, if fetched."""
        value = self.github.get("stars") if self.github else None
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def pushed_at(self) -> str | None:
        """Return the date (YYYY-MM-DD) of the repository's last push, if fetched."""
        return day(self.github.get("pushed_at")) if self.github else None


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
    """Return ``{source: {key: record}}`` from the committed files (missing files are empty).

    Raises MetadataError for a file that cannot be read safely or is not in the expected form.
    """
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for source in SOURCES:
        records = _read(root, source)
        found[source] = {
            str(k): v for k, v in (records or ({}, ""))[0].items() if isinstance(v, dict)
        }
    return found


def _read(root: FilePath, source: str) -> tuple[dict[str, Any], str] | None:
    """Read one source's file: (its records, its text), or None when there is none.

    The file is read as catalog files are (a regular file inside the catalog, of bounded size);
    raises MetadataError, located, when it cannot be read or holds no object of records.
    """
    display = f"{METADATA_DIR.as_posix()}/{source}.json"
    path = os.path.join(root, display)
    if not os.path.lexists(path):
        return None
    try:
        text = read_text(path, display, MAX_BYTES, root=root)
    except LoadError as exc:
        raise MetadataError(exc.problem) from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _error(display, f"not valid JSON: {exc.msg}", (exc.lineno, exc.colno)) from exc
    except ValueError as exc:  # a number of more digits than Python reads (4300)
        raise _error(display, "not readable JSON: a number is far too long") from exc
    except RecursionError as exc:
        raise _error(display, "not readable JSON: arrays or objects nest far too deep") from exc
    records = data.get("records") if isinstance(data, dict) else None
    if not isinstance(records, dict):
        raise _error(display, "expected an object with 'records': write it with ddl-catalog enrich")
    return records, text


def _error(display: str, message: str, where: tuple[int, int] = (1, 1)) -> MetadataError:
    """Build a MetadataError for a located problem of a metadata file."""
    return MetadataError(Problem(display, *where, "error", message, RULE))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text_list(value: Any) -> bool:
    return isinstance(value, list | tuple) and all(isinstance(item, str) for item in value)


#: Every record carries the date of the run that fetched it.
_FETCHED: dict[str, tuple[Callable[[Any], bool], str]] = {
    "fetched": (lambda v: day(v) is not None, "a date")
}
#: What the outputs (and ``enrich``) read of each source's records: field -> (test, expected).
_FIELDS: dict[str, dict[str, tuple[Callable[[Any], bool], str]]] = {
    "github": {
        "archived": (lambda v: isinstance(v, bool), "true or false"),
        "stars": (lambda v: _is_int(v) and v >= 0, "a count (0 or more)"),
        "pushed_at": (lambda v: v is None or day(v) is not None, "a date-time or null"),
        "full_name": (lambda v: isinstance(v, str), "text"),
    },
    "arxiv": {
        "title": (lambda v: isinstance(v, str), "text"),
        "authors": (_is_text_list, "a list of names"),
        "published_year": (_is_int, "a year"),
    },
    "crossref": {
        "title": (lambda v: isinstance(v, str), "text"),
        "authors": (_is_text_list, "a list of names"),
        "year": (lambda v: v is None or _is_int(v), "a year or null"),
    },
}


def check(root: FilePath) -> list[Problem]:
    """Report what in data/metadata/*.json no output could use: unreadable files, wrong types.

    ``validate`` runs it, so the renderers that read the records meet only what they expect.
    """
    problems: list[Problem] = []
    for source in SOURCES:
        try:
            found = _read(root, source)
        except MetadataError as exc:
            problems.append(exc.problem)
            continue
        if found is None:
            continue
        records, text = found
        display = f"{METADATA_DIR.as_posix()}/{source}.json"
        for key, record in records.items():
            where = _where(text, key)
            if not isinstance(record, dict):
                problems.append(_error(display, f"record {key!r} must be an object", where).problem)
                continue
            for wrong in record_problems(source, record):
                problems.append(_error(display, f"record {key!r}: {wrong}", where).problem)
    return problems


def record_problems(source: str, record: dict[str, Any]) -> list[str]:
    """Say which fields of one record no output could use ("'stars' must be ...").

    ``validate`` reports them in data/metadata/; ``enrich`` refuses to store such a record, so
    an odd answer of an API cannot make the catalog fail to build.
    """
    found = []
    wrong = set()
    for name, (valid, expected) in {**_FETCHED, **_FIELDS[source]}.items():
        if name in record and not valid(record[name]):
            shown = json.dumps(record[name])
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            found.append(f"{name!r} must be {expected}, got {shown}")
            wrong.add(name)
    # Any text a record holds is text a catalog file holds: the loader's characters only.
    for name, value in sorted(record.items()):
        for text in _texts(value) if name not in wrong else []:
            if (bad := forbidden_character(text)) is not None:
                found.append(f"{name!r} holds a {bad[1]}, which no catalog file may hold")
                break
    return found


def _texts(value: Any) -> list[str]:
    """Return every string in a JSON value (nested lists and objects, keys included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in [str(key), *_texts(item)]]
    return []


def _where(text: str, key: str) -> tuple[int, int]:
    """Return the (line, column) where a record's key is written, or (1, 1) if not found."""
    at = text.find(json.dumps(key, ensure_ascii=False) + ":")
    if at < 0:
        return (1, 1)
    return (text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at))


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
