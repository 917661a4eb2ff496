"""The maintenance rule of docs/maintenance.md, branch by branch, and the live reading of a
repository's commits and releases (against a local server replaying GitHub's answers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests
from pytest_httpserver import HTTPServer

from ddl_catalog import upkeep
from ddl_catalog.net.enrich import github

TODAY = "2026-11-25"
FIXTURES = Path(__file__).parent / "fixtures" / "upkeep"


def block(state: str, **fields: Any) -> dict[str, Any]:
    """Return a maintenance block checked TODAY."""
    return {"state": state, "checked": TODAY, **fields}


RELEASE_OLD = {"version": "1.0", "date": "2023-06-01"}
RELEASE_NEW = {"version": "2.0", "date": "2026-06-01"}


@pytest.mark.parametrize(
    ("given", "state", "line"),
    [
        # Notice states rest on the project's words: taken as recorded.
        (block("archived"), None, None),
        (block("moved"), None, None),
        (block("superseded"), None, None),
        (block("deprecated", last_commit="2026-11-01"), None, None),
        # Line 5: fixes only, followed (a recent commit), or not (falls through to line 7).
        (
            block("maintenance-only", notice="fixes only", last_commit="2026-05-01"),
            "maintenance-only",
            5,
        ),
        (
            block("maintenance-only", notice="fixes only", last_commit="2024-05-01"),
            "unmaintained",
            7,
        ),
        # Line 6: a wind-down notice, followed or not.
        (block("winding-down", notice="use X", last_commit="2026-05-01"), "winding-down", 6),
        (block("winding-down", notice="use X", last_commit="2023-05-01"), "unmaintained", 7),
        # Line 7: nothing of substance in the year (a day past the year counts out).
        (block("active", last_commit="2025-11-24"), "unmaintained", 7),
        (block("active", last_commit="2025-11-25"), "active", 9),
        # Line 8: a few commits, a release over two years old ...
        (block("active", last_commit="2026-10-01", release=RELEASE_OLD), "winding-down", 8),
        # ... unless the project commits steadily, or released this year.
        (
            block("active", last_commit="2026-10-01", release=RELEASE_OLD, commits_in_year=25),
            "active",
            9,
        ),
        (block("unmaintained", last_commit="2024-01-01", release=RELEASE_NEW), "active", 9),
        # Line 9 with no releases at all.
        (block("unmaintained", last_commit="2026-10-01", release="none"), "active", 9),
        # Active on the date of the activity seen, when no commit or release is dated.
        (block("active", as_of="2026-09-15"), "active", 9),
        # Nothing to go on.
        (block("unknown"), None, None),
        (block("unmaintained"), None, None),
    ],
)
def test_each_line_of_the_rule(given: dict[str, Any], state: str | None, line: int | None) -> None:
    decision = upkeep.decide(given)
    if state is None:
        assert decision is None
    else:
        assert decision is not None and (decision.state, decision.line) == (state, line)


@pytest.mark.parametrize(
    ("author", "subject", "paths", "housekeeping"),
    [
        ("dependabot[bot]", "Bump torch from 2.4 to 2.5", None, True),
        ("renovate", "Update dependency x", None, True),
        ("someone", "Fix typo in README", None, True),
        ("someone", "Disable scheduled CI run (#4318)", None, True),
        ("someone", "Bump version to 0.3.1", None, True),
        ("someone", "Refresh config", [".github/workflows/ci.yml", "CODEOWNERS"], True),
        ("someone", "Refresh config", [".github/workflows/ci.yml", "setup.py"], False),
        ("someone", "CI: fix GPU tests and the torch 2.5 build", None, False),
        ("someone", "Support PyTorch 2.6 in horovod.torch", None, False),
    ],
)
def test_what_counts_as_housekeeping(
    author: str, subject: str, paths: list[str] | None, housekeeping: bool
) -> None:
    assert upkeep.is_housekeeping(author, subject, paths) is housekeeping


def test_the_live_reading_finds_the_commit_of_substance_and_the_release(
    httpserver: HTTPServer,
) -> None:
    httpserver.expect_request("/repos/horovod/horovod/commits").respond_with_data(
        (FIXTURES / "github_commits.json").read_bytes(), content_type="application/json"
    )
    httpserver.expect_request("/repos/horovod/horovod/releases/latest").respond_with_data(
        (FIXTURES / "github_release_latest.json").read_bytes(), content_type="application/json"
    )
    base = httpserver.url_for("/").rstrip("/")
    with requests.Session() as session:
        found = github.activity("horovod/horovod", session, "2026-11-26", base, token="")
    assert found.newest is not None and found.newest.day == "2026-06-20"
    assert found.substance is not None
    assert (found.substance.sha[:7], found.substance.day) == ("26fe881", "2025-11-02")
    assert found.commits_in_year == 0  # the CI repair of 2025-11-02 is more than a year old
    assert found.release == (
        "v0.28.1",
        "2023-06-12",
        "https://github.com/horovod/horovod/releases/tag/v0.28.1",
    )
    state = upkeep.from_repository("horovod/horovod", False, None, "2026-11-26", activity=found)
    assert state["state"] == "unmaintained"  # the newest commit of substance is over a year old
    assert state["as_of"] == state["checked"] == "2026-11-26"
    assert (
        state["source"]
        == state["last_commit_url"]
        == ("https://github.com/horovod/horovod/commit/26fe8813a25bbef5b2dd98676916f7b350050fb0")
    )
    assert state["newest_commit"] == "2026-06-20" and state["release"]["version"] == "v0.28.1"
    assert "read from GitHub's API on 2026-11-26" in state["evidence"]
    same_day = upkeep.from_repository("horovod/horovod", False, None, "2026-10-30", activity=found)
    assert same_day["state"] == "winding-down"  # within the year, but the release is old


def test_a_project_without_releases_is_read_as_such(httpserver: HTTPServer) -> None:
    commits = json.loads((FIXTURES / "github_commits.json").read_text(encoding="utf-8"))
    httpserver.expect_request("/repos/o/n/commits").respond_with_json(commits)
    httpserver.expect_request("/repos/o/n/releases/latest").respond_with_data(
        (FIXTURES / "github_release_404.json").read_bytes(),
        status=404,
        content_type="application/json",
    )
    base = httpserver.url_for("/").rstrip("/")
    with requests.Session() as session:
        found = github.activity("o/n", session, "2026-11-26", base, token="")
    assert found.release is None
    state = upkeep.from_repository("o/n", False, None, "2026-11-26", activity=found)
    assert state["release"] == "none" and "no releases" in state["evidence"]


@pytest.mark.parametrize(
    ("archived", "pushed", "state"),
    [
        (True, "2026-11-01T00:00:00Z", "archived"),
        (False, "2025-11-25T08:00:00Z", "active"),  # exactly a year before: still active
        (False, "2025-11-24T23:00:00Z", "unmaintained"),
        (False, None, "unknown"),
        (False, "not a date", "unknown"),
    ],
)
def test_without_the_commits_the_last_push_stands_in(
    archived: bool, pushed: str | None, state: str
) -> None:
    found = upkeep.from_repository("o/n", archived, pushed, TODAY)
    assert found["state"] == state and found["checked"] == TODAY
    if state != "unknown":
        assert found["source"] == "https://github.com/o/n/commits"
        assert TODAY in found["evidence"]


def test_a_state_from_a_notice_is_never_replaced_by_facts() -> None:
    facts = upkeep.from_repository("o/n", True, None, TODAY)
    for notice in ("deprecated", "moved", "superseded", "maintenance-only"):
        assert upkeep.proposal({"state": notice}, facts) is None
    assert upkeep.proposal({"state": "winding-down", "notice": "use X"}, facts) is None
    assert upkeep.proposal({"state": "active"}, facts) == facts
    assert upkeep.proposal({"state": "archived"}, facts) is None  # nothing new
    assert upkeep.proposal(None, facts) == facts
    unknown = upkeep.from_repository("o/n", False, None, TODAY)
    assert upkeep.proposal({"state": "active"}, unknown) is None
