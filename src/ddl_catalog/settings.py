"""catalog.yml: the settings that make a catalog its own (title, intro, addresses, feed, kinds).

The file sits at the catalog's root, beside data/, and belongs to the catalog's maintainer: no
string that names a particular catalog lives in the package. ``validate`` checks it against
schema/catalog.schema.json with located errors; every output (README, site, feed) reads it
through ``load``. A catalog without the file gets neutral defaults.
"""

from __future__ import annotations

import os

from ddl_catalog.kinds import KIND_FOLDERS
from ddl_catalog.load import Document, LoadError, Problem, load_file

TYPE_CHECKING = False  # typing's flag without importing typing: these imports are for mypy
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Protocol

    from ddl_catalog.load import FilePath

    class Configured(Protocol):
        """What ``of`` reads of a catalog: model.Catalog has both (settings never imports it)."""

        @property
        def root(self) -> FilePath:
            """The catalog's root folder, where catalog.yml is."""

        @property
        def settings(self) -> Settings | None:
            """The settings the catalog was built with (None: not read yet)."""


#: The settings file, relative to the catalog's root.
FILE = "catalog.yml"
#: The optional fields the README can show after a description, all shown by default.
FIELDS = ("authors", "venue", "year", "links")
#: The kinds whose entries say whether they are maintained, when catalog.yml names none.
MAINTAINED_KINDS = ("framework", "library")


class Column:
    """One column of the capability matrix, as catalog.yml names it."""

    __slots__ = ("group", "help", "id", "label")

    def __init__(self, id: str, label: str, group: str, help: str | None = None) -> None:
        self.id, self.label, self.group, self.help = id, label, group, help


class Settings:
    """One catalog's settings (catalog.yml), with neutral defaults for what it leaves out.

    A plain class, not a dataclass: validate reads catalog.yml on every run, and otherwise
    loads the dataclasses module (which imports inspect) only for a catalog with metadata;
    heavy imports are left to the commands that need them.
    """

    __slots__ = (
        "build_note",
        "capability_columns",
        "capability_hardware_group",
        "capability_intro",
        "capability_section",
        "capability_title",
        "description",
        "feed_author",
        "feed_id",
        "feed_limit",
        "feed_subtitle",
        "feed_title",
        "fields",
        "kinds",
        "licence",
        "maintained_kinds",
        "repository",
        "site_data_edit_uri",
        "site_engine",
        "site_list_budget",
        "site_page_budget",
        "site_page_elements",
        "site_templates",
        "site_url",
        "test_note",
        "title",
    )

    def __init__(
        self,
        *,
        title: str = "Awesome List",
        description: str = "A curated list of resources.",
        site_url: str | None = None,
        repository: str | None = None,
        feed_id: str = "tag:example.org,2026:",
        feed_title: str | None = None,
        feed_subtitle: str | None = None,
        feed_author: str | None = None,
        feed_limit: int = 50,
        licence: str | None = None,
        kinds: tuple[str, ...] = tuple(KIND_FOLDERS),
        fields: tuple[str, ...] = FIELDS,
        build_note: str = "creates .venv, validates the catalog, builds README.md and the website",
        test_note: str = "every check a pull request gets",
        maintained_kinds: tuple[str, ...] = MAINTAINED_KINDS,
        capability_title: str = "Compared",
        capability_intro: str | None = None,
        capability_columns: tuple[Column, ...] = (),
        capability_section: str | None = None,
        capability_hardware_group: str | None = None,
        site_engine: str = "mkdocs",
        site_templates: str = "templates/site",
        site_data_edit_uri: str = "edit/main/",
        site_page_budget: int = 80_000,
        site_page_elements: int = 800,
        site_list_budget: int = 150_000,
    ) -> None:
        self.title = title
        self.description = description
        self.site_url = site_url
        self.repository = repository
        self.feed_id = feed_id
        self.feed_title = feed_title
        self.feed_subtitle = feed_subtitle
        self.feed_author = feed_author
        #: How many of the newest additions the Atom feed carries.
        self.feed_limit = feed_limit
        self.licence = licence
        self.kinds = kinds
        self.fields = fields
        #: What the README says `make build` and `make test` do.
        self.build_note = build_note
        self.test_note = test_note
        #: Kinds whose entries give their maintenance state (rule maintenance-missing).
        self.maintained_kinds = maintained_kinds
        #: The capability matrix: its page title, intro and columns (none: no matrix).
        self.capability_title = capability_title
        self.capability_intro = capability_intro
        self.capability_columns = capability_columns
        #: The category whose README section opens with the matrix's compact table.
        self.capability_section = capability_section
        #: The column group that names hardware, whose limits a cell's ``via`` passes on.
        self.capability_hardware_group = capability_hardware_group
        #: The website: its engine (mkdocs or zensical), its page templates, where a card's
        #: "Edit" link points (after the repository URL), and a page's budgets of card bytes
        #: and elements and of one-line list bytes (site_pages explains them).
        self.site_engine = site_engine
        self.site_templates = site_templates
        self.site_data_edit_uri = site_data_edit_uri
        self.site_page_budget = site_page_budget
        self.site_page_elements = site_page_elements
        self.site_list_budget = site_list_budget

    @property
    def name(self) -> str:
        """Return the title without the awesome-list prefix ("Awesome Rust" -> "Rust")."""
        bare = self.title.removeprefix("Awesome ").strip()
        return bare or self.title

    @property
    def feed_name(self) -> str:
        """Return the feed's title (default: the catalog's name and "new entries")."""
        return self.feed_title or f"{self.name}: new entries"

    @property
    def feed_about(self) -> str:
        """Return the feed's subtitle (default: a sentence built from the catalog's name)."""
        return self.feed_subtitle or f"Entries added to {self.name}."

    @property
    def author(self) -> str:
        """Return who the feed names as its author (default: the catalog's contributors)."""
        return self.feed_author or f"{self.name} contributors"


def from_data(data: dict[str, object]) -> Settings:
    """Build Settings from the data of a catalog.yml that passed its schema."""
    feed = data.get("feed")
    feed = feed if isinstance(feed, dict) else {}
    values: dict[str, object] = {
        "title": data["title"],
        "description": " ".join(str(data["description"]).split()),
        "site_url": data.get("site_url"),
        "repository": data.get("repository"),
        "feed_title": feed.get("title"),
        "feed_subtitle": feed.get("subtitle"),
        "feed_author": feed.get("author"),
        "licence": data.get("licence"),
    }
    if "id" in feed:
        values["feed_id"] = feed["id"]
    if "limit" in feed:
        values["feed_limit"] = feed["limit"]
    if "kinds" in data:
        values["kinds"] = tuple(data["kinds"])  # type: ignore[arg-type]
    commands = data.get("commands")
    if isinstance(commands, dict):
        values.update({f"{k}_note": v for k, v in commands.items() if k in ("build", "test")})
    if "fields" in data:
        values["fields"] = tuple(data["fields"])  # type: ignore[arg-type]
    if "maintained_kinds" in data:
        values["maintained_kinds"] = tuple(data["maintained_kinds"])  # type: ignore[arg-type]
    matrix = data.get("capabilities")
    if isinstance(matrix, dict):
        values["capability_columns"] = tuple(Column(**c) for c in matrix["columns"])
        if "title" in matrix:
            values["capability_title"] = matrix["title"]
        values["capability_section"] = matrix.get("section")
        values["capability_hardware_group"] = matrix.get("hardware_group")
        values["capability_intro"] = (
            " ".join(str(matrix["intro"]).split()) if "intro" in matrix else None
        )
    site = data.get("site")
    if isinstance(site, dict):
        for key in ("engine", "templates", "data_edit_uri", "page_budget", "page_elements"):
            if key in site:
                values[f"site_{key}"] = site[key]
        if "list_budget" in site:
            values["site_list_budget"] = site["list_budget"]
    return Settings(**values)  # type: ignore[arg-type]


def check(root: FilePath) -> tuple[Document | None, list[Problem]]:
    """Load and schema-check root/catalog.yml: (document or None when absent/bad, problems)."""
    from ddl_catalog.rules.schema import check_document

    file = os.path.join(root, FILE)
    if not os.path.exists(file):
        return None, []
    try:
        doc = load_file(file, FILE, root=root)
    except LoadError as exc:
        return None, [exc.problem]
    problems = list(check_document(doc, "catalog"))
    return (None if problems else doc), problems


def check_kinds(doc: Document, entries: Sequence[Document]) -> Iterator[Problem]:
    """Report entries whose kind is not one of the kinds catalog.yml enables."""
    from ddl_catalog.rules.base import problem

    kinds = doc.data.get("kinds")
    if not isinstance(kinds, list):
        return
    for entry in entries:
        kind = entry.data.get("kind") if isinstance(entry.data, dict) else None
        if isinstance(kind, str) and kind in KIND_FOLDERS and kind not in kinds:
            yield problem(
                entry,
                ("kind",),
                f"kind '{kind}' is not used by this list; catalog.yml's kinds are: "
                + ", ".join(kinds),
                "kinds",
            )


class SettingsError(Exception):
    """catalog.yml is unreadable or invalid; the message is located (file:line:col)."""


def load(root: FilePath) -> Settings:
    """Return the settings of the catalog at root (defaults when it has no catalog.yml).

    Raises SettingsError with the first located problem when the file is invalid.
    """
    doc, problems = check(root)
    if problems:
        first = problems[0]
        raise SettingsError(f"{first.path}:{first.line}:{first.column}: {first.message}")
    return from_data(doc.data) if doc is not None else Settings()


def of(catalog: Configured) -> Settings:
    """Return a catalog's settings: those it was built with, else read from its root."""
    return catalog.settings if catalog.settings is not None else load(catalog.root)
