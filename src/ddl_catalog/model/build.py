"""Open a catalog: validate it and build the in-memory model that every output reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ddl_catalog import settings
from ddl_catalog.load import load_file
from ddl_catalog.model import Catalog, Category, Entry, Tag, Venue
from ddl_catalog.validate import Report, validate


class InvalidCatalog(Exception):
    """The catalog has errors; outputs are not built from invalid data."""

    def __init__(self, report: Report) -> None:
        count = len(report.errors)
        super().__init__(
            f"the catalog has {count} error{'s' * (count != 1)}; "
            "run 'ddl-catalog validate' for the list"
        )
        self.report = report


def open_catalog(root: Path) -> Catalog:
    """Validate the catalog under ``root`` and return it, or raise InvalidCatalog."""
    report = validate(root)
    if report.errors:
        raise InvalidCatalog(report)
    return build(root, report)


def build(root: Path, report: Report) -> Catalog:
    """Build the model from a report without errors."""
    entries = sorted(
        (Entry.from_dict(doc.data, doc.path) for doc in report.documents),
        key=lambda e: e.id,
    )
    categories, tags = _tree(report.trees["categories"], report.trees["tags"])
    found = report.trees.get("settings")
    venues = report.trees.get("venues") or {"venues": []}
    return Catalog(
        root=root,
        entries=tuple(entries),
        categories=categories,
        tags=tags,
        settings=settings.from_data(found) if found is not None else settings.Settings(),
        venues={v["id"]: Venue.from_dict(v) for v in venues["venues"]},
    )


def _tree(cats: Any, tag_data: Any) -> tuple[dict[str, Category], dict[str, Tag]]:
    """Turn the validated data of categories.yml and tags.yml into model objects."""
    categories: dict[str, Category] = {}
    for top in cats["categories"]:
        children = top.get("children", [])
        categories[top["id"]] = Category(
            top["id"],
            top["title"],
            top["description"],
            None,
            tuple(c["id"] for c in children),
            tuple(top.get("aliases", ())),
            _picks(top),
        )
        for child in children:
            categories[child["id"]] = Category(
                child["id"],
                child["title"],
                child["description"],
                top["id"],
                aliases=tuple(child.get("aliases", ())),
                start_here=_picks(child),
            )
    tags = {t["id"]: Tag(t["id"], t["description"]) for t in tag_data["tags"]}
    return categories, tags


def _picks(node: Any) -> tuple[tuple[str, str], ...]:
    """Return a category node's start-here picks as (entry id, reason) pairs."""
    return tuple((pick["id"], " ".join(pick["why"].split())) for pick in node.get("start_here", ()))


def read_categories(root: Path) -> dict[str, str]:
    """Return {category id: title} of data/categories.yml, unvalidated (for add and import).

    Malformed nodes are skipped (validate reports them); raises LoadError if unreadable.
    """
    data = load_file(root / "data" / "categories.yml", "data/categories.yml", root=root).data
    found: dict[str, str] = {}
    tops = data.get("categories")
    for top in tops if isinstance(tops, list) else []:
        if not isinstance(top, dict):
            continue
        for node in [top, *(top.get("children") or [])]:
            if isinstance(node, dict) and isinstance(node.get("id"), str):
                found[node["id"]] = str(node.get("title") or node["id"])
    return found
