"""What the browser tests share: serving a built site, a tab that records errors, axe, search.

Fixtures are in conftest.py (session-wide: each engine's site is built once for every module).
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
AXE = REPO / "tools" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
IN_CI = os.environ.get("CI") == "true"
#: Browsers tried in order: $CHROMIUM, Debian's chromium, then the names GitHub's hosted
#: runners and other distributions use for the same engine.
BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: The site engines every browser test runs against (DDL_ENGINES=mkdocs narrows it).
ENGINES = tuple(os.environ.get("DDL_ENGINES", "mkdocs,zensical").split(","))


def missing(what: str) -> None:
    """Skip outside CI, fail in CI, with the same clear reason."""
    if IN_CI:
        pytest.fail(f"{what} (required in CI)")
    pytest.skip(what)


def find_chromium() -> str | None:
    """Return the path of a Chromium-based browser on PATH (or $CHROMIUM), if any."""
    candidates = [os.environ.get("CHROMIUM", ""), *BROWSER_NAMES]
    return next((found for name in candidates if name and (found := shutil.which(name))), None)


class Quiet(SimpleHTTPRequestHandler):
    """Serve files without logging each request."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serving(site: Path) -> Iterator[str]:
    """Serve a built site on 127.0.0.1 (a free port); yield its base URL."""
    handler = functools.partial(Quiet, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def copy_of_the_catalog(root: Path) -> Path:
    """Copy what building the real catalog's site reads into ``root``; return it."""
    for name in ("catalog.yml", "mkdocs.yml"):
        shutil.copy(REPO / name, root / name)
    for name in ("data", "docs", "templates"):
        shutil.copytree(REPO / name, root / name)
    return root


class Tab:
    """A page plus what it logged: console errors, page errors and blocked foreign requests."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        self.foreign: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))


def axe_violations(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """Run axe-core in the page; return its violations of these impacts (None: all), one a line."""
    if not AXE.is_file():
        missing(f"{AXE.relative_to(REPO)} missing: run `make npm-tools`")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in result["violations"]
        if not impacts or v["impact"] in impacts
    ]


#: A result of the catalog's own search (assets/search.js): the same in both engines.
RESULT = "#ddl-search__results a[role='option']"
#: The search dialog, while it is open.
SEARCH_OPEN = "dialog.ddl-search[open]"


def search(page: Any, words: str, anchor: str | None = None) -> Any:
    """Open search with the header's button, type ``words``; return the result for ``#anchor``.

    Without ``anchor``, the first result. The dialog is opened only when it is not open yet.
    """
    if page.locator(SEARCH_OPEN).count() == 0:
        page.locator("[data-ddl-search]").click()
    query = page.locator("#ddl-search__input")
    query.fill("")
    query.press_sequentially(words, delay=20)
    page.wait_for_function(
        "(q) => { const d = document.querySelector('dialog.ddl-search');"
        " return d && d.getAttribute('data-ddl-query') === q }",
        arg=words,
        timeout=15000,
    )
    found = page.locator(f"{RESULT}[href$='#{anchor}']" if anchor else RESULT).first
    found.wait_for(state="visible", timeout=15000)
    return found
