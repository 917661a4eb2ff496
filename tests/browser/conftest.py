"""Browser tests where no browser is: one summary line instead of a skip report per test.

Outside CI, when no Chromium-based browser is on PATH (or axe-core is not installed), the tests
that need it are deselected and the summary says, in one line, how to run them. In CI (CI=true)
nothing is deselected, so the tests themselves fail with the reason.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
AXE = REPO / "tools" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
#: Browsers tried in order (as the chromium fixture does): $CHROMIUM, then these names.
BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_KEY = pytest.StashKey[str]()


def have_chromium() -> bool:
    """Return whether a Chromium-based browser is on PATH (or named by $CHROMIUM)."""
    names = [os.environ.get("CHROMIUM", ""), *BROWSER_NAMES]
    return any(name and shutil.which(name) for name in names)


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
