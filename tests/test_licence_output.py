"""catalog.yml's ``licence`` reaches the README footer and the JSON export's envelope."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from ddl_catalog import export, scaffold
from ddl_catalog.model.build import open_catalog
from ddl_catalog.render import readme


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    """A catalog made by init (catalog.yml says licence: CC0-1.0)."""
    root = tmp_path / "fresh"
    scaffold.init(root, scaffold.InitOptions())
    return root


def set_licence(root: Path, licence: str | None) -> None:
    """Rewrite catalog.yml's licence line (drop it for None)."""
    file = root / "catalog.yml"
    lines = file.read_text(encoding="utf-8").splitlines()
    lines = [ln for ln in lines if not ln.startswith("licence:")]
    if licence is not None:
        lines.append(f"licence: {licence}")
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")


def envelope(root: Path) -> dict[str, object]:
    """Export the catalog as JSON, check it against the published schema, and return it."""
    catalog = open_catalog(root)
    schema = json.loads(export.schema_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    doc: dict[str, object] = json.loads(export.render(catalog, "json"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    return doc


def test_the_readme_footer_and_the_export_name_the_licence(fresh: Path) -> None:
    set_licence(fresh, "CC-BY-4.0")
    text = readme.render(open_catalog(fresh))
    footer = text.rstrip().splitlines()[-1]
    assert footer.endswith(
        "The data is published under the "
        "[CC-BY-4.0](https://spdx.org/licenses/CC-BY-4.0.html) licence."
    )
    assert "## License" not in text and "## Licence" not in text  # awesome-lint forbids it
    assert envelope(fresh)["licence"] == "CC-BY-4.0"


def test_no_licence_no_sentence_and_null_in_the_export(fresh: Path) -> None:
    set_licence(fresh, None)
    assert "published under" not in readme.render(open_catalog(fresh))
    assert envelope(fresh)["licence"] is None


def test_the_schema_refuses_an_envelope_without_the_licence(fresh: Path) -> None:
    doc = envelope(fresh)
    assert doc["licence"] == "CC0-1.0"
    del doc["licence"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, json.loads(export.schema_text()))


def test_this_catalogs_readme_says_its_licence() -> None:
    text = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    assert "published under the [CC0-1.0](https://spdx.org/licenses/CC0-1.0.html) licence." in text
