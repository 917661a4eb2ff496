"""Any list can adopt the toolchain: ``init``, catalog.yml settings, nothing of this catalog leaks.

A second catalog, made by ``ddl-catalog init`` with its own settings and a tiny data set, builds
a README, a website and a feed in which none of this catalog's names appear.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddl_catalog import __version__, settings
from ddl_catalog.cli import cli
from ddl_catalog.export import render as export_render
from ddl_catalog.model.build import open_catalog
from ddl_catalog.render import engines, readme
from ddl_catalog.validate import validate

REPO = Path(__file__).resolve().parent.parent
ACTIONLINT = shutil.which("actionlint") or str(REPO / ".venv" / "bin" / "actionlint")
AWESOME_LINT = REPO / "tools" / "npm" / "node_modules" / ".bin" / "awesome-lint"
#: Strings that name this catalog; none may appear in another catalog's outputs.
OUR_NAMES = (
    "distributed deep learning",
    "deep learning",
    "ddl-catalog.github.io",
    "github.com/ddl-catalog",
    "parameter server",
)
OTHER = {
    "title": "Awesome Home Espresso",
    "description": "A curated list of guides, tools and gear for making espresso at home.",
    "site_url": "https://beans.example.org/espresso/",
    "repository": "https://github.com/beans/awesome-espresso",
}
GRINDER = """\
# yaml-language-server: $schema=../../schemas/entry.schema.json
id: grind-size-guide
kind: article
title: A Grind Size Guide
url: https://beans.example.org/grind-size
description: How grind size changes extraction, with a table of starting points per brewer.
categories: [guides]
tags: []
added: "2026-01-15"
"""
#: The files init writes besides README.md (dot-files included).
INIT_FILES = {
    ".github/pull_request_template.md",
    ".github/workflows/ci.yml",
    ".github/workflows/publish.yml",
    ".gitignore",
    ".pre-commit-config.yaml",
    "CONTRIBUTING.md",
    "Makefile",
    "README.md",
    "catalog.yml",
    "data/categories.yml",
    "data/lists/awesome.yml",
    "data/tags.yml",
    "docs/index.md",
    "mkdocs.yml",
    "schemas/catalog.schema.json",
    "schemas/categories.schema.json",
    "schemas/entry.schema.json",
    "schemas/tags.schema.json",
}


def init(target: Path, **values: str) -> Path:
    """Run ``ddl-catalog init`` with --title, --description ... and check it succeeded."""
    args = ["init", str(target)]
    for key, value in values.items():
        args += [f"--{key.replace('_', '-')}", value]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return target


@pytest.fixture(scope="module")
def other(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A second catalog: init with its own settings, one more entry, then built (README, site)."""
    root = init(tmp_path_factory.mktemp("other") / "espresso", **OTHER)
    (root / "data" / "articles").mkdir()
    (root / "data" / "articles" / "grind-size-guide.yml").write_text(GRINDER, encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--root", str(root), "--strict"])
    assert result.exit_code == 0, result.output
    return root


def test_init_writes_every_file(other: Path) -> None:
    written = {
        p.relative_to(other).as_posix()
        for p in other.rglob("*")
        if p.is_file() and p.relative_to(other).parts[0] != "site"
    }
    assert written == INIT_FILES | {"data/articles/grind-size-guide.yml"}
    text = (other / "README.md").read_text(encoding="utf-8")
    assert "make build" in text and "make test" in text
    makefile = (other / "Makefile").read_text(encoding="utf-8")
    for target in ("build:", "test:", "pr-check:", "ci:"):
        assert f"\n{target}" in makefile
    assert (
        f"\nDDL_CATALOG ?= ddl-catalog=={__version__}\n" in makefile
    )  # the toolchain that wrote it


@pytest.mark.parametrize("engine", ["mkdocs", "zensical"])
def test_a_fresh_catalog_passes_validate_strict_and_build(tmp_path: Path, engine: str) -> None:
    """As init writes it, and with the other site engine chosen the documented way."""
    root = init(tmp_path / "fresh")
    if engine != "mkdocs":
        with (root / "catalog.yml").open("a", encoding="utf-8") as settings_file:
            settings_file.write(f"site:\n  engine: {engine}\n")
    report = validate(root)
    assert report.problems == [] and len(report.documents) == 1
    result = CliRunner().invoke(cli, ["build", "--root", str(root), "--strict"])
    assert result.exit_code == 0, result.output
    assert (root / "site" / "index.html").is_file()
    for topic in ("overview", "overview/guides", "tools"):  # init's topics, with their pages
        assert (root / "site" / topic / "index.html").is_file(), topic
    assert "Awesome" in (root / "site" / "overview" / "index.html").read_text(encoding="utf-8")
    assert (root / "site" / "assets" / "extra.css").is_file()  # the package's asset
    assert (root / "site" / engines.get(engine).search_index).is_file()  # built by that engine
    check = CliRunner().invoke(cli, ["readme", "--root", str(root), "--check"])
    assert check.exit_code == 0, check.output  # init's README is what build gives


def test_none_of_this_catalogs_names_appear_in_another_catalog(other: Path) -> None:
    feed = export_render(open_catalog(other), "atom", site_url=OTHER["site_url"])
    outputs = {"README.md": (other / "README.md").read_text(encoding="utf-8"), "feed": feed}
    for path in sorted((other / "site").rglob("*")):
        if path.is_file() and path.suffix in {".html", ".xml", ".json", ".md", ".csv", ".bib"}:
            outputs[path.relative_to(other).as_posix()] = path.read_text(encoding="utf-8")
    assert "site/index.html" in outputs and "site/feed.xml" in outputs
    for name, text in outputs.items():
        for ours in OUR_NAMES:
            assert ours not in text.lower(), f"{name} names this catalog: {ours!r}"
    # ... and its own names are there instead
    assert outputs["README.md"].startswith("# Awesome Home Espresso [![Awesome]")
    assert OTHER["description"] in outputs["README.md"]
    assert "tag:beans.example.org,2026:awesome-home-espresso:entry:grind-size-guide" in feed
    assert "<title>Home Espresso: new entries</title>" in feed
    assert OTHER["site_url"] in outputs["site/api/catalog.schema.json"]


def test_this_catalogs_names_live_only_in_its_settings() -> None:
    """No package module or default template names this catalog (the schemas' $id aside)."""
    sources = [*(REPO / "src" / "ddl_catalog").rglob("*.py"), *(REPO / "templates").rglob("*.j2")]
    sources += list((REPO / "src" / "ddl_catalog" / "resources" / "init").rglob("*"))
    for path in sources:
        if path.is_dir() or (path.name.startswith("_") and path.parent.name == "schema"):
            continue
        text = path.read_text(encoding="utf-8").lower()
        for ours in ("distributed deep learning", "ddl-catalog.github.io"):
            assert ours not in text, f"{path.relative_to(REPO)} names this catalog"
    ours = settings.load(REPO)
    assert ours.title == "Awesome Distributed Deep Learning"
    assert ours.site_url == "https://ddl-catalog.github.io/ddl-catalog/"
    assert ours.feed_id == "tag:ddl-catalog.github.io,2026:"


def test_init_refuses_a_non_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine\n")
    result = CliRunner().invoke(cli, ["init", str(tmp_path)])
    assert result.exit_code == 1
    assert "the folder is not empty" in result.output
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--site-url", "ftp://x", "--site-url: not an http(s) address"),
        ("--repository", "https://gitlab.com/a", "--repository: give the https://github.com"),
        ("--title", "A", "--title: give 3 to 100 characters"),
    ],
)
def test_init_says_which_option_is_wrong(
    tmp_path: Path, option: str, value: str, message: str
) -> None:
    result = CliRunner().invoke(cli, ["init", str(tmp_path / "x"), option, value])
    assert result.exit_code == 1
    assert message in result.output
    assert not (tmp_path / "x").exists()


def test_schema_lines_resolve_in_a_new_catalog(other: Path) -> None:
    for path in [other / "catalog.yml", *(other / "data").rglob("*.yml")]:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), path
        schema = (path.parent / first.split("$schema=", 1)[1]).resolve()
        assert schema.is_file() and schema.parent == (other / "schemas").resolve(), path


def test_fmt_and_add_keep_a_new_catalogs_schema_lines(tmp_path: Path) -> None:
    root = init(tmp_path / "c")
    check = CliRunner().invoke(cli, ["fmt", "--root", str(root), "--check"])
    assert check.exit_code == 0, check.output
    added = CliRunner().invoke(
        cli,
        [
            "add",
            "--root",
            str(root),
            "https://github.com/example/tool",
            "--offline",
            "--category",
            "tools",
            "--kind",
            "library",
            "--description",
            "A tool that makes something simpler.",
        ],
    )
    assert added.exit_code == 0, added.output
    written = root / "data" / "libraries" / "tool.yml"
    assert written.read_text().startswith(
        "# yaml-language-server: $schema=../../schemas/entry.schema.json\n"
    )


# -- catalog.yml -------------------------------------------------------------------------------


def test_settings_errors_are_located(catalog_dir) -> None:  # type: ignore[no-untyped-def]
    root = catalog_dir({"catalog.yml": "title: Awesome X\ndescription: A list.\nsite_url: nope\n"})
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    assert "catalog.yml:2:14: error:" in result.output
    assert "catalog.yml:3:11: error:" in result.output
    assert "Traceback" not in result.output


def test_unknown_settings_key_is_named(catalog_dir) -> None:  # type: ignore[no-untyped-def]
    root = catalog_dir({"catalog.yml": "title: Awesome X\ndescription: A list of x.\ntitel: Y\n"})
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    assert "catalog.yml:3:1: error:" in result.output and "titel" in result.output


def test_kinds_the_list_does_not_use_are_refused(tmp_path: Path) -> None:
    root = init(tmp_path / "c")
    text = (root / "catalog.yml").read_text()
    text = text.replace(
        "kinds: [framework, library, paper, article, talk, tutorial, book, "
        "benchmark, dataset, list, docs]",
        "kinds: [article, tutorial]",
    )
    (root / "catalog.yml").write_text(text)
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    assert (
        "data/lists/awesome.yml:3:7: error: kind 'list' is not used by this list; "
        "catalog.yml's kinds are: article, tutorial [kinds]"
    ) in result.output


def test_an_empty_tag_list_and_empty_entry_tags_are_accepted(tmp_path: Path) -> None:
    root = init(tmp_path / "c")
    (root / "data" / "tags.yml").write_text("tags: []\n")
    entry = root / "data" / "lists" / "awesome.yml"
    entry.write_text(entry.read_text().replace("tags: [free]", "tags: []"))
    assert validate(root).problems == []


def test_readme_fields_come_from_the_settings(tmp_path: Path) -> None:
    root = init(tmp_path / "c")
    paper = GRINDER.replace("kind: article", "kind: paper").replace("id: grind-size-guide", "id: g")
    paper += "authors: [Ada Bean]\nyear: 2020\nvenue: Coffee Journal\n"
    (root / "data" / "papers").mkdir()
    (root / "data" / "papers" / "g.yml").write_text(paper)
    full = readme.render(open_catalog(root))
    assert "Ada Bean. *Coffee Journal*, 2020." in full
    with (root / "catalog.yml").open("a") as handle:
        handle.write("fields: [links]\n")
    bare = readme.render(open_catalog(root))
    assert "Ada Bean" not in bare and "Coffee Journal" not in bare


def test_a_catalogs_own_templates_override_the_packages(tmp_path: Path) -> None:
    root = init(tmp_path / "c")
    (root / "templates").mkdir()
    (root / "templates" / "README.md.j2").write_text("# {{ view.title }}\n\nOwn layout.\n")
    assert readme.render(open_catalog(root)) == "# Awesome List\n\nOwn layout.\n"


# -- the new catalog's own checks ---------------------------------------------------------------


@pytest.mark.skipif(not Path(ACTIONLINT).exists(), reason="actionlint not installed")
def test_init_workflows_pass_actionlint(other: Path) -> None:
    workflows = sorted(str(p) for p in (other / ".github" / "workflows").glob("*.yml"))
    result = subprocess.run(
        [ACTIONLINT, "-no-color", "-oneline", *workflows],
        cwd=other,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_init_ci_runs_pr_check_and_publish_runs_ci(other: Path) -> None:
    ci = (other / ".github" / "workflows" / "ci.yml").read_text()
    publish = (other / ".github" / "workflows" / "publish.yml").read_text()
    assert "run: make pr-check" in ci and "README" not in ci.split("jobs:")[1]
    assert "run: make readme-commit" in publish and "run: make ci" in publish
    assert "secrets.BOT_TOKEN || secrets.GITHUB_TOKEN" in publish


@pytest.mark.skipif(
    not AWESOME_LINT.exists() and os.environ.get("CI") != "true",
    reason="awesome-lint not installed (make npm-tools)",
)
def test_init_readme_passes_awesome_lint(other: Path) -> None:
    result = subprocess.run(
        [str(REPO / "scripts" / "awesome-lint"), str(other / "README.md")],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors, 0 warnings" in result.stdout + result.stderr


# -- pull requests that never conflict --------------------------------------------------------


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run git in root with a fixed identity; fail the test when it fails."""
    result = subprocess.run(
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.org",
            "-c",
            "commit.gpgsign=false",
            *args,
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, f"git {args}: {result.stdout}{result.stderr}"
    return result


def entry(name: str) -> str:
    """Return an entry file for a new article called name."""
    text = GRINDER.replace("grind-size-guide", name).replace("A Grind Size Guide", name.title())
    return text.replace("example.org/grind-size", f"example.org/{name}")


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_two_entry_pull_requests_merge_in_either_order_and_main_regenerates(
    tmp_path: Path,
) -> None:
    root = init(tmp_path / "list", title="Awesome Brewing", description="A list of brew guides.")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    for name in ("pour-over", "cold-brew"):
        git(root, "checkout", "-q", "-b", name, "main")
        (root / "data" / "articles").mkdir(exist_ok=True)
        (root / "data" / "articles" / f"{name}.yml").write_text(entry(name))
        git(root, "add", "data")
        git(root, "commit", "-qm", f"add {name}")
        # what the pull request's CI checks (make pr-check) passes without a README edit ...
        for args in (["validate", "--strict"], ["fmt", "--check"]):
            result = CliRunner().invoke(cli, [*args, "--root", str(root)])
            assert result.exit_code == 0, result.output
        changed = git(root, "diff", "--name-only", "main").stdout.split()
        assert changed == [f"data/articles/{name}.yml"]
        # ... while the README is stale until main regenerates it
        stale = CliRunner().invoke(cli, ["readme", "--check", "--root", str(root)])
        assert stale.exit_code == 1
    for first, second in (("pour-over", "cold-brew"), ("cold-brew", "pour-over")):
        git(root, "checkout", "-q", "-B", f"merged-{first}", "main")
        git(root, "merge", "-q", "--no-edit", first)
        git(root, "merge", "-q", "--no-edit", second)  # no conflict in either order
        assert CliRunner().invoke(cli, ["readme", "--root", str(root)]).exit_code == 0
        fresh = CliRunner().invoke(cli, ["readme", "--check", "--root", str(root)])
        assert fresh.exit_code == 0, fresh.output
        text = (root / "README.md").read_text()
        assert "[Pour-Over]" in text and "[Cold-Brew]" in text
        git(root, "checkout", "-q", "--", "README.md")


def test_the_site_uses_catalog_yml_s_address_when_mkdocs_has_none(tmp_path: Path) -> None:
    """catalog.yml alone names the address: the built site's exports link it too."""
    root = init(tmp_path / "plain", site_url="https://beans.example.org/plain/")
    mkdocs = root / "mkdocs.yml"
    lines = mkdocs.read_text(encoding="utf-8").splitlines(keepends=True)
    mkdocs.write_text("".join(x for x in lines if not x.startswith("site_url:")), "utf-8")
    assert "site_url" in (root / "catalog.yml").read_text(encoding="utf-8")
    result = CliRunner().invoke(cli, ["site", "--root", str(root)])
    assert result.exit_code == 0, result.output
    schema = (root / "site" / "api" / "catalog.schema.json").read_text(encoding="utf-8")
    assert "https://beans.example.org/plain/" in schema
