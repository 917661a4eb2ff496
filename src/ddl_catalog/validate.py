"""Validate a catalog directory: load every file, run every rule, report every problem.

Validation never writes anything; it returns a Report that the CLI prints.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ddl_catalog import identity, settings
from ddl_catalog.load import (
    Document,
    FilePath,
    LoadError,
    Path_,
    Problem,
    cannot_read,
    load_file,
    load_text,
    refuse_outside,
)
from ddl_catalog.mkdocs_yml import page_clash
from ddl_catalog.rules import RULES, Context
from ddl_catalog.rules.base import problem
from ddl_catalog.rules.schema import check_document

#: Folders under data/ that hold something other than entries.
NON_ENTRY_FOLDERS = frozenset({"metadata", "seed-corrections"})
#: The sources of data/metadata/<source>.json (``metadata.SOURCES``; a test keeps them equal).
METADATA_SOURCES = ("github", "arxiv", "crossref")


class Report:
    """The outcome of a validation run."""

    def __init__(
        self,
        problems: list[Problem],
        documents: list[Document],
        files: int,
        trees: dict[str, Any],
    ) -> None:
        self.problems = problems
        self.documents = documents
        self.files = files
        #: The parsed data of categories.yml, tags.yml and catalog.yml ("categories", "tags",
        #: "settings") when they passed their schemas, so the model is built without reading
        #: them again.
        self.trees = trees

    @property
    def errors(self) -> list[Problem]:
        """Return the problems of severity error."""
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        """Return the problems of severity warning."""
        return [p for p in self.problems if p.severity == "warning"]

    def failed(self, *, strict: bool = False) -> bool:
        """Say whether the run fails: any error, or any warning when strict."""
        return bool(self.errors or (strict and self.warnings))


def entry_files(root: FilePath) -> list[Path]:
    """Return the entry files under root/data, sorted (every .yml/.yaml one folder down).

    Paths that ``scan`` refuses (symbolic links leading outside the catalog, folders that
    cannot be listed) are left out.
    """
    return [Path(file) for file, _ in scan(root)[0]]


def scan(root: FilePath) -> tuple[list[tuple[str, str]], list[Problem]]:
    """Find the entry files: (file, path shown in messages) sorted, and the paths refused.

    Nothing is opened here. A symbolic link under data/ (to a folder or a file) that leads
    outside the catalog is refused without being listed or read; a folder that cannot be listed
    is reported. Other unreadable paths named like entry files (a link loop, a directory, a
    FIFO) are returned, for ``load_file`` to say what they are.
    """
    found: list[tuple[str, str]] = []
    refused: list[Problem] = []
    data = os.path.join(root, "data")
    if os.path.islink(data) and (problem := refuse_outside(data, root, "data")):
        return found, [problem]
    try:
        with os.scandir(data) as listing:
            tops = list(listing)
    except (FileNotFoundError, NotADirectoryError):
        return found, refused  # validate says there is no data/ folder
    except OSError as exc:
        return found, [_unlistable(data, "data", exc)]
    for top in tops:
        display = f"data/{top.name}"
        if top.name in NON_ENTRY_FOLDERS:
            continue
        if top.is_symlink():
            if (problem := refuse_outside(top.path, root, display)) is not None:
                refused.append(problem)
                continue
            try:
                os.stat(top.path)
            except OSError as exc:  # a loop or a broken link: say which
                refused.append(_unlistable(top.path, display, exc, "cannot read"))
                continue
        if not top.is_dir():
            continue  # categories.yml, tags.yml, LICENSE ...
        try:
            with os.scandir(top.path) as listing:
                names = list(listing)
        except OSError as exc:
            refused.append(_unlistable(top.path, display, exc))
            continue
        for entry in names:
            if not entry.name.endswith((".yml", ".yaml")):
                continue
            shown = f"{display}/{entry.name}"
            if entry.is_symlink() and (problem := refuse_outside(entry.path, root, shown)):
                refused.append(problem)
                continue
            found.append((entry.path, shown))
    found.sort()
    return found, refused


def _unlistable(path: str, display: str, exc: OSError, verb: str = "cannot list folder") -> Problem:
    """Return the problem of a path under data/ that could not be listed or followed."""
    return Problem(display, 1, 1, "error", f"{verb}: {cannot_read(path, exc)}", "file")


def _load_tree(root: FilePath, name: str, problems: list[Problem]) -> Document | None:
    """Load and schema-check data/<name>.yml, appending problems; None when unusable."""
    file = os.path.join(root, "data", f"{name}.yml")
    display = f"data/{name}.yml"
    if not os.path.lexists(file):
        problems.append(Problem(display, 1, 1, "error", f"missing file {display}", name))
        return None
    try:
        doc = load_file(file, display, root=root)
    except LoadError as exc:
        problems.append(exc.problem)
        return None
    found = list(check_document(doc, name))
    problems.extend(found)
    return None if found else doc


def _metadata(root: FilePath) -> list[Problem]:
    """Check data/metadata/*.json, which the outputs read, when the catalog has any."""
    folder = os.path.join(root, "data", "metadata")
    if not any(os.path.lexists(os.path.join(folder, f"{s}.json")) for s in METADATA_SOURCES):
        return []
    from ddl_catalog import metadata  # json and the model: only for catalogs with metadata

    return metadata.check(root)


def docs_pages(root: FilePath) -> frozenset[str]:
    """Return the site paths the hand-written docs take ("architecture", "guides/setup").

    A topic whose page would land on one of them is refused here, naming the category, rather
    than failing the site build later with a message about the hand-written page.
    """
    from ddl_catalog.mkdocs_yml import docs_dir

    docs = docs_dir(Path(root))
    if not docs.is_dir():
        return frozenset()
    pages = set()
    for page in docs.rglob("*.md"):
        rel = page.relative_to(docs).with_suffix("").as_posix()
        pages.add(rel.removesuffix("/index"))
    return frozenset(pages - {"index"})


def _categories(
    doc: Document, problems: list[Problem], docs: frozenset[str] = frozenset()
) -> tuple[dict[str, Path_], dict[str, str]]:
    """Index category ids with where they are defined, and former ids with their category.

    Returns ({id: path}, {alias: category id}); a name used twice, as an id or an alias, is
    reported, and so is a topic whose page would be a hand-written page of ``docs``. Positions
    are looked up only for a duplicate: asking for one re-parses the file.
    """
    index: dict[str, Path_] = {}
    aliases: dict[str, str] = {}
    seen: dict[str, Path_] = {}  # every name, id or alias, with where it is first defined
    for i, top in enumerate(doc.data["categories"]):
        nodes = [((i,), top)] + [
            ((i, "children", j), child) for j, child in enumerate(top.get("children", []))
        ]
        for where, node in nodes:
            parent = None if len(where) == 1 else top["id"]
            site_path = node["id"] if parent is None else f"{parent}/{node['id']}"
            if clash := page_clash(node["id"], parent):
                message = f"{clash}: rename the category"
                problems.append(problem(doc, ("categories", *where, "id"), message, "page-clash"))
            elif site_path in docs:
                message = (
                    f"category id '{node['id']}' takes the page /{site_path}/ of the "
                    f"hand-written docs/{site_path}.md: rename the category (or the page)"
                )
                problems.append(problem(doc, ("categories", *where, "id"), message, "page-clash"))
            names = [(("categories", *where, "id"), node["id"], None)]
            names += [
                (("categories", *where, "aliases", k), alias, node["id"])
                for k, alias in enumerate(node.get("aliases", []))
            ]
            for path, name, target in names:
                if name in seen:
                    first_line = doc.where(seen[name])[0]
                    message = f"category id '{name}' is defined twice (first at line {first_line})"
                    problems.append(problem(doc, path, message, "categories"))
                    continue
                seen[name] = path
                if target is None:
                    index[name] = path
                else:
                    aliases[name] = target
    return index, aliases


def _start_here(doc: Document, entries: list[Document]) -> Iterator[Problem]:
    """Report start-here picks that are no entry, or not filed in their category (rule start-here).

    A topic's picks may be filed in the topic or in one of its subtopics.
    """
    filed: dict[str, set[str]] = {}
    for entry in entries:
        data = entry.data
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            cats = data.get("categories")
            filed[data["id"]] = (
                {c for c in cats if isinstance(c, str)} if isinstance(cats, list) else set()
            )
    for i, top in enumerate(doc.data["categories"]):
        children = top.get("children", [])
        nodes: list[tuple[tuple[Any, ...], Any, set[str]]] = [
            ((i,), top, {top["id"], *(c["id"] for c in children)})
        ]
        nodes += [((i, "children", j), c, {c["id"]}) for j, c in enumerate(children)]
        for where, node, homes in nodes:
            picked: set[str] = set()
            for k, pick in enumerate(node.get("start_here", [])):
                path = ("categories", *where, "start_here", k, "id")
                if pick["id"] in picked:
                    message = f"start-here entry '{pick['id']}' is picked twice: keep one"
                    yield problem(doc, path, message, "start-here")
                    continue
                picked.add(pick["id"])
                if pick["id"] not in filed:
                    message = f"start-here entry '{pick['id']}' does not exist: check the id"
                    yield problem(doc, path, message, "start-here")
                elif not filed[pick["id"]] & homes:
                    message = (
                        f"start-here entry '{pick['id']}' is not filed in '{node['id']}': "
                        "pick an entry of this category, or add the category to the entry"
                    )
                    yield problem(doc, path, message, "start-here")


def validate(root: FilePath, *, texts: Mapping[str, str] | None = None) -> Report:
    """Load and check the whole catalog under ``root``; never raises for bad data.

    ``texts`` maps entry files, as messages name them (``data/papers/x.yml``), to the text they
    would hold: these are checked instead of what is on disk, new files included. Nothing is
    written; see ``refusals``.
    """
    try:
        return _validate(root, texts or {})
    finally:
        identity.analyse.cache_clear()


def refusals(
    root: FilePath, texts: Mapping[str, str], *, before: Report | None = None
) -> list[Problem]:
    """Return the errors validate would report, and does not today, if files held ``texts``.

    The one check of every command that writes entry files (add, check-links --fix): what it
    is about to write must pass everything validate applies, its loader (encoding, control
    characters, size), the schema and every rule, across files too (a URL another entry has).
    ``before`` is the report of the catalog as it is, when the caller already has it.
    """
    before = before if before is not None else validate(root)
    # Columns aside: an edit may shift what follows it on its line, not make it new.
    known = {(p.path, p.line, p.message, p.rule) for p in before.errors}
    after = validate(root, texts=texts).errors
    return [p for p in after if (p.path, p.line, p.message, p.rule) not in known]


def _validate(root: FilePath, texts: Mapping[str, str]) -> Report:
    """Run validation (see validate)."""
    problems: list[Problem] = []
    documents: list[Document] = []
    files, refused = scan(root)
    problems.extend(refused)
    pending = dict(texts)
    displays = {display for _file, display in files}
    files += [(os.path.join(root, d), d) for d in sorted(pending) if d not in displays]
    files.sort()
    for file, display in files:
        try:
            if display in pending:
                documents.append(load_text(pending.pop(display), display))
            else:
                documents.append(load_file(file, display))
        except LoadError as exc:
            problems.append(exc.problem)
    categories_doc = _load_tree(root, "categories", problems)
    tags_doc = _load_tree(root, "tags", problems)
    optional = {
        name: _load_tree(root, name, problems)
        for name in ("seed-corrections", "venues", "register")  # import reads the first
        if os.path.lexists(os.path.join(root, "data", f"{name}.yml"))
    }
    categories, aliases = (
        _categories(categories_doc, problems, docs_pages(root)) if categories_doc else ({}, {})
    )
    settings_doc, found = settings.check(root)  # catalog.yml, optional
    problems.extend(found)
    venues_doc = optional.get("venues")
    venues = _venues(venues_doc, problems) if venues_doc is not None else None
    if "venues" in optional and venues_doc is None:
        venues = {}  # the file is there but broken: its own problems say why
    for name, doc in (
        ("categories", categories_doc),
        ("tags", tags_doc),
        ("catalog", settings_doc),
        *optional.items(),
    ):
        if doc is not None:
            problems.extend(tree_text_problems(doc, name))
    if settings_doc is not None:
        problems.extend(_matrix_settings(settings_doc, categories))
    context = Context(
        entries=documents,
        categories=categories,
        aliases=aliases,
        tags={t["id"] for t in tags_doc.data["tags"]} if tags_doc else set(),
        has_categories=categories_doc is not None,
        has_tags=tags_doc is not None,
        settings=settings_doc.data if settings_doc is not None else None,
        venues=venues,
        register=optional.get("register"),
    )
    if not os.path.isdir(os.path.join(root, "data")):
        where = os.path.abspath(root)
        problems.append(
            Problem("data", 1, 1, "error", f"no data/ folder under {where}: check --root", "file")
        )
    for check in RULES.values():
        problems.extend(check(context))
    if categories_doc is not None:
        problems.extend(_start_here(categories_doc, documents))
    problems.extend(_metadata(root))
    if settings_doc is not None:
        problems.extend(settings.check_kinds(settings_doc, documents))
    trees = {
        name: doc.data
        for name, doc in (
            ("categories", categories_doc),
            ("tags", tags_doc),
            ("settings", settings_doc),
            ("venues", venues_doc),
        )
        if doc
    }
    return Report(
        sorted(set(problems)), documents, files=len(files) + len(refused) + 2, trees=trees
    )


def _venues(doc: Document, problems: list[Problem]) -> dict[str, Any]:
    """Index data/venues.yml by id; report an id or a former short name used twice."""
    found: dict[str, Any] = {}
    names: dict[str, int] = {}
    for index, venue in enumerate(doc.data["venues"]):
        for name, path in [(venue["id"], ("venues", index, "id"))] + [
            (old["short"], ("venues", index, "former", k, "short"))
            for k, old in enumerate(venue.get("former", []))
        ]:
            if name in names:
                message = f"venue '{name}' is listed twice (first as venue {names[name] + 1})"
                problems.append(problem(doc, path, message, "venues"))
                continue
            names[name] = index
        found.setdefault(venue["id"], venue)
    return found


def tree_text_problems(doc: Document, kind: str) -> Iterator[Problem]:
    """Report hidden text and bad addresses in a file that is not an entry (fields.py's lists).

    Categories, tags, catalog.yml, venues and the register reach the nav, the README and the
    feed as much as entries do, so the same checks apply to every text and URL they hold.
    """
    from ddl_catalog import fields
    from ddl_catalog.rules import hidden_text
    from ddl_catalog.rules.base import field_name
    from ddl_catalog.rules.url_scheme import url_problem

    if not isinstance(doc.data, dict):
        return
    for name in fields.TEXTS.get(kind, ()):
        for path, value in fields.values(doc.data, name):
            if isinstance(value, str) and not value.isascii():
                why = hidden_text.text_problem(value, named=name in fields.NAMED)
                if why:
                    yield problem(doc, path, f"'{field_name(path)}' {why}", hidden_text.ID)
    if kind in ("catalog",):
        for name in fields.URLS.get(kind, ()):
            for path, value in fields.values(doc.data, name):
                if isinstance(value, str) and (why := url_problem(value)):
                    yield problem(doc, path, f"'{field_name(path)}' {why}", "url-scheme")


def _matrix_settings(doc: Document, categories: Mapping[str, Path_]) -> Iterator[Problem]:
    """Report columns named twice, a section that is no category, a hardware group of none."""
    block = doc.data.get("capabilities")
    if not isinstance(block, dict):
        return
    seen: set[str] = set()
    for index, column in enumerate(block.get("columns") or []):
        column_id = column.get("id") if isinstance(column, dict) else None
        if isinstance(column_id, str):
            if column_id in seen:
                message = f"capability column '{column_id}' is defined twice: keep one"
                where = ("capabilities", "columns", index, "id")
                yield problem(doc, where, message, "capabilities")
            seen.add(column_id)
    section = block.get("section")
    if isinstance(section, str) and categories and section not in categories:
        message = (
            f"capabilities.section '{section}' is no category of data/categories.yml: the "
            "README's compact table would not show; name a category id"
        )
        yield problem(doc, ("capabilities", "section"), message, "capabilities")
    hardware = block.get("hardware_group")
    groups = {c.get("group") for c in block.get("columns") or [] if isinstance(c, dict)}
    if isinstance(hardware, str) and hardware not in groups:
        message = (
            f"capabilities.hardware_group '{hardware}' is the group of no column: name the "
            f"group of the hardware columns ({', '.join(sorted(map(str, groups)))})"
        )
        yield problem(doc, ("capabilities", "hardware_group"), message, "capabilities")
