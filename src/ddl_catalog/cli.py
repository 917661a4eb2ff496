"""The ddl-catalog command line: a thin layer over load, validate, render and export.

Heavy modules are imported inside the commands, so that ``validate`` starts fast.
"""

from __future__ import annotations

import contextlib
import errno
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ddl_catalog import __version__, terminal
from ddl_catalog.builddate import BuildDateError, source_date_epoch

if TYPE_CHECKING:
    from ddl_catalog.model import Catalog

F = TypeVar("F", bound=Callable[..., Any])


def root_option(func: F) -> F:
    """Add ``--root DIR``: the catalog to work on (default: the current directory)."""
    return click.option(
        "--root",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("."),
        show_default=True,
        help="Catalog directory (the one holding data/).",
    )(func)


class Seconds(click.ParamType[float]):
    """A number of seconds: finite, at least ``low`` (or above it, with ``above``), at most
    ``high`` (a day: sockets and sleeps overflow long before infinity)."""

    name = "seconds"

    def __init__(self, low: float = 0.0, *, above: bool = False, high: float = 86400.0) -> None:
        self.low, self.above, self.high = low, above, high

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        """Return the value as a float, or fail with a usage error that says what is allowed."""
        import math

        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        wanted = f"{'above' if self.above else 'at least'} {self.low:g} and at most {self.high:g}"
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number of seconds: give one {wanted}", param, ctx)
        if number < self.low or (self.above and number == self.low) or number > self.high:
            self.fail(f"{value!r}: give a number of seconds {wanted}", param, ctx)
        return number


class Utf8Text(click.ParamType[str]):
    """Text given on the command line, which must be UTF-8.

    Python reads each byte of an argument that is not UTF-8 as a lone surrogate (U+DC80 to
    U+DCFF); such text can be neither written to a file nor printed, so it is refused here,
    with the byte named, before any command sees it.
    """

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        """Return the text, or fail with a usage error naming the first byte that is not UTF-8."""
        text = str(value)
        for index, char in enumerate(text):
            if "\udc80" <= char <= "\udcff":
                byte = ord(char) - 0xDC00
                self.fail(
                    f"byte 0x{byte:02X} at character {index + 1} is not UTF-8: pass UTF-8 text",
                    param,
                    ctx,
                )
        return text


UTF8 = Utf8Text()


class CatalogGroup(click.Group):
    """The command group; a file system failure in any command becomes one Error: line.

    Commands turn the failures they expect into their own messages; this catches the rest
    (a full disk under fmt, add or check-links' cache, a permission error on a file, a
    malformed SOURCE_DATE_EPOCH wherever a date is written), so no command ends in a traceback
    for an operating-system error or a bad setting of its environment.
    """

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command, turning an uncaught OSError or BuildDateError into a ClickException."""
        try:
            with _terminate_like_interrupt():
                return super().invoke(ctx)
        except BrokenPipeError:
            raise  # a closed stdout: click and main() end quietly
        except OSError as err:
            raise click.ClickException(os_error_text(err)) from err
        except BuildDateError as err:
            raise click.ClickException(str(err)) from err


@contextlib.contextmanager
def _terminate_like_interrupt() -> Iterator[None]:
    """Let SIGTERM end a command the way Ctrl-C does, so that its clean-up code runs.

    CI runners cancelling a job, timeout(1) and systemd send SIGTERM, whose default action
    ends the process at once: a site build left its scratch folder behind. Raising SystemExit
    (status 143, as the signal's) unwinds through every ``finally`` instead.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set from the main thread
        return
    previous = signal.signal(signal.SIGTERM, _exit_on_terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _exit_on_terminate(signum: int, frame: object) -> None:
    """Raise SystemExit for SIGTERM (see _terminate_like_interrupt)."""
    raise SystemExit(128 + signum)


def os_error_text(err: OSError) -> str:
    """Say which path failed and why, in one line: "cannot write PATH: No space left ..."."""
    reason = err.strerror or str(err) or type(err).__name__
    if err.filename is None:
        return reason
    verb = "cannot write" if err.errno in _WRITE_ERRORS else "cannot use"
    return f"{verb} {err.filename}: {reason}"


#: Errors that mean a write failed (disk full, quota, read-only file system).
_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS}


@click.group(
    cls=CatalogGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="ddl-catalog")
def cli() -> None:
    """Keep a curated catalog: validate it and build its outputs (README, site, exports)."""


@cli.command()
@root_option
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text for people, json for machines.",
)
def validate(root: Path, strict: bool, fmt: str) -> None:
    """Check every data file against the schema and the catalog's rules.

    Prints every problem as path:line:col: severity: message [rule], then a count. Exits 1 on
    any error (and on warnings with --strict). Writes nothing.
    """
    from ddl_catalog import report

    sys.exit(report.run(root, strict=strict, fmt=fmt))


@cli.command()
@root_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "csv", "bibtex", "csljson", "atom"]),
    help="What to export (required unless --into).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path, allow_dash=True),
    help="Write to FILE (atomically) instead of standard output ('-': standard output).",
)
@click.option("--category", metavar="ID", help="Only entries filed under this category.")
@click.option(
    "--site-url", metavar="URL", help="The site's address, for the feed's links [mkdocs.yml]."
)
@click.option(
    "--into",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Write every format into DIR at its site path (api/catalog.json, papers.bib ...).",
)
def export(
    root: Path,
    fmt: str | None,
    output: Path | None,
    category: str | None,
    site_url: str | None,
    into: Path | None,
) -> None:
    """Export the catalog as JSON, CSV, BibTeX, CSL-JSON or an Atom feed of additions."""
    from ddl_catalog import export as exporting
    from ddl_catalog.model.build import InvalidCatalog, open_catalog

    if (fmt is None) == (into is None):
        raise click.UsageError("give either --format or --into")
    if into is not None and (output is not None or category is not None):
        raise click.UsageError("--into writes every file; it takes no -o or --category")
    try:
        catalog = open_catalog(root)
        site_url = site_url or exporting.configured_site_url(root)
        if into is not None:
            for path in exporting.site_files(catalog, into, site_url=site_url):
                click.echo(path)
            return
        assert fmt is not None
        text = exporting.render(catalog, fmt, category=category, site_url=site_url)
        if output is None or _is_stdout(output):
            click.echo(text, nl=False)
        else:
            exporting.write_atomic(output, text)
    except (InvalidCatalog, exporting.ExportError) as err:
        raise click.ClickException(str(err)) from err


@cli.command()
@root_option
@click.argument("url", type=UTF8)
@click.option(
    "--category", type=UTF8, metavar="ID", help="Primary category (an id from data/categories.yml)."
)
@click.option(
    "--kind", type=UTF8, metavar="KIND", help="paper, library ... (guessed from the URL)."
)
@click.option("--description", type=UTF8, metavar="TEXT", help="One sentence in our own words.")
@click.option("--yes", "-y", is_flag=True, help="Accept the guessed kind and a TODO description.")
@click.option("--offline", is_flag=True, help="Fill from the URL alone; no network.")
def add(
    root: Path,
    url: str,
    category: str | None,
    kind: str | None,
    description: str | None,
    yes: bool,
    offline: bool,
) -> None:
    """Add a resource from its URL (arXiv, DOI, GitHub or any page) as data/<kind>/<id>.yml.

    Fills title, authors and year from arXiv, Crossref or GitHub; leaves TODO placeholders that
    validate refuses for what it cannot know. Refuses a resource already in the catalog. Asks
    for missing answers only on a terminal; without one, pass the options (or --yes).
    """
    from ddl_catalog.edit import add as adding

    request = adding.AddRequest(
        url=url, category=category, kind=kind, description=description, yes=yes, offline=offline
    )
    try:
        result = adding.add(root, request, prompt=adding.terminal_prompter())
    except adding.AddError as exc:
        raise click.ClickException(str(exc)) from exc
    for note in result.notes:  # they quote what the source said: escape its control characters
        click.echo(f"note: {terminal.safe(note)}", err=True)
    for warning in result.warnings:
        click.echo(f"warning: {terminal.safe(warning)}", err=True)
    click.echo(f"wrote {result.path.relative_to(root).as_posix()}")
    remaining = adding.remaining_problems(root, result.path)
    for line in remaining:
        click.echo(line)
    if remaining:
        click.echo("fix the lines above, then run: ddl-catalog fmt && ddl-catalog validate")


@cli.command("fmt")
@root_option
@click.option("--check", is_flag=True, help="Write nothing; exit 1 when a file would change.")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
def fmt_command(root: Path, check: bool, files: tuple[Path, ...]) -> None:
    """Put entry files in canonical form: key order, quoting, list style, schema line.

    Formats every entry under data/ (or only FILES), keeping comments. With --check, lists the
    files that would change and exits 1 if there are any.
    """
    from ddl_catalog.edit import fmt as formatting

    result = formatting.run(root, files, check=check)
    for problem in result.problems:
        click.echo(terminal.line(str(problem)), err=True)
    verb = "would reformat" if check else "reformatted"
    annotate = check and terminal.github_actions()
    for name in result.changed:
        click.echo(terminal.line(f"{verb} {name}"))
        if annotate:
            file = terminal.command_property(terminal.safe(name))
            click.echo(f"::error file={file},line=1::not in canonical format: run ddl-catalog fmt")
    unchanged = result.checked - len(result.changed) - len(result.problems)
    click.echo(
        f"{len(result.changed)} {verb}, {unchanged} unchanged, {len(result.problems)} unreadable"
    )
    if result.problems or (check and result.changed):
        if check and result.changed:
            click.echo("run `ddl-catalog fmt` (or `make fmt`) and commit the result", err=True)
        sys.exit(1)


@cli.command()
@root_option
@click.option("--check", is_flag=True, help="Write nothing; exit 1 with a diff if stale.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path, allow_dash=True),
    help="File to write or check (default: README.md under --root; '-': standard output).",
)
def readme(root: Path, check: bool, output: Path | None) -> None:
    """Regenerate README.md, the awesome list, from the catalog (atomically).

    With --check, writes nothing: prints a unified diff and exits 1 when the file is stale.
    """
    from ddl_catalog.model.build import InvalidCatalog, open_catalog

    if check and output is not None and _is_stdout(output):
        raise click.UsageError("--check compares with a file: give one with -o, not '-'")
    target = output if output is not None else root / "README.md"
    try:
        catalog = open_catalog(root)
    except InvalidCatalog as err:
        raise click.ClickException(str(err)) from err
    if _is_stdout(target):
        from ddl_catalog.render import readme as rendering
        from ddl_catalog.render.markdown import UnsafeURLError

        try:
            click.echo(rendering.render(catalog), nl=False)
        except (rendering.ReadmeError, UnsafeURLError) as err:
            raise click.ClickException(str(err)) from err
        return
    _write_readme(catalog, target, check=check)


def _is_stdout(path: Path) -> bool:
    """Say whether an -o value means standard output ('-', as click and most tools read it)."""
    return str(path) == "-"


def _write_readme(catalog: Catalog, target: Path, *, check: bool) -> None:
    """Write the README of a catalog to target, or with ``check`` exit 1 when it is stale."""
    from ddl_catalog.render import readme as rendering
    from ddl_catalog.render.markdown import UnsafeURLError

    try:
        text = rendering.render(catalog)
        if check:
            diff = rendering.stale_diff(target, text)
            if diff is not None:
                click.echo(diff, nl=False)
                click.echo(
                    f"{target} is stale: run `ddl-catalog readme` (or `make readme`)", err=True
                )
                sys.exit(1)
            click.echo(f"{target} is up to date")
            return
        rendering.write_atomic(target, text)
    except (rendering.ReadmeError, UnsafeURLError) as err:
        raise click.ClickException(str(err)) from err
    click.echo(f"wrote {target}")


@cli.command("check-links")
@root_option
@click.argument("inputs", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text for people, json: one record per URL.",
)
@click.option("--no-cache", is_flag=True, help="Check everything again; ignore .cache/.")
@click.option(
    "--cache",
    "cache_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Cache file (default: .cache/linkcheck.json under --root).",
)
@click.option("--fix", is_flag=True, help="Rewrite moved URLs in the data files.")
@click.option("--concurrency", default=64, show_default=True, help="Requests in flight.")
@click.option("--per-origin", default=8, show_default=True, help="Requests in flight per origin.")
@click.option(
    "--delay",
    type=Seconds(0.0),
    default=0.0,
    show_default=True,
    help="Seconds between starts per origin.",
)
@click.option(
    "--timeout",
    type=Seconds(0.0, above=True),
    default=10.0,
    show_default=True,
    help="Connect and read timeout (s); a URL's whole redirect chain gets three times it.",
)
@click.option("--exclude", multiple=True, metavar="REGEX", help="Skip URLs matching (repeatable).")
@click.option(
    "--fail-on",
    default="broken,error",
    show_default=True,
    help="Outcomes that make the exit status 1.",
)
def check_links(
    root: Path,
    inputs: tuple[Path, ...],
    fmt: str,
    no_cache: bool,
    cache_path: Path | None,
    fix: bool,
    concurrency: int,
    per_origin: int,
    delay: float,
    timeout: float,
    exclude: tuple[str, ...],
    fail_on: str,
) -> None:
    """Check every URL of the catalog (or those in INPUT Markdown/HTML/text files).

    Outcomes: ok, moved (permanent redirect), broken, error, skipped. Exits 1 when an outcome of
    --fail-on occurs. Results are cached per outcome in .cache/linkcheck.json.
    """
    from ddl_catalog.edit.fix_urls import EditError
    from ddl_catalog.model.build import InvalidCatalog
    from ddl_catalog.net import linkrun
    from ddl_catalog.net.linkcheck import LinkCheckError, Options
    from ddl_catalog.net.links import InputError

    try:
        config = linkrun.RunConfig(
            root=root,
            inputs=inputs,
            fmt=fmt,
            fix=fix,
            use_cache=not no_cache,
            cache_path=cache_path,
            fail_on=linkrun.parse_fail_on(fail_on),
            options=Options(
                concurrency=concurrency,
                per_origin=per_origin,
                delay=delay,
                timeout=timeout,
                exclude=exclude,
            ),
        )
        status = linkrun.run(config)
    except (InvalidCatalog, LinkCheckError, InputError, EditError) as err:
        raise click.ClickException(str(err)) from err
    sys.exit(status)


@cli.command()
@root_option
@click.option("--serve", is_flag=True, help="Preview with live reload instead of building.")
@click.option(
    "--dev-addr", default="127.0.0.1:8000", show_default=True, help="Address for --serve."
)
@click.option(
    "--engine",
    type=click.Choice(["mkdocs", "zensical"]),
    default=None,
    help="The site engine (default: catalog.yml's site.engine, else mkdocs).",
)
def site(root: Path, serve: bool, dev_addr: str, engine: str | None) -> None:
    """Build the website into site/ (strict), or preview it with --serve.

    The catalog's pages are rendered as files beside a copy of docs/, then the engine (MkDocs +
    Material, or Zensical) builds them. A failed build leaves the previous site/ untouched.
    """
    from ddl_catalog.render.site import SiteError, build_site, serve_site

    source_date_epoch()  # the engine reads it too, and a malformed one ends it in a traceback
    try:
        if serve:
            serve_site(root, address=dev_addr, engine=engine)
            return
        target = build_site(root, engine=engine)
    except SiteError as err:
        raise click.ClickException(str(err)) from err
    click.echo(f"site: built {target}")


@cli.command()
@root_option
@click.option("--strict", is_flag=True, help="Stop on validation warnings too.")
@click.pass_context
def build(ctx: click.Context, root: Path, strict: bool) -> None:
    """Validate, then regenerate README.md and build the website with every export.

    This is what `make build` runs. Nothing is written when validation fails, and a failed
    step leaves the previous outputs in place.
    """
    from ddl_catalog import report as reporting
    from ddl_catalog.model.build import build as build_model
    from ddl_catalog.validate import validate as run

    source_date_epoch()  # the site step needs it: refuse a malformed one before any output
    result = run(root)
    if result.failed(strict=strict):
        for line in reporting.as_text(result):
            click.echo(line)
        raise click.ClickException("validation failed: nothing was built")
    click.echo(reporting.summary(result))
    # The site first: when it fails (a page that clashes with a hand-written one, a full
    # disk), the README is left as it was too, so a failed build changes no output.
    ctx.invoke(site, root=root)
    _write_readme(build_model(root, result), root / "README.md", check=False)


@cli.command()
@root_option
@click.argument("source", metavar="LIST_OR_LISTING", type=UTF8)
@click.option(
    "--write",
    "chosen",
    multiple=True,
    metavar="ID",
    help="Write the candidate with this draft id as a draft (repeat for several; 'all' for all).",
)
@click.option(
    "--category", type=UTF8, metavar="ID", help="The category the written drafts are filed in."
)
def candidates(root: Path, source: str, chosen: tuple[str, ...], category: str | None) -> None:
    """List what a Markdown list or an arXiv listing holds that the catalog does not.

    LIST_OR_LISTING is a saved file (a Markdown list, the arXiv API's Atom feed, or a saved
    arxiv.org/list page) or an http(s) URL (fetched with the network). Each work is screened
    against the catalog (same arXiv id, DOI, repository or URL) and against data/register.yml
    (what was considered and left out, with its reason). New ones are listed with the draft id
    they would get; --write ID --category CAT writes them as drafts to finish by hand.
    """
    from ddl_catalog import candidates as found
    from ddl_catalog.importer.write import WriteError

    try:
        text, name = found.read_source(source)
        screened = found.screen(root, found.parse(text, name))
    except found.CandidatesError as err:
        raise click.ClickException(str(err)) from err
    for candidate, owner in screened.in_catalog:
        click.echo(f"{candidate.where}: in the catalog as {owner}: {candidate.title}")
    for candidate, reason in screened.in_register:
        click.echo(f"{candidate.where}: in the register ({reason}): {candidate.title}")
    for candidate in screened.new:
        ident = f" (arXiv {candidate.arxiv})" if candidate.arxiv else ""
        click.echo(f"{candidate.where}: new {candidate.key}{ident}: {candidate.title}")
    click.echo(
        f"{len(screened.new)} new, {len(screened.in_catalog)} in the catalog, "
        f"{len(screened.in_register)} in the register"
    )
    if not chosen:
        return
    wanted = screened.new if "all" in chosen else [c for c in screened.new if c.key in chosen]
    unknown = set(chosen) - {"all"} - {c.key for c in screened.new}
    if unknown:
        raise click.ClickException(f"no new candidate with id {', '.join(sorted(unknown))}")
    if not category:
        raise click.ClickException("--write needs --category (an id from data/categories.yml)")
    try:
        written = found.write_drafts(root, wanted, category)
    except (WriteError, OSError) as err:
        raise click.ClickException(str(err)) from err
    for path in written:
        click.echo(f"wrote {path.relative_to(root)}: finish its description and facts")


@cli.command("import")
@root_option
@click.argument("list_file", metavar="LIST.md", type=click.Path(path_type=Path))
@click.option(
    "--into",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write drafts under DIR/<folder>/ instead of the catalog's data/.",
)
@click.option("--dry-run", is_flag=True, help="Print the report; write nothing.")
@click.option(
    "--keep-descriptions",
    is_flag=True,
    help="The list is yours: its descriptions become the entries' (no TODO where it has one).",
)
@click.option(
    "--list-repo",
    metavar="OWNER/NAME",
    default=None,
    help="The list's own GitHub repository: links to it are skipped (its contributing, issues "
    "and pull-request links name it too).",
)
def import_cmd(
    root: Path,
    list_file: Path,
    into: Path | None,
    dry_run: bool,
    keep_descriptions: bool,
    list_repo: str | None,
) -> None:
    """Turn an awesome-list Markdown file into draft entries, merging what the catalog has.

    Prints one line per item (new, merged into an entry, or skipped with the reason), then the
    counts. Drafts get a TODO description that validation rejects until it is rewritten.
    Never overwrites a file.
    """
    from ddl_catalog.importer import BadList, ImportFailed, report_lines, run_import

    try:
        result = run_import(
            list_file,
            root,
            into=into,
            dry_run=dry_run,
            keep_descriptions=keep_descriptions,
            list_repo=list_repo,
        )
    except (BadList, ImportFailed) as err:
        click.echo(str(err), err=True)
        sys.exit(1)
    for line in report_lines(result):
        click.echo(line)
    sys.exit(1 if result.failed else 0)


@cli.command()
@root_option
@click.option(
    "--only",
    multiple=True,
    type=click.Choice(["github", "arxiv", "crossref"]),
    help="Fetch only this source (repeatable; default: all).",
)
@click.option("--github-api", metavar="URL", help="GitHub REST base URL (env DDL_GITHUB_API).")
@click.option("--arxiv-api", metavar="URL", help="arXiv API base URL (env DDL_ARXIV_API).")
@click.option("--crossref-api", metavar="URL", help="Crossref base URL (env DDL_CROSSREF_API).")
@click.option(
    "--states",
    is_flag=True,
    help="Also write the maintenance state GitHub's facts give into entries whose curated "
    "state they contradict (never a state from a project's notice; those are reported).",
)
def enrich(
    root: Path,
    only: tuple[str, ...],
    github_api: str | None,
    arxiv_api: str | None,
    crossref_api: str | None,
    states: bool,
) -> None:
    """Fetch GitHub, arXiv and Crossref metadata into data/metadata/.

    Reports where a source disagrees with our title, authors or year, and flags archived or
    stale repositories. Entries are not edited, except with --states: a maintenance state that
    GitHub's archived flag or last push contradict is rewritten with that evidence (the weekly
    maintenance job does this, so the change arrives as a pull request). GITHUB_TOKEN is used
    when set. Exits 1 when a fetch failed.
    """
    from ddl_catalog.metadata import SOURCES, MetadataError
    from ddl_catalog.model.build import InvalidCatalog, open_catalog
    from ddl_catalog.net.enrich.run import enrich as run
    from ddl_catalog.net.session import make_session

    bases = {"github": github_api, "arxiv": arxiv_api, "crossref": crossref_api}
    source_date_epoch()  # it dates the records: refuse a malformed one before any request
    try:
        report = run(
            open_catalog(root), make_session(4), only=only or SOURCES, bases=bases, states=states
        )
    except (InvalidCatalog, MetadataError) as err:
        raise click.ClickException(str(err)) from err
    for source, count in report.fetched.items():
        click.echo(f"{source}: {count} records fetched")
    # Every line quotes what a server sent (titles, reason phrases): control characters escaped.
    for line in report.disagreements:
        click.echo(f"disagreement: {terminal.safe(line)}")
    for line in report.flags:
        click.echo(f"flag: {terminal.safe(line)}")
    for line in report.states:
        click.echo(f"state: {terminal.safe(line)}")
    for line in report.reviews:
        click.echo(f"review: {terminal.safe(line)}")
    for line in report.failures:
        click.echo(f"failed: {terminal.safe(line)}", err=True)
    if report.stopped:
        click.echo(f"stopped: {terminal.safe(report.stopped)}", err=True)
    sys.exit(1 if report.failed else 0)


@cli.command("init")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--title", type=UTF8, default="Awesome List", show_default=True, help="The README's title."
)
@click.option(
    "--description",
    type=UTF8,
    default="A curated list of resources.",
    show_default=True,
    help="The README's intro paragraph: what the list is.",
)
@click.option("--site-url", type=UTF8, metavar="URL", help="Where the website will be published.")
@click.option(
    "--repository", type=UTF8, metavar="URL", help="https://github.com/OWNER/NAME of the list."
)
def init_cmd(
    directory: Path, title: str, description: str, site_url: str | None, repository: str | None
) -> None:
    """Start a new catalog in DIRECTORY (new or empty): settings, data, site, CI, README.

    The catalog passes `validate --strict`, `build` and awesome-lint as written; edit its
    catalog.yml and data/ to make it yours.
    """
    from ddl_catalog import scaffold
    from ddl_catalog.model.build import InvalidCatalog, open_catalog
    from ddl_catalog.render import readme as rendering
    from ddl_catalog.render.markdown import UnsafeURLError

    def add_readme(staging: Path) -> None:
        """Render the README of the new catalog (in its staging folder)."""
        rendering.write_atomic(staging / "README.md", rendering.render(open_catalog(staging)))

    options = scaffold.InitOptions(title, description, site_url, repository)
    try:
        written = scaffold.init(directory, options, complete=add_readme)
    except InvalidCatalog as err:
        problems = "\n".join(f"  {p.path}: {p.message} [{p.rule}]" for p in err.report.errors)
        raise click.ClickException(
            f"nothing written: the new catalog would not pass validate:\n{problems}"
        ) from err
    except (scaffold.InitError, rendering.ReadmeError, UnsafeURLError) as err:
        raise click.ClickException(f"nothing written: {err}") from err
    click.echo(f"wrote {directory / 'README.md'}")
    click.echo(f"{len(written) + 1} files: next, cd {directory} && make build")


def main() -> None:
    """Run the command line (console script entry point)."""
    cli(prog_name="ddl-catalog")
