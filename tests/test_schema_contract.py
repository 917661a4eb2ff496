"""The JSON Schemas are the contributor contract: the model and the data agree with them."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

from ddl_catalog.model import FIELD_ORDER, KIND_FOLDERS, Entry
from ddl_catalog.schema import validators
from ddl_catalog.validate import entry_files

ROOT = Path(__file__).resolve().parents[1]


def test_field_order_is_the_schema_order() -> None:
    assert tuple(validators.schema("entry")["properties"]) == FIELD_ORDER


def test_entry_dataclass_covers_every_schema_field() -> None:
    fields = {f.name for f in dataclasses.fields(Entry)} - {"source"}
    assert fields == set(FIELD_ORDER)


def test_kinds_are_the_schema_enum() -> None:
    assert validators.schema("entry")["properties"]["kind"]["enum"] == list(KIND_FOLDERS)


def test_schemas_are_valid_draft_2020_12() -> None:
    import jsonschema

    for name in (*validators.SCHEMA_NAMES, "seed-corrections"):
        document = validators.schema(name)
        assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(document)


def test_every_data_file_names_its_schema_for_editors() -> None:
    pattern = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")
    for file in [*entry_files(ROOT), ROOT / "data/categories.yml", ROOT / "data/tags.yml"]:
        first = file.read_text("utf-8").splitlines()[0]
        match = pattern.match(first)
        assert match, f"{file}: first line must be the yaml-language-server schema comment"
        target = (file.parent / match.group(1)).resolve()
        assert target.is_file(), f"{file}: schema path {match.group(1)} does not exist"


def test_check_jsonschema_accepts_the_data() -> None:
    files = [str(p) for p in entry_files(ROOT)]
    result = subprocess.run(
        [
            str(Path(sys.executable).parent / "check-jsonschema"),
            "--schemafile",
            validators.schema_path("entry"),
            *files,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_generated_validators_match_the_schemas() -> None:
    for name in (*validators.SCHEMA_NAMES, "seed-corrections"):
        module = Path(validators.SCHEMA_DIR) / f"_{name.replace('-', '_')}.py"
        assert module.read_text("utf-8") == validators.generate_validator_source(name), (
            f"{module.name} is stale: run `python -m ddl_catalog.schema.validators`"
        )


def test_fast_and_detailed_validators_agree() -> None:
    good = {
        "id": "x2020y",
        "kind": "paper",
        "title": "T",
        "url": "https://example.org/x",
        "description": "A description long enough.",
        "categories": ["surveys"],
    }
    bad = [
        {**good, "year": "2020"},
        {**good, "kind": "papr"},
        {**good, "extra": 1},
        {**good, "url": "ftp://example.org"},
        {k: v for k, v in good.items() if k != "url"},
        {**good, "identifiers": {}},
    ]
    assert validators.is_valid("entry", good)
    assert not list(validators.iter_errors("entry", good))
    for data in bad:
        assert not validators.is_valid("entry", data), data
        assert list(validators.iter_errors("entry", data)), data
