"""The catalog's data types: Entry, Category, Catalog.

These are built only from documents that passed validation, so they can be strict and simple.
They know nothing of YAML, click or Jinja.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ddl_catalog.kinds import KIND_FOLDERS as KIND_FOLDERS
from ddl_catalog.settings import Settings

#: Human labels for kinds, singular and plural.
KIND_LABELS: dict[str, tuple[str, str]] = {
    "framework": ("Framework", "Frameworks"),
    "library": ("Library", "Libraries"),
    "paper": ("Paper", "Papers"),
    "article": ("Article", "Articles"),
    "talk": ("Talk", "Talks"),
    "tutorial": ("Tutorial", "Tutorials"),
    "book": ("Book", "Books"),
    "benchmark": ("Benchmark", "Benchmarks"),
    "dataset": ("Dataset", "Datasets"),
    "list": ("List", "Lists"),
    "docs": ("Documentation", "Documentation"),
}

#: The canonical order of an entry's keys (used by fmt and the schema freshness test).
FIELD_ORDER: tuple[str, ...] = (
    "id",
    "kind",
    "title",
    "url",
    "description",
    "categories",
    "tags",
    "authors",
    "more_authors",
    "team",
    "year",
    "venue",
    "venue_year",
    "pages",
    "identifiers",
    "links",
    "related",
    "added",
    "status",
    "archive_url",
    "maintenance",
    "capabilities",
)

#: How a relation reads from the other side.
INVERSE_RELATIONS: dict[str, str] = {
    "implements": "implemented-by",
    "describes": "described-by",
    "part-of": "has-part",
    "supersedes": "superseded-by",
    "builds-on": "built-on-by",
    "see-also": "see-also",
}


@dataclass(frozen=True, slots=True)
class Link:
    """A secondary link of an entry: code, slides, video ..."""

    type: str
    url: str
    title: str | None = None

    @property
    def label(self) -> str:
        """Return the text to show for the link."""
        return self.title or self.type


@dataclass(frozen=True, slots=True)
class Related:
    """A relation from one entry to another, as stated in the data."""

    id: str
    relation: str


@dataclass(frozen=True, slots=True)
class Identifiers:
    """Canonical identifiers of a resource."""

    arxiv: str | None = None
    doi: str | None = None
    github: str | None = None


#: How each maintenance state reads for a reader (short, sentence case).
MAINTENANCE_LABELS: dict[str, str] = {
    "active": "Active",
    "winding-down": "Winding down",
    "maintenance-only": "Maintenance only",
    "unmaintained": "Unmaintained",
    "archived": "Archived",
    "deprecated": "Deprecated",
    "moved": "Moved",
    "superseded": "Superseded",
    "unknown": "Maintenance unknown",
}


@dataclass(frozen=True, slots=True)
class Release:
    """The latest release of a project that was read: its version, date and page."""

    version: str
    date: str
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Maintenance:
    """Whether a project is still looked after: the state, the evidence and its dates.

    ``as_of`` is the date of the evidence (a snapshot's newest commit, a release, a notice);
    ``checked`` is the day it was read. Cards show the first as the claim's date.
    """

    state: str
    checked: str
    as_of: str | None = None
    source: str | None = None
    evidence: str | None = None
    last_commit: str | None = None
    last_commit_url: str | None = None
    newest_commit: str | None = None
    #: Commits of substance in the twelve months before ``checked`` (None: not counted).
    commits_in_year: int | None = None
    #: The latest release; None when not read, "none" when the project publishes no releases.
    release: Release | str | None = None
    notice: str | None = None
    moved_to: str | None = None
    superseded_by: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Maintenance:
        """Build the block from a validated mapping."""
        fields = dict(data)
        release = fields.pop("release", None)
        if isinstance(release, Mapping):
            release = Release(**release)
        return cls(**fields, release=release)

    @property
    def label(self) -> str:
        """Return the state as a reader reads it ("Unmaintained")."""
        return MAINTENANCE_LABELS[self.state]

    @property
    def maintained(self) -> bool:
        """Say whether the project is looked after (active or taking fixes)."""
        return self.state in ("active", "maintenance-only")


@dataclass(frozen=True, slots=True)
class Cell:
    """One capability of a framework: yes, no, partial or unknown, with its source."""

    value: str
    note: str | None = None
    source: str | None = None
    #: The entry through which the capability comes (its hardware limits then apply).
    via: str | None = None
    #: The hardware generations or versions the evidence covers.
    covers: str | None = None
    #: The date of this cell's evidence when it differs from the block's.
    as_of: str | None = None


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a training framework supports, cell by cell, as of a day."""

    as_of: str
    cells: Mapping[str, Cell]
    checked: str | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """One resource of the catalog."""

    id: str
    kind: str
    title: str
    url: str
    description: str
    categories: tuple[str, ...]
    source: str
    tags: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    #: True when ``authors`` lists the first authors only and more follow.
    more_authors: bool = False
    team: str | None = None
    year: int | None = None
    venue: str | None = None
    venue_year: int | None = None
    pages: str | None = None
    identifiers: Identifiers = field(default_factory=Identifiers)
    links: tuple[Link, ...] = ()
    related: tuple[Related, ...] = ()
    added: str | None = None
    status: str = "active"
    archive_url: str | None = None
    maintenance: Maintenance | None = None
    capabilities: Capabilities | None = None

    @property
    def primary_category(self) -> str:
        """Return the id of the category the entry is listed under in full."""
        return self.categories[0]

    @property
    def folder(self) -> str:
        """Return the data folder of the entry's kind."""
        return KIND_FOLDERS[self.kind]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str) -> Entry:
        """Build an entry from a validated mapping; ``source`` is its data file path."""
        ids = data.get("identifiers") or {}
        return cls(
            id=data["id"],
            kind=data["kind"],
            title=data["title"].strip(),
            url=data["url"].strip(),
            description=data["description"].strip(),
            categories=tuple(data["categories"]),
            source=source,
            tags=tuple(data.get("tags") or ()),
            authors=tuple(data.get("authors") or ()),
            more_authors=bool(data.get("more_authors", False)),
            team=data.get("team"),
            year=data.get("year"),
            venue=data.get("venue"),
            venue_year=data.get("venue_year"),
            pages=data.get("pages"),
            identifiers=Identifiers(
                arxiv=ids.get("arxiv"), doi=ids.get("doi"), github=ids.get("github")
            ),
            links=tuple(
                Link(type=link["type"], url=link["url"].strip(), title=link.get("title"))
                for link in data.get("links") or ()
            ),
            related=tuple(
                Related(id=rel["id"], relation=rel["relation"]) for rel in data.get("related") or ()
            ),
            added=data.get("added"),
            status=data.get("status", "active"),
            archive_url=data.get("archive_url"),
            maintenance=(
                Maintenance.from_dict(data["maintenance"]) if "maintenance" in data else None
            ),
            capabilities=(
                Capabilities(
                    as_of=data["capabilities"]["as_of"],
                    checked=data["capabilities"].get("checked"),
                    cells={k: Cell(**v) for k, v in data["capabilities"]["cells"].items()},
                )
                if "capabilities" in data
                else None
            ),
        )


@dataclass(frozen=True, slots=True)
class Category:
    """A node of the topic tree."""

    id: str
    title: str
    description: str
    parent: str | None = None
    children: tuple[str, ...] = ()
    #: Former ids of categories merged into this one (their website anchors still lead here).
    aliases: tuple[str, ...] = ()
    #: Entries to read first, each (entry id, one-line reason), in the order given.
    start_here: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Venue:
    """A venue series of data/venues.yml."""

    id: str
    name: str
    type: str
    since: int | None = None
    #: Former short names, (short, last year used), oldest first.
    former: tuple[tuple[str, int], ...] = ()

    def short_for(self, year: int | None) -> str:
        """Return the short name the series had in ``year`` ("NIPS" in 2017, else the id)."""
        if year is not None:
            for short, until in sorted(self.former, key=lambda f: f[1]):
                if year <= until:
                    return short
        return self.id

    @property
    def journal(self) -> bool:
        """Say whether the series is a journal (its papers are articles)."""
        return self.type == "journal"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Venue:
        """Build a venue from a validated item of data/venues.yml."""
        return cls(
            id=data["id"],
            name=data["name"],
            type=data["type"],
            since=data.get("since"),
            former=tuple((f["short"], f["until"]) for f in data.get("former", ())),
        )


@dataclass(frozen=True, slots=True)
class Tag:
    """A tag of the controlled list."""

    id: str
    description: str


@dataclass(frozen=True)
class Catalog:
    """The whole catalog: entries, the category tree and the tag list, cross-indexed."""

    root: Path
    entries: tuple[Entry, ...]
    categories: Mapping[str, Category]
    tags: Mapping[str, Tag]
    #: catalog.yml as validated (None: not read yet; see settings.of).
    settings: Settings | None = field(default=None, compare=False)
    #: data/venues.yml's series by id (empty when the catalog has no venues file).
    venues: Mapping[str, Venue] = field(default_factory=dict, compare=False)
    _by_id: dict[str, Entry] = field(init=False, repr=False, compare=False)
    _filed: dict[str, list[Entry]] = field(init=False, repr=False, compare=False)
    _incoming: dict[str, list[tuple[str, Entry]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Indexes built once, so that renderers asking about every category and every entry
        # stay linear in the size of the catalog.
        filed: dict[str, list[Entry]] = {}
        incoming: dict[str, list[tuple[str, Entry]]] = {}
        for entry in self.entries:
            for category_id in dict.fromkeys(entry.categories):
                filed.setdefault(category_id, []).append(entry)
            for rel in entry.related:
                incoming.setdefault(rel.id, []).append((INVERSE_RELATIONS[rel.relation], entry))
        object.__setattr__(self, "_by_id", {e.id: e for e in self.entries})
        object.__setattr__(self, "_filed", filed)
        object.__setattr__(self, "_incoming", incoming)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def get(self, entry_id: str) -> Entry | None:
        """Return the entry with this id, or None."""
        return self._by_id.get(entry_id)

    def top_categories(self) -> list[Category]:
        """Return the top-level categories in the order of categories.yml."""
        return [c for c in self.categories.values() if c.parent is None]

    def children(self, category_id: str) -> list[Category]:
        """Return the subcategories of a category, in file order."""
        return [self.categories[c] for c in self.categories[category_id].children]

    def in_category(self, category_id: str, *, primary: bool | None = None) -> list[Entry]:
        """Return the entries filed under a category (only primary or only secondary if asked)."""
        found = self._filed.get(category_id, [])
        if primary is None:
            return list(found)
        return [e for e in found if (e.primary_category == category_id) is primary]

    def related_of(self, entry_id: str) -> list[tuple[str, Entry]]:
        """Return (relation, entry) pairs in both directions, outgoing first, sorted by title.

        Each pair once: two entries that each say ``see-also`` of the other are one link.
        """
        entry = self._by_id[entry_id]
        out = [(r.relation, self._by_id[r.id]) for r in entry.related if r.id in self._by_id]
        back = self._incoming.get(entry_id, [])
        pairs = sorted(out, key=lambda p: p[1].title.lower()) + sorted(
            back, key=lambda p: p[1].title.lower()
        )
        seen: set[tuple[str, str]] = set()
        unique = []
        for relation, other in pairs:
            if (relation, other.id) not in seen:
                seen.add((relation, other.id))
                unique.append((relation, other))
        return unique

    def count_by_kind(self) -> dict[str, int]:
        """Return how many entries there are of each kind, in KIND_FOLDERS order, zeros left out."""
        counts = {kind: 0 for kind in KIND_FOLDERS}
        for entry in self.entries:
            counts[entry.kind] += 1
        return {k: n for k, n in counts.items() if n}
