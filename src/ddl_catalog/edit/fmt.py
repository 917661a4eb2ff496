"""Canonical formatting of entry files, so that layout is never a review topic.

The canonical form of an entry file:

* the first line is the ``# yaml-language-server: $schema=...`` comment (path relative to the
  file), then any other comments the author wrote (ruamel.yaml round-trip keeps them, attached
  to the key they follow);
* keys in ``model.FIELD_ORDER``; nested keys of identifiers, links and related in their schema
  order; unknown keys are kept, after the known ones, in their original order;
* strings plain when every YAML reader (1.1 and 1.2) reads them back as the same string, else
  double-quoted (never single quotes); arXiv ids and dates always double-quoted; title and
  description folded to one line with single spaces;
* lists of strings (categories, tags, authors) in flow style ``[a, b]`` when the line fits in
  100 columns, else one item per line; lists of mappings (links, related) in block style;
* no wrapping: a long description stays on one line (diffs stay one line per field).

Formatting is idempotent: formatting a formatted file changes nothing.

What a file says is read once, by ``load.parse_yaml``, the reader ``validate`` uses: every key,
value and type written comes from it. ruamel.yaml reads the file only for its comments (and
would read ``title: ! 123``, ``2001-12-14t21:59:43.10-05:00`` or a ``<<`` key otherwise, and
refuses tabs libyaml takes). The result is read back with ``parse_yaml`` and must hold the same
data, but for the changes formatting means to make (one-line title and description, a bare
arXiv id as text); if it does not, the file is refused with the place, and left as it is.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.emitter import Emitter
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString
from yaml import YAMLError as LibYAMLError
from yaml import resolver as yaml_resolver
from yaml.nodes import ScalarNode
from yaml.tokens import ScalarToken

from ddl_catalog.files import write_atomic
from ddl_catalog.load import LoadError, Path_, Problem, parse_yaml, read_text, yaml_parser
from ddl_catalog.model import FIELD_ORDER
from ddl_catalog.validate import NON_ENTRY_FOLDERS, scan

#: Where a catalog keeps the entry schema, first found wins: the package's source (a checkout of
#: the toolchain that is also a catalog), then schemas/, which ``ddl-catalog init`` writes.
SCHEMA_PATHS = (
    Path("src/ddl_catalog/schema/entry.schema.json"),
    Path("schemas/entry.schema.json"),
)
SCHEMA_PATH = SCHEMA_PATHS[0]
#: The schema path of a file at data/<folder>/<id>.yml when no schema is on disk: the copy that
#: ``ddl-catalog init`` writes into schemas/ (resolves offline in editors, in any catalog).
DEFAULT_SCHEMA_REF = "../../schemas/entry.schema.json"
SCHEMA_PREFIX = "# yaml-language-server: $schema="
#: A flow list is used when ``key: [a, b]`` fits in this many columns.
FLOW_WIDTH = 100
#: Order of the keys of nested mappings.
NESTED_ORDER: dict[str, tuple[str, ...]] = {
    "identifiers": ("arxiv", "doi", "github"),
    "links": ("type", "url", "title"),
    "related": ("id", "relation"),
    "maintenance": (
        "state",
        "as_of",
        "checked",
        "last_commit",
        "last_commit_url",
        "newest_commit",
        "commits_in_year",
        "release",
        "version",
        "date",
        "url",
        "notice",
        "source",
        "evidence",
        "moved_to",
        "superseded_by",
    ),
    # The keys of capabilities, and of each of its cells (the cell ids stay in their order).
    "capabilities": (
        "as_of",
        "checked",
        "cells",
        "value",
        "via",
        "covers",
        "note",
        "source",
    ),
}
#: Values always written double-quoted, as (key, nested key or None).
#: Dates are text, and a capability's value too: unquoted, YAML 1.1 readers take yes and no for
#: booleans (ruamel, which writes YAML 1.2, would leave them bare).
ALWAYS_QUOTED: frozenset[tuple[str, str | None]] = frozenset(
    {
        ("identifiers", "arxiv"),
        ("added", None),
        ("maintenance", "checked"),
        ("maintenance", "as_of"),
        ("maintenance", "last_commit"),
        ("maintenance", "newest_commit"),
        ("maintenance", "date"),
        ("maintenance", "version"),
        ("capabilities", "as_of"),
        ("capabilities", "checked"),
        ("capabilities", "value"),
    }
)
#: Fields whose line breaks and runs of spaces are folded into single spaces.
ONE_LINE_FIELDS = ("title", "description")

_SCHEMA_LINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=.*$")
#: An unquoted new-style arXiv id reads as a number (1910.02050 -> 1910.0205): quote its text.
_BARE_ARXIV = re.compile(r"^(\s+arxiv:\s*)([0-9]{4}\.[0-9]{4,5})(?=\s*(?:#.*)?$)")


class FormatError(Exception):
    """A file cannot be formatted (unreadable, malformed YAML, not a mapping)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


_STR_TAG = "tag:yaml.org,2002:str"
_YAML11 = yaml_resolver.Resolver()


def _plain_reads_as_other_type(value: str) -> bool:
    """Say whether a plain scalar would read as a non-string under YAML 1.1 (yes, 0x1f, dates).

    ruamel.yaml speaks YAML 1.2, where ``yes`` is a string; PyYAML (our loader) and many
    editors speak 1.1, where it is a boolean. Such strings are quoted so every reader agrees.
    """
    tag: str = _YAML11.resolve(ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    return tag != _STR_TAG


class _Emitter(Emitter):
    """ruamel's emitter, choosing double quotes wherever it would pick single quotes."""

    def choose_scalar_style(self) -> Any:
        """Return the scalar style: plain when every YAML reader agrees, else double quotes."""
        style = super().choose_scalar_style()
        if style == "'":
            return '"'
        tag = getattr(self.event.ctag, "value", None)
        if style == "" and tag == _STR_TAG and _plain_reads_as_other_type(self.event.value):
            return '"'
        return style


def _yaml() -> YAML:
    """Return a round-trip YAML instance set up for the canonical layout."""
    yaml = YAML(typ="rt")
    yaml.Emitter = _Emitter
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.allow_unicode = True
    yaml.preserve_quotes = False
    return yaml


def schema_line(file: Path, root: Path | None) -> str:
    """Return the schema comment for an entry file: the schema's path relative to the file."""
    schemas = [root / candidate for candidate in SCHEMA_PATHS] if root is not None else []
    for schema in schemas:
        if schema.is_file():
            rel = os.path.relpath(schema.resolve(), file.resolve().parent)
            return SCHEMA_PREFIX + Path(rel).as_posix()
    return SCHEMA_PREFIX + DEFAULT_SCHEMA_REF


def _one_line(value: str) -> str:
    """Fold line breaks and runs of whitespace into single spaces, trimming the ends."""
    return " ".join(value.split())


def _scalar(value: Any, quoted: bool) -> Any:
    """Return a scalar stripped of its source style (a double-quoted string when ``quoted``)."""
    if quoted and value is not None and not isinstance(value, bool):
        return DoubleQuotedScalarString(str(value))
    if isinstance(value, str):
        return str(value)
    return value


def _ordered(mapping: Mapping[str, Any], order: Sequence[str]) -> list[str]:
    """Return the keys of a mapping: known ones in ``order``, then unknown ones as found."""
    known = [k for k in order if k in mapping]
    return known + [k for k in mapping if k not in order]


def _copy_comments(source: Any, target: Any, keys: Iterable[Any]) -> None:
    """Carry ruamel comments (header and per-key) from a loaded node to its rebuilt copy."""
    if not hasattr(source, "ca"):
        return
    target.ca.comment = source.ca.comment
    for key in keys:
        if key in source.ca.items:
            target.ca.items[key] = source.ca.items[key]


def _format_mapping(mapping: Mapping[str, Any], order: Sequence[str], parent: str) -> CommentedMap:
    """Rebuild a nested mapping (identifiers, a link, a relation) in canonical form."""
    out = CommentedMap()
    keys = _ordered(mapping, order)
    for key in keys:
        out[key] = _format_value(mapping[key], (parent, key))
    _copy_comments(mapping, out, keys)
    return out


def _format_value(value: Any, where: tuple[str, str | None]) -> Any:
    """Return a value in canonical form; ``where`` is (top-level key, nested key or None)."""
    top = where[0]
    if isinstance(value, Mapping):
        return _format_mapping(value, NESTED_ORDER.get(top, ()), top)
    if isinstance(value, list):
        seq = CommentedSeq(
            _format_mapping(v, NESTED_ORDER.get(top, ()), top)
            if isinstance(v, Mapping)
            else _scalar(v, quoted=False)
            for v in value
        )
        _copy_comments(value, seq, range(len(value)))
        return seq
    if where[1] is None and top in ONE_LINE_FIELDS and isinstance(value, str):
        value = _one_line(value)
    return _scalar(value, quoted=where in ALWAYS_QUOTED)


def _set_list_styles(data: CommentedMap, yaml: YAML) -> None:
    """Put top-level lists of scalars in flow style when their line fits, else block style."""
    for key, value in data.items():
        if not isinstance(value, CommentedSeq):
            continue
        scalars = value and all(not isinstance(v, (Mapping, list)) for v in value)
        comments = bool(value.ca.items)
        if not scalars or comments:
            value.fa.set_block_style()
            continue
        value.fa.set_flow_style()
        probe = CommentedMap([(key, value)])
        buffer = io.StringIO()
        yaml.dump(probe, buffer)
        line = buffer.getvalue().rstrip("\n")
        if "\n" in line or len(line) > FLOW_WIDTH:
            value.fa.set_block_style()


def canonical(data: Mapping[str, Any]) -> CommentedMap:
    """Return an entry mapping rebuilt in canonical key order and scalar styles."""
    out = CommentedMap()
    keys = _ordered(data, FIELD_ORDER)
    for key in keys:
        out[key] = _format_value(data[key], (key, None))
    _copy_comments(data, out, keys)
    return out


def dump(data: Mapping[str, Any], schema: str) -> str:
    """Return the canonical text of an entry mapping, starting with the schema comment."""
    yaml = _yaml()
    tree = canonical(data)
    _set_list_styles(tree, yaml)
    buffer = io.StringIO()
    yaml.dump(tree, buffer)
    return f"{schema}\n{buffer.getvalue()}"


def format_text(
    text: str, display: str, schema: str, *, replace: Mapping[str, Any] | None = None
) -> str:
    """Return the canonical form of an entry file's text; raise FormatError when it cannot.

    Keys, values and their types are the ones ``validate`` reads (``load.parse_yaml``); the
    formatted text is read back and must say the same, else the file is refused, located.
    ``replace`` sets top-level fields first (``enrich --states`` writes a maintenance state
    this way): the rest of the file, comments included, comes out as fmt writes it anyway.
    """
    try:
        parse_yaml(text, display)  # our loader: located messages, and no anchors or tags
        lines = text.removeprefix("\ufeff").splitlines()
        # What the file says, once a bare arXiv id is text: the data formatting must keep.
        meant = parse_yaml("\n".join(_BARE_ARXIV.sub(r'\1"\2"', ln) for ln in lines), display)
    except LoadError as exc:
        raise FormatError(exc.problem) from exc
    if not isinstance(meant.data, dict):
        raise FormatError(_problem(display, (1, 1), "an entry file must be a mapping of fields"))
    numbers = [n for n, ln in enumerate(lines, 1) if not _SCHEMA_LINE.match(ln.strip())]
    kept = "\n".join(_BARE_ARXIV.sub(r'\1"\2"', lines[n - 1]) for n in numbers)
    try:
        comments = _yaml().load(_untab(kept))
    except YAMLError as exc:  # a file libyaml reads and ruamel does not: say where
        mark = getattr(exc, "problem_mark", None)
        line = numbers[min(mark.line, len(numbers) - 1)] if mark is not None and numbers else 1
        column = mark.column + 1 if mark is not None else 1
        why = getattr(exc, "problem", None) or "malformed YAML"
        message = f"fmt cannot read this file for its comments ({why}); fix this line"
        raise FormatError(_problem(display, (line, column), message)) from exc
    try:
        data = _adopt(comments, meant.data, ())
    except _ShapeError as exc:
        message = "fmt reads this value otherwise than validate does; write it plainly"
        raise FormatError(_problem(display, meant.where(exc.path), message)) from exc
    for key, value in (replace or {}).items():
        data[key] = value
    out = dump(data, schema)
    _check_same(meant, _formatted_meaning({**meant.data, **(replace or {})}), out, display)
    return out


def _problem(display: str, at: tuple[int, int], message: str) -> Problem:
    """Return a located fmt error (rule ``yaml``: it is about how the file reads)."""
    return Problem(display, at[0], at[1], "error", message, "yaml")


class _ShapeError(Exception):
    """ruamel read a different structure than parse_yaml at ``path``: comments cannot follow."""

    def __init__(self, path: Path_) -> None:
        super().__init__(path)
        self.path = path


def _adopt(node: Any, value: Any, path: Path_) -> Any:
    """Return ``value`` (parse_yaml's) rebuilt as ruamel nodes carrying ``node``'s comments.

    Keys, values and types all come from ``value``; ``node`` (ruamel's reading) lends only its
    comments, matched by position, so it must have the same shape.
    """
    if isinstance(value, dict):
        if not isinstance(node, CommentedMap) or len(node) != len(value):
            raise _ShapeError(path)
        mapping = CommentedMap()
        for (key, item), (rt_key, rt_item) in zip(value.items(), node.items(), strict=True):
            mapping[key] = _adopt(rt_item, item, (*path, key))
            if rt_key in node.ca.items:
                mapping.ca.items[key] = node.ca.items[rt_key]
        mapping.ca.comment = node.ca.comment
        return mapping
    if isinstance(value, list):
        if not isinstance(node, CommentedSeq) or len(node) != len(value):
            raise _ShapeError(path)
        seq = CommentedSeq(
            _adopt(rt_item, item, (*path, index))
            for index, (item, rt_item) in enumerate(zip(value, node, strict=True))
        )
        for index in range(len(value)):
            if index in node.ca.items:
                seq.ca.items[index] = node.ca.items[index]
        seq.ca.comment = node.ca.comment
        return seq
    if isinstance(node, (CommentedMap, CommentedSeq)):
        raise _ShapeError(path)
    return value


def _formatted_meaning(data: dict[str, Any]) -> dict[str, Any]:
    """Return the data a file must hold once formatted: title and description on one line."""
    out = dict(data)
    for key in ONE_LINE_FIELDS:
        if isinstance(out.get(key), str):
            out[key] = _one_line(out[key])
    return out


def _check_same(meant: Any, expected: dict[str, Any], out: str, display: str) -> None:
    """Raise FormatError, at the first value that differs, unless ``out`` reads as expected."""
    try:
        found = parse_yaml(out, display).data
    except LoadError:  # pragma: no cover - fmt writes only what parse_yaml reads
        found = None
    path = _first_difference(expected, found, ())
    if path is None:
        return
    message = (
        "fmt cannot keep what this value means (it would read differently once formatted); "
        "write it plainly, or in double quotes"
    )
    raise FormatError(_problem(display, meant.where(path), message))


def _first_difference(a: Any, b: Any, path: Path_) -> Path_ | None:
    """Return the path of the first value where a and b differ in type or value, else None."""
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for key in a:
            if key not in b:
                return (*path, key)
            if (found := _first_difference(a[key], b[key], (*path, key))) is not None:
                return found
        return None if len(a) == len(b) else path
    if isinstance(a, list):
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            if (found := _first_difference(x, y, (*path, index))) is not None:
                return found
        return None if len(a) == len(b) else path
    if isinstance(a, float) and a != a and b != b:  # NaN is itself
        return None
    return None if a == b else path


def _untab(text: str) -> str:
    """Return text with the tabs ruamel refuses and libyaml reads made spaces.

    Tabs between tokens (after ``title:``, before a comment, at a line's end) and inside plain
    scalars become spaces; tabs in comments, quoted and block scalars stay. Only ruamel reads
    the result, for the comments: the values are parse_yaml's.
    """
    if "\t" not in text:
        return text
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    chars = list(text)
    parser = yaml_parser(text)
    try:
        done = 0
        while (token := parser.get_token()) is not None:
            start = starts[token.start_mark.line] + token.start_mark.column
            end = starts[token.end_mark.line] + token.end_mark.column
            _untab_gap(chars, done, start)
            if isinstance(token, ScalarToken) and not token.style:  # a plain scalar
                chars[start:end] = [" " if ch == "\t" else ch for ch in chars[start:end]]
            done = max(done, end)
        _untab_gap(chars, done, len(chars))
    except (LibYAMLError, IndexError):  # pragma: no cover - parse_yaml read it first
        return text
    finally:
        parser.dispose()
    return "".join(chars)


def _untab_gap(chars: list[str], start: int, end: int) -> None:
    """Make the tabs of the text between two tokens spaces, except inside comments."""
    comment = False
    for index in range(start, end):
        char = chars[index]
        if char in "\r\n\x85\u2028\u2029":
            comment = False
        elif char == "#":
            comment = True
        elif char == "\t" and not comment:
            chars[index] = " "


@dataclass
class FmtResult:
    """What a fmt run found: files changed (or that would change) and files it could not read."""

    checked: int = 0
    changed: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def is_entry_file(file: Path) -> bool:
    """Say whether a path is an entry file: data/<folder>/<id>.yml outside the non-entry folders."""
    return (
        file.suffix in (".yml", ".yaml")
        and file.parent.parent.name == "data"
        and file.parent.name not in NON_ENTRY_FOLDERS
    )


def _display(root: Path, file: Path) -> str:
    """Return the path to show: relative to root when inside it (the link, not its target)."""
    candidates = (
        (Path(os.path.abspath(root)), Path(os.path.abspath(file))),
        (root.resolve(), file.parent.resolve() / file.name),
    )
    for base, path in candidates:
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            continue
    return file.as_posix()


def run(root: Path, files: Sequence[Path] = (), *, check: bool = False) -> FmtResult:
    """Format entry files (all of root/data, or ``files``); with ``check`` only report changes."""
    result = FmtResult()
    if files:
        targets = [f for f in files if is_entry_file(f)]
        data = os.path.abspath(root / "data")
        for other in (f for f in files if not is_entry_file(f)):
            if os.path.abspath(other).startswith(data + os.sep):
                continue  # the catalog's own other files (categories.yml ...): not entries
            # Anything else is a wrong path (a typo in a hook or a CI step): it must not pass.
            message = "not an entry file (data/<folder>/<id>.yml of a catalog): not formatted"
            result.problems.append(Problem(_display(root, other), 1, 1, "error", message, "file"))
            result.checked += 1
    elif not os.path.isdir(root / "data"):  # no catalog here: nothing checked is no success
        where = os.path.abspath(root)
        message = f"no data/ folder under {where}: check --root"
        result.problems.append(Problem("data", 1, 1, "error", message, "file"))
        result.checked += 1
        targets = []
    else:
        found, refused = scan(root)
        targets = [Path(file) for file, _ in found]
        result.checked += len(refused)
        result.problems += refused
    for file in targets:
        display = _display(root, file)
        result.checked += 1
        try:
            # Inside its catalog (data/<folder>/<file>, three levels up), whatever links say.
            text = read_text(file, display, root=Path(os.path.abspath(file)).parents[2])
            new = format_text(text, display, schema_line(file, root))
        except (LoadError, FormatError) as exc:
            result.problems.append(exc.problem)
            continue
        if new != text:
            result.changed.append(display)
            if not check:
                write_atomic(file, new)
    result.problems.sort()
    return result
