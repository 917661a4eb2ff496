"""The reading order of a list of entries: one rule for the README, the site and the exports.

A reader opening a topic wants its recommended works first, then what they can use, then what
they can read, the latest first. So a topic lists:

1. its start-here picks, in the order the category gives them;
2. then the rest by kind: frameworks, libraries, papers, articles, talks, tutorials, books,
   benchmarks, datasets, lists, docs;
3. inside a kind, writings (papers, articles, talks, tutorials, books) newest first, undated
   last; everything else (software, benchmarks, datasets, lists, docs) by name;
4. ties by title, then id, so the order never depends on file order.

The website's pages say so above their cards and let the reader re-sort a page (newest, oldest,
kind, title); without JavaScript the page keeps this order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ddl_catalog.kinds import KIND_FOLDERS
from ddl_catalog.model.types import Entry

#: Kinds in the order a topic lists them: the order of the data folders (kinds.py).
KIND_ORDER: tuple[str, ...] = tuple(KIND_FOLDERS)
_KIND_RANK = {kind: rank for rank, kind in enumerate(KIND_ORDER)}
#: Kinds listed newest first; the others are listed by name.
NEWEST_FIRST = frozenset({"paper", "article", "talk", "tutorial", "book"})
#: The order in one sentence, as topic pages state it (CONTRIBUTING.md gives it in full).
SENTENCE = (
    "start-here picks, then software by name, then papers and other writings, newest first, "
    "then the rest."
)


def kind_key(entry: Entry) -> tuple[Any, ...]:
    """Return the sort key of the kind order (picks aside): kind, then newest or name."""
    rank = _KIND_RANK.get(entry.kind, len(KIND_ORDER))
    year = 0  # software and the rest: by name
    if entry.kind in NEWEST_FIRST:
        year = -entry.year if entry.year is not None else 1  # newest first, undated last
    return (rank, year, entry.title.casefold(), entry.id)


def reading_order(entries: Iterable[Entry], picks: Sequence[str] = ()) -> list[Entry]:
    """Return ``entries`` in reading order: the ``picks`` present (in their order), then by kind."""
    listed = list(entries)
    by_id = {e.id: e for e in listed}
    first = [by_id[i] for i in dict.fromkeys(picks) if i in by_id]
    chosen = {e.id for e in first}
    return first + sorted((e for e in listed if e.id not in chosen), key=kind_key)
