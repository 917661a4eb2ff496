"""``ddl-catalog candidates``: what a list or an arXiv listing holds that the catalog does not,
tested offline on saved inputs (an arXiv API feed, a saved arxiv.org/list page, a Markdown list)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer

from conftest import GOOD_PAPER
from ddl_catalog import candidates
from ddl_catalog.cli import cli
from ddl_catalog.validate import validate

FIXTURES = Path(__file__).parent / "fixtures" / "candidates"
GPIPE = GOOD_PAPER.replace("dean2012large", "huang2019gpipe").replace(
    "https://proceedings.neurips.cc/paper/2012/hash/6aca97005c68f1206823815f66102863-Abstract.html",
    "https://arxiv.org/abs/1811.06965",
)
REGISTER = """\
considered:
  - title: A Serving System Left Out On Purpose
    identifiers: {arxiv: "2401.00001"}
    reason: inference-only
    note: It serves trained models and trains nothing.
    date: "2026-11-26"
  - title: A peer list title, with no link at all
    seen_in: [a peer list]
    reason: out-of-scope
    note: Federated learning on phones, not datacenter training.
    date: "2026-11-26"
"""


@pytest.fixture
def root(catalog_dir: Callable[..., Path]) -> Path:
    return catalog_dir({"data/papers/huang2019gpipe.yml": GPIPE, "data/register.yml": REGISTER})


def run(root: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["candidates", "--root", str(root), *args])
    return result.exit_code, result.output


def test_an_arxiv_feed_is_screened_against_the_catalog_and_the_register(root: Path) -> None:
    code, out = run(root, str(FIXTURES / "arxiv_query.xml"))
    assert code == 0, out
    lines = out.splitlines()
    assert any("entry 1: in the catalog as huang2019gpipe" in line for line in lines)
    assert any(
        "entry 2: in the register (inference-only: It serves trained models" in line
        for line in lines
    )
    assert any(
        "entry 3: new hopper2026elastic (arXiv 2611.01234): Elastic Pipeline Training" in line
        for line in lines
    )
    assert lines[-1] == "1 new, 1 in the catalog, 1 in the register"


def test_a_saved_listing_page_gives_titles_authors_and_ids(root: Path) -> None:
    text = (FIXTURES / "arxiv_list.html").read_text(encoding="utf-8")
    found = candidates.parse(text, "list.html")
    assert [(c.arxiv, c.title, c.authors) for c in found] == [
        (
            "2611.05555",
            "Overlapping Expert All-to-All with Attention in & Out of Core",
            ["Kim Lee", "Ji Park"],
        ),
        (
            "1811.06965",
            "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism",
            ["Yanping Huang"],
        ),
    ]
    screened = candidates.screen(root, found)
    assert [c.key for c in screened.new] == ["lee2026overlapping"]


def test_a_markdown_list_is_read_and_a_work_listed_twice_counts_once(root: Path) -> None:
    code, out = run(root, str(FIXTURES / "peer_list.md"))
    assert code == 0, out
    assert "in the register (out-of-scope" in out  # matched by its title alone
    assert out.count("Brand New Checkpointing at Scale") == 1
    assert out.splitlines()[-1] == "1 new, 1 in the catalog, 1 in the register"


def test_chosen_candidates_become_drafts_that_validation_holds_back(root: Path) -> None:
    code, out = run(
        root,
        str(FIXTURES / "arxiv_query.xml"),
        "--write",
        "hopper2026elastic",
        "--category",
        "parallelism",
    )
    assert code == 0, out
    draft = root / "data" / "papers" / "hopper2026elastic.yml"
    text = draft.read_text(encoding="utf-8")
    assert "authors: [Grace Hopper, Alan Turing]" in text and 'arxiv: "2611.01234"' in text
    assert "year: 2026" in text
    rules = {p.rule for p in validate(root).problems if p.path.endswith("hopper2026elastic.yml")}
    assert rules == {"placeholder"}  # the description is the person's to write
    # Run again: the draft is now in the catalog, and nothing is overwritten.
    code, out = run(root, str(FIXTURES / "arxiv_query.xml"))
    assert "in the catalog as hopper2026elastic" in out


def test_writing_needs_a_category_and_a_known_id(root: Path) -> None:
    code, out = run(root, str(FIXTURES / "arxiv_query.xml"), "--write", "hopper2026elastic")
    assert code == 1 and "--write needs --category" in out
    code, out = run(root, str(FIXTURES / "arxiv_query.xml"), "--write", "nope", "--category", "x")
    assert code == 1 and "no new candidate with id nope" in out


@pytest.mark.parametrize(
    "text",
    [
        '<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaa">]><feed>&a;</feed>',
        "<?xml version='1.0'?><feed><entry>",
    ],
)
def test_a_hostile_or_broken_feed_is_one_line(root: Path, tmp_path: Path, text: str) -> None:
    feed = tmp_path / "feed.xml"
    feed.write_text(text, encoding="utf-8")
    code, out = run(root, str(feed))
    assert code == 1 and out.startswith("Error: ") and "Traceback" not in out


def test_a_listing_url_is_fetched_through_the_session(root: Path, httpserver: HTTPServer) -> None:
    httpserver.expect_request("/api/query").respond_with_data(
        (FIXTURES / "arxiv_query.xml").read_bytes(), content_type="application/atom+xml"
    )
    code, out = run(root, httpserver.url_for("/api/query"))
    assert code == 0, out
    assert out.splitlines()[-1] == "1 new, 1 in the catalog, 1 in the register"
