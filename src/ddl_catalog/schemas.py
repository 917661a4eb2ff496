"""The JSON Schemas shipped in the package, and fast and detailed validators for them.

A compiled fastjsonschema validator answers "valid?" in microseconds; only documents that fail
it go through jsonschema, which lists every error with its path.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources
from typing import Any

SCHEMA_NAMES = ("entry", "categories", "tags")


@cache
def schema(name: str) -> dict[str, Any]:
    """Return the parsed JSON Schema ``name`` (entry, categories or tags)."""
    text = resources.files("ddl_catalog.schema").joinpath(f"{name}.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def schema_path(name: str) -> str:
    """Return the file system path of a shipped schema, for editors and check-jsonschema."""
    return str(resources.files("ddl_catalog.schema").joinpath(f"{name}.schema.json"))


@cache
def fast_validator(name: str) -> Callable[[Any], Any]:
    """Return a compiled validator that raises on the first error."""
    import fastjsonschema

    validate: Callable[[Any], Any] = fastjsonschema.compile(schema(name))
    return validate


def is_valid(name: str, data: Any) -> bool:
    """Say whether ``data`` passes schema ``name``, as fast as possible."""
    import fastjsonschema

    try:
        fast_validator(name)(data)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def iter_errors(name: str, data: Any) -> Iterator[Any]:
    """Yield every jsonschema ValidationError of ``data`` against schema ``name``."""
    return _detailed(name).iter_errors(data)  # type: ignore[no-any-return]


@cache
def _detailed(name: str) -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(schema(name))
