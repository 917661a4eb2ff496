"""Rule ``schema``: every entry matches the JSON Schema, with friendly messages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ddl_catalog.load import Document, Problem
from ddl_catalog.rules.base import Context, field_name, problem
from ddl_catalog.schema import validators
from ddl_catalog.suggest import closest, did_you_mean

ID = "schema"


_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "array": "a list",
    "object": "a mapping",
    "number": "a number",
    "boolean": "true or false",
}


def check(ctx: Context) -> Iterator[Problem]:
    """Report every schema violation of every entry."""
    for doc in ctx.entries:
        yield from check_document(doc, "entry")


def check_document(doc: Document, name: str) -> Iterator[Problem]:
    """Report the schema violations of one document against schema ``name``."""
    if validators.is_valid(name, doc.data):
        return
    errors = list(validators.iter_errors(name, doc.data))
    # A misspelt key already says "did you mean 'title'?": don't also say 'title' is missing.
    misspelt = {
        (tuple(e.absolute_path), near)
        for e in errors
        if e.validator == "additionalProperties"
        for near in _suggestions(e)
    }
    for error in errors:
        if (
            error.validator == "required"
            and (tuple(error.absolute_path), _missing(error)) in misspelt
        ):
            continue
        if error.validator == "additionalProperties":
            yield from _describe_unknown(error, doc)
            continue
        found = _describe(error, doc)
        if found is not None:
            yield found


def _describe_unknown(error: Any, doc: Document) -> Iterator[Problem]:
    """Report each unknown key at its own position, with a "did you mean" when one is close."""
    path = tuple(error.absolute_path)
    allowed = sorted(error.schema.get("properties", {}))
    for key in _unknown_keys(error):
        hint = did_you_mean(key, allowed) or f"; known fields: {', '.join(allowed)}"
        yield problem(doc, (*path, key), f"unknown field '{key}'{hint}", ID, key=True)


def _unknown_keys(error: Any) -> list[str]:
    """Return the keys an additionalProperties error is about."""
    allowed = error.schema.get("properties", {})
    return [str(k) for k in error.instance if k not in allowed]


def _suggestions(error: Any) -> list[str]:
    """Return the known field each unknown key most likely meant."""
    allowed = sorted(error.schema.get("properties", {}))
    return [near for key in _unknown_keys(error) if (near := closest(key, allowed))]


def _missing(error: Any) -> str:
    """Return the field name a 'required' error is about."""
    return str(error.message.split("'")[1]) if "'" in error.message else "?"


def _shown(value: Any) -> str:
    """Return a short quoted rendering of a bad value."""
    text = repr(value) if not isinstance(value, str) else f"'{value}'"
    return text if len(text) <= 60 else text[:57] + "...'"


def _url_pattern() -> str:
    """Return the schema's pattern for URLs (read only when some entry failed the schema)."""
    pattern: str = validators.schema("entry")["$defs"]["url"]["pattern"]
    return pattern


def _describe(error: Any, doc: Document) -> Problem | None:
    """Turn one jsonschema error into a located, plain-language Problem (or None to skip)."""
    path = tuple(error.absolute_path)
    name = field_name(path)
    kind = error.validator
    if kind == "pattern" and error.validator_value == _url_pattern():
        return None  # URL pattern errors are left to the url-scheme rule, which says more
    if kind == "required":
        missing = _missing(error)
        where = f" in {name}" if path else ""
        return problem(doc, path, f"missing required field '{missing}'{where}", ID)
    if kind == "type":
        want = error.validator_value
        words = " or ".join(
            _TYPE_WORDS.get(w, w) for w in ([want] if isinstance(want, str) else want)
        )
        hint = ""
        if name.endswith("arxiv") and isinstance(error.instance, float):
            hint = '; quote arXiv ids so they stay text, e.g. "1802.09941"'
        return problem(
            doc, path, f"'{name}' must be {words}, got {_shown(error.instance)}{hint}", ID
        )
    if kind == "enum":
        options = [str(o) for o in error.validator_value]
        hint = did_you_mean(str(error.instance), options)
        return problem(
            doc,
            path,
            f"'{name}' must be one of {', '.join(options)}; got {_shown(error.instance)}{hint}",
            ID,
        )
    if kind == "pattern":
        return problem(
            doc,
            path,
            f"'{name}' has the wrong form: {_shown(error.instance)}{_pattern_hint(path)}",
            ID,
        )
    if kind in ("minLength", "maxLength", "minItems", "maxItems", "minProperties"):
        limit = error.validator_value
        what = "characters" if "Length" in kind else "items" if "Items" in kind else "fields"
        bound = "at least" if kind.startswith("min") else "at most"
        return problem(doc, path, f"'{name}' must have {bound} {limit} {what}", ID)
    if kind == "uniqueItems":
        return problem(doc, path, f"'{name}' lists the same value twice", ID)
    return problem(doc, path, f"'{name}': {error.message}", ID)


def _pattern_hint(path: tuple[Any, ...]) -> str:
    """Say what the expected form of a pattern-checked field is."""
    last = next((p for p in reversed(path) if isinstance(p, str)), "")
    return {
        "id": "; use lower-case letters, digits and single hyphens, e.g. dean2012large",
        "categories": "; category ids are lower-case kebab-case",
        "tags": "; tag ids are lower-case kebab-case",
        "arxiv": '; give the bare id without version, e.g. "1802.09941"',
        "doi": "; give the bare DOI, e.g. 10.1145/3320060",
        "github": "; give owner/name, e.g. horovod/horovod",
        "added": "; use YYYY-MM-DD",
    }.get(last, "")
