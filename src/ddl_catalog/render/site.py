"""The website: a MkDocs plugin that adds the catalog's pages at build time, and `ddl-catalog site`.

``mkdocs build`` and ``mkdocs serve`` work on their own because ``mkdocs.yml`` enables the
``ddl-catalog`` plugin. The plugin:

* ``on_config``: opens (validates) the catalog, lays out its pages, builds the nav when
  ``mkdocs.yml`` has none (its titles HTML-escaped: MkDocs and Material print nav and page
  titles as raw HTML), and pins ``SOURCE_DATE_EPOCH`` to the newest ``added`` date when it is
  not set, so the same data gives the same bytes (sitemap dates included);
* ``on_files``: adds the generated pages with ``File.generated`` (never written to docs/);
* ``on_page_markdown``: fills the ``<!-- ddl-catalog:home -->`` marker of ``docs/index.md``;
* ``on_page_content``: tells MkDocs the anchors of the generated pages' raw HTML blocks (cards,
  entry lists; see ``site_pages``), so links from hand-written pages to a card are validated;
* ``on_page_context`` and ``on_post_page``: with mkdocs-material's search plugin, the search
  plugin indexes a generated page without its blocks (headings, descriptions), the plugin adds
  one search section per card from the data (``site_pages.search_doc``), and the blocks go back
  into the finished HTML. Parsing the cards' HTML back into text was the biggest cost of a big
  build. With any other search plugin, the blocks go back in ``on_page_content`` and that
  plugin indexes the whole page. ``on_page_context`` also sets each generated page's ``title``
  meta to its (escaped) title: Material prints that in ``<title>`` as it is, where it would
  otherwise un-escape ``page.title`` with ``striptags`` into live markup;
* ``on_serve``: watches ``data/`` and the templates, so ``mkdocs serve`` reloads on data edits;
* ``on_post_build``: the exports' hook point. If ``ddl_catalog.export`` has a function
  ``site_files(catalog, site_dir)``, it is called to write its files (``api/catalog.json``,
  ``catalog.csv``, ``papers.bib``, ``papers.json``, ``feed.xml``) into the built site, and the
  home page's Downloads section links them (see ``site_pages.DOWNLOADS``).
"""

from __future__ import annotations

import calendar
import contextlib
import errno
import html
import importlib
import logging
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config import base
from mkdocs.config import config_options as opt
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from ddl_catalog import mkdocs_yml, resources, settings
from ddl_catalog.model import Catalog, Category
from ddl_catalog.model.build import InvalidCatalog, open_catalog
from ddl_catalog.render.site_pages import (
    DOWNLOADS,
    ELEMENT_BUDGET,
    KIND_GROUPS,
    LIST_BUDGET,
    PAGE_BUDGET,
    Layout,
    PageBuilder,
    SiteDataError,
    SitePage,
)

HOME_MARKER = "<!-- ddl-catalog:home -->"
_ID_RE = re.compile(r'\sid="([^"]+)"')
log = logging.getLogger("mkdocs.plugins.ddl_catalog")


class SiteError(Exception):
    """The site could not be built; the message says why in one line."""


class CatalogPluginConfig(base.Config):  # type: ignore[no-untyped-call]
    """Options of the ``ddl-catalog`` plugin in mkdocs.yml."""

    root = opt.Optional(opt.Type(str))
    templates = opt.Type(str, default="templates/site")
    data_edit_uri = opt.Type(str, default="edit/main/")
    page_budget = opt.Type(int, default=PAGE_BUDGET)
    page_elements = opt.Type(int, default=ELEMENT_BUDGET)
    list_budget = opt.Type(int, default=LIST_BUDGET)


class CatalogPlugin(BasePlugin[CatalogPluginConfig]):  # type: ignore[no-untyped-call]
    """Generate the catalog's pages inside a normal MkDocs build."""

    catalog: Catalog
    builder: PageBuilder
    layout: Layout

    def __init__(self) -> None:
        self._pinned_epoch = False
        self._generated: dict[str, SitePage] = {}
        self._generated_uris: set[str] = set()
        self._index: list[dict[str, Any]] | None = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """Open the catalog, lay out its pages and set the nav."""
        here = Path(config.config_file_path or ".").resolve().parent
        self.root = (here / self.config.root).resolve() if self.config.root else here
        # The catalog's own templates/site when it has one, else the package's defaults; the
        # package's theme overrides when mkdocs.yml names none (resources.py).
        self.templates = resources.site_templates((here / self.config.templates).resolve())
        if config.theme.custom_dir is None:
            config.theme.dirs.insert(0, str(resources.theme_overrides()))
        try:
            self.catalog = open_catalog(self.root)
        except InvalidCatalog as error:
            raise PluginError(f"ddl-catalog: {error}") from error
        repo = (config.repo_url or "").rstrip("/")
        edit_base = f"{repo}/{self.config.data_edit_uri}" if repo else ""
        try:
            bib_files = None
            if export_hook() is not None:
                from ddl_catalog.export import category_bib_files

                bib_files = category_bib_files(self.catalog)
            self.builder = PageBuilder(
                self.catalog,
                self.templates,
                edit_base=edit_base,
                budget=self.config.page_budget,
                elements=self.config.page_elements,
                list_budget=self.config.list_budget,
                bib_files=bib_files,
            )
            self.layout = self.builder.build()
        except SiteDataError as error:
            raise PluginError(f"ddl-catalog: {error}") from error
        if config.nav is None:
            config.nav = self._nav(Path(config.docs_dir))
        if "SOURCE_DATE_EPOCH" not in os.environ:
            os.environ["SOURCE_DATE_EPOCH"] = str(data_epoch(self.catalog))
            self._pinned_epoch = True
        return config

    def _nav(self, docs_dir: Path) -> list[Any]:
        """Return the site's nav: home, categories, kinds, years, explore, tags, contribute."""
        counts = self.catalog.count_by_kind()
        hand_written = sorted(
            p.relative_to(docs_dir).as_posix()
            for p in docs_dir.rglob("*.md")
            if p.name not in {"index.md", "tags.md"}
        )
        hand_written.sort(key=lambda p: p != "contributing.md")
        nav: list[Any] = [
            {"Home": "index.md"},
            {"Categories": [self._nav_category(c) for c in self.catalog.top_categories()]},
            {
                "Kinds": [
                    {title: f"kinds/{slug}.md"}
                    for slug, title, kinds in KIND_GROUPS
                    if any(counts.get(k) for k in kinds)
                ]
            },
            {"Papers by year": "papers-by-year.md"},
            {"Explore": "explore.md"},
        ]
        generated = {page.src_uri for page in self.layout.pages}
        for title, src in (("Compare", "compare.md"), ("Timeline", "timeline.md")):
            if src in generated:  # only when the catalog has a matrix, dated landmarks
                nav.append({title: src})
        if (docs_dir / "tags.md").exists():
            nav.append({"Tags": "tags.md"})
        if hand_written:
            nav.append({"Contribute": hand_written})
        return nav

    def _nav_category(self, top: Category) -> dict[str, Any]:
        """Return a top-level category's nav item: its page, or a section of its subcategories.

        A section opens with the top-level page (its overview), then one page per subcategory.
        """
        children = self.catalog.children(top.id)
        if not children:
            return {nav_title(top.title): f"{top.id}.md"}
        pages = [{nav_title(c.title): f"{top.id}/{c.id}.md"} for c in children]
        return {nav_title(top.title): [{"Overview": f"{top.id}.md"}, *pages]}

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        """Add the generated pages and files; refuse to shadow a hand-written one."""
        self._generated = {p.src_uri: p for p in self.layout.pages if p.blocks}
        self._generated_uris = {p.src_uri for p in self.layout.pages}
        generated = [(p.src_uri, p.markdown) for p in self.layout.pages]
        generated += [(f.src_uri, f.content) for f in self.layout.files]
        for src_uri, asset in resources.site_assets().items():  # the catalog's own ones win
            if files.get_file_from_path(src_uri) is None:
                files.append(File.generated(config, src_uri, abs_src_path=str(asset)))
        for src_uri, content in generated:
            if files.get_file_from_path(src_uri) is not None:
                raise PluginError(
                    f"ddl-catalog: docs/{src_uri} clashes with a generated "
                    "page; remove or rename it"
                )
            files.append(File.generated(config, src_uri, content=content))
        return files

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        """Fill the home page's marker with counts, recent entries and downloads."""
        if HOME_MARKER not in markdown:
            return markdown
        downloads = None
        if export_hook() is not None:
            from ddl_catalog.export import SCHEMA_FILE, SITE_FILES

            published = {*SITE_FILES, SCHEMA_FILE}
            downloads = [(path, label) for path, label in DOWNLOADS if path in published]
        return markdown.replace(HOME_MARKER, self.builder.home_block(downloads))

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        """Put a generated page's raw HTML blocks back and register the anchors they hold."""
        generated = self._generated.get(page.file.src_uri)
        if generated is None:
            return html
        if page.present_anchor_ids is not None:
            for block in generated.blocks:
                page.present_anchor_ids.update(_ID_RE.findall(block))
        self._index = material_search_entries(config)
        return html if self._index is not None else generated.fill(html)

    @event_priority(-50)  # after the search plugin indexed the page's skeleton, in any order
    def on_page_context(
        self, context: Any, /, *, page: Page, config: MkDocsConfig, nav: Any
    ) -> Any:
        """Add a generated page's cards to Material's search index (it saw only the skeleton).

        A generated page's title also becomes its ``title`` meta: Material prints the meta as
        it is in ``<title>``, but ``page.title | striptags`` otherwise, which turns an escaped
        ``&lt;/title&gt;&lt;script&gt;`` of a category's title back into live markup.
        """
        if page.file.src_uri in self._generated_uris and page.title:
            page.meta["title"] = page.title  # HTML: escaped text (nav_title, or an md heading)
        generated = self._generated.get(page.file.src_uri)
        if generated is None or self._index is None:
            return context
        if not (page.meta.get("search") or {}).get("exclude"):
            self._index.extend(
                {**doc, "location": f"{page.url}#{doc['location']}"} for doc in generated.search
            )
        return context

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        """Put a generated page's blocks back into its finished HTML (when Material indexes)."""
        generated = self._generated.get(page.file.src_uri)
        if generated is None or self._index is None:
            return output
        return generated.fill(output)

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Callable[..., Any]) -> Any:
        """Rebuild on edits to data/ and the site templates while serving."""
        server.watch(str(self.root / "data"))
        server.watch(str(self.templates))
        return server

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Let the exports write their files into the built site (the documented hook point)."""
        hook = export_hook()
        if hook is not None:
            configured = settings.of(self.catalog).site_url  # catalog.yml's, when mkdocs has none
            site_url = config.site_url or mkdocs_yml.published_url(self.root, configured)
            hook(self.catalog, Path(config.site_dir), site_url=site_url)
        self._unpin()

    def on_build_error(self, *, error: Exception) -> None:
        """Undo the SOURCE_DATE_EPOCH pin when the build fails."""
        self._unpin()

    def _unpin(self) -> None:
        """Remove the SOURCE_DATE_EPOCH this plugin set, so the process is left as found."""
        if self._pinned_epoch:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
            self._pinned_epoch = False


def nav_title(text: str) -> str:
    """Return a title as the nav needs it: MkDocs and Material print nav titles as raw HTML."""
    return html.escape(text)


def material_search_entries(config: MkDocsConfig) -> list[dict[str, Any]] | None:
    """Return the entry list of mkdocs-material's search index, or None if it is not in use."""
    for plugin in config.plugins.values():
        if not type(plugin).__module__.startswith("material.plugins.search"):
            continue
        if not getattr(plugin.config, "enabled", True):
            return None
        entries = getattr(getattr(plugin, "search_index", None), "entries", None)
        return entries if isinstance(entries, list) else None
    return None


def export_hook() -> Callable[..., Any] | None:
    """Return ``ddl_catalog.export.site_files`` when the exports provide it, else None."""
    try:
        module = importlib.import_module("ddl_catalog.export")
    except ImportError:
        return None
    hook = getattr(module, "site_files", None)
    return hook if callable(hook) else None


def data_epoch(catalog: Catalog) -> int:
    """Return the newest ``added`` date as a Unix time (0 when none), for reproducible builds."""
    dates = [e.added for e in catalog if e.added]
    if not dates:
        return 0
    newest = date.fromisoformat(max(dates))
    return calendar.timegm(newest.timetuple())


def build_site(root: Path, *, site_dir: Path | None = None, strict: bool = True) -> Path:
    """Build the site of the catalog at ``root`` into ``site_dir`` (default root/site).

    The build goes to a scratch folder beside the target, which replaces the old site only
    when the build succeeded, so a failed build leaves the last good site in place. Scratch
    folders left by a killed build (named with its process id) are removed first. Any file
    system failure (disk full, permission denied, a site/ that cannot be replaced because it is
    a mount point or immutable) becomes one SiteError naming the path; no scratch is left.
    """
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    root = root.resolve()
    config_file = root / "mkdocs.yml"
    if not config_file.is_file():
        raise SiteError(f"{config_file} not found: run from the catalog's folder or pass --root")
    target = (site_dir or root / "site").resolve()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_scratch(target)
        scratch = Path(
            tempfile.mkdtemp(prefix=f".{target.name}-build-{os.getpid()}-", dir=target.parent)
        )
    except OSError as err:
        raise SiteError(_os_problem(err, target.parent)) from err
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")  # Material's end-of-life banner
    problems = _Collector()
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(problems)
    try:
        config = load_config(str(config_file), strict=strict, site_dir=str(scratch))
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()
    except MkDocsException as error:
        shutil.rmtree(scratch, ignore_errors=True)
        reason = "; ".join(problems.messages) or str(error).strip() or type(error).__name__
        raise SiteError(reason) from error
    except jinja2.TemplateError as error:  # before OSError: TemplateNotFound is one too
        shutil.rmtree(scratch, ignore_errors=True)
        raise SiteError(_template_problem(error)) from error
    except OSError as error:
        shutil.rmtree(scratch, ignore_errors=True)
        raise SiteError(_os_problem(error, scratch)) from error
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    finally:
        mkdocs_log.removeHandler(problems)
    _swap(scratch, target)
    return target


class _Collector(logging.Handler):
    """Keep the warnings and errors MkDocs logs, to say in one line why a build failed."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Remember one message (first line only)."""
        self.messages.append(record.getMessage().strip().splitlines()[0])


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
    """Say in one line which theme template failed (an override under custom_dir, usually)."""
    kept = "the previous site is unchanged"
    if isinstance(err, jinja2.TemplateNotFound):
        return f"template {err.name} not found in the theme or its custom_dir; {kept}"
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


def serve_site(root: Path, *, address: str = "127.0.0.1:8000") -> None:
    """Preview the site with live reload (data/ and templates/ are watched by the plugin)."""
    from mkdocs.commands.serve import serve

    config_file = root.resolve() / "mkdocs.yml"
    if not config_file.is_file():
        raise SiteError(f"{config_file} not found: run from the catalog's folder or pass --root")
    logging.basicConfig(level=logging.INFO, format="%(levelname)-7s -  %(message)s")
    serve(config_file=str(config_file), dev_addr=address)
