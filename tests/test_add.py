"""``ddl-catalog add``: recognising URLs, filling from (fake) APIs, refusing duplicates, asking."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer

from conftest import snapshot
from ddl_catalog.cli import cli
from ddl_catalog.edit import add as adding
from ddl_catalog.edit.add import AddError, AddRequest, DuplicateError, recognise
from ddl_catalog.edit.fmt import DEFAULT_SCHEMA_REF, format_text
from ddl_catalog.validate import validate

FIXTURES = Path(__file__).parent / "fixtures" / "add"
TODAY = "2026-01-02"
EXISTING_PAPER = """\
id: bennun2019demystifying
kind: paper
title: "Demystifying Parallel and Distributed Deep Learning: An In-Depth Concurrency Analysis"
url: https://arxiv.org/abs/1802.09941
description: A survey of how deep learning training is parallelised.
categories: [surveys]
authors: [Tal Ben-Nun, Torsten Hoefler]
identifiers:
  arxiv: "1802.09941"
  doi: 10.1145/3320060
"""
SENTENCE = (
    "How Megatron-LM combines tensor, pipeline and data parallelism to train on thousands of GPUs."
)


@pytest.fixture
def root(catalog_dir: Callable[..., Path]) -> Path:
    return catalog_dir({"data/papers/bennun2019demystifying.yml": EXISTING_PAPER})


@pytest.fixture
def fake_arxiv(httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> HTTPServer:
    httpserver.expect_request(
        "/query", query_string={"id_list": "2104.04473", "max_results": "1"}
    ).respond_with_data((FIXTURES / "arxiv_2104.04473.xml").read_bytes(), content_type="text/xml")
    monkeypatch.setenv("DDL_ARXIV_API", httpserver.url_for("/").rstrip("/"))
    return httpserver


@pytest.mark.parametrize(
    ("text", "kind", "key", "url"),
    [
        (
            "https://arxiv.org/abs/2104.04473",
            "arxiv",
            "2104.04473",
            "https://arxiv.org/abs/2104.04473",
        ),
        (
            "https://arxiv.org/abs/2104.04473v5",
            "arxiv",
            "2104.04473",
            "https://arxiv.org/abs/2104.04473",
        ),
        (
            "http://arxiv.org/pdf/2104.04473v2.pdf",
            "arxiv",
            "2104.04473",
            "https://arxiv.org/abs/2104.04473",
        ),
        (
            "https://export.arxiv.org/abs/cs/0101001",
            "arxiv",
            "cs/0101001",
            "https://arxiv.org/abs/cs/0101001",
        ),
        ("arXiv:2104.04473v1", "arxiv", "2104.04473", "https://arxiv.org/abs/2104.04473"),
        (
            "https://doi.org/10.1145/3320060",
            "doi",
            "10.1145/3320060",
            "https://doi.org/10.1145/3320060",
        ),
        (
            "https://dx.doi.org/10.1145/3320060",
            "doi",
            "10.1145/3320060",
            "https://doi.org/10.1145/3320060",
        ),
        ("10.1145/3320060", "doi", "10.1145/3320060", "https://doi.org/10.1145/3320060"),
        ("doi:10.1145/3320060", "doi", "10.1145/3320060", "https://doi.org/10.1145/3320060"),
        (
            "https://github.com/NVIDIA/Megatron-LM",
            "github",
            "NVIDIA/Megatron-LM",
            "https://github.com/NVIDIA/Megatron-LM",
        ),
        (
            "https://github.com/NVIDIA/Megatron-LM.git",
            "github",
            "NVIDIA/Megatron-LM",
            "https://github.com/NVIDIA/Megatron-LM",
        ),
        (
            "https://github.com/horovod/horovod/tree/master",
            "github",
            "horovod/horovod",
            "https://github.com/horovod/horovod",
        ),
        ("https://example.org/post", "url", "https://example.org/post", "https://example.org/post"),
        (
            "https://github.com/horovod/horovod/issues/1",
            "url",
            "https://github.com/horovod/horovod/issues/1",
            "https://github.com/horovod/horovod/issues/1",
        ),
    ],
)
def test_recognise(text: str, kind: str, key: str, url: str) -> None:
    source = recognise(text)
    assert (source.kind, source.key, source.url) == (kind, key, url)


@pytest.mark.parametrize("text", ["horovod", "ftp://example.org/x", "https:///nohost", ""])
def test_recognise_refuses_what_is_not_a_resource(text: str) -> None:
    with pytest.raises(AddError):
        recognise(text)


def test_add_arxiv_from_the_api_writes_a_canonical_file(root: Path, fake_arxiv: HTTPServer) -> None:
    request = AddRequest(
        "https://arxiv.org/pdf/2104.04473v5", category="parallelism", yes=True, today=TODAY
    )
    result = adding.add(root, request)
    assert result.path == root / "data/papers/narayanan2021efficient.yml"
    text = result.path.read_text()
    assert text == (
        f"# yaml-language-server: $schema={DEFAULT_SCHEMA_REF}\n"
        "id: narayanan2021efficient\n"
        "kind: paper\n"
        "title: Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM\n"
        "url: https://arxiv.org/abs/2104.04473\n"
        'description: "TODO: one sentence in our own words: what it is and why a reader would '
        'open it."\n'
        "categories: [parallelism]\n"
        "authors:\n"
        + "".join(
            f"  - {name}\n"
            for name in (
                "Deepak Narayanan",
                "Mohammad Shoeybi",
                "Jared Casper",
                "Patrick LeGresley",
                "Mostofa Patwary",
                "Vijay Anand Korthikanti",
                "Dmitri Vainbrand",
                "Prethvi Kashinkunti",
                "Julie Bernauer",
                "Bryan Catanzaro",
                "Amar Phanishayee",
                "Matei Zaharia",
            )
        )
        + "year: 2021\n"
        "identifiers:\n"
        '  arxiv: "2104.04473"\n'
        f'added: "{TODAY}"\n'
    )
    assert format_text(text, "x", f"# yaml-language-server: $schema={DEFAULT_SCHEMA_REF}") == text
    problems = [str(p) for p in validate(root).problems]
    assert problems == [
        "data/papers/narayanan2021efficient.yml:6:14: error: description is still a TODO "
        "placeholder: write one sentence in our own words: what it is and why to open it "
        "[placeholder]"
    ]


def test_add_with_a_description_validates_clean(root: Path, fake_arxiv: HTTPServer) -> None:
    request = AddRequest(
        "https://arxiv.org/abs/2104.04473",
        category="parallelism",
        kind="paper",
        description=SENTENCE,
        today=TODAY,
    )
    adding.add(root, request)
    assert validate(root).problems == []


def test_offline_fills_from_the_url_alone_without_any_request(
    root: Path, httpserver: HTTPServer
) -> None:
    request = AddRequest(
        "https://arxiv.org/abs/2104.04473v2",
        category="parallelism",
        yes=True,
        offline=True,
        today=TODAY,
    )
    result = adding.add(root, request)
    assert httpserver.log == []
    assert result.path.name == "arxiv-2104-04473.yml"
    assert result.entry["title"].startswith("TODO")
    rules = sorted({(p.path, p.line, p.rule) for p in validate(root).problems})
    assert rules == [
        ("data/papers/arxiv-2104-04473.yml", 4, "authors"),  # a draft knows no authors offline
        ("data/papers/arxiv-2104-04473.yml", 4, "placeholder"),
        ("data/papers/arxiv-2104-04473.yml", 6, "placeholder"),
    ]


def test_network_failure_falls_back_to_offline_with_a_note(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DDL_ARXIV_API", "http://127.0.0.1:9")  # discard port: refused
    request = AddRequest(
        "https://arxiv.org/abs/2104.04473", category="parallelism", yes=True, today=TODAY
    )
    result = adding.add(root, request)
    assert any("could not fetch metadata" in note for note in result.notes)
    assert result.entry["identifiers"] == {"arxiv": "2104.04473"}


def test_unknown_arxiv_id_is_an_error(
    root: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    httpserver.expect_request("/query").respond_with_data(
        '<feed xmlns="http://www.w3.org/2005/Atom"></feed>', content_type="text/xml"
    )
    monkeypatch.setenv("DDL_ARXIV_API", httpserver.url_for("/").rstrip("/"))
    with pytest.raises(AddError, match="check the URL"):
        adding.add(
            root, AddRequest("https://arxiv.org/abs/2104.99999", category="surveys", yes=True)
        )
    assert not list((root / "data/papers").glob("arxiv-*"))


@pytest.mark.parametrize(
    "url",
    [
        "https://arxiv.org/pdf/1802.09941v2.pdf",
        "https://www.arxiv.org/abs/1802.09941",
        "https://doi.org/10.1145/3320060",
        "10.1145/3320060",
    ],
)
def test_duplicate_by_canonical_identity_is_refused_and_named(root: Path, url: str) -> None:
    before = sorted(root.rglob("*.yml"))
    with pytest.raises(DuplicateError) as caught:
        adding.add(root, AddRequest(url, category="surveys", yes=True, offline=True))
    assert "data/papers/bennun2019demystifying.yml (id bennun2019demystifying)" in str(caught.value)
    assert sorted(root.rglob("*.yml")) == before


def test_duplicate_found_only_after_enrichment(
    catalog_dir: Callable[..., Path], httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = catalog_dir(
        {
            "data/papers/bennun2019acm.yml": EXISTING_PAPER.replace(
                "url: https://arxiv.org/abs/1802.09941", "url: https://doi.org/10.1145/3320060"
            )
            .replace('arxiv: "1802.09941"\n  ', "")
            .replace("bennun2019demystifying", "bennun2019acm")
        }
    )
    httpserver.expect_request("/query").respond_with_data(
        (Path(__file__).parent / "fixtures/net/arxiv_1802.09941.xml").read_bytes()
    )
    monkeypatch.setenv("DDL_ARXIV_API", httpserver.url_for("/").rstrip("/"))
    with pytest.raises(DuplicateError, match=r"bennun2019acm\.yml .*DOI 10\.1145/3320060"):
        adding.add(
            root, AddRequest("https://arxiv.org/abs/1802.09941", category="surveys", yes=True)
        )


def test_github_repository_follows_the_api_and_gets_a_kebab_id(
    root: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    httpserver.expect_request("/repos/nvidia/megatron-lm").respond_with_data(
        (FIXTURES / "github_nvidia_megatron.json").read_bytes(), content_type="application/json"
    )
    monkeypatch.setenv("DDL_GITHUB_API", httpserver.url_for("/").rstrip("/"))
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    request = AddRequest(
        "https://github.com/nvidia/megatron-lm", category="model-parallelism", yes=True, today=TODAY
    )
    result = adding.add(root, request)
    assert result.path == root / "data/libraries/megatron-lm.yml"
    assert result.entry["url"] == "https://github.com/NVIDIA/Megatron-LM"
    assert result.entry["identifiers"] == {"github": "NVIDIA/Megatron-LM"}
    assert result.entry["title"] == "Megatron-LM"
    assert any("GitHub describes it as" in note for note in result.notes)
    # Software starts with the state its repository's facts give (last push 2024-05-01,
    # more than a year before TODAY), with the facts as evidence. This server has no commits
    # or releases to give: the last push stands in, and the reading's day dates the evidence.
    assert result.entry["maintenance"] == {
        "state": "unmaintained",
        "as_of": TODAY,
        "checked": TODAY,
        "last_commit": "2024-05-01",
        "source": "https://github.com/NVIDIA/Megatron-LM/commits",
        "evidence": "GitHub reports the last push to the repository on 2024-05-01, read "
        f"from GitHub's API on {TODAY}.",
    }
    assert "maintenance-missing" not in " ".join(adding.remaining_problems(root, result.path))


@pytest.mark.parametrize(
    ("fixture", "doi", "path", "venue"),
    [
        (
            "crossref_paper.json",
            "10.1145/3458817.3476209",
            "data/papers/narayanan2021efficient.yml",
            "Proceedings of the International Conference for High Performance Computing, "
            "Networking, Storage and Analysis",
        ),
        (
            "crossref_book.json",
            "10.1007/978-3-030-00000-0",
            "data/books/distributed-machine-learning-patterns.yml",
            None,
        ),
    ],
)
def test_doi_from_crossref(
    root: Path,
    httpserver: HTTPServer,
    monkeypatch: pytest.MonkeyPatch,
    fixture: str,
    doi: str,
    path: str,
    venue: str | None,
) -> None:
    httpserver.expect_request(f"/works/{doi}").respond_with_data(
        (FIXTURES / fixture).read_bytes(), content_type="application/json"
    )
    monkeypatch.setenv("DDL_CROSSREF_API", httpserver.url_for("/").rstrip("/"))
    result = adding.add(root, AddRequest(doi, category="surveys", yes=True, today=TODAY))
    assert result.path == root / path
    assert result.entry.get("venue") == venue
    assert result.entry["identifiers"] == {"doi": doi}


def test_taken_id_gets_a_suffix(catalog_dir: Callable[..., Path]) -> None:
    taken = (
        EXISTING_PAPER.replace("bennun2019demystifying", "example-org-post")
        .replace("https://arxiv.org/abs/1802.09941", "https://example.org/other")
        .replace('  arxiv: "1802.09941"\n  doi: 10.1145/3320060\n', "  doi: 10.1/x\n")
    )
    root = catalog_dir(
        {"data/articles/example-org-post.yml": taken.replace("kind: paper", "kind: article")}
    )
    result = adding.add(
        root, AddRequest("https://example.org/post", category="surveys", yes=True, offline=True)
    )
    assert result.path.name == "example-org-post-2.yml"
    assert result.entry["kind"] == "article"


def test_unknown_category_and_kind_are_refused(root: Path) -> None:
    with pytest.raises(AddError, match="unknown category 'nope'"):
        adding.add(
            root, AddRequest("https://example.org/a", category="nope", yes=True, offline=True)
        )
    with pytest.raises(AddError, match="unknown kind 'blog'"):
        adding.add(
            root,
            AddRequest(
                "https://example.org/a", category="surveys", kind="blog", yes=True, offline=True
            ),
        )


# --- the command line: never asks without a terminal, asks on one ---------------------------


def test_cli_without_terminal_and_missing_answers_exits_1(root: Path) -> None:
    before = sorted(root.rglob("*"))
    result = CliRunner().invoke(
        cli, ["add", "https://example.org/a", "--root", str(root), "--offline"]
    )
    assert result.exit_code == 1
    assert "no terminal to ask on: pass --category, --kind, --description" in result.output
    assert "Traceback" not in result.output
    result = CliRunner().invoke(
        cli, ["add", "https://example.org/a", "--root", str(root), "--offline", "--yes"]
    )
    assert result.exit_code == 1
    assert "no terminal to ask on: pass --category" in result.output
    assert sorted(root.rglob("*")) == before


def test_cli_asks_on_a_terminal(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adding, "stdin_is_terminal", lambda: True)
    answers = "nope\ndata-parallelism\nlist\nAwesome Example\nA curated example list.\n"
    result = CliRunner().invoke(
        cli,
        ["add", "https://example.org/awesome", "--root", str(root), "--offline"],
        input=answers,
    )
    assert result.exit_code == 0, result.output
    assert "Error: 'nope' is not one of" in result.output
    written = (root / "data/lists/awesome-example.yml").read_text()
    assert "categories: [data-parallelism]" in written
    assert "description: A curated example list." in written
    assert "title: Awesome Example" in written
    assert "wrote data/lists/awesome-example.yml" in result.output


def test_cli_reports_duplicates_in_one_line(root: Path) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "add",
            "https://arxiv.org/abs/1802.09941v1",
            "--root",
            str(root),
            "--offline",
            "--yes",
            "--category",
            "surveys",
        ],
    )
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: the catalog already has this resource: data/papers/bennun2019demystifying.yml "
        "(id bennun2019demystifying) has the same arXiv id 1802.09941; edit that entry instead"
    ]


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://example.org/paper.pdf", "uses 'ftp:', only http and https are allowed"),
        ("javascript:alert(1)", "uses 'javascript:', only http and https are allowed"),
        ("https://user:secret@example.org/docs", "must not contain a user name or password"),
        ("https://example.org/a b", "contains spaces or line breaks"),
        ("https://example.org:99999/x", "has an invalid port"),
        ("https://intranet/x", "has no valid host name"),
        ("https://[::1/x", "is not a valid URL"),
        ("https://example.org/" + "a" * 2000, "characters long; at most 2,000 are allowed"),
    ],
)
def test_add_refuses_what_validate_refuses_before_writing(
    root: Path, url: str, message: str
) -> None:
    before = snapshot(root)
    result = CliRunner().invoke(
        cli,
        ["add", url, "--root", str(root), "--offline", "--yes", "--category", "surveys"],
    )
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and message in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert snapshot(root) == before


def test_add_warns_about_a_look_alike_host(root: Path) -> None:
    url = "https://gіthub.com/example/tool"  # a Cyrillic і
    result = CliRunner().invoke(
        cli,
        ["add", url, "--root", str(root), "--offline", "--yes", "--category", "surveys"],
    )
    assert result.exit_code == 0, result.output
    assert (
        "warning: host 'gіthub.com' mixes Cyrillic and Latin letters in 'gіthub', and reads as "
        "github.com: is it a look-alike? [url-host]"
    ) in result.output


CAFE_ENTRY = """\
id: cafe-menu
kind: article
title: The café's menu
url: https://café.example.org/menu
description: A page on a host written in Unicode.
categories: [surveys]
"""


@pytest.mark.parametrize(
    "url",
    [
        "https://xn--caf-dma.example.org/menu/",  # the IDNA A-label of the same host
        "https://CAFÉ.example.org/menu",
        "https://caf\u00ade\u0301.example.org/menu",  # a soft hyphen and a combining accent
        "https://caf\u200bé.example.org/menu",  # a zero-width space
        "https://\uff43\uff41\uff46é.example.org/menu",  # full-width letters
    ],
)
def test_a_host_written_another_way_is_the_same_resource(
    catalog_dir: Callable[..., Path], url: str
) -> None:
    root = catalog_dir({"data/articles/cafe-menu.yml": CAFE_ENTRY})
    with pytest.raises(DuplicateError, match=r"data/articles/cafe-menu\.yml \(id cafe-menu\)"):
        adding.add(root, AddRequest(url, category="surveys", yes=True, offline=True))
    assert sorted(p.name for p in root.rglob("*.yml") if "articles" in p.parts) == ["cafe-menu.yml"]


@pytest.mark.parametrize("name", ["con", "NUL", "aux", "Com1", "lpt9"])
def test_add_never_names_a_file_after_a_windows_device(root: Path, name: str) -> None:
    url = f"https://github.com/acme/{name}"
    result = adding.add(root, AddRequest(url, category="surveys", yes=True, offline=True))
    assert result.path.name == f"{name.lower()}-2.yml"
    assert result.entry["id"] == f"{name.lower()}-2"
    assert not [p for p in validate(root).problems if p.rule == "file-name"]
