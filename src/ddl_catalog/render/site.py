"""The website, top-down: catalog -> pages (files) -> engine -> site/.

``build_site`` reads the catalog, renders every generated page and file
(:mod:`ddl_catalog.render.site_pages`) into a staging folder beside the hand-written docs, writes
an ``mkdocs.yml`` there that inherits the catalog's own and adds the docs folder, the nav and the
theme overrides, and then runs an engine on it (:mod:`ddl_catalog.render.engines`: MkDocs +
Material by default, or Zensical). Nothing of ours runs inside the engine: what a reader sees
(cards, anchors, stubs of moved cards, timelines, the Compare matrix, the exports) is in the
staged files, search included: ``search/entries.json`` (:mod:`ddl_catalog.render.search_index`),
read by the site's own script, so both engines search alike.

The staging folder and the engine's output live in one scratch folder beside ``site/``, which
replaces the old site only when everything succeeded: a failed build leaves the last good site in
place, and two builds at once each work in their own scratch folder.
"""

from __future__ import annotations

import calendar
import contextlib
import errno
import gzip
import html
import os
import posixpath
import re
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import jinja2
import yaml

from ddl_catalog import mkdocs_yml, resources, settings
from ddl_catalog.model import Catalog, Category
from ddl_catalog.model.build import InvalidCatalog, open_catalog
from ddl_catalog.render import engines, search_index
from ddl_catalog.render.site_pages import (
    DOWNLOADS,
    KIND_GROUPS,
    PageBuilder,
    SiteDataError,
)

HOME_MARKER = "<!-- ddl-catalog:home -->"
#: The staged config's name, in the scratch folder's ``src/``.
STAGED_CONFIG = "mkdocs.yml"


class SiteError(Exception):
    """The site could not be built; the message says why in one line."""


# -- reading the catalog's mkdocs.yml ----------------------------------------------------------


class _TolerantLoader(yaml.SafeLoader):
    """A safe loader that reads any tag (``!ENV``, ``!!python/name:``) as None instead of failing.

    Only a few plain keys are read here (docs_dir, repo_url, theme.custom_dir, nav); the engine
    reads the whole file itself through ``INHERIT``.
    """


_TolerantLoader.add_multi_constructor("", lambda loader, suffix, node: None)


@dataclass(frozen=True)
class EngineConfig:
    """What the build needs to know of the catalog's mkdocs.yml."""

    docs_dir: Path
    repo_url: str
    custom_dir: Path | None
    has_nav: bool
    #: The stylesheets and scripts the catalog's mkdocs.yml lists (a script may be a mapping
    #: with its ``path``), in its order.
    extra_css: tuple[Any, ...] = ()
    extra_javascript: tuple[Any, ...] = ()


def read_engine_config(root: Path) -> EngineConfig:
    """Read root/mkdocs.yml's docs_dir, repo_url, theme.custom_dir and whether it has a nav."""
    config_file = root / "mkdocs.yml"
    if not config_file.is_file():
        raise SiteError(f"{config_file} not found: run from the catalog's folder or pass --root")
    try:
        data = yaml.load(config_file.read_text(encoding="utf-8"), Loader=_TolerantLoader)  # noqa: S506 - a SafeLoader
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise SiteError(f"{config_file}: cannot read it ({type(err).__name__})") from err
    data = data if isinstance(data, dict) else {}
    theme = data.get("theme") if isinstance(data.get("theme"), dict) else {}
    custom = theme.get("custom_dir") if isinstance(theme, dict) else None
    docs = data.get("docs_dir")
    if not isinstance(docs, str) or not docs:
        docs = "docs"
    return EngineConfig(
        docs_dir=root / docs,
        repo_url=str(data.get("repo_url") or "").rstrip("/"),
        custom_dir=root / custom if isinstance(custom, str) and custom else None,
        has_nav=data.get("nav") is not None,
        extra_css=_listed(data.get("extra_css")),
        extra_javascript=_listed(data.get("extra_javascript")),
    )


def _listed(value: Any) -> tuple[Any, ...]:
    """Return a list setting of mkdocs.yml as a tuple (nothing, or a lone value, as a list)."""
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list) else (value,)


def with_package_assets(listed: tuple[Any, ...], assets: list[str]) -> list[Any]:
    """Return the catalog's own list of stylesheets or scripts, then the package's it lacks.

    The package's assets (the site's styles, Explore, Compare, search, re-sorting) are part of
    the pages it writes, so a catalog never has to list them, and a catalog made by an older
    ``init`` gets the new ones; listing one itself (to place it) is fine, it comes once.
    """
    named = {item.get("path") if isinstance(item, dict) else item for item in listed}
    return [*listed, *(asset for asset in assets if asset not in named)]


# -- the staged sources --------------------------------------------------------------------------


def open_site_catalog(root: Path) -> Catalog:
    """Open (validate) the catalog for the site; an invalid one becomes one SiteError."""
    try:
        return open_catalog(root)
    except InvalidCatalog as error:
        raise SiteError(str(error)) from error


def stage(root: Path, catalog: Catalog, engine: engines.Engine, into: Path) -> Path:
    """Write the site's sources into ``into``; return the staged config file.

    ``into`` gets ``docs/`` (the hand-written pages, the package's assets unless the catalog has
    its own, every generated page and file, the exports), ``overrides/`` (the package's theme
    overrides for this engine, then the catalog's own custom_dir) and ``mkdocs.yml``.
    """
    conf = read_engine_config(root)
    options = settings.of(catalog)
    docs = into / "docs"
    if conf.docs_dir.is_dir():
        shutil.copytree(conf.docs_dir, docs, ignore=shutil.ignore_patterns(".*", "__pycache__"))
    else:
        docs.mkdir(parents=True)
    for src_uri, asset in resources.site_assets().items():  # the catalog's own ones win
        if not (docs / src_uri).exists():
            _write(docs / src_uri, asset.read_bytes())
    edit_base = f"{conf.repo_url}/{options.site_data_edit_uri}" if conf.repo_url else ""
    templates = resources.site_templates((root / options.site_templates).resolve())
    try:
        builder = PageBuilder(
            catalog,
            templates,
            edit_base=edit_base,
            budget=options.site_page_budget,
            elements=options.site_page_elements,
            list_budget=options.site_list_budget,
            bib_files=_bib_files(catalog),
        )
        layout = builder.build()
        home = builder.home_block(_downloads())
    except SiteDataError as error:
        raise SiteError(str(error)) from error
    for page in layout.pages:
        target = docs / page.src_uri
        if target.exists():
            raise SiteError(
                f"{conf.docs_dir.name}/{page.src_uri} is a hand-written page where the site puts "
                f"{page.origin}; rename one of them"
            )
        markdown = page.markdown
        if engine.links_from_source:
            markdown = links_from_source(markdown, page.src_uri)
        _write(target, markdown.encode("utf-8"))
    for generated in layout.files:
        _write(docs / generated.src_uri, generated.content.encode("utf-8"))
    index = docs / "index.md"
    if index.is_file():
        text = index.read_text(encoding="utf-8")
        if HOME_MARKER in text:
            index.write_text(text.replace(HOME_MARKER, home), encoding="utf-8")
    _write_exports(root, catalog, docs)
    # The site's own search (assets/search.js): entries, generated pages, the docs' sections.
    for src_uri, text in search_index.render_index(catalog, layout, docs).items():
        _write(docs / src_uri, text.encode("utf-8"))
    overrides = into / "overrides"
    _merge_overrides(engine, templates, conf.custom_dir, overrides)
    config: dict[str, Any] = {
        "INHERIT": str(root / "mkdocs.yml"),
        "docs_dir": "docs",
        "site_dir": "site",
        "theme": {"custom_dir": "overrides"},
    }
    # INHERIT replaces a list rather than merging it: the catalog's own entries come first.
    package = sorted(
        resources.site_assets(), key=lambda name: (not name.endswith("/extra.css"), name)
    )
    for key, suffix, listed in (
        ("extra_css", ".css", conf.extra_css),
        ("extra_javascript", ".js", conf.extra_javascript),
    ):
        config[key] = with_package_assets(listed, [a for a in package if a.endswith(suffix)])
    if not conf.has_nav:
        config["nav"] = site_nav(catalog, layout, docs)
    config_file = into / STAGED_CONFIG
    config_file.write_text(
        "# Staged by `ddl-catalog site`: do not edit (it is rebuilt from the catalog).\n"
        + yaml.safe_dump(config, sort_keys=False, allow_unicode=True),
        encoding="utf-8",
    )
    return config_file


#: A relative href or src attribute of a generated page: not external (a scheme), not
#: site-absolute, not a fragment or query of the page itself. The pages escape every text they
#: show, so ``href="`` occurs only as an attribute.
_RELATIVE_LINK = re.compile(r'(?<![\w-])(href|src)="(?![A-Za-z][A-Za-z0-9+.-]*:|[/#?])([^"]+)"')


def links_from_source(markdown: str, src_uri: str) -> str:
    """Rewrite a generated page's relative links for an engine that reads them from its source.

    The generated pages link from the page's URL, as a browser reads them: ``a/b.md`` is served
    at ``a/b/`` and links from there; MkDocs leaves such links as written. Zensical reads every
    relative href and src from the source file's folder (``a/``) and writes it again relative to
    the URL, which would add a ``../`` to each one. Prefixing the page's own name (``b/``) says
    the same place from the source folder. A page called index.md has the same folder either way.
    """
    name = src_uri.rsplit("/", 1)[-1]
    if name == "index.md":
        return markdown
    own = name.removesuffix(".md")

    def rebase(match: re.Match[str]) -> str:
        link = match[2]
        cut = min((i for i in (link.find("?"), link.find("#")) if i >= 0), default=len(link))
        path = link[:cut]
        joined = posixpath.normpath(f"{own}/{path}")
        if path.endswith(("/", "/.", "/..")) or path in (".", ".."):
            joined = "./" if joined == "." else joined + "/"
        return f'{match[1]}="{joined}{link[cut:]}"'

    return _RELATIVE_LINK.sub(rebase, markdown)


def _write(path: Path, content: bytes) -> None:
    """Write a staged file, creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)


def _bib_files(catalog: Catalog) -> dict[str, str]:
    """Return the per-topic BibTeX files the exports write (the topic pages link them)."""
    from ddl_catalog.export import category_bib_files

    return category_bib_files(catalog)


def _downloads() -> list[tuple[str, str]]:
    """Return the exports the home page's Downloads section links (path, label)."""
    from ddl_catalog.export import SCHEMA_FILE, SITE_FILES

    published = {*SITE_FILES, SCHEMA_FILE}
    return [(path, label) for path, label in DOWNLOADS if path in published]


def _write_exports(root: Path, catalog: Catalog, docs: Path) -> None:
    """Write every export (JSON, CSV, BibTeX, CSL-JSON, the feed) among the staged files."""
    from ddl_catalog.export import ExportError, site_files

    site_url = mkdocs_yml.published_url(root, settings.of(catalog).site_url)
    try:
        site_files(catalog, docs, site_url=site_url)
    except ExportError as error:
        raise SiteError(str(error)) from error


def _merge_overrides(
    engine: engines.Engine, templates: Path, custom_dir: Path | None, into: Path
) -> None:
    """Gather the theme overrides: the site templates' shared ones, this engine's, custom_dir.

    ``templates`` is the catalog's templates/site, or the package's; its ``overrides/`` serve
    both engines and ``overrides-<engine>/`` one of them. Later folders win file by file, so
    mkdocs.yml's ``theme.custom_dir`` overrides any one template.
    """
    shared = templates / "overrides"
    folders = [shared, templates / f"overrides-{engine.name}"]
    if custom_dir is not None and custom_dir.resolve() != shared.resolve():
        if not custom_dir.is_dir():
            raise SiteError(f"theme.custom_dir {custom_dir} in mkdocs.yml is not a folder")
        folders.append(custom_dir)
    into.mkdir(parents=True, exist_ok=True)
    for folder in folders:
        if folder.is_dir():
            shutil.copytree(
                folder, into, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__")
            )


# -- the nav -------------------------------------------------------------------------------------


def nav_title(text: str) -> str:
    """Return a title as the nav needs it: the engines print nav titles as raw HTML."""
    return html.escape(text)


def site_nav(catalog: Catalog, layout: Any, docs: Path) -> list[Any]:
    """Return the nav: home, topics, kinds, years, Explore, Compare, Timeline, tags, docs."""
    counts = catalog.count_by_kind()
    generated = {page.src_uri for page in layout.pages}
    hand_written = sorted(
        p.relative_to(docs).as_posix()
        for p in docs.rglob("*.md")
        if p.relative_to(docs).as_posix() not in generated and p.name != "index.md"
    )
    hand_written.sort(key=lambda p: p != "contributing.md")
    nav: list[Any] = [
        {"Home": "index.md"},
        {"Categories": [_nav_category(catalog, c) for c in catalog.top_categories()]},
        {
            "Kinds": [
                {title: f"kinds/{slug}.md"}
                for slug, title, kinds in KIND_GROUPS
                if any(counts.get(k) for k in kinds)
            ]
        },
        {"Papers by year": "papers-by-year.md"},
    ]
    for title, src in (
        ("Venues", "venues.md"),
        ("What's new", "new.md"),
        ("Explore", "explore.md"),
        ("Compare", "compare.md"),
        ("Timeline", "timeline.md"),
        ("Tags", "tags.md"),
    ):
        if src in generated:
            nav.append({title: src})
    if hand_written:
        nav.append({"Contribute": hand_written})
    return nav


def _nav_category(catalog: Catalog, top: Category) -> dict[str, Any]:
    """Return a topic's nav item: its page, or a section of its overview and subtopics."""
    children = catalog.children(top.id)
    if not children:
        return {nav_title(top.title): f"{top.id}.md"}
    pages = [{nav_title(c.title): f"{top.id}/{c.id}.md"} for c in children]
    return {nav_title(top.title): [{"Overview": f"{top.id}.md"}, *pages]}


# -- building ------------------------------------------------------------------------------------


def data_epoch(catalog: Catalog) -> int:
    """Return the newest ``added`` date as a Unix time (0 when none), for reproducible builds."""
    dates = [e.added for e in catalog if e.added]
    if not dates:
        return 0
    newest = date.fromisoformat(max(dates))
    return calendar.timegm(newest.timetuple())


def _engine_env(catalog: Catalog) -> dict[str, str]:
    """Return the environment the engine runs with: the data's date, unless one is set."""
    env = {"NO_MKDOCS_2_WARNING": "1"}  # Material's end-of-life banner on every build
    if "SOURCE_DATE_EPOCH" not in os.environ:
        env["SOURCE_DATE_EPOCH"] = str(data_epoch(catalog))
    return env


def choose_engine(catalog: Catalog, name: str | None) -> engines.Engine:
    """Return the engine named on the command line, else catalog.yml's, else the default."""
    try:
        return engines.get(name or settings.of(catalog).site_engine)
    except engines.EngineError as err:
        raise SiteError(str(err)) from err


def build_site(
    root: Path, *, site_dir: Path | None = None, engine: str | None = None, strict: bool = True
) -> Path:
    """Build the site of the catalog at ``root`` into ``site_dir`` (default root/site).

    The sources are staged and built in a scratch folder beside the target, which replaces the
    old site only when the build succeeded. Scratch folders left by a killed build (named with
    its process id) are removed first. Any file system failure (disk full, permission denied, a
    site/ that cannot be replaced) becomes one SiteError naming the path; no scratch is left.
    """
    root = root.resolve()
    read_engine_config(root)  # says early when mkdocs.yml is missing or unreadable
    catalog = open_site_catalog(root)
    chosen = choose_engine(catalog, engine)
    target = (site_dir or root / "site").resolve()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_scratch(target)
        scratch = Path(
            tempfile.mkdtemp(prefix=f".{target.name}-build-{os.getpid()}-", dir=target.parent)
        )
    except OSError as err:
        raise SiteError(_os_problem(err, target.parent)) from err
    try:
        config_file = stage(root, catalog, chosen, scratch)
        chosen.build(config_file, strict=strict, env=_engine_env(catalog))
        built = scratch / "site"
        if not built.is_dir():
            raise SiteError(f"{chosen.name} wrote no site; the previous site is unchanged")
        _gzip_sitemap(built)
        _swap(built, target)
    except engines.EngineError as error:
        raise SiteError(f"{chosen.name}: {error}; the previous site is unchanged") from error
    except jinja2.TemplateError as error:  # before OSError: TemplateNotFound is one too
        raise SiteError(_template_problem(error)) from error
    except OSError as error:
        raise SiteError(_os_problem(error, scratch)) from error
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


def _gzip_sitemap(site: Path) -> None:
    """Write sitemap.xml.gz beside sitemap.xml when the engine wrote only the latter.

    MkDocs writes both, Zensical only sitemap.xml: a site that changes engines keeps every
    address it published (the bytes do not depend on the build's time).
    """
    plain, packed = site / "sitemap.xml", site / "sitemap.xml.gz"
    if plain.is_file() and not packed.exists():
        packed.write_bytes(gzip.compress(plain.read_bytes(), mtime=0))


def _swap(new: Path, target: Path) -> None:
    """Put the freshly built folder in place of the old one with two renames.

    When either rename fails, the old site is put back (or never left its place) and the new
    build is removed; the failure becomes one SiteError naming the site folder.
    """
    old = target.with_name(f".{target.name}-old-{os.getpid()}-{time.monotonic_ns()}")
    moved = False
    try:
        new.chmod(0o755)
        if target.exists():
            os.replace(target, old)
            moved = True
        os.replace(new, target)
    except OSError as err:
        if moved:
            with contextlib.suppress(OSError):
                os.replace(old, target)
        shutil.rmtree(new, ignore_errors=True)
        raise SiteError(
            f"cannot replace {target}: {err.strerror or err} (is it a mount point, immutable "
            "or in use?); the previous site is unchanged"
        ) from err
    shutil.rmtree(old, ignore_errors=True)


#: Scratch folders of a build: ``.site-build-<pid>-<random>`` and ``.site-old-<pid>-<ns>``.
_SCRATCH = re.compile(r"^\.(?P<name>.+)-(?:build|old)-(?P<pid>\d+)-[A-Za-z0-9_]+$")


def remove_stale_scratch(target: Path) -> list[Path]:
    """Remove the scratch folders that killed builds of ``target`` left beside it.

    A folder counts as stale when the process named in it is gone; a build still running
    elsewhere keeps its own. Returns the folders removed.
    """
    removed: list[Path] = []
    for path in target.parent.glob(f".{target.name}-*-*-*"):
        match = _SCRATCH.match(path.name)
        if not match or match["name"] != target.name or not path.is_dir():
            continue
        pid = int(match["pid"])
        if pid != os.getpid() and _alive(pid):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    """Tell whether a process with this id exists (signal 0 checks without sending)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, under another user
    return True


def _template_problem(err: jinja2.TemplateError) -> str:
    """Say in one line which site template failed."""
    kept = "the previous site is unchanged"
    if isinstance(err, jinja2.TemplateNotFound):
        return f"template {err.name} not found in the theme or its overrides; {kept}"
    if isinstance(err, jinja2.TemplateSyntaxError):
        return f"{err.filename or err.name}:{err.lineno}: {err.message}; {kept}"
    return f"template error: {err.message or type(err).__name__}; {kept}"


def _os_problem(err: OSError, where: Path) -> str:
    """Say in one line which path failed and why (disk full, permission denied ...)."""
    path = err.filename or where
    reason = err.strerror or str(err)
    if err.errno == errno.ENOSPC:
        reason += " (the disk is full)"
    return f"cannot write {path}: {reason}; the previous site is unchanged"


# -- previewing ----------------------------------------------------------------------------------

#: What a preview watches besides the docs folder: a change restages the site.
WATCHED = ("data", "templates", "catalog.yml", "mkdocs.yml")


def serve_site(root: Path, *, address: str = "127.0.0.1:8000", engine: str | None = None) -> None:
    """Preview the site with live reload: data, templates and docs edits restage the pages.

    The staged sources live in build/site-serve/; a watcher restages them when a watched file
    changes, copying only the files whose bytes changed, and the engine's own live reload
    rebuilds the pages it sees change.
    """
    root = root.resolve()
    read_engine_config(root)
    catalog = open_site_catalog(root)
    chosen = choose_engine(catalog, engine)
    work = root / "build" / "site-serve"
    config_file = _restage(root, chosen, work)
    if chosen.name == "zensical":
        text = config_file.read_text(encoding="utf-8")
        config_file.write_text(text + f"dev_addr: {address}\n", encoding="utf-8")
    stop = threading.Event()
    watcher = threading.Thread(
        target=_watch, args=(root, chosen, work, stop), daemon=True, name="ddl-catalog-watch"
    )
    watcher.start()
    try:
        chosen.serve(config_file, address=address, env=_engine_env(catalog))
    except engines.EngineError as error:
        raise SiteError(f"{chosen.name}: {error}") from error
    finally:
        stop.set()


def _restage(root: Path, engine: engines.Engine, work: Path) -> Path:
    """Stage the site afresh and copy into ``work`` only what changed; return its config."""
    work.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=".stage-", dir=work.parent))
    try:
        config_file = stage(root, open_site_catalog(root), engine, fresh)
        _sync(fresh, work)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
    return work / config_file.name


def _sync(source: Path, target: Path) -> None:
    """Make ``target`` hold what ``source`` holds, writing only files whose bytes differ."""
    wanted = {p.relative_to(source) for p in source.rglob("*") if p.is_file()}
    if target.exists():
        for path in sorted(target.rglob("*"), reverse=True):
            rel = path.relative_to(target)
            if path.is_file() and rel not in wanted:
                path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    for rel in sorted(wanted):
        new = (source / rel).read_bytes()
        old = target / rel
        if not old.is_file() or old.read_bytes() != new:
            _write(old, new)


def _snapshot(root: Path) -> dict[str, float]:
    """Return the modification times of every watched file (the docs folder included)."""
    seen: dict[str, float] = {}
    docs = read_engine_config(root).docs_dir
    for name in (*WATCHED, docs.relative_to(root).as_posix()):
        base = root / name
        paths = [base] if base.is_file() else base.rglob("*") if base.is_dir() else []
        for path in paths:
            with contextlib.suppress(OSError):
                seen[str(path)] = path.stat().st_mtime
    return seen


def _watch(root: Path, engine: engines.Engine, work: Path, stop: threading.Event) -> None:
    """Restage the site whenever a watched file changes, until ``stop`` is set."""
    before = _snapshot(root)
    while not stop.wait(1.0):
        now = _snapshot(root)
        if now == before:
            continue
        before = now
        try:
            _restage(root, engine, work)
        except SiteError as error:
            print(f"ddl-catalog: not restaged: {error}")
