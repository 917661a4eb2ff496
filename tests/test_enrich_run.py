"""ddl-catalog enrich end to end against a local server, and the metadata reader."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer

from conftest import snapshot
from ddl_catalog.cli import cli
from ddl_catalog.metadata import MetadataError, load_metadata
from ddl_catalog.model.build import open_catalog
from ddl_catalog.net.enrich.run import enrich
from ddl_catalog.net.session import make_session

FIXTURES = Path(__file__).parent / "fixtures" / "net"

SURVEY = """\
id: bennun2019demystifying
kind: paper
title: "Demystifying Parallel and Distributed Deep Learning: An In-Depth Concurrency Analysis"
url: https://arxiv.org/abs/1802.09941
description: A survey of how deep learning training is parallelised across machines.
categories: [parallelism]
authors: [Tal Ben-Nun, Torsten Hoefler]
year: 2018
identifiers:
  arxiv: "1802.09941"
  doi: 10.1145/3320060
"""

HOROVOD = """\
# hand-written comment
id: horovod
kind: framework
title: Horovod
url: https://github.com/horovod/horovod
description: Ring-allreduce data parallelism for TensorFlow, Keras, PyTorch and MXNet.
categories: [frameworks, data-parallelism]
identifiers:
  github: horovod/horovod
"""

CAFFE = """\
id: caffeonspark
kind: framework
title: CaffeOnSpark
url: https://github.com/yahoo/CaffeOnSpark
description: Caffe training on Spark clusters.
categories: [frameworks]
"""


def serve_all(server: HTTPServer) -> None:
    def data(name: str) -> bytes:
        return (FIXTURES / name).read_bytes()

    server.expect_request("/gh/repos/horovod/horovod").respond_with_data(
        data("github_repo_horovod.json"), content_type="application/json"
    )
    server.expect_request("/gh/repos/yahoo/caffeonspark").respond_with_data(
        data("github_repo_archived.json"), content_type="application/json"
    )
    server.expect_request("/arxiv/query").respond_with_data(data("arxiv_1802.09941.xml"))
    server.expect_request("/cr/works/10.1145/3320060").respond_with_data(
        data("crossref_10.1145_3320060.json"), content_type="application/json"
    )


def bases(server: HTTPServer) -> dict[str, str | None]:
    return {
        s: server.url_for(p)
        for s, p in (("github", "/gh"), ("arxiv", "/arxiv"), ("crossref", "/cr"))
    }


@pytest.fixture
def root(catalog_dir: Callable[..., Path]) -> Path:
    return catalog_dir(
        {
            "data/papers/bennun2019demystifying.yml": SURVEY,
            "data/frameworks/horovod.yml": HOROVOD,
            "data/frameworks/caffeonspark.yml": CAFFE,
        }
    )


def test_enrich_writes_metadata_reports_and_flags(root: Path, httpserver: HTTPServer) -> None:
    serve_all(httpserver)
    before = snapshot(root / "data" / "papers") | snapshot(root / "data" / "frameworks")
    catalog = open_catalog(root)
    report = enrich(catalog, make_session(2), bases=bases(httpserver), date="2025-06-01")
    assert report.fetched == {"github": 2, "arxiv": 1, "crossref": 1}
    assert not report.failed
    # Entry files are never touched.
    assert snapshot(root / "data" / "papers") | snapshot(root / "data" / "frameworks") == before
    # The year is the first arXiv version's (2018): Crossref's venue year (2019) is no
    # disagreement for a paper on arXiv; its title (its own capitalisation) is fine too.
    assert not any("year" in d for d in report.disagreements)
    assert not any("title" in d for d in report.disagreements)
    assert sorted(report.flags) == [
        "caffeonspark: yahoo/caffeonspark is archived",
        "caffeonspark: yahoo/caffeonspark is stale",
    ]
    github = json.loads((root / "data/metadata/github.json").read_text())
    assert github["records"]["horovod/horovod"]["stars"] == 14011
    assert github["records"]["horovod/horovod"]["fetched"] == "2025-06-01"
    meta = load_metadata(catalog)
    assert meta["caffeonspark"].flags == ("archived", "stale")
    assert meta["horovod"].flags == () and meta["horovod"].stars == 14011
    assert meta["bennun2019demystifying"].arxiv is not None
    assert meta["bennun2019demystifying"].crossref is not None


def test_enrich_is_byte_stable(root: Path, httpserver: HTTPServer) -> None:
    serve_all(httpserver)
    catalog = open_catalog(root)
    enrich(catalog, make_session(2), bases=bases(httpserver), date="2025-06-01")
    first = {p.name: p.read_bytes() for p in (root / "data/metadata").iterdir()}
    enrich(catalog, make_session(2), bases=bases(httpserver), date="2025-06-01")
    assert {p.name: p.read_bytes() for p in (root / "data/metadata").iterdir()} == first


def test_disagreements_on_title_and_authors(
    catalog_dir: Callable[..., Path], httpserver: HTTPServer
) -> None:
    wrong = SURVEY.replace("An In-Depth Concurrency Analysis", "A Survey").replace(
        "Torsten Hoefler", "Torsten Hoeffler"
    )
    root = catalog_dir({"data/papers/bennun2019demystifying.yml": wrong})
    serve_all(httpserver)
    report = enrich(open_catalog(root), make_session(2), only=["arxiv"], bases=bases(httpserver))
    kinds = sorted(d.split(": ")[2].split()[0] for d in report.disagreements)
    assert kinds == ["authors", "title"]


def test_exhausted_rate_limit_stops_cleanly_and_keeps_old_records(
    root: Path, httpserver: HTTPServer
) -> None:
    serve_all(httpserver)
    catalog = open_catalog(root)
    enrich(catalog, make_session(2), only=["github"], bases=bases(httpserver), date="2026-01-01")
    httpserver.clear()
    httpserver.expect_request("/gh/repos/horovod/horovod").respond_with_data(
        (FIXTURES / "github_rate_limited.json").read_bytes(),
        status=403,
        headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(time.time()) + 3000)},
    )
    report = enrich(catalog, make_session(2), only=["github"], bases=bases(httpserver))
    assert report.stopped is not None and "rate limit exhausted" in report.stopped
    assert report.failed
    records = json.loads((root / "data/metadata/github.json").read_text())["records"]
    assert records["horovod/horovod"]["fetched"] == "2026-01-01"  # kept, not dropped


def test_crossref_year_counts_for_a_paper_without_arxiv(
    catalog_dir: Callable[..., Path], httpserver: HTTPServer
) -> None:
    no_arxiv = SURVEY.replace('  arxiv: "1802.09941"\n', "")
    root = catalog_dir({"data/papers/bennun2019demystifying.yml": no_arxiv})
    serve_all(httpserver)
    report = enrich(open_catalog(root), make_session(2), only=["crossref"], bases=bases(httpserver))
    assert any("crossref: year 2019 (data says 2018)" in d for d in report.disagreements)


def test_an_interrupted_run_keeps_what_it_fetched(
    root: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C after the first repository: its record is on disk, the file is whole."""
    from ddl_catalog.net.enrich import run

    serve_all(httpserver)
    real = run.github.fetch

    def fetch(key: str, *args: object, **kwargs: object) -> object:
        if key == "yahoo/caffeonspark":
            raise KeyboardInterrupt
        return real(key, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(run.github, "fetch", fetch)
    with pytest.raises(KeyboardInterrupt):
        enrich(open_catalog(root), make_session(2), only=["github"], bases=bases(httpserver))
    records = json.loads((root / "data/metadata/github.json").read_text())["records"]
    assert list(records) == ["horovod/horovod"]


def test_records_are_saved_while_the_run_goes_on(
    root: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With saves due at once, the first record is on disk before the second is fetched."""
    from ddl_catalog.net.enrich import run

    serve_all(httpserver)
    monkeypatch.setattr(run, "SAVE_EVERY", 0.0)
    seen: list[list[str]] = []
    real = run.github.fetch

    def fetch(key: str, *args: object, **kwargs: object) -> object:
        path = root / "data/metadata/github.json"
        seen.append(sorted(json.loads(path.read_text())["records"]) if path.exists() else [])
        return real(key, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(run.github, "fetch", fetch)
    enrich(open_catalog(root), make_session(2), only=["github"], bases=bases(httpserver))
    assert seen == [[], ["horovod/horovod"]]


def test_cli_enrich_failure_is_one_line_and_writes_nothing(root: Path) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "enrich",
            "--root",
            str(root),
            "--only",
            "crossref",
            "--crossref-api",
            "http://127.0.0.1:9",
        ],
    )
    assert result.exit_code == 1
    assert "failed: crossref:" in result.output and "Traceback" not in result.output
    assert not (root / "data" / "metadata").exists()


def test_metadata_missing_folder_and_bad_file(root: Path) -> None:
    catalog = open_catalog(root)
    assert load_metadata(catalog) == {}
    (root / "data/metadata").mkdir()
    assert load_metadata(catalog) == {}
    (root / "data/metadata/github.json").write_text("{not json")
    with pytest.raises(MetadataError, match=r"github\.json"):
        load_metadata(catalog)


def test_states_move_with_github_facts_but_never_over_a_notice(
    catalog_dir: Callable[..., Path], httpserver: HTTPServer
) -> None:
    notice = (
        'maintenance:\n  state: deprecated\n  checked: "2025-01-01"\n'
        "  source: https://github.com/horovod/horovod#readme\n"
        "  evidence: The README says the project is deprecated.\n"
    )
    curated = (
        'maintenance:\n  state: active\n  checked: "2019-01-01"\n  last_commit: "2018-12-01"\n'
        "  source: https://github.com/yahoo/CaffeOnSpark/commit/e802cb3\n"
        "  evidence: Newest commit in the snapshot is recent.\n"
    )
    root = catalog_dir(
        {
            "data/frameworks/horovod.yml": HOROVOD + notice,
            "data/frameworks/caffeonspark.yml": CAFFE + curated,
        }
    )
    serve_all(httpserver)
    horovod_before = (root / "data/frameworks/horovod.yml").read_bytes()
    report = enrich(
        open_catalog(root),
        make_session(2),
        only=["github"],
        bases=bases(httpserver),
        date="2025-06-01",
        states=True,
    )
    assert not report.failed
    assert (root / "data/frameworks/horovod.yml").read_bytes() == horovod_before
    assert [s.split(" (")[0] for s in report.states] == ["caffeonspark: active -> archived"]
    written = open_catalog(root).get("caffeonspark")
    assert written is not None and written.maintenance is not None
    assert written.maintenance.state == "archived"
    assert written.maintenance.checked == "2025-06-01"
    assert "GitHub marks the repository as archived" in (written.maintenance.evidence or "")
    # Without --states, entry files are not written at all.
    before = snapshot(root / "data" / "frameworks")
    enrich(
        open_catalog(root),
        make_session(2),
        only=["github"],
        bases=bases(httpserver),
        date="2026-06-01",
    )
    assert snapshot(root / "data" / "frameworks") == before
