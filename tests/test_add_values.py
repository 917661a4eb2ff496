"""add and enrich write no value validate would refuse: they check before writing, and say why.

Values come from a (fake, 127.0.0.1) Crossref, from the command line and from the API
library; the checks are validate's own (``validate.refusals``, ``metadata.record_problems``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer

from conftest import snapshot
from ddl_catalog.cli import cli
from ddl_catalog.edit import add as adding
from ddl_catalog.edit.add import AddError, AddRequest
from ddl_catalog.model.build import open_catalog
from ddl_catalog.net.enrich.run import enrich
from ddl_catalog.net.session import make_session
from ddl_catalog.validate import refusals, validate

DOI = "10.1145/3458817.3476209"
PAPER = """\
id: narayanan2021efficient
kind: paper
title: Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM
url: https://doi.org/10.1145/3458817.3476209
description: How Megatron-LM combines three kinds of parallelism to train on thousands of GPUs.
categories: [parallelism]
authors: [Deepak Narayanan]
year: 2021
identifiers:
  doi: 10.1145/3458817.3476209
"""


def crossref_work(title: str) -> str:
    """Return a Crossref /works answer for DOI with the given title (JSON escapes as needed)."""
    message = {
        "DOI": DOI,
        "type": "proceedings-article",
        "title": [title],
        "author": [{"given": "Deepak", "family": "Narayanan"}],
        "issued": {"date-parts": [[2021, 11]]},
    }
    return json.dumps({"status": "ok", "message": message})


@pytest.fixture
def root(catalog_dir: Callable[..., Path]) -> Path:
    return catalog_dir()


def add_cli(root: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["add", *args, "--root", str(root), "--yes", "--category", "surveys"]
    )
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("title", "message"),
    [
        ("Training \x00 at scale", "title: holds a control character U+0000 (NUL), which"),
        ("Training \x1b[31m at scale", "title: holds a control character U+001B (ESC), which"),
        ("Training \ud800 at scale", "title: holds a lone surrogate U+D800, which no catalog"),
        ("Training " + "word " * 200_000, "(its title is 1,000,008 characters) [file-size]"),
        ("Training " + "word " * 100, "title: 'title' must have at most 300 characters [schema]"),
    ],
)
def test_add_refuses_metadata_that_validate_would_refuse(
    root: Path,
    httpserver: HTTPServer,
    monkeypatch: pytest.MonkeyPatch,
    title: str,
    message: str,
) -> None:
    httpserver.expect_request(f"/works/{DOI}").respond_with_data(
        crossref_work(title), content_type="application/json"
    )
    monkeypatch.setenv("DDL_CROSSREF_API", httpserver.url_for("/").rstrip("/"))
    before = snapshot(root)
    code, out = add_cli(root, DOI)
    assert code == 1, out
    assert out.startswith("Error: data/papers/") and "not written: validate would refuse it" in out
    assert message in out
    assert out.endswith("(with --offline, add fills the entry from the URL alone)\n")
    assert snapshot(root) == before


def test_add_refuses_a_url_argument_that_is_not_utf8(root: Path) -> None:
    before = snapshot(root)
    code, out = add_cli(root, "https://example.org/a\udcff", "--offline")
    assert code == 2
    assert "Invalid value for 'URL': byte 0xFF at character 22 is not UTF-8" in out
    assert snapshot(root) == before


def test_add_refuses_a_description_argument_that_is_not_utf8(root: Path) -> None:
    before = snapshot(root)
    code, out = add_cli(
        root, "https://example.org/b", "--offline", "--description", "Bad \udcff bytes here."
    )
    assert code == 2
    assert "Invalid value for '--description': byte 0xFF at character 5 is not UTF-8" in out
    assert snapshot(root) == before


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (
            AddRequest("https://example.org/a\udcff", category="surveys", yes=True, offline=True),
            "the URL holds a byte that is not UTF-8 (lone surrogate U+DCFF)",
        ),
        (
            AddRequest("https://example.org/\x1b[2J", category="surveys", yes=True, offline=True),
            "the URL holds a control character U+001B (ESC), which no catalog file may hold",
        ),
        (
            AddRequest(
                "https://example.org/c",
                category="surveys",
                description="Bad \udcff bytes here.",
                yes=True,
                offline=True,
            ),
            "  description: holds a byte that is not UTF-8 (lone surrogate U+DCFF): pass UTF-8 "
            "text [encoding]",
        ),
        (
            AddRequest(
                "https://example.org/d",
                category="surveys",
                description="A page that clears \x1b[2J the screen.",
                yes=True,
                offline=True,
            ),
            "  description: holds a control character U+001B (ESC), which no catalog file may "
            "hold [encoding]",
        ),
        (
            AddRequest(
                "https://example.org/e",
                category="surveys",
                description="no capital and no period",
                yes=True,
                offline=True,
            ),
            "  description: description must start with a capital letter or a digit "
            "[description-style]",
        ),
    ],
)
def test_the_library_refuses_values_validate_would_refuse(
    root: Path, request_: AddRequest, message: str
) -> None:
    before = snapshot(root)
    with pytest.raises(AddError) as caught:
        adding.add(root, request_)
    assert message in str(caught.value)
    assert snapshot(root) == before


def test_add_still_writes_its_todo_placeholders(root: Path) -> None:
    code, out = add_cli(root, "https://example.org/post", "--offline")
    assert code == 0, out
    assert "[placeholder]" in out
    assert {p.rule for p in validate(root).errors} == {"placeholder"}


def test_refusals_are_the_new_errors_of_the_texts(catalog_dir: Callable[..., Path]) -> None:
    root = catalog_dir({"data/papers/narayanan2021efficient.yml": PAPER})
    assert refusals(root, {"data/papers/narayanan2021efficient.yml": PAPER}) == []
    bad = PAPER.replace("year: 2021", 'year: "\\e"')
    found = refusals(root, {"data/papers/narayanan2021efficient.yml": bad})
    assert [(p.line, p.rule) for p in found] == [(8, "encoding")]
    twin = PAPER.replace("id: narayanan2021efficient", "id: twin")
    found = refusals(root, {"data/papers/twin.yml": twin})
    assert {p.rule for p in found} == {"duplicate-identity"}
    assert refusals(root, {"data/papers/big.yml": "id: big\n" + "# x\n" * 70_000})[0].rule == (
        "file-size"
    )


def test_enrich_refuses_a_record_validate_would_refuse(
    catalog_dir: Callable[..., Path], httpserver: HTTPServer
) -> None:
    root = catalog_dir({"data/papers/narayanan2021efficient.yml": PAPER})
    httpserver.expect_request(f"/cr/works/{DOI}").respond_with_data(
        crossref_work("Training \ud800 at scale"), content_type="application/json"
    )
    report = enrich(
        open_catalog(root),
        make_session(2),
        only=["crossref"],
        bases={"crossref": httpserver.url_for("/cr")},
        date="2026-01-01",
    )
    assert report.failed
    assert any("'title' holds a lone surrogate U+D800" in line for line in report.failures)
    assert validate(root).errors == []


def test_validate_reports_a_metadata_record_holding_a_control_character(
    catalog_dir: Callable[..., Path],
) -> None:
    root = catalog_dir({"data/papers/narayanan2021efficient.yml": PAPER})
    record = {"title": "A \u001b title", "authors": [], "year": 2021, "fetched": "2026-01-01"}
    (root / "data/metadata").mkdir()
    (root / "data/metadata/crossref.json").write_text(
        json.dumps({"source": "Crossref REST API", "records": {DOI: record}})
    )
    messages = [p.message for p in validate(root).errors]
    assert messages == [
        f"record '{DOI}': 'title' holds a control character U+001B (ESC), which no catalog file "
        "may hold"
    ]
