"""ddl-catalog import on small hand-written lists of other common awesome-list styles."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import real_tree_catalog
from ddl_catalog.importer import run_import
from ddl_catalog.importer.markdown import parse_list
from ddl_catalog.importer.plan import Plan, match_category

STYLES = Path(__file__).parent / "fixtures" / "import"


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    """An entry-less catalog with the real category tree."""
    return real_tree_catalog(tmp_path / "catalog")


def plan_of(name: str, root: Path) -> Plan:
    return run_import(STYLES / name, root, dry_run=True, added="2026-11-22").plan


def drafts(plan: Plan) -> list[tuple[str, str, str]]:
    return [(d.title, d.url, d.kind) for d in plan.drafts]


def test_dash_star_and_numbered_items(catalog: Path) -> None:
    plan = plan_of("dash-style.md", catalog)
    assert drafts(plan) == [
        ("Horovod", "https://github.com/horovod/horovod", "framework"),
        ("Ray Train", "https://docs.ray.io/en/latest/train/train.html", "docs"),
        ("DeepSpeed", "https://github.com/microsoft/DeepSpeed", "framework"),
        (
            "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism",
            "https://arxiv.org/abs/1811.06965",
            "paper",
        ),
        (
            "PipeDream: Generalized Pipeline Parallelism for DNN Training",
            "https://dl.acm.org/doi/10.1145/3341301.3359646",
            "paper",
        ),
    ]
    descriptions = [d.description for d in plan.drafts]
    assert descriptions[0].endswith('said: "Ring-allreduce data parallelism."')  # "- " separator
    assert descriptions[1].endswith('said: "Distributed training on Ray."')  # ": " separator
    assert descriptions[2].endswith('said: "ZeRO and friends."')  # " — " separator
    assert plan.drafts[0].categories == ["frameworks"]
    # the PDF of GPipe further down merges; the commented-out item, TOC and licence are not items
    assert [(o.line, o.status) for o in plan.outcomes] == [
        (12, "new"),
        (13, "new"),
        (14, "new"),
        (19, "new"),
        (20, "new"),
        (21, "merged"),
    ]
    assert not any("hidden" in d.url or "shields" in d.url for d in plan.drafts)
    assert plan.drafts[4].identifiers == {"doi": "10.1145/3341301.3359646"}


def test_bold_titles_with_labelled_links(catalog: Path) -> None:
    plan = plan_of("bold-labelled.md", catalog)
    talk, paper, blog = plan.drafts
    assert (talk.title, talk.kind, talk.url) == (
        "Scaling Distributed Training: A Case Study",
        "talk",
        "https://example.org/slides/scaling.pdf",
    )
    assert [(x.type, x.url) for x in talk.links] == [
        ("video", "https://www.youtube.com/watch?v=abcdefghijk")
    ]
    assert "Keynote at an imaginary workshop." in talk.description
    assert [s.urls for s in plan.dropped] == [("http://pan.baidu.com/s/1abcdef",)]
    assert (paper.kind, paper.url, paper.identifiers) == (
        "paper",
        "https://arxiv.org/abs/1805.09767",
        {"arxiv": "1805.09767"},
    )
    assert [x.type for x in paper.links] == ["code", "blog"]
    assert (blog.title, blog.url, blog.kind) == (
        "Writing About Allreduce",
        "https://example.org/blog/allreduce",
        "article",
    )
    assert blog.categories == ["blogs"]
    skipped = [(o.line, o.reason, o.title) for o in plan.outcomes if o.status == "skipped"]
    assert skipped == [(21, "no link", "A Heading Without Any Link")]


def test_bare_urls(catalog: Path) -> None:
    plan = plan_of("bare-urls.md", catalog)
    assert [(d.title, d.url) for d in plan.drafts] == [
        ("https://arxiv.org/pdf/1805.09767.pdf", "https://arxiv.org/pdf/1805.09767.pdf"),
        ("https://arxiv.org/abs/1808.07217", "https://arxiv.org/abs/1808.07217"),
        ("Revisiting Distributed Synchronous SGD", "https://arxiv.org/abs/1604.00981"),
        ("https://example.org/just-a-page/", "https://example.org/just-a-page/"),
    ]
    assert [d.id for d in plan.drafts][:2] == ["arxiv-1805-09767", "arxiv-1808-07217"]
    assert all("Two papers about local SGD." in d.description for d in plan.drafts[:2])
    assert [(o.reason, o.title) for o in plan.outcomes if o.status == "skipped"] == [
        ("no link", "K-FAC")
    ]


def test_links_broken_across_lines(catalog: Path) -> None:
    plan = plan_of("broken-links.md", catalog)
    assert [(d.line, d.title, d.url) for d in plan.drafts] == [
        (
            3,
            "Meet Horovod: Uber’s Open Source Distributed Deep Learning Framework for TensorFlow",
            "https://eng.uber.com/horovod/",
        ),
        (
            5,
            "FireCaffe: near-linear acceleration of deep neural network training on compute "
            "clusters",
            "https://arxiv.org/abs/1511.00175",
        ),
        (8, "A Title Whose Parenthesis Waits", "https://example.org/waits"),
        (10, "Multi-GPU Training of ConvNets", "http://arxiv.org/abs/1312.5853"),
    ]
    assert "limited by communication." in plan.drafts[1].description
    assert plan.drafts[2].description.endswith('said: "description after."')


def test_nested_items_links_notes_and_groups(catalog: Path) -> None:
    plan = plan_of("nested.md", catalog)
    by_title = {d.title: d for d in plan.drafts}
    mesh = by_title["Mesh TensorFlow, Google Brain"]
    assert [(x.type, x.url) for x in mesh.links] == [("code", "https://github.com/tensorflow/mesh")]
    assert "implemented in TensorFlow" in mesh.description
    assert "Official tutorials" in by_title  # children of a grouping label are items
    assert "PyTorch:" in by_title["Official tutorials"].description
    lamb = by_title["LAMB"]
    assert (lamb.url, [x.url for x in lamb.links]) == (
        "https://openreview.net/pdf?id=Syx4wnEtvH",
        ["https://towardsdatascience.com/lamb-optimizer-46f8c0ae4866"],
    )
    demystifying = by_title["Demystifying Parallel and Distributed Deep Learning"]
    assert demystifying.identifiers == {"arxiv": "1802.09941"}
    # the same long title merges; two "Official documentation" pages (two words) do not
    distbelief = by_title["Large Scale Distributed Deep Networks"]
    assert distbelief.categories == ["pipeline-parallelism"]
    assert [x.url for x in distbelief.links] == [
        "https://www.cs.toronto.edu/~ranzato/publications/DistBeliefNIPS2012_withAppendix.pdf"
    ]
    docs = [d for d in plan.drafts if d.title == "Official documentation"]
    assert [d.id for d in docs] == ["official-documentation", "official-documentation-2"]
    assert [o.reason for o in plan.outcomes if o.status == "skipped"] == ["grouping label"]


def test_category_matching() -> None:
    categories = {
        "pipeline-parallelism": "Pipeline parallelism",
        "model-parallelism": "Model and tensor parallelism",
        "parameter-servers": "Parameter servers",
        "large-batch": "Large-batch training",
    }
    assert match_category("Pipeline parallelism:", categories) == "pipeline-parallelism"
    assert match_category("Parameter Server (PS)", categories) == "parameter-servers"
    assert match_category("Large Batch Size (Problem)", categories) == "large-batch"
    assert match_category("Model parallelism", categories) == "model-parallelism"  # by id
    assert match_category("Tensor parallelism", categories) is None
    assert match_category("Videos", categories) is None


def test_front_matter_and_setext_headings() -> None:
    text = "---\ntitle: x\nlayout: post\n---\n\nResources\n=========\n\n- [A thing](https://a.example/)\n"
    parsed = parse_list(text, "list.md")
    assert [(h.line, h.title) for h in parsed.headings] == [(6, "Resources")]
    assert [(i.line, i.title, i.headings) for i in parsed.items] == [(9, "A thing", ("Resources",))]
