"""``check-links --fix``: rewrite moved URLs in data files, changing nothing else in them.

ruamel.yaml's round-trip loader tells where each URL scalar starts (line and column); the
replacement is made at exactly that spot, so comments, quoting, key order and layout stay byte
for byte. The file is re-read afterwards to prove the field now holds the new URL, and written
atomically.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from ddl_catalog import identity
from ddl_catalog.files import write_atomic

#: Path fragments of pages that moved URLs sometimes land on instead of the resource.
_SUSPECT_PATHS = ("login", "signin", "sign-in", "auth", "404", "not-found", "notfound")


class EditError(Exception):
    """A data file could not be rewritten safely."""


@dataclass(frozen=True, slots=True)
class Change:
    """One URL rewritten in one file."""

    path: str
    field: str
    old: str
    new: str


def worth_fixing(old: str, new: str) -> bool:
    """Return whether a permanent redirect looks like a real move, not a disguised removal.

    A deep link redirected to a site's home page or to a login/404 page lost its resource.
    """
    old_path, new_path = urlsplit(old).path, urlsplit(new).path
    if new_path.strip("/") == "" and old_path.strip("/") != "":
        return False
    lowered = new_path.lower()
    return not any(part in lowered and part not in old_path.lower() for part in _SUSPECT_PATHS)


def identity_owners(root: Path) -> dict[tuple[str, str], str]:
    """Return each identity key of the catalog's entries with the file (relative) that has it."""
    from ddl_catalog.load import LoadError, load_file
    from ddl_catalog.validate import entry_files

    owners: dict[tuple[str, str], str] = {}
    for file in entry_files(root):
        display = file.relative_to(root).as_posix()
        try:
            data = load_file(file, display, root=root).data
        except LoadError:
            continue
        for key in identity.identity_keys(data):
            owners.setdefault(key, display)
    return owners


def same_resource(url: str, source: str, owners: Mapping[tuple[str, str], str]) -> str | None:
    """Say which other entry ``url`` is the same resource as (by identity.py), or None.

    Written in the words of the duplicate-identity rule, which would refuse the rewritten file:
    the comparison is the one ``validate``, ``add`` and ``import`` make (hosts IDNA-mapped).
    """
    for key in sorted(identity.identity_keys({"url": url})):
        other = owners.get(key)
        if other is not None and other != source:
            return f"the same {identity.describe_key(key)} as {other} [duplicate-identity]"
    return None


def rewrite_urls(path: Path, moves: Mapping[str, str]) -> list[Change]:
    """Replace every URL field of ``path`` found in ``moves`` by its new URL; return changes."""
    new_text, changes = rewritten(path, moves)
    if changes:
        write_atomic(path, new_text)
    return changes


def rewritten(path: Path, moves: Mapping[str, str]) -> tuple[str, list[Change]]:
    """Return the text ``path`` would hold with the URLs of ``moves`` replaced, and the changes.

    Nothing is written, so the caller can have the new text checked first (``check-links
    --fix`` asks ``validate.refusals``). Raises EditError when the file cannot be read or the
    replacement would not read back as the new URL.
    """
    try:
        text = path.read_text(encoding="utf-8")
        data = _load(text)
    except (OSError, UnicodeDecodeError, YAMLError) as exc:
        raise EditError(f"{path}: cannot read: {exc}") from exc
    lines = text.splitlines(keepends=True)
    changes: list[Change] = []
    for field, container, key in _url_fields(data):
        old = container.get(key)
        if isinstance(old, str) and old in moves:
            line, column = container.lc.value(key)
            lines[line] = _replace_at(lines[line], column, old, moves[old], path)
            changes.append(Change(str(path), field, old, moves[old]))
    if not changes:
        return text, []
    new_text = "".join(lines)
    try:
        after = {field: c.get(key) for field, c, key in _url_fields(_load(new_text))}
    except YAMLError as exc:
        raise EditError(f"{path}: the new URL would not read back: {exc}") from exc
    for change in changes:
        if after.get(change.field) != change.new:
            raise EditError(f"{path}: rewriting {change.field} did not give the expected URL")
    return new_text, changes


def _load(text: str) -> Any:
    """Parse YAML with ruamel's round-trip loader (it records positions)."""
    return YAML(typ="rt").load(text)


def _url_fields(data: Any) -> list[tuple[str, Any, str]]:
    """Return (field name, mapping, key) of every URL field of an entry document."""
    fields: list[tuple[str, Any, str]] = []
    if not isinstance(data, Mapping):
        return fields
    for key in ("url", "archive_url"):
        if isinstance(data.get(key), str):
            fields.append((key, data, key))
    for index, link in enumerate(data.get("links") or []):
        if isinstance(link, Mapping) and isinstance(link.get("url"), str):
            fields.append((f"links[{index}].url", link, "url"))
    return fields


def _replace_at(line: str, column: int, old: str, new: str, path: Path) -> str:
    """Replace the scalar ``old`` starting at ``column`` of ``line``, keeping its quoting."""
    rest = line[column:]
    if rest.startswith(old) and _plain_safe(new):
        return line[:column] + new + rest[len(old) :]
    for quote in ('"', "'"):
        if rest.startswith(quote + old + quote):
            escaped = new.replace("\\", "\\\\").replace('"', '\\"') if quote == '"' else new
            escaped = escaped.replace("'", "''") if quote == "'" else escaped
            return line[:column] + quote + escaped + rest[len(old) + 1 :]
    raise EditError(f"{path}:{column}: the URL is not written on one line; fix it by hand")


def _plain_safe(url: str) -> bool:
    """Return whether a URL can be written as a plain YAML scalar unchanged."""
    return " " not in url and ": " not in url and " #" not in url and url[:1] not in "\"'&*!|>%@`"
