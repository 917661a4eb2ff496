"""Every field that holds a URL, a date, a year, an id of something else or a reader's text, in
every data and settings file, is listed in fields.py, where the rules read it.

The test walks the JSON Schemas: a field added to a schema without a check fails here, naming the
list it belongs in. Walking the schema (not a list of examples) is the point: the class of
fields is guarded, not the fields someone remembered.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ddl_catalog import fields
from ddl_catalog.schema import validators

ID_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$"
#: The names of fields that hold a year.
YEAR_NAMES = {"year", "venue_year", "since", "until"}
#: Fields whose values are the file's own names, kinds or closed choices: not text a reader
#: reads, not a reference to another thing.
NOT_TEXT = {
    "entry": {
        "id",
        "kind",
        "status",
        "links[].type",
        "related[].relation",
        "maintenance.state",
        "capabilities.cells.*.value",
        "identifiers.arxiv",
        "identifiers.doi",
        "identifiers.github",
    },
    "categories": {
        "categories[].id",
        "categories[].children[].id",
        "categories[].aliases[]",
        "categories[].children[].aliases[]",
    },
    "tags": {"tags[].id"},
    "catalog": {
        "$schema",
        "capabilities.columns[].id",
        "fields[]",
        "feed.id",
        "site.engine",
        "site.templates",
        "site.data_edit_uri",
    },
    "venues": {"venues[].type"},
    "register": {
        "considered[].reason",
        "considered[].identifiers.arxiv",
        "considered[].identifiers.doi",
        "considered[].identifiers.github",
    },
    "seed-corrections": {"corrections[].action", "corrections[].seed"},
}


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """Follow a local $ref."""
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return schema["$defs"][ref.split("/")[-1]]
    return node


def _walk(schema: dict[str, Any], node: dict[str, Any], path: str) -> Iterator[tuple[str, str]]:
    """Yield (field path, kind) of every leaf: url, date, year, id, text or other."""
    raw = node
    node = _resolve(schema, node)
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in node.get(key, []):
            yield from _walk(schema, branch, path)
    if node.get("type") == "object" or "properties" in node:
        for name, child in node.get("properties", {}).items():
            yield from _walk(schema, child, f"{path}.{name}" if path else name)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            yield from _walk(schema, extra, f"{path}.*")
        return
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        yield from _walk(schema, node["items"], f"{path}[]")
        return
    ref = raw.get("$ref", "")
    if ref.endswith("/url"):
        yield path, "url"
    elif ref.endswith("/date") or node.get("pattern") == "^[0-9]{4}-[0-9]{2}-[0-9]{2}$":
        yield path, "date"
    elif node.get("type") == "integer" and path.rsplit(".", 1)[-1] in YEAR_NAMES:
        yield path, "year"
    elif node.get("type") == "string" and node.get("pattern") == ID_PATTERN:
        yield path, "id"
    elif node.get("type") == "string" and "enum" not in node:
        yield path, "text"


def _leaves(name: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path, kind in _walk(validators.schema(name), validators.schema(name), ""):
        if path:
            found.setdefault(kind, set()).add(path)
    return found


@pytest.mark.parametrize("name", fields.FILES)
def test_every_url_date_year_reference_and_text_field_has_its_check(name: str) -> None:
    leaves = _leaves(name)
    missing = {
        "URLS": leaves.get("url", set()) - set(fields.URLS.get(name, ())),
        "DATES": leaves.get("date", set()) - set(fields.DATES.get(name, ())),
        "YEARS": leaves.get("year", set()) - set(fields.YEARS.get(name, ())),
        "ID_REFS": leaves.get("id", set())
        - set(fields.ID_REFS.get(name, ()))
        - NOT_TEXT.get(name, set()),
        "TEXTS": leaves.get("text", set())
        - set(fields.TEXTS.get(name, ()))
        - set(fields.URLS.get(name, ()))
        - set(fields.ID_REFS.get(name, ()))
        - NOT_TEXT.get(name, set()),
    }
    assert not any(missing.values()), {k: sorted(v) for k, v in missing.items() if v}


def test_each_listed_field_exists_in_its_schema() -> None:
    for registry in (fields.URLS, fields.DATES, fields.YEARS, fields.ID_REFS, fields.TEXTS):
        for name, listed in registry.items():
            leaves = set().union(*_leaves(name).values())
            assert set(listed) <= leaves, (name, sorted(set(listed) - leaves))


def test_the_rules_read_the_lists() -> None:
    """A URL or a date added to the lists is checked by the rules without another change."""
    from ddl_catalog.rules import url_scheme

    data = {"maintenance": {"release": {"url": "javascript:alert(1)"}}}
    paths = [path for path, _ in url_scheme.url_fields(data)]
    assert ("maintenance", "release", "url") in paths
