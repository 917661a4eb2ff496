"""Run one rule over its own fixture catalog (tests/fixtures/rules/<rule-id>/)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import FIXTURES, make_catalog
from ddl_catalog.validate import validate


@pytest.fixture
def findings(tmp_path: Path) -> Callable[[str], list[str]]:
    """Return a function: rule id -> that rule's problems on its fixture, as printed lines."""

    def run(rule: str) -> list[str]:
        root = make_catalog(tmp_path / rule)
        shutil.copytree(FIXTURES / "rules" / rule, root, dirs_exist_ok=True)
        return [str(p) for p in validate(root).problems if p.rule == rule]

    return run
