"""README.md generation: order, escaping, cross-references, marks, size, --check, determinism."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import stat
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt
from markdown_it.token import Token

from ddl_catalog.cli import cli
from ddl_catalog.model import Catalog, Entry, Link
from ddl_catalog.model.build import InvalidCatalog, open_catalog
from ddl_catalog.render import readme
from ddl_catalog.render.markdown import UnsafeURLError, md_text, md_url

FIXTURE = Path(__file__).parent / "fixtures" / "readme" / "catalog"
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A copy of the fixture catalog, safe to change."""
    target = tmp_path / "catalog"
    shutil.copytree(FIXTURE, target)
    return target


@pytest.fixture()
def catalog(root: Path) -> Catalog:
    return open_catalog(root)


def tokens(text: str) -> list[Token]:
    """Parse Markdown the way CommonMark does, flattening inline tokens."""
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    flat: list[Token] = []
    for token in md.parse(text):
        flat.append(token)
        flat.extend(token.children or [])
    return flat


def hrefs(text: str) -> list[str]:
    return [str(t.attrs["href"]) for t in tokens(text) if t.type == "link_open"]


def section(text: str, heading: str) -> str:
    """Return the body of the section under ``heading`` (up to the next heading)."""
    match = re.search(rf"^#+ {re.escape(heading)}\n(.*?)(?=^#)", text, re.M | re.S)
    assert match, heading
    return match.group(1)


def titles_in(body: str) -> list[str]:
    return re.findall(r"^- \[(.+?)\]\(", body, re.M)


# -- order -------------------------------------------------------------------------------------


def test_papers_newest_first_then_title_undated_last(catalog: Catalog) -> None:
    body = section(readme.render(catalog), "Data parallelism")
    assert titles_in(body) == [
        "Another Paper of 2019",
        "First Paper of 2019",
        "Zeta Is an Older Paper",
        "An Undated Paper",
    ]


def test_kinds_grouped_then_titles(catalog: Catalog) -> None:
    body = section(readme.render(catalog), "Frameworks")
    # frameworks (by title) come before articles, whatever the titles
    assert titles_in(body) == ["Archived Framework", "Horovod", "Dead Article"]


def test_sections_follow_categories_file_and_contents_lists_them(catalog: Catalog) -> None:
    text = readme.render(catalog)
    headings = re.findall(r"^(#{2,3}) (.+)$", text, re.M)
    assert headings == [
        ("##", "Contents"),
        ("##", "Surveys and overviews"),
        ("##", "Parallelism"),
        ("###", "Data parallelism"),
        ("###", "Model parallelism"),
        ("##", "Frameworks"),
        ("##", "Contributing"),
    ]
    contents = section(text, "Contents")
    assert contents.strip().splitlines() == [
        "- [Surveys and overviews](#surveys-and-overviews)",
        "- [Parallelism](#parallelism)",
        "  - [Data parallelism](#data-parallelism)",
        "  - [Model parallelism](#model-parallelism)",
        "- [Frameworks](#frameworks)",
    ]


def test_authors_first_three_then_et_al() -> None:
    assert readme.authors_text([]) is None
    assert readme.authors_text(["A B", "C D"]) == "A B, C D"
    assert readme.authors_text(["A", "B", "C"]) == "A, B, C"
    assert readme.authors_text(["A", "B", "C", "D"]) == "A, B, C et al."


def test_paper_line_form(catalog: Catalog) -> None:
    text = readme.render(catalog)
    assert (
        "- [First Paper of 2019](https://arxiv.org/abs/1901.00001) - A paper filed under three "
        "categories, to test cross-references. Ada Alpha, Bob Beta, Cy Gamma et al. *NeurIPS*, "
        "2019. ([code](https://github.com/example/first-code), "
        "[slides](https://example.org/first-slides.pdf))\n"
    ) in text
    assert "Eve Epsilon, Fay Zeta. 2017.\n" in text
    assert "Gil Eta. *ICML*, 2019.\n" in text


# -- header and footer -------------------------------------------------------------------------


def test_starts_with_project_and_the_two_commands(catalog: Catalog) -> None:
    text = readme.render(catalog)
    lines = text.splitlines()
    assert lines[0] == (
        "# Awesome Distributed Deep Learning "
        "[![Awesome](https://awesome.re/badge.svg)](https://awesome.re)"
    )
    head = text[: text.index("## Contents")]
    paragraphs = [p for p in head.split("\n\n")[1:] if not p.startswith("<!--")]
    # what the list is comes first, in one paragraph; then the two commands
    assert paragraphs[0].startswith("A curated list of distributed deep learning")
    assert head.index("```sh") > head.index(paragraphs[0])
    first_block = re.search(r"```sh\n(.*?)```", head, re.S)
    assert first_block
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines()]
    assert commands == ["make build", "make test"]


def test_footer_contributing_counts_no_license(catalog: Catalog) -> None:
    text = readme.render(catalog)
    footer = text[text.index("## Contributing") :]
    assert "[contribution guide](CONTRIBUTING.md)" in footer
    assert "make build\nmake test" in footer
    assert "The catalog holds 8 entries: 2 frameworks, 5 papers, 1 article." in footer
    assert not re.search(r"^#+ Licen[cs]e", text, re.M | re.I)


# -- escaping ----------------------------------------------------------------------------------


def test_hostile_fields_render_inert(catalog: Catalog) -> None:
    text = readme.render(catalog)
    html = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(text)
    assert html.count("<img") == 1  # the Awesome badge
    assert '<img src="https://awesome.re/badge.svg" alt="Awesome" />' in html
    assert "onerror" not in html.replace("onerror=alert(1)&gt;", "")
    assert "<script" not in html
    assert "<b>" not in html
    assert "javascript:" not in "".join(hrefs(text))
    raw = [t.content for t in tokens(text) if t.type in ("html_inline", "html_block")]
    assert [c.startswith("<!-- Generated") for c in raw] == [True]
    # no emphasis, code or strike-through comes out of the data: the only ones are ours
    body = section(text, "Surveys and overviews")
    inline = [t for t in tokens(body) if t.type in ("code_inline", "s_open", "strong_open")]
    assert inline == []
    ems = [t for t in tokens(body) if t.type == "em_open"]
    # the venue and the cross-referenced title, which the template emphasises
    assert len(ems) == 2
    # and the characters show literally
    plain = "".join(t.content for t in tokens(body) if t.type == "text")
    assert "<img src=x onerror=alert(1)> | *bold* _under_ `tick` [br]" in plain
    assert "[x](javascript:alert(1)) or <script>alert(2)</script>" in plain
    assert "`code` ~~strike~~ $math$." in plain
    assert "Conf *Star*" in plain


def hostile_settings(root: Path) -> None:
    """Give the fixture catalog an intro, commands and descriptions that attack the README."""
    settings = root / "catalog.yml"
    text = settings.read_text(encoding="utf-8")
    start = text.index("description: >-")
    end = text.index("site_url:")
    intro = (
        "A list with [docs](https://docs.example/guide_(v2)), a [bad](javascript:alert(1)) link,"
        " ![pixel](https://t.example/p.png), <b>html</b> and an unclosed <!-- comment that would"
        " hide the rest; see www.intro.example or https://bare.example/x."
    )
    text = text[:start] + f"description: {json.dumps(intro)}\n" + text[end:]
    text = text.replace(
        "  build: creates .venv, validates the catalog, builds README.md and the website\n",
        '  build: "builds it\\n```\\n\\n<img src=x onerror=alert(1)>\\n```sh"\n',
    )
    settings.write_text(text, encoding="utf-8")
    paper = root / "data" / "papers" / "alpha2019first.yml"
    entry = paper.read_text(encoding="utf-8")
    entry = re.sub(
        r"^description: .*$",
        "description: Mirrored at www.mirror.example and https://bare.example/paper, "
        "or WWW.UPPER.example and ftp://files.example/x.",
        entry,
        count=1,
        flags=re.M,
    )
    paper.write_text(entry, encoding="utf-8")


def test_intro_commands_and_bare_addresses_render_inert(root: Path) -> None:
    hostile_settings(root)
    text = readme.render(open_catalog(root))
    # The intro: its http(s) link stays a link; the rest is text (no comment hides the list).
    raw = [t.content for t in tokens(text) if t.type in ("html_inline", "html_block")]
    assert [c.startswith("<!-- Generated") for c in raw] == [True]
    assert "https://docs.example/guide_%28v2%29" in hrefs(text)
    assert not [h for h in hrefs(text) if "javascript" in h or "t.example" in h]
    assert not [t for t in tokens(text) if t.type == "image" and "t.example" in t.attrs["src"]]
    plain = "".join(t.content for t in tokens(text) if t.type == "text")
    assert "a [bad](javascript:alert(1)) link, ![pixel](" in plain
    assert "<b>html</b> and an unclosed <!-- comment" in plain
    assert len(titles_in(section(text, "Surveys and overviews"))) >= 1  # still listed
    # The command note: folded into its one line, the block holds the two commands only.
    block = re.search(r"```sh\n(.*?)\n```\n", text, re.S)
    assert block is not None
    assert block.group(1).splitlines() == [
        "make build   # builds it ``` <img src=x onerror=alert(1)> ```sh",
        "make test    # ruff, mypy and the test suite",
    ]
    # GFM's autolinks: no www. or scheme:// left in text for GitHub to link.
    prose = re.sub(r"\]\([^)\s]*\)", "]()", text.replace("(https://awesome.re)", ""))
    prose = re.sub(r"<!-- Generated.*?-->", "", prose)
    left = re.findall(r".{0,20}(?:(?i:www)\.|(?<!\\)://).{0,10}", prose)
    assert left == []
    assert "Mirrored at www.mirror.example and https://bare.example/paper" in plain


def test_every_link_is_http_or_in_repo(catalog: Catalog) -> None:
    for href in hrefs(readme.render(catalog)):
        assert href.startswith(("https://", "http://", "#")) or href in (
            "CONTRIBUTING.md",
            "CODE_OF_CONDUCT.md",
        ), href


def test_md_text_escapes_every_significant_character() -> None:
    assert md_text("a\\b`c*d_e[f]g<h>i|j~k!l&m#n$o") == (
        "a\\\\b\\`c\\*d\\_e\\[f\\]g\\<h\\>i\\|j\\~k\\!l\\&m\\#n\\$o"
    )
    assert md_text("  two\n lines  ") == "two lines"


def test_md_url_accepts_http_only_and_encodes_breakers() -> None:
    assert md_url("https://example.org/a (b)") == "https://example.org/a%20%28b%29"
    for bad in ("javascript:alert(1)", "data:text/html,x", "ftp://x.org/", "//x.org", "/a"):
        with pytest.raises(UnsafeURLError):
            md_url(bad)


def test_unsafe_url_is_refused_by_the_command(root: Path, catalog: Catalog) -> None:
    evil = replace(catalog.entries[0], url="javascript:alert(1)")
    bad = Catalog(root, (evil, *catalog.entries[1:]), catalog.categories, catalog.tags)
    with pytest.raises(UnsafeURLError):
        readme.render(bad)


# -- cross-references, marks, unique links -----------------------------------------------------


def test_entry_in_full_once_and_cross_referenced_elsewhere(catalog: Catalog) -> None:
    text = readme.render(catalog)
    assert text.count("[First Paper of 2019](https://arxiv.org/abs/1901.00001)") == 1
    assert "First Paper of 2019" in titles_in(section(text, "Data parallelism"))
    for heading in ("Model parallelism", "Surveys and overviews"):
        body = section(text, heading)
        assert "First Paper of 2019" not in titles_in(body)
        assert (
            "Also relevant, listed in other sections: *First Paper of 2019* (in Data parallelism)"
        ) in body
    assert "*Horovod* (in Frameworks)." in section(text, "Data parallelism")


def test_cross_references_stay_on_the_page(catalog: Catalog) -> None:
    """No cross-reference leaves the README for the website (the old ?via= permalinks)."""
    text = readme.render(catalog)
    assert "?via=" not in text
    assert "See also" not in text
    site = readme.site_url_for(catalog.root)
    assert site
    assert [h for h in hrefs(text) if h.startswith(site) and "#" in h] == []


def test_a_surname_the_spell_check_misreads_skips_that_check_for_its_entry(
    catalog: Catalog,
) -> None:
    """awesome-lint reads "Dao" as the technology DAO; the entry of Tri Dao's paper says so."""
    first = next(e for e in catalog.entries if e.id == "alpha2019first")
    entries = [replace(first, authors=("Tri Dao",)) if e is first else e for e in catalog.entries]
    text = readme.render(Catalog(catalog.root, tuple(entries), catalog.categories, catalog.tags))
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("- [First Paper of 2019]"))
    assert lines[at - 1] == "<!--lint ignore awesome-spell-check-->"
    assert text.count("<!--lint ignore") == 1
    assert "<!--lint" not in readme.render(catalog)


def test_no_url_appears_twice(catalog: Catalog) -> None:
    links = Counter(readme.link_key(h) for h in hrefs(readme.render(catalog)))
    assert [url for url, n in links.items() if n > 1] == []
    # Horovod's "paper" link is the First Paper's own URL: it is left out, its docs stay
    horovod = next(
        line for line in readme.render(catalog).splitlines() if line.startswith("- [Horovod]")
    )
    assert "arxiv.org/abs/1901.00001" not in horovod
    assert "[docs](https://horovod.readthedocs.io/)" in horovod


def test_archived_and_dead_are_marked(catalog: Catalog) -> None:
    text = readme.render(catalog)
    assert (
        "- [Archived Framework](https://github.com/example/archived-framework) - **Archived.** "
        in text
    )
    assert (
        "- [Dead Article](https://web.archive.org/web/2019/https://gone.example.com/dead-article)"
        " - **Dead link, archived copy.** "
    ) in text
    assert "https://gone.example.com/dead-article)" not in text.replace(
        "https://web.archive.org/web/2019/https://gone.example.com/dead-article)", ""
    )


# -- site URL ----------------------------------------------------------------------------------


def test_site_url_from_mkdocs_then_settings_else_none(tmp_path: Path) -> None:
    assert readme.site_url_for(tmp_path) is None
    (tmp_path / "catalog.yml").write_text(
        "title: Awesome X\ndescription: A list of x things.\nsite_url: https://example.net/x/\n"
    )
    assert readme.site_url_for(tmp_path) == "https://example.net/x/"
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nsite_url: 'https://example.org/cat'\n")
    assert readme.site_url_for(tmp_path) == "https://example.org/cat/"


def test_site_url_used_for_the_website_link(root: Path) -> None:
    (root / "mkdocs.yml").write_text("site_url: https://example.org/ddl/\n")
    text = readme.render(open_catalog(root))
    assert "[website](https://example.org/ddl/)" in text


# -- determinism -------------------------------------------------------------------------------


def test_same_catalog_same_bytes_whatever_the_entry_order(catalog: Catalog) -> None:
    first = readme.render(catalog)
    shuffled = list(catalog.entries)
    random.Random(4).shuffle(shuffled)
    again = Catalog(catalog.root, tuple(shuffled), catalog.categories, catalog.tags)
    assert readme.render(again) == first
    assert first.endswith(".\n") and not first.endswith("\n\n")
    assert "\n\n\n" not in first


def test_golden_file(catalog: Catalog) -> None:
    """The fixture catalog's README, byte for byte (UPDATE_GOLDEN=1 rewrites it)."""
    golden = FIXTURE.parent / "expected-README.md"
    text = readme.render(catalog)
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


# -- size --------------------------------------------------------------------------------------


def synthetic(n: int) -> Catalog:
    """A catalog of n entries spread over the live category tree, most with long fields."""
    live = open_catalog(REPO)  # the live category tree and tags; its entries are replaced
    ids = list(live.categories)
    rng = random.Random(5000)
    entries = []
    for i in range(n):
        cats = tuple(rng.sample(ids, 3))
        entries.append(
            Entry(
                id=f"entry-{i:05d}",
                kind="paper" if i % 3 else "library",
                title=f"Scaling Deep Network Training Across Many Accelerators, Part {i}",
                url=f"https://example.org/resources/{i:05d}/scaling-deep-network-training",
                description=(
                    "A synthetic resource whose description is as long as a real one may be, "
                    "to see how the README grows when the catalog holds thousands of entries "
                    f"spread over every category of the tree, number {i}."
                ),
                categories=cats,
                source=f"data/papers/entry-{i:05d}.yml",
                authors=("Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"),
                year=2000 + i % 25,
                venue="NeurIPS",
                links=(Link("code", f"https://github.com/example/code-{i:05d}"),),
            )
        )
    return Catalog(live.root, tuple(entries), live.categories, live.tags)


def test_5000_entries_stay_under_githubs_limit() -> None:
    big = synthetic(5000)
    text = readme.render(big)
    size = len(text.encode())
    assert size < readme.GITHUB_README_LIMIT
    assert size <= readme.SIZE_BUDGET + 16 * 1024
    shortened = re.findall(r"^Shortened to keep this page under GitHub's size limit", text, re.M)
    assert shortened
    # Markdown needs a blank line between the note and its list (markdownlint MD032).
    assert not re.search(r"^Shortened to keep[^\n]*\n- ", text, re.M)
    # each shortened section lists SHORT_ENTRIES entries, title and link only, and links out
    body = section(text, "Data parallelism")
    listed = titles_in(body)
    assert len(listed) == readme.SHORT_ENTRIES
    assert all(line.endswith(")") for line in body.splitlines() if line.startswith("- ["))
    assert f"[website]({readme.site_url_for(big.root)}parallelism/data-parallelism/)" in body
    links = Counter(readme.link_key(h) for h in hrefs(text))
    assert [url for url, n in links.items() if n > 1] == []


def test_small_catalog_is_never_shortened(catalog: Catalog) -> None:
    assert "Shortened" not in readme.render(catalog)


# -- the command: write, --check, errors -------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["readme", *args])
    return result.exit_code, result.stdout, result.stderr


def test_writes_readme_and_check_is_fresh(root: Path) -> None:
    code, out, _ = run("--root", str(root))
    assert code == 0, out
    written = (root / "README.md").read_text(encoding="utf-8")
    assert written == readme.render(open_catalog(root))
    assert oct((root / "README.md").stat().st_mode & 0o777) == oct(0o644)
    code, out, _ = run("--root", str(root), "--check")
    assert code == 0
    assert "up to date" in out
    assert [p.name for p in root.iterdir() if p.name.startswith(".README")] == []


def test_check_on_stale_file_prints_diff_and_touches_nothing(root: Path) -> None:
    run("--root", str(root))
    target = root / "README.md"
    stale = target.read_text(encoding="utf-8").replace("Horovod", "Horrorvod", 1)
    target.write_text(stale, encoding="utf-8")
    before = target.stat()
    code, out, err = run("--root", str(root), "--check")
    assert code == 1
    assert "--- README.md (on disk)" in out
    assert "+++ README.md (generated)" in out
    assert re.search(r"^-.*Horrorvod", out, re.M)
    assert re.search(r"^\+.*Horovod", out, re.M)
    assert "stale" in err
    assert target.read_text(encoding="utf-8") == stale
    assert target.stat().st_mtime_ns == before.st_mtime_ns


def test_check_on_missing_file_fails(root: Path) -> None:
    code, out, _ = run("--root", str(root), "--check")
    assert code == 1
    assert not (root / "README.md").exists()
    assert "+# Awesome Distributed Deep Learning" in out


def test_output_option(root: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "elsewhere.md"
    code, _, _ = run("--root", str(root), "-o", str(out_file))
    assert code == 0
    assert out_file.read_text(encoding="utf-8").startswith("# Awesome")
    assert run("--root", str(root), "-o", str(out_file), "--check")[0] == 0


def test_failed_write_keeps_the_old_file(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = root / "README.md"
    target.write_text("old\n", encoding="utf-8")

    def broken(src: str, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    code, _, err = run("--root", str(root))
    assert code == 1
    assert "No space left on device" in err
    assert "Traceback" not in err
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in root.iterdir() if p.name.endswith(".tmp")] == []


def test_invalid_catalog_is_one_clear_line(root: Path) -> None:
    (root / "data" / "papers" / "broken.yml").write_text("id: broken\nkind: paper\n")
    code, out, err = run("--root", str(root))
    assert code == 1
    assert "Traceback" not in out + err
    assert "error" in (out + err).lower()
    assert not (root / "README.md").exists()


# -- the live catalog --------------------------------------------------------------------------


def test_live_catalog_renders_without_repeated_links() -> None:
    text = readme.render(open_catalog(REPO))
    links = Counter(readme.link_key(h) for h in hrefs(text))
    assert [url for url, n in links.items() if n > 1] == []
    assert len(text.encode()) < readme.SIZE_BUDGET


def test_refuses_to_write_a_readme_github_cannot_show(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(readme, "GITHUB_README_LIMIT", 1024)
    with pytest.raises(readme.ReadmeError, match="GitHub renders at most 1 KB"):
        readme.render(catalog)


def test_enrichment_flags_archived_and_inactive_repositories(root: Path) -> None:
    # What `ddl-catalog enrich` commits; the entry's own status (archived-framework) still wins.
    (root / "data" / "metadata").mkdir(parents=True, exist_ok=True)
    records = {
        "horovod/horovod": {"archived": True, "pushed_at": "2025-01-02", "fetched": "2026-01-01"},
        "example/archived-framework": {"archived": True, "fetched": "2026-01-01"},
    }
    (root / "data" / "metadata" / "github.json").write_text(json.dumps({"records": records}))
    text = readme.render(open_catalog(root))
    assert "- [Horovod](https://github.com/horovod/horovod) - **Repository archived.** " in text
    assert (
        "[Archived Framework](https://github.com/example/archived-framework) - **Archived.** "
        in (text)
    )
    records["horovod/horovod"] = {
        "archived": False,
        "pushed_at": "2021-03-04",
        "fetched": "2026-01-01",
    }
    (root / "data" / "metadata" / "github.json").write_text(json.dumps({"records": records}))
    text = readme.render(open_catalog(root))
    assert (
        "- [Horovod](https://github.com/horovod/horovod) - **Inactive: last commit 2021-03-04.** "
        in text
    )


def test_unreadable_metadata_is_a_clear_error(root: Path) -> None:
    catalog = open_catalog(root)
    (root / "data" / "metadata").mkdir(parents=True, exist_ok=True)
    (root / "data" / "metadata" / "github.json").write_text("{not json")
    where = r"data/metadata/github\.json:1:2: error: not valid JSON"
    with pytest.raises(readme.ReadmeError, match=where):
        readme.render(catalog)
    with pytest.raises(InvalidCatalog):  # validate refuses it first (tests/test_metadata_check.py)
        open_catalog(root)


def test_a_shortened_section_counts_titles_not_groups() -> None:
    groups = (readme.XrefView("A", ("t1", "t2", "t3")), readme.XrefView("B", ("t4",) * 12))
    full = readme.SectionView(
        "x", "X", "An x.", 2, "x", (), groups, "", xref_count=15, total_xrefs=15
    )
    short = readme._shorten(full)
    assert short.xref_count == readme.SHORT_XREFS == 10
    assert [len(g.titles) for g in short.xrefs] == [3, 7]


def test_output_that_is_not_a_regular_file_is_refused(root: Path, tmp_path: Path) -> None:
    # Writing: a FIFO is not replaced by a regular file. Checking: it is not read (it would
    # wait for a writer forever).
    fifo = tmp_path / "README.md"
    os.mkfifo(fifo)
    for args in ((), ("--check",)):
        code, _, err = run("--root", str(root), "-o", str(fifo), *args)
        assert code == 1
        assert "a named pipe (FIFO), not a file" in err
        assert "Traceback" not in err
        assert stat.S_ISFIFO(fifo.stat().st_mode)


MATRIX_SETTINGS = """
capabilities:
  section: frameworks
  columns:
    - {id: data-parallel, label: DP, group: Parallelism}
    - {id: pipeline-parallel, label: PP, group: Parallelism}
    - {id: amd-rocm, label: AMD, group: Hardware}
"""


def _framework(root: Path, name: str, extra: str) -> None:
    (root / "data" / "frameworks" / f"{name}.yml").write_text(
        f"id: {name}\nkind: framework\ntitle: {name.title()} | Pipe\n"
        f"url: https://example.org/{name}\ndescription: A framework for the README tests.\n"
        f"categories: [frameworks]\n{extra}",
        encoding="utf-8",
    )


def test_maintenance_markers_and_the_compact_matrix(root: Path) -> None:
    with (root / "catalog.yml").open("a", encoding="utf-8") as handle:
        handle.write(MATRIX_SETTINGS)
    _framework(
        root,
        "oldfw",
        'maintenance:\n  state: unmaintained\n  checked: "2026-11-25"\n'
        '  last_commit: "2017-07-24"\n  source: https://example.org/oldfw\n'
        "  evidence: Newest commit in the snapshot is from 2017.\n"
        'capabilities:\n  as_of: "2026-11-25"\n  cells:\n'
        '    data-parallel: {value: "yes", source: "https://example.org/oldfw/dp"}\n'
        '    pipeline-parallel: {value: "partial", note: GPipe only, source: "https://x.org/p"}\n'
        '    amd-rocm: {value: "no", source: "https://example.org/oldfw/install"}\n',
    )
    _framework(
        root,
        "newfw",
        'maintenance:\n  state: superseded\n  checked: "2026-11-25"\n'
        "  source: https://example.org/newfw\n  evidence: Its README names Oldfw as successor.\n"
        "  superseded_by: oldfw\n",
    )
    text = readme.render(open_catalog(root))
    assert (
        "- [Oldfw \\| Pipe](https://example.org/oldfw) - **Unmaintained: last commit 2017-07.**"
        in text
    )
    assert "**Superseded by Oldfw | Pipe.**" not in text  # escaped like every field
    assert "**Superseded by Oldfw \\| Pipe.**" in text
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert table[0].split("|")[1:-1] == [" Framework     ", " Parallelism ", " Hardware "]
    assert table[2] == "| Oldfw \\| Pipe | DP, \\~PP    | –        |"
    assert len({len(line) for line in table}) == 1  # pipes aligned
    assert "[Compare page](https://ddl-catalog.github.io/ddl-catalog/compare/)" in text


def test_a_venue_carries_its_editions_year(root: Path) -> None:
    paper = root / "data" / "papers" / "late2023paper.yml"
    paper.write_text(
        "id: late2023paper\nkind: paper\ntitle: A Late Paper\nurl: https://example.org/late\n"
        "description: On arXiv in 2023, at ICLR in 2024.\ncategories: [surveys]\nyear: 2023\n"
        "venue: ICLR\nvenue_year: 2024\n",
        encoding="utf-8",
    )
    same = root / "data" / "papers" / "same2016paper.yml"
    same.write_text(
        "id: same2016paper\nkind: paper\ntitle: A Same-Year Paper\nurl: https://example.org/s\n"
        "description: Published at OSDI the year it appeared.\ncategories: [surveys]\n"
        "year: 2016\nvenue: OSDI\nvenue_year: 2016\n",
        encoding="utf-8",
    )
    text = readme.render(open_catalog(root))
    assert "On arXiv in 2023, at ICLR in 2024. *ICLR 2024*, first published 2023." in text
    assert "Published at OSDI the year it appeared. *OSDI 2016*." in text
