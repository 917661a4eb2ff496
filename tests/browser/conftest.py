"""Browser tests: the shared fixtures, and one summary line where no browser is.

Each engine's site is built once for the session (``engine``, ``base_url``, ``split_url``) and
one Chromium serves every module (``browser``); ``tab`` is a fresh page that records errors
and blocks every request off 127.0.0.1.

Outside CI, when no Chromium-based browser is on PATH (or axe-core is not installed), the tests
that need it are deselected and the summary says, in one line, how to run them. In CI (CI=true)
nothing is deselected, so the tests themselves fail with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from browser.helpers import (
    AXE,
    CHROMIUM_ARGS,
    ENGINES,
    Tab,
    copy_of_the_catalog,
    find_chromium,
    missing,
    serving,
)
from ddl_catalog.render.site import build_site

_KEY = pytest.StashKey[str]()


def have_chromium() -> bool:
    """Return whether a Chromium-based browser is on PATH (or named by $CHROMIUM)."""
    return find_chromium() is not None


@pytest.fixture(scope="session")
def chromium() -> str:
    """Return the path of a Chromium-based browser, or skip/fail with the reason."""
    path = find_chromium()
    if path is None:
        missing(
            "no chromium on PATH: install it with `apt-get install chromium` "
            "(or set CHROMIUM to a Chromium or Chrome binary)"
        )
    assert path is not None
    return path


@pytest.fixture(scope="session", params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """The engine that built the site under test."""
    return str(request.param)


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory, engine: str) -> Iterator[str]:
    """Build the real catalog's site with ``engine`` and serve it on 127.0.0.1 (a free port)."""
    from browser.helpers import REPO

    site = build_site(
        REPO, site_dir=tmp_path_factory.mktemp(f"browser-{engine}") / "site", engine=engine
    )
    with serving(site) as url:
        yield url


@pytest.fixture(scope="session")
def split_url(tmp_path_factory: pytest.TempPathFactory, engine: str) -> Iterator[str]:
    """The real catalog built with a small page budget, so its long lists come in parts."""
    root = copy_of_the_catalog(tmp_path_factory.mktemp(f"split-{engine}"))
    settings = (root / "catalog.yml").read_text(encoding="utf-8")
    (root / "catalog.yml").write_text(
        settings.rstrip("\n") + "\nsite:\n  page_budget: 60000\n", encoding="utf-8"
    )
    with serving(build_site(root, engine=engine)) as url:
        yield url


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Any]:
    """Launch one headless Chromium for the session."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_ARGS, headless=True
        )
        yield instance
        instance.close()


@pytest.fixture
def tab(browser: Any) -> Iterator[Tab]:
    """Open a fresh light-scheme context; block and record every request off 127.0.0.1."""
    context = browser.new_context(
        color_scheme="light", viewport={"width": 1280, "height": 900}, service_workers="block"
    )
    page = context.new_page()
    result = Tab(page)

    def route(request_route: Any) -> None:
        host = urlsplit(request_route.request.url).hostname
        if host == "127.0.0.1":
            request_route.continue_()
        else:
            result.foreign.append(request_route.request.url)
            request_route.abort()

    page.route("**/*", route)
    yield result
    context.close()


def uses_axe(item: pytest.Item) -> bool:
    """Return whether a browser test runs axe-core (its name says so)."""
    return "axe" in item.name or "accessibility" in item.name


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the browser tests that cannot run here (never in CI)."""
    if os.environ.get("CI") == "true":
        return
    browser = [i for i in items if i.get_closest_marker("browser") is not None]
    if not browser:
        return
    if not have_chromium():
        dropped = browser
        how = "no chromium on PATH; to run them: apt-get install chromium (or set CHROMIUM)"
    elif not AXE.is_file():
        dropped = [i for i in browser if uses_axe(i)]
        how = "axe-core is not installed; to run them: make npm-tools"
    else:
        return
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        gone = set(map(id, dropped))
        items[:] = [i for i in items if id(i) not in gone]
        config.stash[_KEY] = f"browser tests skipped ({len(dropped)}): {how}"


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Say in one line which browser tests did not run, and how to run them."""
    line = config.stash.get(_KEY, None)
    if line:
        terminalreporter.write_line(line, yellow=True, bold=True)
