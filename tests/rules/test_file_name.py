from collections.abc import Callable
from pathlib import Path

import pytest

from ddl_catalog.validate import validate


def test_id_must_equal_file_name_and_extension_yml(findings: Callable[[str], list[str]]) -> None:
    assert findings("file-name") == [
        "data/papers/jones2020yaml.yaml:1:1: error: entry files end in .yml [file-name]",
        "data/papers/smith2020good.yml:1:5: error: id 'smith2020other' differs from the file "
        "name 'smith2020good': rename the file to smith2020other.yml or fix the id [file-name]",
    ]


ENTRY = """\
id: {id}
kind: library
title: {title}
url: https://example.org/{id}
description: A name that Windows keeps for a device.
categories: [frameworks]
"""


@pytest.mark.parametrize("entry_id", ["con", "nul", "aux", "prn", "com1", "com9", "lpt1", "lpt9"])
def test_an_id_windows_reserves_is_refused(catalog_dir: Callable[..., Path], entry_id: str) -> None:
    # made here, not kept as a fixture: a file named like this cannot be checked out on Windows
    root = catalog_dir({f"data/libraries/{entry_id}.yml": ENTRY.format(id=entry_id, title="X")})
    assert [str(p) for p in validate(root).problems if p.rule == "file-name"] == [
        f"data/libraries/{entry_id}.yml:1:5: error: id '{entry_id}' is a device name Windows "
        "reserves (con, prn, aux, nul, com0-com9, lpt0-lpt9): a file "
        f"{entry_id}.yml cannot be checked out there; choose another id (such as "
        f"{entry_id}-library) and rename the file [file-name]"
    ]


def test_ids_that_only_start_like_a_device_are_fine(catalog_dir: Callable[..., Path]) -> None:
    files = {
        f"data/libraries/{i}.yml": ENTRY.format(id=i, title=i)
        for i in ("console", "con-2", "com10", "nullable", "auxiliary")
    }
    assert not [p for p in validate(catalog_dir(files)).problems if p.rule == "file-name"]
