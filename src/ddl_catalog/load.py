"""Files -> documents that remember where every key and value stands.

YAML is read with libyaml's C parser when present, event by event, so that we can refuse what a
catalog file never needs (tags, anchors, aliases, duplicate keys, several documents) before any
object is built, and keep the line and column of every node for later error messages.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
from collections.abc import Callable
from typing import Any, NamedTuple

import yaml
from yaml import events as ev
from yaml.nodes import ScalarNode

#: Larger files are refused before they are read: an entry is a few hundred bytes.
MAX_FILE_BYTES = 256 * 1024
#: Deeper nesting is refused: an entry nests three levels (mapping, list, mapping), and building
#: the data recurses once per level, so a file of nothing but brackets must stop somewhere.
MAX_DEPTH = 50

#: What YAML does not allow in a stream (outside its printable set, as libyaml checks it): the
#: C0 controls but tab and line breaks, DEL, the C1 controls but NEL, surrogates, U+FFFE and
#: U+FFFF. (Listed, not written as the complement of the printable set: that compiles 20x
#: slower, a cost every run of validate would pay.)
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
#: Names of the control characters met in practice (pasted from terminals or word processors).
_CONTROL_NAMES = {0x00: "NUL", 0x08: "BS", 0x0B: "VT", 0x0C: "FF", 0x1B: "ESC", 0x7F: "DEL"}
#: open() flags for catalog files: never wait on a FIFO, never take a terminal.
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
#: How the size error of a catalog file ends ("... the N-byte limit for <this>").
_CATALOG_FILE = "a catalog file; an entry needs a few hundred bytes"

#: The YAML parser: libyaml's C parser when PyYAML has it, else the pure-Python one (the same
#: events, slower). A bare parser: a full loader would set up a constructor and a resolver for
#: every file, which costs more than parsing a small entry file.
_Parser: type[Any] = yaml.SafeLoader
if yaml.__with_libyaml__:
    from yaml._yaml import CParser

    _Parser = CParser

#: The JSON-like subset of YAML tags we accept (as resolved implicitly, never written).
_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null")
)


class _Resolver(yaml.resolver.Resolver):
    """Types plain scalars as str, int, float, bool or null: ``added: 2024-01-31`` stays text."""


_Resolver.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag in _PLAIN_TAGS]
    for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()
    if first is not None  # no wildcard resolvers: the first character decides (see _scalar)
}
#: One resolver and one constructor serve every file: neither keeps state between scalars.
_RESOLVE: Callable[[type[ScalarNode], str, tuple[bool, bool]], str] = _Resolver().resolve
_CONSTRUCTOR = yaml.constructor.SafeConstructor()

_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
#: Integers are refused from this magnitude on: no field needs more, and a number of thousands
#: of digits cannot even be printed (Python converts at most 4300 digits to text).
_INT_LIMIT = 2**63
#: An integer as every YAML reader reads it alike (YAML 1.1 takes 010 as octal, 1.2 as ten).
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
#: First characters for which an implicit resolver (int, float, bool, null) may apply; a plain
#: scalar starting with any other character is a string without asking the resolver.
_RESOLVABLE_FIRST = frozenset(
    first for first, resolvers in _Resolver.yaml_implicit_resolvers.items() if resolvers and first
)


#: A path into a document: mapping keys and sequence indexes.
Path_ = tuple[str | int, ...]
#: A file on disk, as a string or a pathlib.Path.
FilePath = str | os.PathLike[str]


class Problem(NamedTuple):
    """One located finding, printed as ``path:line:col: severity: message [rule]``.

    A named tuple, so problems sort by file, line and column and compare by value.
    """

    path: str
    line: int
    column: int
    severity: str
    message: str
    rule: str

    def __str__(self) -> str:
        return (
            f"{self.path}:{self.line}:{self.column}: {self.severity}: {self.message} [{self.rule}]"
        )


class LoadError(Exception):
    """A file could not be read as a catalog document; carries its located problem."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


class Document:
    """A parsed file: its data, and (computed on first use) where each value and key stands.

    Files are parsed without recording positions, which keeps validation of large catalogs
    fast and small; the first call to ``where`` re-parses the text once with positions.
    """

    __slots__ = ("_key_positions", "_positions", "data", "path", "source", "text")

    def __init__(
        self, path: str, data: Any, text: str = "", source: FilePath | None = None
    ) -> None:
        self.path = path
        self.data = data
        #: The YAML text, or "" when it is read again from ``source`` (a catalog of 100k files
        #: need not keep every file's text in memory for the few that have problems).
        self.text = text
        self.source = source
        self._positions: dict[Path_, tuple[int, int]] | None = None
        self._key_positions: dict[Path_, tuple[int, int]] = {}

    def _ensure_positions(self) -> dict[Path_, tuple[int, int]]:
        """Parse the text again, this time recording every position."""
        if self._positions is None:
            text = self.text
            if not text and self.source is not None:
                try:
                    text = read_text(self.source, self.path)
                except LoadError:  # pragma: no cover - the file changed under us
                    text = ""
            builder = _Builder(text, self.path, record=True)
            try:
                builder.build()
            except (LoadError, yaml.YAMLError):  # pragma: no cover - parsed fine before
                pass
            finally:
                builder.parser.dispose()
            self._positions, self._key_positions = builder.positions, builder.key_positions
        return self._positions

    def where(self, path: Path_ = (), *, key: bool = False) -> tuple[int, int]:
        """Return (line, column) of a value (or its key), falling back to the nearest parent."""
        positions = self._ensure_positions()
        table = self._key_positions if key else positions
        probe = tuple(path)
        while probe:
            if probe in table:
                return table[probe]
            if key and probe in positions:
                return positions[probe]
            probe = probe[:-1]
        return positions.get((), (1, 1))


def _at(event: Any) -> tuple[int, int]:
    """Return the 1-based (line, column) where a parser event starts."""
    return _position(event.start_mark)


def _position(mark: Any) -> tuple[int, int]:
    """Return the 1-based (line, column) of a libyaml mark, or (1, 1) without one."""
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _fail(path: str, line: int, column: int, message: str, rule: str = "yaml") -> LoadError:
    """Build a LoadError for a located problem."""
    return LoadError(Problem(path, line, column, "error", message, rule))


def outside(file: FilePath, root: FilePath) -> str | None:
    """Return the real path of ``file`` when symbolic links take it outside ``root``, else None."""
    real = os.path.realpath(file)
    base = os.path.realpath(root)
    return None if os.path.commonpath([real, base]) == base else real


def refuse_outside(file: FilePath, root: FilePath, display: str) -> Problem | None:
    """Return the problem of a path whose symbolic links lead outside the catalog, else None."""
    target = outside(file, root)
    if target is None:
        return None
    return Problem(
        display,
        1,
        1,
        "error",
        f"refused without reading: a symbolic link that leads outside the catalog (to {target})",
        "file",
    )


def cannot_read(file: FilePath, exc: OSError) -> str:
    """Return why a path could not be opened or listed, in words (for an OSError raised by it)."""
    if exc.errno == errno.ELOOP:
        return "a symbolic link loop (the link leads back to itself)"
    if exc.errno == errno.ENOENT and os.path.islink(file):
        return "a broken symbolic link (its target does not exist)"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.ENXIO:
        return "a socket, not a file"
    return str(exc.strerror or exc).lower()


def not_a_file(mode: int) -> str:
    """Describe what a path that is not a regular file is, from its stat mode."""
    if stat.S_ISDIR(mode):
        return "a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO), not a file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a file"
    return "a device, not a file"


def read_text(
    file: FilePath, display: str, max_bytes: int = MAX_FILE_BYTES, *, root: FilePath | None = None
) -> str:
    """Read a file as UTF-8 text, refusing oversized files and invalid bytes with a location.

    Anything but a regular file (a directory, a FIFO, a device) is refused without waiting on
    it. With ``root``, a file that symbolic links take outside ``root`` is refused unopened.
    """
    if root is not None and (refused := refuse_outside(file, root, display)) is not None:
        raise LoadError(refused)
    raw = read_bytes(file, display, max_bytes)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        raise _fail(
            display,
            line,
            column,
            f"invalid UTF-8 byte 0x{raw[exc.start]:02x}: save the file as UTF-8",
            "encoding",
        ) from exc
    return text.removeprefix("\ufeff")


def read_bytes(file: FilePath, display: str, max_bytes: int, what: str = _CATALOG_FILE) -> bytes:
    """Read a regular file of at most ``max_bytes``, or raise a LoadError saying why not.

    Anything but a regular file (a directory, a FIFO, a device such as /dev/zero) is refused
    without waiting on it or reading it, and no more than ``max_bytes`` + 1 bytes are ever read,
    whatever size the file claims. ``what`` ends the size message: "the N-byte limit for ...".
    """
    try:
        fd = os.open(file, _OPEN_FLAGS)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise _fail(display, 1, 1, f"cannot read file: {not_a_file(info.st_mode)}", "file")
            if info.st_size > max_bytes:  # refused before anything is read
                raise _too_big(display, f"{info.st_size:,} bytes, over", max_bytes, what)
            raw = _read_at_most(fd, info.st_size + 1, max_bytes + 1)
        finally:
            os.close(fd)
    except OSError as exc:
        raise _fail(display, 1, 1, f"cannot read file: {cannot_read(file, exc)}", "file") from exc
    if len(raw) > max_bytes:  # it grew, or its size was not the truth
        raise _too_big(display, "over", max_bytes, what)
    return raw


def _too_big(display: str, size: str, max_bytes: int, what: str) -> LoadError:
    """Build the error of a file over the size limit (``size``: "N bytes, over" or "over")."""
    return _fail(
        display,
        1,
        1,
        f"file is {size} the {max_bytes:,}-byte limit for {what}",
        "file-size",
    )


def _read_at_most(fd: int, expected: int, limit: int) -> bytes:
    """Read a file to its end, but no more than ``limit`` bytes, whatever its size said.

    The first read asks for ``expected`` bytes (the size, plus one to see the end), so a small
    file costs no large buffer; later reads, for a file larger than it said, take 64 KiB.
    """
    chunks: list[bytes] = []
    total, want = 0, min(expected, limit)
    while want > 0 and (chunk := os.read(fd, want)):
        chunks.append(chunk)
        total += len(chunk)
        want = min(limit - total, 64 * 1024)
    return b"".join(chunks)


def forbidden_character(text: str) -> tuple[int, str] | None:
    """Return where and what the first character a catalog file may not hold is, or None.

    "control character U+001B (ESC)", "lone surrogate U+DCFF" (a byte that was not UTF-8, as
    Python reads arguments), "non-character U+FFFE": what YAML forbids, as the loader refuses.
    """
    found = _UNPRINTABLE.search(text)
    if found is None:
        return None
    code = ord(found.group())
    if code < 0xA0:
        name = _CONTROL_NAMES.get(code)
        what = f"control character U+{code:04X}" + (f" ({name})" if name else "")
    elif 0xD800 <= code < 0xE000:
        what = f"lone surrogate U+{code:04X}"
    else:
        what = f"non-character U+{code:04X}"
    return found.start(), what


def _refuse_unprintable(
    text: str, display: str, at: tuple[int, int] | None = None, *, escaped: bool = False
) -> None:
    """Raise a located LoadError at the first character YAML does not allow, if any.

    ``at`` is where a quoted value starts, when ``text`` is the value its escapes made.
    """
    found = forbidden_character(text)
    if found is None:
        return
    where, what = found
    if at is None:
        at = (text.count("\n", 0, where) + 1, where - text.rfind("\n", 0, where))
    how = ", written as an escape," if escaped else ""
    raise _fail(display, *at, f"{what}{how} is not allowed in YAML: delete it", "encoding")


def yaml_parser(text: str) -> Any:
    """Return the parser validate reads YAML with, over ``text`` (its tokens and events)."""
    return _Parser(text)


def parse_yaml(text: str, display: str) -> Document:
    """Parse YAML text into a Document, or raise LoadError with the first problem's location."""
    _refuse_unprintable(text, display)
    try:
        return _parse(text, display, record=False)
    except LoadError:
        # Parse again recording positions, so the message can point at everything it names.
        _parse(text, display, record=True)
        raise


def _parse(text: str, display: str, *, record: bool, parser: type[Any] | None = None) -> Document:
    """Run the event builder once, turning libyaml's errors into a located LoadError."""
    parser = parser or _Parser
    builder = _Builder(text, display, record=record, parser=parser)
    try:
        return builder.build()
    except yaml.MarkedYAMLError as exc:
        line, column = _position(exc.problem_mark or exc.context_mark)
        problem = exc.problem or exc.context or "malformed YAML"
        if _NESTING_LIMIT in problem:
            if parser is not yaml.SafeLoader:
                # libyaml (PyYAML 6.0.4 on) refuses flow nesting past 1,000 levels while its
                # scanner reads ahead, before the builder meets its own, lower bound. The
                # pure-Python parser has no such limit, so it lets the builder report the
                # bound itself: the same message, rule and place under any PyYAML.
                return _parse(text, display, record=record, parser=yaml.SafeLoader)
            raise _too_deep(display, line, column) from exc
        hint = ""
        if _tab_near(text, line):
            hint = "; indent with spaces, not tabs"
        elif "mapping values are not allowed" in problem:
            hint = "; quote values that contain ': '"
        elif "could not find expected ':'" in problem or "expected <block end>" in problem:
            hint = "; check the indentation of this line and the one above"
        elif "while scanning a quoted scalar" in str(exc.context):
            hint = "; a quoted value is not closed"
        raise _fail(display, line, column, f"malformed YAML: {problem}{hint}") from exc
    except yaml.reader.ReaderError as exc:  # pragma: no cover - _refuse_unprintable came first
        raise _fail(display, 1, 1, f"{exc.reason}: save the file as UTF-8", "encoding") from exc
    finally:
        builder.parser.dispose()


#: What libyaml says when its own nesting limit stops the scanner (PyYAML 6.0.4's libyaml).
_NESTING_LIMIT = "maximum nesting depth"


def _too_deep(display: str, line: int, column: int) -> LoadError:
    """Build the error of lists and mappings nested past MAX_DEPTH, at the first deeper one."""
    return _fail(
        display,
        line,
        column,
        f"lists and mappings nest more than {MAX_DEPTH} levels deep here; an entry needs three",
    )


def _tab_near(text: str, line: int) -> bool:
    """Say whether the indentation of the given 1-based line (or the one before) has a tab."""
    lines = text.splitlines()
    for number in (line, line - 1):
        if 1 <= number <= len(lines):
            current = lines[number - 1]
            indent = current[: len(current) - len(current.lstrip(" \t"))]
            if "\t" in indent:
                return True
    return False


def load_file(
    file: FilePath, display: str, max_bytes: int = MAX_FILE_BYTES, *, root: FilePath | None = None
) -> Document:
    """Read and parse one YAML file (inside ``root`` if given); the top level must be a mapping."""
    document = _mapping(parse_yaml(read_text(file, display, max_bytes, root=root), display))
    # Keep the path, not the text: positions, when asked for, read the file again.
    document.text, document.source = "", file
    return document


def load_text(text: str, display: str, max_bytes: int = MAX_FILE_BYTES) -> Document:
    """Parse the text a file would hold, as ``load_file`` reads the file: the same checks.

    Commands that write catalog files (add, check-links --fix) ask it before writing, so that
    they never write what validate could not read.
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise _too_big(display, f"{size:,} bytes, over", max_bytes, _CATALOG_FILE)
    return _mapping(parse_yaml(text, display))


def _mapping(document: Document) -> Document:
    """Return a parsed document whose top level is a mapping; raise a located LoadError if not."""
    display = document.path
    if document.data is None:
        raise _fail(display, 1, 1, "file is empty: write the entry's fields as a mapping", "empty")
    if not isinstance(document.data, dict):
        line, column = document.where()
        found = "a list" if isinstance(document.data, list) else "a single value"
        raise _fail(
            display,
            line,
            column,
            f"the file must hold a mapping of fields (key: value), found {found}",
            "not-a-mapping",
        )
    return document


class _Builder:
    """Turns the parser's event stream into plain Python data plus positions."""

    def __init__(
        self, text: str, display: str, *, record: bool, parser: type[Any] | None = None
    ) -> None:
        self.parser = (parser or _Parser)(text)
        self.text = text
        self.display = display
        self.record = record
        self.positions: dict[Path_, tuple[int, int]] = {}
        self.key_positions: dict[Path_, tuple[int, int]] = {}

    def build(self) -> Document:
        get = self.parser.get_event
        get()  # StreamStart
        event = get()
        data: Any = None
        if isinstance(event, ev.DocumentStartEvent):
            data = self._node(get(), get, (), 1)
            get()  # DocumentEnd
            event = get()
            if isinstance(event, ev.DocumentStartEvent):
                raise _fail(
                    self.display,
                    *_at(event),
                    "a catalog file holds one YAML document; remove the second '---'",
                )
        document = Document(self.display, data, self.text)
        if self.record:
            document._positions, document._key_positions = self.positions, self.key_positions
        return document

    def _check(self, event: Any) -> None:
        if isinstance(event, ev.AliasEvent):
            raise _fail(
                self.display,
                *_at(event),
                f"YAML aliases (*{event.anchor}) are not allowed: write the value out",
                "yaml-alias",
            )
        if getattr(event, "anchor", None):
            raise _fail(
                self.display,
                *_at(event),
                f"YAML anchors (&{event.anchor}) are not allowed: write each value out",
                "yaml-anchor",
            )
        tag = getattr(event, "tag", None)
        if (
            tag is not None
            and tag != "!"
            and not (isinstance(event, ev.ScalarEvent) and event.implicit[0])
        ):
            raise _fail(
                self.display,
                *_at(event),
                f"YAML tags ({tag}) are not allowed: plain values only",
                "yaml-tag",
            )

    def _node(self, event: Any, get: Callable[[], Any], path: Path_, depth: int) -> Any:
        # The hottest code of validation: classes compared by identity, paths built only when
        # positions are recorded, and _check called only for events that carry a tag or anchor.
        # ``depth`` counts the lists and mappings this node is in, itself included.
        record = self.record
        cls = event.__class__
        if cls is ev.ScalarEvent:
            if event.tag is not None or event.anchor is not None:
                self._check(event)
            if record:
                self.positions[path] = _at(event)
            return self._scalar(event)
        self._check(event)
        line, column = _at(event)
        if depth > MAX_DEPTH:
            raise _too_deep(self.display, line, column)
        if record:
            self.positions[path] = (line, column)
        if cls is ev.SequenceStartEvent:
            items: list[Any] = []
            while (item := get()).__class__ is not ev.SequenceEndEvent:
                child = (*path, len(items)) if record else path
                items.append(self._node(item, get, child, depth + 1))
            return items
        if cls is ev.MappingStartEvent:
            mapping: dict[str, Any] = {}
            while (key_event := get()).__class__ is not ev.MappingEndEvent:
                if key_event.__class__ is not ev.ScalarEvent:
                    self._check(key_event)
                    raise _fail(
                        self.display,
                        *_at(key_event),
                        "keys must be plain words, not lists or mappings",
                    )
                if key_event.tag is not None or key_event.anchor is not None:
                    self._check(key_event)
                elif key_event.value == "<<" and not key_event.style:
                    raise _fail(
                        self.display,
                        *_at(key_event),
                        "YAML merge keys (<<) are not allowed: readers disagree on what they "
                        "mean; write the fields out",
                        "yaml-merge",
                    )
                key = self._scalar(key_event)
                if isinstance(key, str):
                    key = sys.intern(key)  # one string object per field name, not per file
                else:
                    key = str(key).lower() if isinstance(key, bool) else str(key)
                if key in mapping:
                    first = self.key_positions.get((*path, key), (0, 0))
                    raise _fail(
                        self.display,
                        *_at(key_event),
                        f"duplicate key '{key}' (first at line {first[0]}): keep one",
                        "duplicate-key",
                    )
                child = path
                if record:
                    child = (*path, key)
                    self.key_positions[child] = _at(key_event)
                mapping[key] = self._node(get(), get, child, depth + 1)
            return mapping
        raise _fail(self.display, line, column, "unexpected YAML structure")

    def _scalar(self, event: Any) -> Any:
        value = event.value
        if event.style or event.tag == "!":  # quoted, literal or folded: always text
            if event.style == '"':  # escapes may write what the file itself may not: "\0"
                _refuse_unprintable(value, self.display, _at(event), escaped=True)
            return value
        if value and value[0] not in _RESOLVABLE_FIRST:  # plain text that no resolver claims
            return value
        tag = _RESOLVE(ScalarNode, value, (True, False))
        if tag == _STR_TAG:
            return value
        if tag == _INT_TAG and not _DECIMAL.fullmatch(value):
            shown = value if len(value) <= 20 else f"{value[:17]}..."
            raise _fail(
                self.display,
                *_at(event),
                f"write the number {shown} in plain decimal digits (2016, not 0x7e0, 03740, "
                "2_016 or 33:36): YAML readers disagree on what the other forms mean",
            )
        node = ScalarNode(tag, value, event.start_mark, event.end_mark, None)
        construct: Callable[[Any, ScalarNode], Any] = _CONSTRUCTOR.yaml_constructors[tag]
        try:
            found = construct(_CONSTRUCTOR, node)
        except ValueError:  # an integer of more digits than Python converts (4300)
            found = _INT_LIMIT
        if tag == _INT_TAG and not -_INT_LIMIT < found < _INT_LIMIT:
            shown = value if len(value) <= 20 else f"{value[:17]}..."
            raise _fail(
                self.display,
                *_at(event),
                f"the number {shown} is too large: numbers in a catalog file fit in 64 bits",
            )
        return found
