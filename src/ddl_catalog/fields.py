"""Every field of every data and settings file that holds a URL, a date, a year, an id
reference or text a reader sees, and the checks that read these lists.

One list per kind of value, so that a rule checks the class of fields, not the one field it was
written for: the URL rule reads ``URLS``, the date rule ``DATES``, the hidden-text rule
``TEXTS``. A test walks the JSON Schemas and fails when a field of one of these kinds is added
to a schema without being listed here (tests/test_fields.py).

A field is written as a dotted path: ``links[].url`` is the ``url`` of every item of
``links``, ``capabilities.cells.*.source`` the ``source`` of every cell whatever its name.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: The files, by the schema that checks them.
FILES = ("entry", "categories", "tags", "catalog", "venues", "register", "seed-corrections")

#: Absolute http(s) addresses: only these may reach a page (rule url-scheme).
URLS: dict[str, tuple[str, ...]] = {
    "entry": (
        "url",
        "archive_url",
        "links[].url",
        "maintenance.source",
        "maintenance.moved_to",
        "maintenance.last_commit_url",
        "maintenance.release.url",
        "capabilities.cells.*.source",
    ),
    "catalog": ("site_url", "repository"),
    "register": ("considered[].url",),
    "seed-corrections": ("corrections[].url", "corrections[].by"),
}

#: Days (YYYY-MM-DD): real days, none after today in UTC (rule dates).
DATES: dict[str, tuple[str, ...]] = {
    "entry": (
        "added",
        "maintenance.checked",
        "maintenance.as_of",
        "maintenance.last_commit",
        "maintenance.newest_commit",
        "maintenance.release.date",
        "capabilities.as_of",
        "capabilities.checked",
        "capabilities.cells.*.as_of",
    ),
    "register": ("considered[].date", "considered[].admitted.date"),
}

#: Years: within the range of the field (rules year-range and venue).
YEARS: dict[str, tuple[str, ...]] = {
    "entry": ("year", "venue_year"),
    "venues": ("venues[].since", "venues[].former[].until"),
}

#: Ids of other things: entries, categories, tags, columns, venues (each checked to exist).
ID_REFS: dict[str, tuple[str, ...]] = {
    "entry": (
        "categories[]",
        "tags[]",
        "related[].id",
        "maintenance.superseded_by",
        "capabilities.cells.*.via",
        "venue",
    ),
    "categories": (
        "categories[].start_here[].id",
        "categories[].children[].start_here[].id",
    ),
    "catalog": ("capabilities.section",),
    "register": ("considered[].duplicate_of",),
    "seed-corrections": ("corrections[].entry",),
}

#: Text a reader sees on a page, in the README, a feed or a citation (rule hidden-text).
TEXTS: dict[str, tuple[str, ...]] = {
    "entry": (
        "title",
        "description",
        "authors[]",
        "team",
        "venue",
        "pages",
        "links[].title",
        "maintenance.evidence",
        "maintenance.notice",
        "maintenance.release.version",
        "capabilities.cells.*.note",
        "capabilities.cells.*.covers",
    ),
    "categories": (
        "categories[].title",
        "categories[].description",
        "categories[].start_here[].why",
        "categories[].children[].title",
        "categories[].children[].description",
        "categories[].children[].start_here[].why",
    ),
    "tags": ("tags[].description",),
    "catalog": (
        "title",
        "description",
        "feed.title",
        "feed.subtitle",
        "feed.author",
        "licence",
        "commands.build",
        "commands.test",
        "capabilities.title",
        "capabilities.intro",
        "capabilities.columns[].label",
        "capabilities.columns[].group",
        "capabilities.columns[].help",
        "capabilities.hardware_group",
    ),
    "venues": ("venues[].id", "venues[].name", "venues[].former[].short"),
    "register": (
        "considered[].title",
        "considered[].note",
        "considered[].admitted.reason",
        "considered[].seen_in[]",
    ),
    "seed-corrections": ("corrections[].reason",),
}

#: Fields of the texts above that name something: they must show at least one character.
NAMED: frozenset[str] = frozenset(
    {
        "title",
        "team",
        "venue",
        "authors[]",
        "links[].title",
        "categories[].title",
        "categories[].children[].title",
        "capabilities.title",
        "capabilities.columns[].label",
        "capabilities.columns[].group",
        "capabilities.cells.*.note",
        "capabilities.cells.*.covers",
        "venues[].id",
        "venues[].name",
        "considered[].title",
    }
)


def values(data: Any, field: str) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Yield (path, value) of every value of ``field`` in ``data`` (a dotted path, see above)."""
    yield from _walk(data, field.split("."), ())


def _walk(
    data: Any, parts: list[str], path: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Follow ``parts`` through nested mappings and lists (``x[]`` items, ``*`` any key)."""
    if not parts:
        yield path, data
        return
    head, rest = parts[0], parts[1:]
    if not isinstance(data, dict):
        return
    if head == "*":
        for key, item in data.items():
            if isinstance(key, str):
                yield from _walk(item, rest, (*path, key))
        return
    key, items = (head[:-2], True) if head.endswith("[]") else (head, False)
    if key not in data:
        return
    value = data[key]
    if not items:
        yield from _walk(value, rest, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, rest, (*path, key, index))
