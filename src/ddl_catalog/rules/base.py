"""What every validation rule sees, and helpers to report located problems."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from typing import Any

from ddl_catalog.load import Document, Path_, Problem


class Context:
    """The loaded catalog files, as rules see them (raw data with positions)."""

    def __init__(
        self,
        entries: list[Document],
        categories: Mapping[str, Path_] | None = None,
        tags: set[str] | None = None,
        *,
        aliases: Mapping[str, str] | None = None,
        has_categories: bool = True,
        has_tags: bool = True,
        settings: Mapping[str, Any] | None = None,
        venues: Mapping[str, Mapping[str, Any]] | None = None,
        register: Document | None = None,
    ) -> None:
        self.entries = entries
        #: Known category ids, each with its path in categories.yml.
        self.categories = categories if categories is not None else {}
        #: Former category ids, each with the id of the category that took it over.
        self.aliases = aliases if aliases is not None else {}
        self.tags = tags if tags is not None else set()
        self.has_categories = has_categories
        self.has_tags = has_tags
        #: catalog.yml's data when it passed its schema (else empty: defaults apply).
        self.settings = settings if settings is not None else {}
        #: data/venues.yml's venues by id, when the catalog has that file (None: no venue list,
        #: any venue name is accepted).
        self.venues = venues
        #: data/register.yml (resources considered and left out), when it passed its schema.
        self.register = register

    def entry_ids(self) -> dict[str, Document]:
        """Return the entries by id (the first of each id; unique-id reports the others)."""
        found: dict[str, Document] = {}
        for doc in self.entries:
            entry_id = doc.data.get("id") if isinstance(doc.data, dict) else None
            if isinstance(entry_id, str):
                found.setdefault(entry_id, doc)
        return found

    def field_values(self, key: str) -> Iterator[tuple[Document, Any]]:
        """Yield (document, value) for every entry that has field ``key``."""
        for doc in self.entries:
            if key in doc.data:
                yield doc, doc.data[key]


def problem(
    doc: Document,
    path: Path_,
    message: str,
    rule: str,
    *,
    severity: str = "error",
    key: bool = False,
) -> Problem:
    """Return a Problem located at ``path`` in ``doc`` (at the key itself when ``key``)."""
    line, column = doc.where(path, key=key)
    return Problem(doc.path, line, column, severity, message, rule)


def field_name(path: Path_) -> str:
    """Return a path as a dotted field name such as ``links[1].url`` ("the file" for none)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the file"


def folder_of(doc: Document) -> str:
    """Return the name of the folder that holds the document's file."""
    return posixpath.basename(posixpath.dirname(doc.path))


def stem_of(doc: Document) -> str:
    """Return the document's file name without its extension."""
    return posixpath.splitext(posixpath.basename(doc.path))[0]


def strings(value: Any) -> list[str]:
    """Return the string items of a list value (ignoring wrongly typed ones)."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def mappings(value: Any) -> list[tuple[int, Mapping[str, Any]]]:
    """Return (index, item) for the mapping items of a list value."""
    if not isinstance(value, list):
        return []
    return [(i, v) for i, v in enumerate(value) if isinstance(v, Mapping)]
