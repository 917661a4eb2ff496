"""GitHub workflows, pre-commit hooks and issue forms: pinned, runnable locally, linted."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from ddl_catalog.cli import cli

REPO = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = shutil.which("actionlint") or str(REPO / ".venv" / "bin" / "actionlint")
PINNED = re.compile(r"^\s*(?:-\s+)?uses:\s+[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*\s*$")


def make_targets() -> set[str]:
    text = (REPO / "Makefile").read_text()
    return set(re.findall(r"^([a-z][a-z-]*):", text, re.M))


def load(path: Path) -> dict[Any, Any]:
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict)
    return data


def run_commands(workflow: dict[Any, Any]) -> list[str]:
    return [
        step["run"].strip()
        for job in workflow["jobs"].values()
        for step in job.get("steps", [])
        if "run" in step
    ]


def test_the_three_workflows_exist() -> None:
    assert [p.name for p in WORKFLOWS] == ["ci.yml", "maintenance.yml", "pages.yml"]


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_with_its_version(path: Path) -> None:
    uses = [line for line in path.read_text().splitlines() if re.match(r"^\s*(-\s+)?uses:", line)]
    assert uses
    for line in uses:
        assert PINNED.match(line), (
            f"{path.name}: not pinned to a full SHA with # vX: {line.strip()}"
        )


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_step_is_a_make_target_or_a_cli_command(path: Path) -> None:
    targets = make_targets()
    for command in run_commands(load(path)):
        assert "\n" not in command, f"{path.name}: multi-line script: {command}"
        words = command.split()
        if words[0] == "make":
            assert set(words[1:]) <= targets, f"{path.name}: unknown make target in {command}"
        else:
            assert words[0] == ".venv/bin/ddl-catalog", f"{path.name}: {command}"
            assert words[1] in cli.commands, f"{path.name}: no such ddl-catalog command {words[1]}"


def test_ci_runs_every_check_on_pull_requests_and_pushes() -> None:
    ci = load(REPO / ".github/workflows/ci.yml")
    triggers = ci[True]  # PyYAML reads the key `on` as the boolean true
    assert "pull_request" in triggers and "push" in triggers
    commands = run_commands(ci)
    for expected in (
        "make validate",
        "make fmt-check",
        ".venv/bin/ddl-catalog readme --check",
        "make test",
        "make site",
        "make lint-workflows",
    ):
        assert expected in commands
    assert ci["permissions"] == {"contents": "read"}


def test_pages_deploys_from_main_with_the_pages_permissions() -> None:
    pages = load(REPO / ".github/workflows/pages.yml")
    assert pages[True]["push"]["branches"] == ["main"]
    deploy = pages["jobs"]["deploy"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    build = pages["jobs"]["build"]["steps"]
    upload = [s for s in build if "upload-pages-artifact" in s.get("uses", "")]
    assert upload and upload[0]["with"]["path"] == "site"


def test_maintenance_runs_weekly_and_reports_by_pr_and_issue() -> None:
    upkeep = load(REPO / ".github/workflows/maintenance.yml")
    cron = upkeep[True]["schedule"][0]["cron"]
    assert len(cron.split()) == 5 and cron.split()[4] != "*"  # one day a week
    commands = run_commands(upkeep)
    assert "make links-report" in commands and ".venv/bin/ddl-catalog enrich" in commands
    assert "make links-issue" in commands
    steps = upkeep["jobs"]["upkeep"]["steps"]
    assert any("peter-evans/create-pull-request" in s.get("uses", "") for s in steps)


@pytest.mark.skipif(not Path(ACTIONLINT).exists(), reason="actionlint not installed (make venv)")
def test_actionlint_passes_on_our_workflows_and_catches_a_broken_one(tmp_path: Path) -> None:
    ours = subprocess.run(
        [ACTIONLINT, "-no-color", "-oneline", *map(str, WORKFLOWS)],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    assert ours.returncode == 0, ours.stdout + ours.stderr
    broken = tmp_path / ".github" / "workflows" / "bad.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(
        "on: push\njobs:\n  x:\n    runs-on: ubuntu-24.04\n    steps:\n"
        "      - run: echo ${{ github.nope }}\n"
    )
    bad = subprocess.run(
        [ACTIONLINT, "-no-color", "-oneline", str(broken)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert bad.returncode == 1 and "nope" in bad.stdout


def test_pre_commit_hooks_call_real_commands() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"] for h in hooks} == {"ddl-catalog-validate", "ddl-catalog-fmt"}
    for hook in hooks:
        program, command = hook["entry"].split()[:2]
        assert program == "ddl-catalog" and command in cli.commands
        re.compile(hook["files"])
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())
    local = {h["id"]: h for repo in config["repos"] for h in repo["hooks"]}
    assert {
        "ruff-check",
        "ruff-format",
        "ddl-catalog-validate",
        "ddl-catalog-fmt",
        "ddl-catalog-readme",
    } <= set(local)
    assert local["ddl-catalog-readme"]["entry"].endswith("readme --check")


def test_fmt_hook_pattern_matches_entries_only() -> None:
    hook = next(
        h
        for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
        if h["id"] == "ddl-catalog-fmt"
    )
    pattern = re.compile(hook["files"])
    assert pattern.search("data/papers/dean2012large.yml")
    assert not pattern.search("data/categories.yml")


def test_issue_form_and_pr_template() -> None:
    form = yaml.safe_load((REPO / ".github/ISSUE_TEMPLATE/suggest-resource.yml").read_text())
    fields = {item["id"]: item for item in form["body"] if "id" in item}
    assert fields["url"]["validations"]["required"] is True
    assert fields["kind"]["attributes"]["options"][0] == "paper"
    assert (REPO / ".github/PULL_REQUEST_TEMPLATE.md").read_text().count("- [ ]") >= 4
