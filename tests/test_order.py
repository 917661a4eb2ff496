"""The reading order (model/order.py): picks first, then kinds, writings newest first."""

from __future__ import annotations

import random

from ddl_catalog.model import Entry
from ddl_catalog.model.order import KIND_ORDER, kind_key, reading_order


def entry(entry_id: str, kind: str, title: str, year: int | None = None) -> Entry:
    """Return a bare entry of a kind, title and year."""
    return Entry(
        id=entry_id,
        kind=kind,
        title=title,
        url=f"https://example.org/{entry_id}",
        description="A description long enough to be a real one here.",
        categories=("cat",),
        source=f"data/x/{entry_id}.yml",
        year=year,
    )


ENTRIES = [
    entry("old", "paper", "Old Paper", 2012),
    entry("new", "paper", "New Paper", 2024),
    entry("new-b", "paper", "Another New Paper", 2024),
    entry("undated", "paper", "Undated Paper"),
    entry("zlib", "library", "Zeta Library", 2023),
    entry("alib", "library", "Alpha Library", 2016),
    entry("fw", "framework", "Some Framework", 2020),
    entry("talk", "talk", "A Talk", 2019),
    entry("data", "dataset", "A Dataset", 2025),
]


def test_kinds_in_folder_order_writings_newest_first_software_by_name() -> None:
    ordered = [e.id for e in reading_order(ENTRIES)]
    assert ordered == ["fw", "alib", "zlib", "new-b", "new", "old", "undated", "talk", "data"]
    assert KIND_ORDER[:3] == ("framework", "library", "paper")


def test_picks_come_first_in_their_own_order_and_unknown_picks_are_ignored() -> None:
    ordered = [e.id for e in reading_order(ENTRIES, ["old", "missing", "data", "old"])]
    assert ordered[:2] == ["old", "data"]
    assert sorted(ordered) == sorted(e.id for e in ENTRIES)  # each once


def test_the_order_does_not_depend_on_the_input_order() -> None:
    shuffled = ENTRIES[:]
    random.Random(7).shuffle(shuffled)
    assert reading_order(shuffled, ["talk"]) == reading_order(ENTRIES, ["talk"])
    assert sorted(ENTRIES, key=kind_key) == sorted(shuffled, key=kind_key)
