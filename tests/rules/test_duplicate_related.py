import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import FIXTURES, make_catalog
from ddl_catalog.cli import cli
from ddl_catalog.model.build import InvalidCatalog, open_catalog

F = "data/papers/twice2020paper.yml"
KEEP = "name each entry once; keep the one relation that says the most [duplicate-related]"


def test_each_related_entry_is_named_once(findings: Callable[[str], list[str]]) -> None:
    assert findings("duplicate-related") == [
        f"{F}:12:9: error: related entry 'other2019paper' is already listed (related[0], line "
        f"8): {KEEP}",
        f"{F}:14:9: error: related entry 'other2019paper' is already listed (related[0], line "
        f"8): {KEEP}",
    ]


def test_no_page_is_built_from_a_related_id_listed_twice(tmp_path: Path) -> None:
    root = make_catalog(tmp_path / "c")
    shutil.copytree(FIXTURES / "rules" / "duplicate-related", root, dirs_exist_ok=True)
    with pytest.raises(InvalidCatalog):
        open_catalog(root)  # what the README, the site and every export are built from
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    assert f"{F}:12:9: error: related entry 'other2019paper' is already listed" in result.output
