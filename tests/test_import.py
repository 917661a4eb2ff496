"""ddl-catalog import on the three seed lists: counts, no item lost, merging, drafts, dry run.

Counts: the research (seed-research.md section 5) finds 48 -> 43 distinct resources in seed 000,
83 -> 82 in 001 and 26 -> 25 in 004. The importer merges by canonical identity (arXiv id, DOI,
GitHub repository, normalised URL) and by an identical title of four words or more, and gets:

* 000: 48 items -> 44 drafts. It merges D5 (FireCaffe, same arXiv id), D2 (DistBelief, same
  title on papers.nips.cc and cs.toronto.edu) and D3 twice (the SIGMOD'17 paper, same title on
  three hosts). D4 stays two drafts: a DOI URL and an arXiv URL, titled "... Deep Learning" and
  "... Deep Learning:A Systematic Study", share no identity key and no title.
* 001: 84 items -> 83 drafts. One more item than the research's 83 bullets because the bullet
  with two bare local-SGD URLs is two resources; D1 (arXiv 1802.09941 abs vs pdf) merges.
* 004: 26 items -> 25 drafts: D10 (Ulanov's talk, slides and video under one title) merges.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import real_tree_catalog, snapshot
from ddl_catalog.cli import cli
from ddl_catalog.identity import normalize_url
from ddl_catalog.importer import report_lines, run_import
from ddl_catalog.importer.write import WriteError, write_new
from ddl_catalog.validate import validate

REPO = Path(__file__).resolve().parent.parent
SEEDS = Path(__file__).parent / "fixtures" / "seeds"
SEED = {name: next(SEEDS.glob(f"{name}_*.txt")) for name in ("000", "001", "004")}
ADDED = "2026-11-22"

# seed: (items, new drafts, merged within the list, skipped by reason)
EXPECTED = {
    "000": (48, 44, 4, {"no link": 1}),
    "001": (84, 83, 1, {"grouping label": 6, "no link": 2}),
    "004": (26, 25, 1, {"image": 1}),
}


@pytest.fixture
def empty_catalog(tmp_path: Path) -> Path:
    """A catalog with the real category tree and tags, and no entries."""
    return real_tree_catalog(tmp_path / "empty")


@pytest.fixture
def real_catalog(tmp_path: Path) -> Path:
    """A copy of the real catalog's data/."""
    root = tmp_path / "real"
    shutil.copytree(REPO / "data", root / "data")
    return root


def seed_urls(path: Path) -> set[str]:
    """Return every link target of a seed file (markdown links and bare URLs), images aside."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"<[^>]*>", " ", text)  # HTML: the badge <img> tags of seed 000
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", text)  # inline images
    found = set(re.findall(r"\]\(\s*((?:https?|ftp)://[^)\s]+)\)", text))
    found |= {u.rstrip(".,;:") for u in re.findall(r"(?<![(\[])(?:https?|ftp)://[^\s)\]]+", text)}
    return found


@pytest.mark.parametrize("seed", sorted(EXPECTED))
def test_seed_counts_in_an_empty_catalog(seed: str, empty_catalog: Path) -> None:
    result = run_import(SEED[seed], empty_catalog, dry_run=True, added=ADDED)
    plan = result.plan
    items, new, merged, skipped = EXPECTED[seed]
    assert plan.count("new") + plan.count("merged") == items
    assert (plan.count("new"), plan.count("merged")) == (new, merged)
    assert len(plan.drafts) == new
    reasons: dict[str, int] = {}
    for outcome in plan.outcomes:
        if outcome.status == "skipped":
            reasons[outcome.reason] = reasons.get(outcome.reason, 0) + 1
    assert reasons == skipped
    assert not any(o.into_catalog for o in plan.outcomes)
    summary = list(report_lines(result))[-2]
    assert summary.startswith(f"{items} items: {new} new, {merged} merged")


@pytest.mark.parametrize("seed", sorted(EXPECTED))
def test_no_seed_url_is_lost(seed: str, empty_catalog: Path) -> None:
    plan = run_import(SEED[seed], empty_catalog, dry_run=True, added=ADDED).plan
    used = {d.url for d in plan.drafts} | {link.url for d in plan.drafts for link in d.links}
    dropped = {url for skip in plan.dropped for url in skip.urls}
    kept = {normalize_url(u) for u in used | dropped}
    assert {u for u in seed_urls(SEED[seed]) if normalize_url(u) not in kept} == set()
    assert len(seed_urls(SEED[seed])) == {"000": 47, "001": 95, "004": 41}[seed]


def test_seed_000_merges_the_known_duplicates(empty_catalog: Path) -> None:
    plan = run_import(SEED["000"], empty_catalog, dry_run=True, added=ADDED).plan
    merged = {o.line: (o.target, o.reason) for o in plan.outcomes if o.status == "merged"}
    firecaffe = next(d for d in plan.drafts if d.url == "https://arxiv.org/abs/1511.00175")
    assert merged[88] == (firecaffe.id, "same arXiv id 1511.00175 earlier in the list")
    assert merged[93] == ("dean2012large", "same title earlier in the list")
    assert merged[82][0] == merged[94][0] == "jiang2017heterogeneity"
    sigmod = next(d for d in plan.drafts if d.id == "jiang2017heterogeneity")
    assert sigmod.categories == [
        "stale-synchronous-techniques",
        "non-deterministic-communication",
        "sharded-ps",
    ]
    assert [link.url for link in sigmod.links] == [
        "https://dl.acm.org/citation.cfm?id=3035933",
        "https://ds3lab.files.wordpress.com/2017/07/sigmod2017_jiang.pdf",
    ]
    # D4: a DOI and an arXiv URL with different titles stay apart (documented above).
    d4 = [d for d in plan.drafts if d.title.startswith("Model Accuracy and Runtime Tradeoff")]
    assert len(d4) == 2


def test_seed_001_structures(empty_catalog: Path) -> None:
    plan = run_import(SEED["001"], empty_catalog, dry_run=True, added=ADDED).plan
    by_line = {d.line: d for d in plan.drafts}
    mesh = by_line[15]
    assert (mesh.kind, mesh.url) == ("paper", "https://arxiv.org/abs/1811.02084")
    assert [(x.type, x.url) for x in mesh.links] == [("code", "https://github.com/tensorflow/mesh")]
    assert "implemented in TensorFlow" in mesh.description
    gpipe = by_line[29]
    assert [x.url for x in gpipe.links] == [
        "https://github.com/tensorflow/lingvo/blob/master/lingvo/core/gpipe.py",
        "https://github.com/tensorflow/lingvo/issues/112",
        "https://github.com/kakaobrain/torchgpipe",
    ]
    lamb = by_line[60]  # a label whose sub-items are typed links is one resource
    assert (lamb.title, lamb.url) == ("LAMB", "https://openreview.net/pdf?id=Syx4wnEtvH")
    assert [x.type for x in lamb.links] == ["blog"]
    demystifying = by_line[6]
    assert demystifying.title == "Demystifying Parallel and Distributed Deep Learning"
    assert [(x.type, x.url) for x in demystifying.links] == [
        ("video", "https://www.youtube.com/watch?v=xtxxLWZznBI")
    ]
    local_sgd = [d for d in plan.drafts if d.line == 90]  # two bare URLs in one bullet
    assert [d.url for d in local_sgd] == [
        "https://arxiv.org/pdf/1805.09767.pdf",
        "https://arxiv.org/abs/1808.07217",
    ]
    d1 = next(o for o in plan.outcomes if o.line == 80)
    assert (d1.status, d1.target) == ("merged", demystifying.id)
    sparcml = "SparCML: High-Performance Sparse Communication for Machine Learning"
    assert by_line[192].title == sparcml
    assert by_line[216].title == "Modern CMake book and additional resources"
    assert by_line[216].kind == "book"


def test_seed_004_bold_titles_and_labelled_links(empty_catalog: Path) -> None:
    plan = run_import(SEED["004"], empty_catalog, dry_run=True, added=ADDED).plan
    by_line = {d.line: d for d in plan.drafts}
    tutorial = by_line[10]
    assert tutorial.title == "Large Scale Distributed Systems for Training Neural Networks"
    assert tutorial.kind == "talk"
    assert tutorial.url.endswith("Jeff-Oriol-NIPS-Tutorial-2015.pdf")
    assert [x.type for x in tutorial.links] == ["video"]
    assert "By Jeff Dean & Oriol Vinyals" in tutorial.description
    sparknet = by_line[32]
    assert sparknet.url == "http://arxiv.org/abs/1511.06051"
    assert [x.type for x in sparknet.links] == ["code", "blog"]
    assert by_line[86].kind == "library"
    assert by_line[115].url.startswith("http://www.nextplatform.com/")  # link in a paragraph
    ulanov = next(o for o in plan.outcomes if o.line == 92)
    assert (ulanov.status, ulanov.reason) == ("merged", "same title earlier in the list")
    assert {x.url for x in by_line[38].links} == {"https://www.youtube.com/watch?v=pNYBBhuK8yU"}
    assert sorted(u for s in plan.dropped for u in s.urls) == sorted(
        f"http://pan.baidu.com/s/{k}"
        for k in ("1mgXV0hU", "1jHiNW5C", "1mhzF1uK", "1mgOR1GG", "1sklHTPr")
    )


@pytest.mark.parametrize("seed", sorted(EXPECTED))
def test_seeds_merge_into_the_real_catalog(seed: str, real_catalog: Path) -> None:
    result = run_import(SEED[seed], real_catalog, dry_run=True, added=ADDED)
    plan = result.plan
    items = plan.count("new") + plan.count("merged")
    into_catalog = sum(1 for o in plan.outcomes if o.into_catalog)
    assert items == EXPECTED[seed][0]
    assert into_catalog >= 0.9 * items  # most items are already catalogued
    lines = list(report_lines(result))
    assert sum(" merged into " in line for line in lines) == plan.count("merged")
    assert f"({into_catalog} into the catalog" in lines[-2]


def test_horovod_merges_across_a_repository_transfer(real_catalog: Path) -> None:
    plan = run_import(SEED["000"], real_catalog, dry_run=True, added=ADDED).plan
    horovod = next(o for o in plan.outcomes if o.line == 32)
    assert (horovod.status, horovod.target) == ("merged", "horovod")
    assert horovod.into_catalog


def test_identity_alone_merges_most_of_the_real_catalog(real_catalog: Path) -> None:
    (real_catalog / "data" / "seed-corrections.yml").unlink()
    plan = run_import(SEED["001"], real_catalog, dry_run=True, added=ADDED).plan
    into = [o for o in plan.outcomes if o.into_catalog]
    assert len(into) >= 0.75 * EXPECTED["001"][0]
    assert all("seed-corrections" not in o.reason for o in into)


def test_drafts_are_written_canonical_and_fail_validation(empty_catalog: Path) -> None:
    result = run_import(SEED["004"], empty_catalog, added=ADDED)
    assert len(result.written) == 25 and not result.failed
    sparknet = empty_catalog / "data" / "papers" / "sparknet-training-deep-networks-in-spark.yml"
    assert sparknet.read_text(encoding="utf-8").splitlines()[:5] == [
        "# yaml-language-server: $schema=../../schemas/entry.schema.json",
        "id: sparknet-training-deep-networks-in-spark",
        "kind: paper",
        'title: "SparkNet: Training Deep Networks in Spark"',
        "url: http://arxiv.org/abs/1511.06051",
    ]
    report = validate(empty_catalog)
    written = {p.relative_to(empty_catalog).as_posix() for p in result.written}
    assert {d.path for d in report.documents} == written
    flagged = {p.path for p in report.errors if p.rule in ("placeholder", "description-style")}
    assert flagged == written  # every draft fails until its description is rewritten
    allowed = {"placeholder", "description-style", "unknown-category", "title-style"}
    assert {p.rule for p in report.errors} <= allowed  # otherwise schema-valid


def test_second_import_merges_into_the_first_drafts(empty_catalog: Path) -> None:
    first = run_import(SEED["000"], empty_catalog, added=ADDED)
    before = snapshot(empty_catalog)
    second = run_import(SEED["000"], empty_catalog, added=ADDED)
    assert second.plan.count("new") == 0 and not second.written
    assert second.plan.count("merged") == 48
    assert snapshot(empty_catalog) == before
    assert len(first.written) == 44


def test_dry_run_writes_nothing(empty_catalog: Path) -> None:
    before = snapshot(empty_catalog)
    args = ["import", "--root", str(empty_catalog), "--dry-run", str(SEED["001"])]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    assert "dry run: nothing written" in out.output
    assert "84 items: 83 new, 1 merged" in out.output
    assert snapshot(empty_catalog) == before


def test_into_writes_elsewhere(empty_catalog: Path, tmp_path: Path) -> None:
    before = snapshot(empty_catalog)
    into = tmp_path / "drafts"
    out = CliRunner().invoke(
        cli, ["import", "--root", str(empty_catalog), "--into", str(into), str(SEED["004"])]
    )
    assert out.exit_code == 0, out.output
    assert snapshot(empty_catalog) == before
    files = sorted(p.relative_to(into).as_posix() for p in into.rglob("*.yml"))
    assert len(files) == 25
    assert "talks/large-scale-distributed-systems-for-training.yml" in files
    assert not list(into.rglob("*.tmp"))


def test_write_new_never_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "papers" / "x.yml"
    write_new(target, "one\n")
    with pytest.raises(WriteError, match="already exists"):
        write_new(target, "two\n")
    assert target.read_text(encoding="utf-8") == "one\n"
    assert [p.name for p in target.parent.iterdir()] == ["x.yml"]


def test_ids_avoid_existing_files(empty_catalog: Path) -> None:
    taken = empty_catalog / "data" / "frameworks" / "horovod.yml"
    taken.parent.mkdir(parents=True)
    taken.write_text("not: an entry\n", encoding="utf-8")
    result = run_import(SEED["000"], empty_catalog, added=ADDED)
    assert taken.read_text(encoding="utf-8") == "not: an entry\n"
    assert empty_catalog / "data" / "frameworks" / "horovod-2.yml" in result.written


def test_paper_ids_follow_the_convention(empty_catalog: Path) -> None:
    plan = run_import(SEED["000"], empty_catalog, dry_run=True, added=ADDED).plan
    ids = {d.id for d in plan.drafts}
    assert {"dean2012large", "li2014scaling", "recht2011hogwild", "kurth2017deep"} <= ids
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) and len(i) <= 80 for i in ids)
    assert len(ids) == len(plan.drafts)


IDNA_LIST = """\
# Hosts

## Surveys

- [The café's menu](https://café.example.org/menu) - Written in Unicode.
- [The cafe's menu again](https://xn--caf-dma.example.org/menu/) - Its A-label.
- [Scaling notes](https://scal\u200bing.example.org/notes) - A zero-width space in the host.
- [Wide notes](https://\uff53\uff43\uff41\uff4c\uff49\uff4e\uff47.example.org/notes) - Wide.
"""


def test_hosts_written_another_way_merge(empty_catalog: Path) -> None:
    source = empty_catalog / "list.md"
    source.write_text(IDNA_LIST, encoding="utf-8")
    plan = run_import(source, empty_catalog, dry_run=True, added=ADDED).plan
    assert [d.title for d in plan.drafts] == ["The café's menu", "Scaling notes"]
    merged = [(o.line, o.reason) for o in plan.outcomes if o.status == "merged"]
    assert merged == [
        (6, "same URL xn--caf-dma.example.org/menu earlier in the list"),
        (8, "same URL scaling.example.org/notes earlier in the list"),
    ]
    # and against the catalog: an entry on https://scaling.example.org/notes takes both
    entry = empty_catalog / "data" / "articles" / "scaling-notes.yml"
    entry.parent.mkdir(parents=True)
    entry.write_text(
        "id: scaling-notes\nkind: article\ntitle: Scaling notes\n"
        "url: https://scaling.example.org/notes\ndescription: Notes on scaling.\n"
        "categories: [surveys]\n",
        encoding="utf-8",
    )
    plan = run_import(source, empty_catalog, dry_run=True, added=ADDED).plan
    into_catalog = [(o.line, o.target) for o in plan.outcomes if o.into_catalog]
    assert into_catalog == [(7, "scaling-notes"), (8, "scaling-notes")]


def test_import_never_names_a_file_after_a_windows_device(empty_catalog: Path) -> None:
    source = empty_catalog / "list.md"
    source.write_text(
        "# Devices\n\n## Tools\n\n- [CON](https://example.org/con) - A console tool.\n"
        "- [nul](https://example.org/nul) - A null sink.\n",
        encoding="utf-8",
    )
    plan = run_import(source, empty_catalog, dry_run=True, added=ADDED).plan
    assert [d.id for d in plan.drafts] == ["con-2", "nul-2"]
