"""Hostile or broken API answers: enrich and add end in a clear failure, never a traceback.

Each case once raised out of the clients (KeyError, TypeError, OverflowError, ValueError), or
stored a record that validate then refused, which stopped every later build.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests
from click.testing import CliRunner
from pytest_httpserver import HTTPServer

from conftest import snapshot
from ddl_catalog import terminal
from ddl_catalog.cli import cli
from ddl_catalog.edit import add as adding
from ddl_catalog.edit.add import AddError, AddRequest
from ddl_catalog.metadata import MetadataError
from ddl_catalog.model.build import open_catalog
from ddl_catalog.net.enrich import EnrichError, RateLimitExhausted, crossref, github
from ddl_catalog.net.enrich.base import _wait_for, retry_after
from ddl_catalog.net.enrich.run import enrich
from ddl_catalog.net.session import make_session

REPO = {"full_name": "horovod/horovod", "stargazers_count": 5, "archived": False}
FRAMEWORK = """\
id: horovod
kind: framework
title: Horovod
url: https://github.com/horovod/horovod
description: Ring-allreduce data parallelism for TensorFlow, Keras, PyTorch and MXNet.
categories: [frameworks]
identifiers:
  github: horovod/horovod
"""
WORK = {"DOI": "10.1145/3320060", "title": ["A Title"], "author": [{"family": "Ben-Nun"}]}


def test_a_count_of_1e400_is_an_unexpected_payload() -> None:
    data = json.loads('{"full_name": "a/b", "stargazers_count": 1e400}')
    with pytest.raises(EnrichError, match="unexpected payload"):
        github.parse(data)


@pytest.mark.parametrize("name", ["someone/", "noslash", "/x", "a/b/c"])
def test_a_full_name_that_is_not_owner_name_is_refused(name: str) -> None:
    with pytest.raises(EnrichError, match="OWNER/NAME"):
        github.parse({"full_name": name})


@pytest.mark.parametrize(
    "change",
    [
        {"title": {"a": 1}},
        {"title": 7},
        {"title": [""]},
        {"subtitle": {"a": 1}},
        {"container-title": {"a": 1}},
        {"author": 3},
        {"issued": {"date-parts": {"a": 1}}},
        {"issued": {"date-parts": [[True]]}},
        {"issued": {"date-parts": [[10**400]]}},
        {"type": ["journal-article"]},
    ],
)
def test_crossref_fields_of_the_wrong_shape_are_not_used(change: dict[str, Any]) -> None:
    try:
        record = crossref.parse({"message": {**WORK, **change}})
    except EnrichError as exc:
        assert "title" in str(exc)  # only a title that is not text is fatal
        return
    assert record.year is None and isinstance(record.title, str)
    assert record.type is None or isinstance(record.type, str)
    assert all(isinstance(name, str) for name in record.authors)


@pytest.mark.parametrize("value", ["\u00b2", "\u0661", "9" * 400, "99999999999999999999"])
def test_odd_rate_limit_headers_are_no_crash(value: str) -> None:
    wait = retry_after(value)
    assert wait is None or wait > 1e18  # not a number, or longer than any caller waits
    response = requests.Response()
    response.raw = io.BytesIO(b"")
    response.status_code = 403
    response.headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": value})
    with pytest.raises(RateLimitExhausted, match="resets later"):
        _wait_for(response, "http://127.0.0.1/x", max_wait=60)


@pytest.mark.parametrize(
    "change",
    [{"stargazers_count": -5}, {"pushed_at": 12}, {"pushed_at": "last week"}],
)
def test_a_record_validate_would_refuse_is_not_stored(
    catalog_dir: Callable[..., Path], httpserver: HTTPServer, change: dict[str, Any]
) -> None:
    root = catalog_dir({"data/frameworks/horovod.yml": FRAMEWORK})
    httpserver.expect_request("/repos/horovod/horovod").respond_with_json({**REPO, **change})
    base = httpserver.url_for("/").rstrip("/")
    report = enrich(
        open_catalog(root),
        make_session(2),
        only=["github"],
        bases={"github": base},
        date="2026-01-02",
    )
    assert report.failed
    assert report.failures[0].startswith("github: horovod/horovod: unexpected payload: ")
    assert not (root / "data/metadata/github.json").exists()


def test_enrich_does_not_write_through_a_link_out_of_the_catalog(
    catalog_dir: Callable[..., Path], httpserver: HTTPServer, tmp_path: Path
) -> None:
    root = catalog_dir({"data/frameworks/horovod.yml": FRAMEWORK})
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "data/metadata").symlink_to(outside, target_is_directory=True)
    with pytest.raises(MetadataError, match="leads outside the catalog"):
        enrich(open_catalog(root), make_session(2), only=["github"], bases={"github": "http://x"})
    assert list(outside.iterdir()) == []
    assert len(httpserver.log) == 0  # refused before any request


def test_add_does_not_write_through_a_link_out_of_the_catalog(
    catalog_dir: Callable[..., Path], tmp_path: Path
) -> None:
    root = catalog_dir({})
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "data/papers").symlink_to(outside, target_is_directory=True)
    request = AddRequest(
        "https://arxiv.org/abs/1703.00001",
        category="parallelism",
        kind="paper",
        description="A thing that does something useful for distributed training.",
        yes=True,
        offline=True,
    )
    with pytest.raises(AddError, match="not written: a symbolic link leads outside"):
        adding.add(root, request)
    assert list(outside.iterdir()) == []


def test_add_keeps_the_placeholder_when_the_source_title_is_empty(
    catalog_dir: Callable[..., Path], httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = catalog_dir({})
    httpserver.expect_request("/works/10.1234/abcd").respond_with_json(
        {"message": {"DOI": "10.1234/abcd", "title": [""], "type": "journal-article"}}
    )
    monkeypatch.setenv("DDL_CROSSREF_API", httpserver.url_for("/").rstrip("/"))
    request = AddRequest("https://doi.org/10.1234/abcd", category="parallelism", yes=True)
    result = adding.add(root, request)  # once: KeyError: 'title'
    assert result.entry["title"] == adding.TITLE_PLACEHOLDER


def test_server_text_is_printed_with_its_control_characters_escaped(
    catalog_dir: Callable[..., Path], httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert terminal.safe("a\x1b]0;owned\x07b\x9bc\td") == "a\\x1b]0;owned\\x07b\\x9bc\td"
    root = catalog_dir({})
    repo = {**REPO, "description": "fast\x1b[2J\x1b]0;pwned\x07 training"}
    httpserver.expect_request("/repos/horovod/horovod").respond_with_json(repo)
    monkeypatch.setenv("DDL_GITHUB_API", httpserver.url_for("/").rstrip("/"))
    before = snapshot(root)
    result = CliRunner().invoke(
        cli,
        [
            "add",
            "--root",
            str(root),
            "https://github.com/horovod/horovod",
            "--category",
            "parallelism",
            "-y",
        ],
    )
    assert "GitHub describes it as: fast\\x1b[2J\\x1b]0;pwned\\x07 training" in result.output
    assert "\x1b" not in result.output
    assert snapshot(root) != before
