"""``ddl-catalog enrich``: fetch metadata for the catalog's entries into ``data/metadata/``.

Entry files are never written: fetched facts go to one JSON file per source, so hand-written
fields cannot be overwritten. Where the source disagrees with our title, authors or year, the
run reports it for a person to decide. A failed fetch keeps the previous record; an exhausted
rate limit stops that source cleanly, keeping what was fetched.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import requests

from ddl_catalog import builddate, settings, upkeep
from ddl_catalog.edit import fmt
from ddl_catalog.edit.new_id import ascii_fold
from ddl_catalog.files import write_atomic
from ddl_catalog.load import LoadError, Problem, outside, read_text
from ddl_catalog.metadata import (
    METADATA_DIR,
    SOURCES,
    Metadata,
    MetadataError,
    entry_keys,
    read_records,
    record_problems,
)
from ddl_catalog.model import Catalog, Entry
from ddl_catalog.net.enrich import arxiv, crossref, github
from ddl_catalog.net.enrich.base import EnrichError, RateLimitExhausted
from ddl_catalog.rules.maintenance_missing import needs_state

_TITLES = {"github": "GitHub REST API", "arxiv": "arXiv API", "crossref": "Crossref REST API"}
ARXIV_BATCH = 50
#: Fetched records are written at least this often (seconds), so a killed run keeps them.
SAVE_EVERY = 2.0
#: arXiv asks for at most one request every three seconds.
ARXIV_PAUSE = 3.0


@dataclass
class EnrichReport:
    """What a run fetched, what failed, and what a person should look at."""

    fetched: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    #: Maintenance states written (``states=True``): "id: old -> new (evidence)".
    states: list[str] = field(default_factory=list)
    #: Curated states from a notice that the facts contradict: for a person to look at.
    reviews: list[str] = field(default_factory=list)
    stopped: str | None = None

    @property
    def failed(self) -> bool:
        """Return whether anything went wrong (the exit status)."""
        return bool(self.failures or self.stopped)


def enrich(
    catalog: Catalog,
    session: requests.Session,
    *,
    only: Iterable[str] = SOURCES,
    bases: dict[str, str | None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    date: str | None = None,
    states: bool = False,
) -> EnrichReport:
    """Fetch every wanted source for the catalog and write the metadata files.

    With ``states``, a software entry whose curated maintenance state the GitHub facts
    contradict (archived, or a push within a year or not) gets the state the facts give, with
    them as evidence, written into its file for review as a pull request; a state from the
    project's own notice is never rewritten, only reported.
    """
    bases = bases or {}
    date = date or builddate.today()
    report = EnrichReport()
    previous = read_records(catalog.root)
    for source in SOURCES:  # before any request: where each file would be written
        display = f"{METADATA_DIR.as_posix()}/{source}.json"
        if source in only and (real := outside(catalog.root / display, catalog.root)):
            message = (
                f"not written: a symbolic link on the way leads outside the catalog (to {real})"
            )
            raise MetadataError(Problem(display, 1, 1, "error", message, "file"))
    wanted: dict[str, dict[str, list[Entry]]] = {s: {} for s in SOURCES}
    for entry in catalog:
        for source, key in entry_keys(entry).items():
            wanted[source].setdefault(key, []).append(entry)
    chosen = set(only)
    for source in (s for s in SOURCES if s in chosen):
        saver = _Saver(catalog.root, source, previous[source], set(wanted[source]), date)
        try:
            fresh = _fetch_source(
                source, sorted(wanted[source]), session, bases.get(source), sleep, report, saver
            )
        finally:
            saver.save()  # an interrupted run (Ctrl-C) keeps what it fetched
        records = saver.records
        report.fetched[source] = len(fresh)
        for key, record in sorted(fresh.items()):
            for entry in wanted[source][key]:
                report.disagreements.extend(compare(source, entry, record))
                if source == "github":
                    meta = Metadata(entry.id, github=records[key])
                    report.flags.extend(f"{entry.id}: {key} is {flag}" for flag in meta.flags)
                    if states:
                        _move_state(catalog, entry, key, records[key], date, report, session, bases)
    return report


def _move_state(
    catalog: Catalog,
    entry: Entry,
    key: str,
    record: dict[str, Any],
    date: str,
    report: EnrichReport,
    session: requests.Session | None = None,
    bases: dict[str, str | None] | None = None,
) -> None:
    """Write the state a repository's facts give when they contradict the curated one.

    The facts are the repository's newest commits and latest release, read live (the newest
    commit of substance, with its page as the evidence); when they cannot be read, GitHub's
    last push stands in, and the report says so.
    """
    kinds = settings.of(catalog).maintained_kinds
    if not needs_state(entry.kind, {"github": entry.identifiers.github}, kinds):
        return
    current = asdict(entry.maintenance) if entry.maintenance else None
    current = {k: v for k, v in (current or {}).items() if v is not None} or None
    settled = current is not None and (
        current["state"] not in upkeep.FACT_STATES or bool(current.get("notice"))
    )  # a notice decided it: no facts will be written over it, so none are read beyond GitHub's
    activity = None
    if session is not None and record.get("archived") is not True and not settled:
        try:
            activity = github.activity(key, session, date, (bases or {}).get("github"))
        except EnrichError as exc:
            report.failures.append(f"{entry.id}: commits and releases not read ({exc})")
    facts = upkeep.from_repository(
        key, record.get("archived") is True, record.get("pushed_at"), date, activity=activity
    )
    proposed = upkeep.proposal(current, facts)
    old = current["state"] if current else "none"
    if proposed is None:
        # A notice decided the state (deprecated, moved ...): an archived repository is news a
        # person should read, not something to write over the notice.
        if current and current["state"] not in upkeep.FACT_STATES and facts["state"] == "archived":
            report.reviews.append(f"{entry.id}: curated {old}, GitHub says archived")
        return
    path = catalog.root / entry.source
    try:
        text = fmt.format_text(
            read_text(path, entry.source, root=catalog.root),
            entry.source,
            fmt.schema_line(path, catalog.root),
            replace={"maintenance": proposed},
        )
    except (LoadError, fmt.FormatError) as exc:
        report.failures.append(f"{entry.source}: state not written: {exc}")
        return
    write_atomic(path, text)
    report.states.append(f"{entry.id}: {old} -> {proposed['state']} ({proposed['evidence']})")


class _Saver:
    """Keep one source's records and write them as they arrive, at most every SAVE_EVERY s.

    A run killed midway (even with SIGKILL) leaves a metadata file with what it had fetched
    up to its last save, instead of nothing; each write is atomic, so the file is never torn.
    """

    def __init__(
        self,
        root: Path,
        source: str,
        previous: dict[str, dict[str, Any]],
        wanted: set[str],
        date: str,
    ) -> None:
        self.root, self.source, self.date = root, source, date
        # Records of keys the catalog no longer names are dropped; the others kept until fetched.
        self.records = {k: v for k, v in previous.items() if k in wanted}
        self._saved = dict(previous)
        self._last = time.monotonic()

    def add(self, key: str, record: dict[str, Any]) -> None:
        """Take a fetched record; write the file when the last write is SAVE_EVERY s old.

        A record that the metadata contract refuses (what validate checks) raises EnrichError
        and is not kept: stored, it would stop every later build.
        """
        record = dict(record, fetched=self.date)
        if problems := record_problems(self.source, record):
            raise EnrichError(f"{key}: unexpected payload: {'; '.join(problems)}")
        self.records[key] = record
        if time.monotonic() - self._last >= SAVE_EVERY:
            self.save()

    def save(self) -> None:
        """Write the records if they differ from what the file holds."""
        self._last = time.monotonic()
        if self.records != self._saved:
            _write(self.root, self.source, self.records)
            self._saved = dict(self.records)


def _fetch_source(
    source: str,
    keys: list[str],
    session: requests.Session,
    base: str | None,
    sleep: Callable[[float], None],
    report: EnrichReport,
    saver: _Saver,
) -> dict[str, dict[str, Any]]:
    """Fetch every key of one source; stop the source on an exhausted rate limit."""
    fresh: dict[str, dict[str, Any]] = {}
    try:
        if source == "arxiv":
            for start in range(0, len(keys), ARXIV_BATCH):
                if start:
                    sleep(ARXIV_PAUSE)
                batch = keys[start : start + ARXIV_BATCH]
                try:
                    found = arxiv.fetch_many(batch, session, base, sleep=sleep)
                except EnrichError as exc:
                    report.failures.append(f"arxiv: {exc}")
                    continue
                for key, paper in found.items():
                    try:
                        saver.add(key, asdict(paper))
                    except EnrichError as exc:
                        report.failures.append(f"arxiv: {exc}")
                    else:
                        fresh[key] = asdict(paper)
                report.failures.extend(f"arxiv: no paper {k}" for k in batch if k not in found)
            return fresh
        fetch = github.fetch if source == "github" else crossref.fetch
        for key in keys:
            try:
                record = asdict(fetch(key, session, base, sleep=sleep))
                saver.add(key, record)
                fresh[key] = record
            except RateLimitExhausted:
                raise
            except EnrichError as exc:
                report.failures.append(f"{source}: {exc}")
    except RateLimitExhausted as exc:
        report.stopped = f"{source}: stopped after {len(fresh)} of {len(keys)}: {exc}"
    return fresh


def compare(source: str, entry: Entry, record: dict[str, Any]) -> list[str]:
    """Return the disagreements between an entry and a fetched record (title, authors, year)."""
    found: list[str] = []
    where = f"{entry.source}: {source}"
    if source == "github":
        declared = entry.identifiers.github or ""
        name = str(record.get("full_name") or "")
        if declared and name and name.lower() != declared.lower():
            found.append(f"{where}: repository is now {name} (data says {declared})")
        return found
    title = record.get("title")
    if isinstance(title, str) and _norm(title) != _norm(entry.title):
        found.append(f"{where}: title {title!r} (data says {entry.title!r})")
    authors = record.get("authors") or []
    if entry.authors and authors and _families(authors) != _families(entry.authors):
        found.append(
            f"{where}: authors {', '.join(authors)} (data says {', '.join(entry.authors)})"
        )
    year = record.get("published_year") if source == "arxiv" else record.get("year")
    # An entry's year is its first publication: the first arXiv version when there is one, so
    # Crossref's (the venue's) year only counts for papers that are not on arXiv.
    compare_year = source == "arxiv" or entry.identifiers.arxiv is None
    if compare_year and entry.year is not None and isinstance(year, int) and year != entry.year:
        found.append(f"{where}: year {year} (data says {entry.year})")
    return found


def _norm(text: str) -> str:
    """Return text without accents, case, punctuation or spacing, for comparison."""
    return re.sub(r"[^a-z0-9]+", "", ascii_fold(text).casefold())


def _families(names: Iterable[str]) -> list[str]:
    """Return the normalised family names (last word) of a list of people."""
    return [_norm(name.split()[-1]) for name in names if name.split()]


def _write(root: Path, source: str, records: dict[str, dict[str, Any]]) -> None:
    """Write one source's metadata file atomically, keys sorted (byte-stable)."""
    document = {"source": _TITLES[source], "records": dict(sorted(records.items()))}
    text = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    write_atomic(root / METADATA_DIR / f"{source}.json", text)
