"""``ddl-catalog import`` on the styles real awesome lists use beyond plain bullets.

GFM table rows, ``<details>`` blocks, HTML ``<ul>/<li>/<a>`` markup, ``Title [[Paper]](url)
[[Code]](url)`` items, linked sub-items that are resources of their own, venue tags such as
``[ICLR'24]`` and licence tags, into a fresh catalog made by ``init`` (whose kinds and headings
decide where drafts go). One fixture per style in tests/fixtures/import/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddl_catalog import scaffold
from ddl_catalog.cli import cli
from ddl_catalog.importer import report_lines, run_import
from ddl_catalog.importer.markdown import parse_list
from ddl_catalog.validate import validate

STYLES = Path(__file__).parent / "fixtures" / "import"
ADDED = "2026-11-22"


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    """A catalog just made by init (its example entry and two top-level categories)."""
    root = tmp_path / "fresh"
    scaffold.init(root, scaffold.InitOptions())
    return root


def items(name: str) -> list[tuple[str | None, str, str]]:
    parsed = parse_list((STYLES / name).read_text(encoding="utf-8"), name)
    return [(i.title, i.links[0].url, i.text) for i in parsed.items]


def test_gfm_table_rows_are_entries(fresh: Path) -> None:
    parsed = parse_list((STYLES / "table.md").read_text(encoding="utf-8"), "table.md")
    assert len(parsed.items) == 40  # every row with a link; recall 100%
    first = parsed.items[0]
    assert (first.title, first.links[0].url) == ("Tool 01", "https://github.com/example/tool-01")
    assert first.text == "Does thing number 1 for self-hosters."  # the description column
    assert [(x.url, x.label) for x in first.links[1:]] == [
        ("https://tool-01.example.org/docs", "documentation")
    ]
    assert first.notes == ["License: MIT", "Language: Go"]
    assert first.headings[-1] == "Sync" and parsed.items[-1].headings[-1] == "Media"
    skipped = {(s.reason, s.text.split(" |")[0]) for s in parsed.skips}
    assert ("table row without a link", "Planned") in skipped
    # the badge, the table of contents and the licence section are not entries
    urls = {link.url for item in parsed.items for link in item.links}
    assert not any("awesome.re" in u or "creativecommons" in u for u in urls)


def test_details_blocks_and_their_summaries(fresh: Path) -> None:
    assert items("details.md") == [
        ("GPipe", "https://arxiv.org/abs/1811.06965", "Pipeline parallelism with micro-batches."),
        ("PipeDream", "https://dl.acm.org/doi/10.1145/3341301.3359646", "1F1B schedule."),
        ("ZeRO", "https://arxiv.org/abs/1910.02054", "Sharded optimizer states."),
    ]
    parsed = parse_list((STYLES / "details.md").read_text(encoding="utf-8"), "details.md")
    # a <summary> labels the items under it; the section heading files them
    assert [(i.context, i.headings[-1]) for i in parsed.items] == [
        ("2019", "Papers"),
        ("2019", "Papers"),
        ("2020", "Papers"),
    ]


def test_html_list_items_and_anchors() -> None:
    assert items("html.md") == [
        ("NCCL", "https://github.com/NVIDIA/nccl", "Collective communication for GPUs."),
        ("Gloo", "https://github.com/facebookincubator/gloo", "collective communications library."),
    ]


def test_bracketed_labels_venue_tags_and_own_sub_items(fresh: Path) -> None:
    parsed = parse_list((STYLES / "bracket-links.md").read_text(encoding="utf-8"), "b.md")
    megatron, ring, striped = parsed.items
    # the title is the text; [[Paper]] and [[Code]] are typed links, not titles
    assert megatron.title == "Megatron-LM: Training Multi-Billion Parameter Language Models"
    assert [x.url for x in megatron.links] == [
        "https://arxiv.org/abs/1909.08053",
        "https://github.com/NVIDIA/Megatron-LM",
    ]
    # [ICLR'24] is a venue and a year, not the description
    assert (megatron.venue, megatron.year, megatron.text) == ("ICLR", 2024, "")
    # "([code]())" leaves no empty brackets; "(MIT)" is a licence note, not description
    assert ring.text == "Blockwise attention across devices"
    assert ring.notes == ["licence: MIT"]
    # a linked sub-item naming another resource is an entry of its own
    assert (striped.title, striped.context) == ("Striped Attention", "Ring Attention")
    assert [x.url for x in ring.links] == ["https://arxiv.org/abs/2310.01889"]


def test_typed_sub_items_still_fold_into_their_parent() -> None:
    text = (
        "## Papers\n\n- [GPipe](https://arxiv.org/abs/1811.06965)\n"
        "  - [Code available for TensorFlow](https://github.com/tensorflow/lingvo)\n"
        "  - [PyTorch implementation](https://github.com/kakaobrain/torchgpipe)\n"
    )
    (gpipe,) = parse_list(text, "x.md").items
    assert len(gpipe.links) == 3


def test_import_into_a_fresh_catalog_creates_its_categories_from_headings(fresh: Path) -> None:
    result = run_import(STYLES / "table.md", fresh, added=ADDED)
    assert len(result.written) == 40 and not result.failed
    assert result.created == ["sync", "media"]
    categories = (fresh / "data" / "categories.yml").read_text(encoding="utf-8")
    assert "- id: sync\n    title: Sync\n" in categories
    assert categories.startswith(
        "# yaml-language-server: $schema=../schemas/categories.schema.json"
    )
    lines = list(report_lines(result))
    assert any(
        "heading 'Sync' -> new category sync (added to data/categories.yml)" in ln for ln in lines
    )
    # the only problems left are the TODO descriptions a person must rewrite
    rules = {p.rule for p in validate(fresh).errors}
    assert rules <= {"placeholder", "description-style"}, rules


def test_venue_and_year_reach_the_draft(fresh: Path) -> None:
    run_import(STYLES / "bracket-links.md", fresh, added=ADDED)
    text = (
        fresh / "data" / "papers" / "megatron-lm-training-multi-billion-parameter.yml"
    ).read_text()
    assert "\nyear: 2024\nvenue: ICLR\n" in text
    assert "links:\n  - type: code\n    url: https://github.com/NVIDIA/Megatron-LM\n" in text


def test_kinds_come_from_the_target_catalogs_settings(fresh: Path) -> None:
    settings_file = fresh / "catalog.yml"
    text = settings_file.read_text(encoding="utf-8")
    start = text.index("kinds: [")
    settings_file.write_text(text[:start] + "kinds: [article, list, tutorial]\n", encoding="utf-8")
    plan = run_import(STYLES / "table.md", fresh, dry_run=True, added=ADDED).plan
    assert {d.kind for d in plan.drafts} == {"list"}  # a library where libraries are not used
    plan = run_import(STYLES / "details.md", fresh, dry_run=True, added=ADDED).plan
    assert {d.kind for d in plan.drafts} == {"article"}  # papers become articles


def test_the_cli_imports_a_table_list_into_an_init_catalog(fresh: Path) -> None:
    result = CliRunner().invoke(
        cli, ["import", "--root", str(fresh), str(STYLES / "table.md"), "--dry-run"]
    )
    assert result.exit_code == 0, result.output
    assert "40 items: 40 new" in result.output
    assert "table row without a link" in result.output


def test_an_own_list_imports_with_its_descriptions_and_builds(fresh: Path) -> None:
    """A maintainer adopting the toolchain imports their own list and rebuilds at once."""
    result = CliRunner().invoke(
        cli,
        ["import", "--root", str(fresh), "--keep-descriptions", str(STYLES / "table.md")],
    )
    assert result.exit_code == 0, result.output
    assert "rewrite each TODO" not in result.output
    report = validate(fresh)
    assert report.problems == [] and len(report.documents) == 41  # 40 rows + init's example
    tool = (fresh / "data" / "libraries" / "tool-01.yml").read_text(encoding="utf-8")
    assert "description: Does thing number 1 for self-hosters.\n" in tool
    built = CliRunner().invoke(cli, ["build", "--root", str(fresh), "--strict"])
    assert built.exit_code == 0, built.output
    readme = (fresh / "README.md").read_text(encoding="utf-8")
    assert readme.count("](https://github.com/example/") == 40  # recall: every row listed
    assert "## Sync" in readme and "## Media" in readme


# --- the list's own repository ----------------------------------------------------------------

OWN = "link to the list's own repository (acme/awesome-widgets)"


def test_the_lists_own_repository_is_read_from_its_housekeeping_links() -> None:
    parsed = parse_list((STYLES / "own-repo.md").read_text(encoding="utf-8"), "own-repo.md")
    assert parsed.own_repos == ("acme/awesome-widgets",)  # issues, pulls, CI badge, guide
    # the same owner's other repository and every other link stay entries
    assert [i.title for i in parsed.items] == [
        "Widget Core",
        "Gizmo",
        "Sprocket",
        "Awesome Gadgets",
    ]
    skipped = [(s.line, s.text) for s in parsed.skips if s.reason == OWN]
    assert skipped == [
        (3, "Widgets worth knowing. Suggest one by opening an issue or a pull request."),
        (18, "Awesome Widgets (this list, mirrored)"),
        (23, "All the contributors"),
        (24, "How to contribute"),
    ]


def test_the_report_groups_own_repository_links_as_skipped(fresh: Path) -> None:
    result = CliRunner().invoke(
        cli, ["import", "--root", str(fresh), "--dry-run", str(STYLES / "own-repo.md")]
    )
    assert result.exit_code == 0, result.output
    assert "the list's own repository: acme/awesome-widgets (links to it are skipped)" in (
        result.output
    )
    assert f"own-repo.md:18: skipped ({OWN}): Awesome Widgets (this list, mirrored)" in (
        result.output
    )
    assert (
        f"4 items: 4 new, 0 merged (0 into the catalog, 0 within the list); 4 skipped (4 {OWN})"
        in (result.output)
    )


SELF_LIST = (
    "# My List\n\n## Tools\n\n"
    "- [My List](https://github.com/me/my-list) - This very list.\n"
    "- [Other](https://github.com/x/other) - Another tool.\n"
)


def test_list_repo_names_the_repository_when_the_list_does_not(fresh: Path) -> None:
    assert [i.title for i in parse_list(SELF_LIST, "x.md").items] == ["My List", "Other"]
    parsed = parse_list(SELF_LIST, "x.md", "me/my-list")
    assert [i.title for i in parsed.items] == ["Other"]
    assert [s.reason for s in parsed.skips] == ["link to the list's own repository (me/my-list)"]
    source = fresh / "list.md"
    source.write_text(SELF_LIST, encoding="utf-8")
    args = ["import", "--root", str(fresh), "--dry-run", str(source), "--list-repo"]
    result = CliRunner().invoke(cli, [*args, "https://github.com/Me/My-List"])
    assert result.exit_code == 0, result.output
    assert "1 items: 1 new" in result.output and "skipped (link to the list's own" in result.output
    result = CliRunner().invoke(cli, [*args, "not a repository"])
    assert result.exit_code == 1
    assert result.output.strip() == (
        "--list-repo: give OWNER/NAME or a GitHub URL, not 'not a repository'"
    )


# --- language and licence bits as tags --------------------------------------------------------


def with_tags(root: Path, *tags: str) -> None:
    """Give a fresh catalog's tags.yml these tag ids."""
    lines = ["tags:"] + [f"  - id: {t}\n    description: Tag {t} for the test." for t in tags]
    (root / "data" / "tags.yml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_language_and_licence_bits_become_the_catalogs_tags(fresh: Path) -> None:
    with_tags(fresh, "python", "mit", "self-hosted")
    plan = run_import(STYLES / "tags.md", fresh, dry_run=True, added=ADDED).plan
    drafts = {d.title: d for d in plan.drafts}
    # `MIT` `Python` code tags, a Licence column and a Language column, matched case-insensitively
    assert drafts["Alpha"].tags == ["mit", "python"]
    assert drafts["Delta"].tags == ["mit", "python"]
    assert drafts["Epsilon"].tags == ["python"]  # "Rust, Python": the one the catalog has
    # no matching tag: they stay notes (quoted in the TODO), out of the description
    assert drafts["Beta"].tags == [] and drafts["Gamma"].tags == []
    assert drafts["Beta"].description.endswith(
        '"Notes with markdown inside. licence: GPL-3.0 tag: Go"'
    )
    # a matched language leaves the notes; the licence note stays, as do unmatched languages
    assert drafts["Delta"].description.endswith('"Mail for a household. Licence: MIT"')
    assert drafts["Epsilon"].description.endswith(
        '"Calendars shared with family. Licence: AGPL-3.0 Language: Rust, Python"'
    )
    assert "Python" not in drafts["Alpha"].description


def test_tagged_drafts_validate_in_the_catalog(fresh: Path) -> None:
    with_tags(fresh, "python", "mit", "free")  # free: the example entry of init
    result = run_import(STYLES / "tags.md", fresh, added=ADDED, keep_descriptions=True)
    assert not result.failed
    alpha = (fresh / "data" / "libraries" / "alpha.yml").read_text(encoding="utf-8")
    assert "description: Files in sync.\n" in alpha
    assert "\ntags: [mit, python]\n" in alpha
    assert validate(fresh).problems == []


# --- an own list builds at once (--keep-descriptions) ------------------------------------------

BARE = (
    "# My Papers\n\n## Model parallelism\n\n"
    "- https://arxiv.org/abs/1604.00981\n"
    "- https://example.org/blog/its-time-to-do-cmake-right\n"
    "- [Mesh Tensorflow](https://arxiv.org/abs/1811.02084) [Shazeer, et al. 2018]\n"
    "- [distributed-deep-learning-part-1-an-introduction](https://example.org/ddl-1/)\n"
    "- [Old Report](ftp://ftp.example.org/report.pdf) - On collectives.\n"
    "- [BackPACK (pyTorch)](https://backpack.pt/) - Backprop extras for pytorch users.\n"
)


def test_an_own_list_without_descriptions_or_titles_still_validates(fresh: Path) -> None:
    source = fresh / "mine.md"
    source.write_text(BARE, encoding="utf-8")
    result = run_import(source, fresh, added=ADDED, keep_descriptions=True)
    drafts = {d.url: d for d in result.plan.drafts}
    arxiv = drafts["https://arxiv.org/abs/1604.00981"]
    # a bare URL is titled from it; an item without words says where the list filed it
    assert (arxiv.title, arxiv.description) == (
        "arXiv 1604.00981",
        "Paper listed under Model parallelism.",
    )
    assert drafts["https://example.org/blog/its-time-to-do-cmake-right"].title == (
        "Its time to do cmake right"
    )
    mesh = drafts["https://arxiv.org/abs/1811.02084"]
    # a citation is not a description; technology names as awesome-lint spells them
    assert (mesh.title, mesh.description) == (
        "Mesh TensorFlow",
        "Paper listed under Model parallelism.",
    )
    backpack = drafts["https://backpack.pt/"]
    assert (backpack.title, backpack.description) == (
        "BackPACK (PyTorch)",
        "Backprop extras for PyTorch users.",
    )
    # a link text that is the URL's slug becomes its words
    assert drafts["https://example.org/ddl-1/"].title == (
        "Distributed deep learning part 1 an introduction"
    )
    # an ftp link cannot be an entry of a catalog that takes http(s) only: skipped, said why
    reasons = {o.title: o.reason for o in result.plan.outcomes if o.status == "skipped"}
    assert reasons == {"Old Report": "not an http(s) link: link an https copy or the DOI"}
    report = validate(fresh)
    # Only what a list line cannot give is left: the authors of its papers (a warning).
    assert [p.rule for p in report.problems if p.rule != "authors"] == [], report.problems
    assert all(p.severity == "warning" for p in report.problems)


def test_without_keep_descriptions_the_list_words_stay_a_todo(fresh: Path) -> None:
    source = fresh / "mine.md"
    source.write_text(BARE, encoding="utf-8")
    plan = run_import(source, fresh, added=ADDED, dry_run=True).plan
    titles = {d.url: d.title for d in plan.drafts}
    assert titles["https://arxiv.org/abs/1604.00981"] == "https://arxiv.org/abs/1604.00981"
    assert titles["https://arxiv.org/abs/1811.02084"] == "Mesh Tensorflow"
    assert any(d.url.startswith("ftp://") for d in plan.drafts)  # validate will say why
    assert all(d.description.startswith("TODO") for d in plan.drafts)


# --- "Some Title [[Label]](url)" items and sections under a table of contents ----------------

LINK = re.compile(r"\]\(\s*(https?://[^)\s]+)\)")


def fixture_urls(name: str) -> set[str]:
    """Return every link target of a fixture (badges' targets included, their images not)."""
    text = (STYLES / name).read_text(encoding="utf-8")
    return set(LINK.findall(re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)))


def test_labelled_links_leave_the_title_to_the_words_before_them(fresh: Path) -> None:
    """``Title [[Publisher]](url) [[Slides]](url2)``: >= 98% real titles, every URL kept."""
    plan = run_import(STYLES / "labelled-links.md", fresh, dry_run=True, added=ADDED).plan
    titles = [d.title for d in plan.drafts]
    labels = [t for t in titles if re.fullmatch(r"\[.*\]", t) or t.startswith("http")]
    assert len(plan.drafts) == 61
    assert 1 - len(labels) / len(titles) >= 0.98
    # the one left: a line with no words of its own keeps its label, as before
    assert labels == ["[Lecture notes on parallel computing]"]
    drafts = {d.title: d for d in plan.drafts}
    medium = drafts["Building Robust Production-Ready Deep Learning Vision Models in Minutes"]
    assert (medium.url, medium.links) == (
        "https://medium.com/example/building-robust-vision-models",
        [],
    )
    # later labelled links stay the entry's links, titled by their label (a type needs none)
    assert [
        (x.url, x.type, x.title) for x in drafts["Designing Data-Intensive Applications"].links
    ] == [("https://dataintensive.net/", "website", "Author's site")]
    trtis = drafts["NVIDIA TensorRT Inference Server: a cloud inferencing solution"]
    assert [(x.type, x.title) for x in trtis.links] == [("slides", "Slides: Deep into TRTIS")]
    horovod = drafts["Horovod: Fast and Easy Distributed Deep Learning in TensorFlow"]
    assert horovod.url == "https://arxiv.org/abs/1802.05799"
    assert [(x.type, x.title) for x in horovod.links] == [("website", "Uber Engineering")]
    ray = drafts["Ray: A Distributed Framework for Emerging AI Applications"]
    assert (ray.venue, ray.year) == ("OSDI", 2018)  # "(OSDI'18)" left the title
    assert "Efficient Large Scale Training on GPU Clusters" in drafts  # no $\color{red}{..}$
    assert drafts["Machine Learning at Netflix"].url.startswith("https://netflixtechblog.")
    # every URL of an item is kept; only the badge and the list's own pages are not items
    kept = {d.url for d in plan.drafts} | {x.url for d in plan.drafts for x in d.links}
    assert fixture_urls("labelled-links.md") - kept == {
        "https://awesome.re",
        "https://github.com/acme/awesome-ml-systems/commits/master",
        "https://github.com/acme/awesome-ml-systems/blob/master/CONTRIBUTING.md",
    }


def test_a_label_after_no_words_or_a_link_type_is_still_the_title() -> None:
    text = (
        "## Talks\n\n- [[Keynote at SysML]](https://example.org/keynote)\n"
        "- Paper: [[arXiv]](https://arxiv.org/abs/1802.05799)\n"
    )
    assert [(i.title, i.text) for i in parse_list(text, "x.md").items] == [
        ("[Keynote at SysML]", ""),
        ("Paper", ""),
    ]


def test_sections_nested_under_a_table_of_contents_heading_are_imported(fresh: Path) -> None:
    parsed = parse_list((STYLES / "toc-nested.md").read_text(encoding="utf-8"), "toc.md")
    assert len(parsed.items) == 18  # the ### sections under "## Table of Contents" hold items
    books = [i for i in parsed.items if i.headings[-1] == "Books"]
    assert [i.title for i in books][:2] == ["Deep Learning", "Neural Networks and Deep Learning"]
    # the table of contents is not a heading the drafts are filed under
    assert all("Table of Contents" not in i.headings for i in parsed.items)
    assert parsed.items[-1].headings == ("Awesome Deep Learning Systems", "Researchers")
    plan = run_import(STYLES / "toc-nested.md", fresh, dry_run=True, added=ADDED).plan
    kept = {d.url for d in plan.drafts} | {x.url for d in plan.drafts for x in d.links}
    assert fixture_urls("toc-nested.md") - kept == {
        "https://awesome.re",  # the badge
        "http://creativecommons.org/publicdomain/zero/1.0/",  # the licence section
        "https://github.com/acme/awesome-dl-systems/pulls",  # the list's own repository
        "https://github.com/acme/awesome-dl-systems/blob/master/CONTRIBUTING.md",
    }
    assert "books" in {d.categories[0] for d in plan.drafts}


def test_a_table_of_contents_in_parts_is_still_skipped() -> None:
    text = (
        "# List\n\n## Contents\n\n### Part one\n\n- [Papers](#papers)\n- [Code](#code)\n\n"
        "## Papers\n\n- [GPipe](https://arxiv.org/abs/1811.06965)\n"
    )
    parsed = parse_list(text, "x.md")
    assert [(i.title, i.headings) for i in parsed.items] == [("GPipe", ("List", "Papers"))]
    assert not [s for s in parsed.skips if s.reason == "no link"]


def test_short_labels_title_their_links_under_a_short_title(fresh: Path) -> None:
    source = fresh / "short.md"
    source.write_text(
        "## Video\n\n- Video Tutorials [[YouTube]](https://www.youtube.com/watch?v=abc) "
        "[[bilibili]](https://www.bilibili.com/video/BV1/) [[小红书]](http://xhslink.example/a)\n",
        encoding="utf-8",
    )
    (draft,) = run_import(source, fresh, dry_run=True, added=ADDED).plan.drafts
    assert draft.title == "Video Tutorials"
    # two short titles are not "the same title" because neither has enough words to compare
    assert {x.url: x.title for x in draft.links} == {
        "https://www.youtube.com/watch?v=abc": None,  # "YouTube" names the link's type
        "http://xhslink.example/a": "小红书",
    }
