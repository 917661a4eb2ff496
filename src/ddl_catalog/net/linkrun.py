"""``ddl-catalog check-links``: gather URLs, check them, report, and optionally fix moves."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ddl_catalog import terminal
from ddl_catalog.files import write_atomic
from ddl_catalog.net.cache import LinkCache
from ddl_catalog.net.linkcheck import OUTCOMES, Checker, LinkCheckError, Options, Result
from ddl_catalog.net.links import Occurrence, catalog_urls, file_urls
from ddl_catalog.rules.url_scheme import url_problem
from ddl_catalog.validate import refusals, validate

if TYPE_CHECKING:
    from ddl_catalog.edit.fix_urls import Change

DEFAULT_CACHE = Path(".cache") / "linkcheck.json"


@dataclass(frozen=True, slots=True)
class RunConfig:
    """Everything the command line decided."""

    root: Path
    inputs: tuple[Path, ...] = ()
    options: Options = field(default_factory=Options)
    use_cache: bool = True
    cache_path: Path | None = None
    fmt: str = "text"
    fix: bool = False
    fail_on: frozenset[str] = frozenset({"broken", "error"})


def parse_fail_on(value: str) -> frozenset[str]:
    """Parse ``--fail-on broken,error`` (an empty value never fails)."""
    names = frozenset(v.strip() for v in value.split(",") if v.strip())
    unknown = names - set(OUTCOMES)
    if unknown:
        raise LinkCheckError(f"--fail-on: unknown outcome {', '.join(sorted(unknown))}")
    return names


def run(config: RunConfig, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Check the links and report them; return the exit status (1 when --fail-on matches)."""
    out = out or sys.stdout
    err = err or sys.stderr
    if config.fix and config.inputs:
        raise LinkCheckError("--fix rewrites the catalog's data files; it takes no INPUT files")
    where = file_urls(config.inputs) if config.inputs else catalog_urls(config.root)
    cache = None
    if config.use_cache:
        cache = LinkCache.load(config.cache_path or config.root / DEFAULT_CACHE)
        if cache.warning:
            print(f"warning: {cache.warning}", file=err)
    checker = Checker(config.options)
    started = time.monotonic()
    results = _check(checker, list(where), cache, err)
    wall = time.monotonic() - started
    if config.fmt == "json":
        records = [dict(r.record(), sources=_sources(where[r.url])) for r in results]
        out.write(json.dumps(records, indent=2) + "\n")  # one write: json.dump makes ~45 a URL
    else:
        _text_report(results, where, checker, wall, out)
    complete = _fix(config.root, results, where, out) if config.fix else True
    return 1 if any(r.outcome in config.fail_on for r in results) or not complete else 0


def _check(checker: Checker, urls: list[str], cache: LinkCache | None, err: TextIO) -> list[Result]:
    """Run the checker, with a progress bar when stderr is a terminal."""
    if not err.isatty() or not urls:
        return checker.check_all(urls, cache=cache)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(file=err),
        transient=True,
    )
    with progress:
        task = progress.add_task("checking links", total=len(urls))
        advance: Callable[[Result], None] = lambda _r: progress.advance(task)  # noqa: E731
        return checker.check_all(urls, cache=cache, on_result=advance)


def _sources(occurrences: list[Occurrence]) -> list[str]:
    """Return ``file: field`` strings for a URL's occurrences."""
    return [f"{o.source}: {o.where}" for o in occurrences]


def _text_report(
    results: list[Result],
    where: dict[str, list[Occurrence]],
    checker: Checker,
    wall: float,
    out: TextIO,
) -> None:
    """Print every result that needs attention, then the summary table."""
    from rich.console import Console
    from rich.table import Table

    for result in results:
        if result.outcome in ("ok", "skipped"):
            continue
        detail = result.error or (f"-> {result.new_url}" if result.new_url else "")
        status = result.status if result.status is not None else "-"
        line = f"{result.outcome.upper():7} {status!s:>4} {result.url}  {detail}"
        print(terminal.safe(line), file=out)  # detail may quote a server: escape its controls
        for source in _sources(where.get(result.url, [])):
            print(f"             in {source}", file=out)
    counts = Counter(r.outcome for r in results)
    table = Table(title="Link check", show_edge=False)
    table.add_column("outcome")
    table.add_column("URLs", justify="right")
    for outcome in OUTCOMES:
        table.add_row(outcome, str(counts.get(outcome, 0)))
    cached = sum(r.cached for r in results)
    table.add_row("total", str(len(results)), end_section=True)
    console = Console(file=out, width=100, force_terminal=False, no_color=True)
    console.print(table)
    console.print(
        f"{checker.stats.requests} requests, {cached} results from the cache, {wall:.1f} s"
    )


def _fix(
    root: Path, results: list[Result], where: dict[str, list[Occurrence]], out: TextIO
) -> bool:
    """Rewrite moved URLs in the data files that hold them; return whether every move was.

    A move is refused, with the reason, when it looks like a removal, when the new URL is
    another entry's resource (``fix_urls.same_resource``: the identity validate's duplicate
    rule uses), or when validate would refuse the file it gives (``validate.refusals``: the
    loader, the schema and every rule, so no URL too long or malformed is written). The others
    are made.
    """
    from ddl_catalog.edit.fix_urls import identity_owners, same_resource, worth_fixing

    moves_by_file: dict[str, dict[str, str]] = defaultdict(dict)
    owners = identity_owners(root)
    complete = True
    for result in results:
        if result.outcome != "moved" or result.new_url is None:
            continue
        if (why := url_problem(result.new_url)) is not None:  # never write what validate refuses
            _not_fixed(f"the new URL {why}", result.url, result.new_url, out)
            complete = False
            continue
        if not worth_fixing(result.url, result.new_url):
            _not_fixed("looks like a removal", result.url, result.new_url, out)
            continue
        for occurrence in where.get(result.url, []):
            if occurrence.where == "url" and (
                clash := same_resource(result.new_url, occurrence.source, owners)
            ):
                line = f"not fixed (the new URL is {clash}): {result.url} -> {result.new_url}"
                print(terminal.safe(line), file=out)
                complete = False
                continue
            moves_by_file[occurrence.source][result.url] = result.new_url
    fixes = _accepted(root, moves_by_file, out)
    complete = complete and fixes.complete
    for source, (text, changes) in sorted(fixes.files.items()):
        try:
            write_atomic(root / source, text)
        except OSError as exc:  # a read-only file, a full disk: say so, fix the others
            for change in changes:
                why = f"cannot write {source}: {exc.strerror or exc}"
                _not_fixed(why, change.old, change.new, out)
            complete = False
            continue
        for change in changes:
            print(
                terminal.safe(f"fixed {source}: {change.field}: {change.old} -> {change.new}"),
                file=out,
            )
    return complete


@dataclass
class _Fixes:
    """The new texts of the files to rewrite, with their changes, and whether all moves are."""

    files: dict[str, tuple[str, list[Change]]] = field(default_factory=dict)
    complete: bool = True


def _accepted(root: Path, moves_by_file: dict[str, dict[str, str]], out: TextIO) -> _Fixes:
    """Return the rewrites validate accepts, reporting each move it refuses.

    All moves are checked together first (one validation, the usual case); when validate
    would refuse something, file by file, then move by move within a refused file, each
    against the catalog with the rewrites accepted so far.
    """
    from ddl_catalog.edit.fix_urls import EditError, rewritten

    fixes = _Fixes()
    planned: dict[str, tuple[str, list[Change]]] = {}
    for source, moves in sorted(moves_by_file.items()):
        try:
            planned[source] = rewritten(root / source, moves)
        except EditError as exc:
            for old, new in moves.items():
                _not_fixed(str(exc), old, new, out)
            fixes.complete = False
    planned = {source: plan for source, plan in planned.items() if plan[1]}
    if not planned:
        return fixes
    before = validate(root)
    texts = {source: text for source, (text, _changes) in planned.items()}
    if not refusals(root, texts, before=before):
        fixes.files = planned
        return fixes
    for source, plan in planned.items():
        accepted = {s: text for s, (text, _changes) in fixes.files.items()}
        if not refusals(root, {**accepted, source: plan[0]}, before=before):
            fixes.files[source] = plan
            continue
        kept: dict[str, str] = {}
        for old, new in moves_by_file[source].items():
            try:
                trial = rewritten(root / source, {**kept, old: new})
            except EditError as exc:
                _not_fixed(str(exc), old, new, out)
                fixes.complete = False
                continue
            refused = refusals(root, {**accepted, source: trial[0]}, before=before)
            if refused:
                _not_fixed(f"validate would refuse it: {refused[0]}", old, new, out)
                fixes.complete = False
            else:
                kept[old] = new
        if kept:
            fixes.files[source] = rewritten(root / source, kept)
    return fixes


def _not_fixed(why: str, old: str, new: str, out: TextIO) -> None:
    """Report a move that is not made, and why."""
    print(terminal.safe(f"not fixed ({why}): {old} -> {_short(new)}"), file=out)


def _short(url: str, limit: int = 120) -> str:
    """Return a URL for a message, cut to ``limit`` characters."""
    return url if len(url) <= limit else f"{url[: limit - 3]}..."
