"""``ddl-catalog add URL``: a new entry file from a URL, filled from the sources of record.

The URL is recognised (arXiv, DOI, GitHub repository or any other page), the entry is filled
from arXiv, Crossref or GitHub when they can be reached, and what cannot be known is left as a
``TODO`` placeholder that ``validate`` refuses (rule ``placeholder``). The command refuses a
resource the catalog already has (same canonical identity), and asks questions only on a
terminal: without one, missing answers are an error unless ``--yes`` accepts the defaults.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol
from urllib.parse import urlsplit

from ddl_catalog import builddate, identity, settings, upkeep
from ddl_catalog.edit import new_id
from ddl_catalog.edit.fmt import dump, schema_line
from ddl_catalog.files import write_atomic
from ddl_catalog.load import LoadError, Problem, forbidden_character, load_file, outside
from ddl_catalog.model import KIND_FOLDERS
from ddl_catalog.model.build import read_categories
from ddl_catalog.rules.maintenance_missing import needs_state
from ddl_catalog.rules.url_host import WELL_KNOWN, ascii_host, host_warning
from ddl_catalog.rules.url_scheme import url_fields, url_problem
from ddl_catalog.validate import entry_files, refusals

SourceKind = Literal["arxiv", "doi", "github", "url"]

#: Placeholders written when a value cannot be known; rule ``placeholder`` refuses them.
TITLE_PLACEHOLDER = "TODO: the resource's real title"
DESCRIPTION_PLACEHOLDER = (
    "TODO: one sentence in our own words: what it is and why a reader would open it."
)
#: The kind guessed for each source when --kind is not given.
DEFAULT_KIND: dict[SourceKind, str] = {
    "arxiv": "paper",
    "doi": "paper",
    "github": "library",
    "url": "article",
}
#: Crossref work types that are not papers.
CROSSREF_KINDS = {"book": "book", "monograph": "book", "edited-book": "book", "dataset": "dataset"}


class AddError(Exception):
    """The entry cannot be added; the message says why and what to do."""


class DuplicateError(AddError):
    """The catalog already has this resource."""


class Prompter(Protocol):
    """Asks the contributor a question on a terminal."""

    def __call__(self, text: str, default: str | None, choices: Sequence[str] | None) -> str:
        """Return the answer (the default when the contributor just presses Enter)."""
        ...


@dataclass(frozen=True, slots=True)
class Source:
    """What a URL points at: its kind, its key (arXiv id, DOI, owner/name) and canonical URL."""

    kind: SourceKind
    key: str
    url: str


@dataclass
class AddRequest:
    """Everything ``add`` needs besides the catalog."""

    url: str
    category: str | None = None
    kind: str | None = None
    description: str | None = None
    yes: bool = False
    offline: bool = False
    today: str = field(default_factory=builddate.today)


@dataclass
class AddResult:
    """The written file, the entry written, and notes for the contributor."""

    path: Path
    entry: dict[str, Any]
    notes: list[str]
    #: Things the contributor should look at before sending (a look-alike host, say).
    warnings: list[str] = field(default_factory=list)


#: The schema's limit on a URL's length (entry.schema.json, $defs.url.maxLength).
MAX_URL = 2000


def check_url(text: str) -> None:
    """Refuse a URL that validate would refuse (url-scheme and the schema's length), first.

    Bare DOIs and arXiv ids are not URLs and pass; ``recognise`` reads them.
    """
    text = text.strip()
    if (found := forbidden_character(text)) is not None:
        raise AddError(f"the URL holds a {_character(found[1])} at character {found[0] + 1}")
    if not re.match(r"^[a-z][a-z0-9+.-]*:", text, re.I) or re.match(r"^doi:", text, re.I):
        return
    if len(text) > MAX_URL:
        raise AddError(f"the URL is {len(text):,} characters long; at most {MAX_URL:,} are allowed")
    why = url_problem(text)
    if why:
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise AddError(f"the URL {why}: '{shown}' [url-scheme]")


def _character(what: str) -> str:
    """Say what a forbidden character is, and for a lone surrogate, where it came from."""
    if what.startswith("lone surrogate U+DC"):
        return f"byte that is not UTF-8 ({what}): pass UTF-8 text"
    return f"{what}, which no catalog file may hold"


def recognise(text: str) -> Source:
    """Return what a URL, bare DOI or arXiv id points at; raise AddError for anything else."""
    text = text.strip()
    if (aid := identity.normalize_arxiv(text)) is not None:
        return Source("arxiv", aid, f"https://arxiv.org/abs/{aid}")
    if not re.match(r"^https?://", text, re.I):
        if (doi := identity.normalize_doi(text)) is not None:
            return Source("doi", doi, f"https://doi.org/{doi}")
        raise AddError(
            f"'{text}' is not an http(s) URL, a DOI (10.xxxx/...) or an arXiv id (2101.00001)"
        )
    if (aid := identity.arxiv_id(text)) is not None:
        return Source("arxiv", aid, f"https://arxiv.org/abs/{aid}")
    if (doi := identity.doi_from_url(text)) is not None:
        return Source("doi", doi, f"https://doi.org/{doi}")
    if (repo := identity.repo_as_written(text)) is not None:
        return Source("github", repo, f"https://github.com/{repo}")
    if not urlsplit(text).hostname:
        raise AddError(f"'{text}' has no host name")
    return Source("url", text, text)


def _offline(source: Source) -> dict[str, Any]:
    """Return the fields known from the URL alone."""
    entry: dict[str, Any] = {"title": TITLE_PLACEHOLDER, "url": source.url}
    if source.kind == "arxiv":
        entry["identifiers"] = {"arxiv": source.key}
    elif source.kind == "doi":
        entry["identifiers"] = {"doi": source.key}
    elif source.kind == "github":
        entry["title"] = source.key.split("/")[1]
        entry["identifiers"] = {"github": source.key}
    return entry


def _enriched(
    source: Source, session: Any, today: str
) -> tuple[dict[str, Any], str | None, list[str]]:
    """Return fields from the source of record, a kind it suggests, and hints; may raise."""
    from ddl_catalog.net.enrich import EnrichError, arxiv, crossref, github

    entry = _offline(source)
    hints: list[str] = []
    kind: str | None = None
    if source.kind == "arxiv":
        paper = arxiv.fetch(source.key, session)
        entry.update(title=paper.title, authors=list(paper.authors), year=paper.published_year)
        if paper.doi:
            entry["identifiers"]["doi"] = paper.doi
        if paper.journal_ref:
            hints.append(f"arXiv journal reference: {paper.journal_ref} (set venue if it applies)")
    elif source.kind == "doi":
        work = crossref.fetch(source.key, session)
        entry.update(title=work.title, authors=list(work.authors), year=work.year)
        if work.venue:
            entry["venue"] = work.venue
        kind = CROSSREF_KINDS.get(work.type or "")
    elif source.kind == "github":
        repo = github.fetch(source.key, session)
        entry.update(
            title=repo.full_name.split("/")[1],
            url=f"https://github.com/{repo.full_name}",
            identifiers={"github": repo.full_name},
        )
        if repo.description:
            hints.append(f"GitHub describes it as: {repo.description}")
        try:
            activity = None if repo.archived else github.activity(repo.full_name, session, today)
        except EnrichError:
            activity = None  # the last push stands in; the evidence sentence says so
        entry["maintenance"] = upkeep.from_repository(
            repo.full_name, repo.archived, repo.pushed_at, today, activity=activity
        )
    found = {k: v for k, v in entry.items() if v not in (None, [], "")}
    if not str(found.get("title", "")).strip():  # the source gave an empty title
        found["title"] = TITLE_PLACEHOLDER
    return found, kind, hints


@dataclass
class _Existing:
    """The catalog's current ids, identity keys and category ids."""

    ids: set[str]
    keys: dict[tuple[str, str], tuple[str, str]]  # key -> (entry id, file)
    categories: list[str]
    hosts: set[str] = field(default_factory=set)  # ASCII hosts of the entries' URLs


def _existing(root: Path) -> _Existing:
    """Read the ids, identity keys and category ids of the catalog at root."""
    found = _Existing(ids=set(), keys={}, categories=[])
    for file in entry_files(root):
        display = file.relative_to(root).as_posix()
        found.ids.add(file.stem)
        try:
            data = load_file(file, display).data
        except LoadError:
            continue
        entry_id = data.get("id") if isinstance(data.get("id"), str) else file.stem
        found.ids.add(entry_id)
        for key in identity.identity_keys(data):
            found.keys.setdefault(key, (entry_id, display))
        # the hosts the url-host rule compares look-alikes with (every URL field, as it does)
        found.hosts.update(
            host
            for _path, url in url_fields(data)
            if isinstance(url, str) and (host := ascii_host(url))
        )
    try:
        found.categories = list(read_categories(root))
    except LoadError as exc:
        raise AddError(f"cannot read the categories: {exc}") from exc
    return found


def _refuse_duplicate(entry: dict[str, Any], existing: _Existing) -> None:
    """Raise DuplicateError naming the existing entry when the new one shares an identity key."""
    for key in sorted(identity.identity_keys(entry)):
        if key in existing.keys:
            entry_id, file = existing.keys[key]
            raise DuplicateError(
                f"the catalog already has this resource: {file} (id {entry_id}) has the same "
                f"{identity.describe_key(key)}; edit that entry instead"
            )


def _pick_id(entry: dict[str, Any], kind: str, source: Source, taken: set[str]) -> str:
    """Return a new, unique id: a BibTeX-style key for papers, else the kebab-case name."""
    title = entry["title"] if not entry["title"].startswith("TODO") else ""
    candidate: str | None = None
    if kind == "paper":
        candidate = new_id.paper_id(entry.get("authors") or [], entry.get("year"), title)
    if not candidate and title:
        candidate = new_id.kebab(title)
    if not candidate:
        if source.kind in ("arxiv", "doi"):
            candidate = new_id.kebab(f"{source.kind} {source.key}")
        elif source.kind == "github":
            candidate = new_id.kebab(source.key.split("/")[1])
        else:
            parts = urlsplit(source.url)
            last = [s for s in parts.path.split("/") if s][-1:]
            host = identity.unicode_host(identity.url_host(source.url)).removeprefix("www.")
            candidate = new_id.kebab(" ".join([host, *last]))
    return new_id.unique(candidate or "entry", taken)


def _decide(
    request: AddRequest,
    guessed_kind: str,
    existing: _Existing,
    prompt: Prompter | None,
    title_known: bool,
    hints: Sequence[str],
) -> tuple[str, str, str, str | None]:
    """Return (category, kind, description, title or None) from options, prompts or defaults."""
    missing = []
    if request.category is None:
        missing.append("--category")
    if request.kind is None and not request.yes:
        missing.append("--kind")
    if request.description is None and not request.yes:
        missing.append("--description")
    if prompt is None and missing:
        message = f"no terminal to ask on: pass {', '.join(missing)}"
        if missing != ["--category"]:
            message += f" (--yes accepts the guessed kind '{guessed_kind}' and a TODO description)"
        raise AddError(message)
    ask = prompt if prompt is not None and not request.yes else None
    category = request.category
    if category is None:
        assert prompt is not None
        category = prompt("Category (the entry's primary home)", None, existing.categories)
    kind = request.kind or (ask("Kind", guessed_kind, list(KIND_FOLDERS)) if ask else guessed_kind)
    title: str | None = None
    if ask and not title_known:
        title = ask("Title (as its authors give it; Enter leaves a TODO)", "", None).strip() or None
    description = request.description
    if description is None and ask:
        question = "Description (one sentence in our own words; Enter leaves a TODO)"
        description = ask("\n".join([*hints, question]), "", None)
    if description is None or not description.strip():
        description = DESCRIPTION_PLACEHOLDER
    return category, kind, description.strip(), title


def add(
    root: Path,
    request: AddRequest,
    *,
    prompt: Prompter | None = None,
    session_factory: Callable[[], Any] | None = None,
) -> AddResult:
    """Write a new entry for ``request.url`` under root/data; raise AddError when it cannot."""
    check_url(request.url)
    source = recognise(request.url)
    existing = _existing(root)
    if request.category is not None and request.category not in existing.categories:
        raise AddError(f"unknown category '{request.category}': use an id from data/categories.yml")
    if request.kind is not None and request.kind not in KIND_FOLDERS:
        raise AddError(f"unknown kind '{request.kind}': use one of {', '.join(KIND_FOLDERS)}")
    _refuse_duplicate(_offline(source), existing)

    notes: list[str] = []
    entry, suggested_kind = _offline(source), None
    hints: list[str] = []
    if request.offline:
        notes.append("offline: filled from the URL alone")
    else:
        from ddl_catalog.net.enrich import EnrichError, NotFound
        from ddl_catalog.net.session import make_session

        session = (session_factory or make_session)()
        try:
            entry, suggested_kind, hints = _enriched(source, session, request.today)
        except NotFound as exc:
            raise AddError(f"{exc}: check the URL") from exc
        except EnrichError as exc:
            notes.append(f"could not fetch metadata ({exc}); filled from the URL alone")
        finally:
            session.close()
        _refuse_duplicate(entry, existing)  # the source may know more ids (a DOI, a new name)
    notes.extend(hints)

    guessed = suggested_kind or DEFAULT_KIND[source.kind]
    title_known = not entry["title"].startswith("TODO")
    category, kind, description, title = _decide(
        request, guessed, existing, prompt, title_known, hints
    )
    if category not in existing.categories:
        raise AddError(f"unknown category '{category}': use an id from data/categories.yml")
    if kind not in KIND_FOLDERS:
        raise AddError(f"unknown kind '{kind}': use one of {', '.join(KIND_FOLDERS)}")
    if title:
        entry["title"] = title
    entry.update(kind=kind, description=description, categories=[category], added=request.today)
    if needs_state(kind, entry.get("identifiers"), settings.load(root).maintained_kinds):
        # What the repository's facts say, or an explicit unknown for the reviewer to settle.
        entry.setdefault("maintenance", {"state": "unknown", "checked": request.today})
    else:
        entry.pop("maintenance", None)
    fetched = not request.offline and source.kind != "url"
    with _catalog_lock(root):
        # Another add may have written since the catalog was read (its questions and requests
        # take time): read it again, then pick the id and create the file under the lock.
        existing = _existing(root)
        _refuse_duplicate(entry, existing)
        path = _write_new(root, entry, kind, source, existing, fetched=fetched)
    warnings = []
    host = urlsplit(entry["url"]).hostname or ""
    if (why := host_warning(host, existing.hosts | WELL_KNOWN)) is not None:
        warnings.append(f"host {host!r} {why} [url-host]")
    return AddResult(path=path, entry=entry, notes=notes, warnings=warnings)


@contextlib.contextmanager
def _catalog_lock(root: Path) -> Iterator[None]:
    """Hold an exclusive lock on the catalog's data/ folder: concurrent adds take turns.

    The lock (flock on the folder itself, nothing written) covers reading the ids, picking one
    and creating the file, so two adds never pick the same id or add one resource twice. Where
    there is no flock (Windows), exclusive creation alone still refuses an overwrite.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    data = root / "data"
    data.mkdir(parents=True, exist_ok=True)
    fd = os.open(data, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _write_new(
    root: Path,
    entry: dict[str, Any],
    kind: str,
    source: Source,
    existing: _Existing,
    *,
    fetched: bool,
) -> Path:
    """Pick a free id, check the file with validate's rules and create it; return its path.

    The file is created exclusively (a hard link of a complete temporary file): if another
    writer made one of that name meanwhile, it is never replaced; add then says so.
    """
    entry["id"] = _pick_id(entry, kind, source, existing.ids)
    path = root / "data" / KIND_FOLDERS[kind] / f"{entry['id']}.yml"
    shown = path.relative_to(root).as_posix()
    if (real := outside(path, root)) is not None:  # validate refuses such a link: so does add
        reason = f"a symbolic link leads outside the catalog (to {real})"
        raise AddError(f"{shown}: not written: {reason}")
    text = dump(entry, schema_line(path, root))
    _refuse_what_validate_refuses(root, path, text, entry, fetched=fetched)
    try:
        write_atomic(path, text, exclusive=True)
    except FileExistsError as exc:
        raise AddError(
            f"{shown}: not written: another program created this file meanwhile; "
            "run add again to pick another id"
        ) from exc
    return path


#: What validate reports of a new entry that add leaves to the contributor: its TODO markers.
_LEFT_TO_DO = frozenset({"placeholder"})


def _refuse_what_validate_refuses(
    root: Path, path: Path, text: str, entry: dict[str, Any], *, fetched: bool
) -> None:
    """Raise AddError when validate would refuse the new file for more than its TODO markers.

    Every value is checked, whether it came from a source of record, a prompt or an option:
    the file must load (encoding, control characters, size), pass the schema and every rule.
    ``fetched``: values came from a source of record (the message then offers --offline).
    """
    display = path.relative_to(root).as_posix()
    head = f"{display} not written: validate would refuse it:"
    tail = "\n(with --offline, add fills the entry from the URL alone)" if fetched else ""
    for name, value in entry.items():  # the loader's character check, said of the value
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and (found := forbidden_character(item)) is not None:
                what = _character(found[1])
                raise AddError(f"{head}\n  {name}: holds a {what} [encoding]{tail}")
    refused = [p for p in refusals(root, {display: text}) if p.rule not in _LEFT_TO_DO]
    if refused:
        lines = [_explain(problem, display, text, entry) for problem in refused]
        raise AddError("\n".join([head, *lines]) + tail)


def _explain(problem: Problem, display: str, text: str, entry: dict[str, Any]) -> str:
    """Return one refusal as "  field: message [rule]", naming the field of the new file."""
    if problem.path != display:
        return f"  {problem}"
    field = _field_at(text, problem.line)
    message = problem.message
    if problem.rule == "file-size" and entry:
        longest = max(entry, key=lambda k: len(str(entry[k])))
        message += f" (its {longest} is {len(str(entry[longest])):,} characters)"
    return f"  {field}: {message} [{problem.rule}]"


def _field_at(text: str, line: int) -> str:
    """Return the top-level field written at (or above) a line of an entry's text."""
    for current in reversed(text.splitlines()[:line]):
        if match := re.match(r"([A-Za-z_][\w-]*):", current):
            return match.group(1)
    return "the file"


def stdin_is_terminal() -> bool:
    """Say whether questions can be asked: stdin is an interactive terminal."""
    import sys

    return sys.stdin.isatty()


def terminal_prompter() -> Prompter | None:
    """Return a click-based prompter when stdin is a terminal, else None (never ask blind)."""
    if not stdin_is_terminal():
        return None
    import click

    def ask(text: str, default: str | None, choices: Sequence[str] | None) -> str:
        """Ask one question with click.prompt; choices are checked by click."""
        kind = click.Choice(list(choices)) if choices else click.STRING
        answer = click.prompt(
            text,
            default=default,
            type=kind,
            show_choices=choices is not None and len(choices) <= 12,
            show_default=bool(default),
            err=True,
        )
        return str(answer)

    return ask


def remaining_problems(root: Path, path: Path) -> list[str]:
    """Return what ``validate`` still reports for the new file (placeholders, mostly)."""
    from ddl_catalog.validate import validate

    display = path.relative_to(root).as_posix()
    return [str(p) for p in validate(root).problems if p.path == display]
