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


#: Make targets that install tools rather than check anything.
INSTALLS = {"venv", "npm-tools"}


def make_targets_called(commands: list[str]) -> list[str]:
    """Return the targets of the ``make ...`` commands, in order, installs left out."""
    return [
        target
        for command in commands
        if command.split()[0] == "make"
        for target in command.split()[1:]
        if target not in INSTALLS
    ]


def ci_run_targets() -> list[str]:
    """Return the make targets .ci/run runs (its ``make X`` lines), installs left out."""
    lines = (REPO / ".ci" / "run").read_text().splitlines()
    return make_targets_called([line.strip() for line in lines if line.startswith("make ")])


def prerequisites(target: str) -> list[str]:
    """Return the prerequisites of a Makefile target (the line ``target: a b ## ...``)."""
    text = (REPO / "Makefile").read_text()
    match = re.search(rf"^{re.escape(target)}:([^#\n]*)", text, re.M)
    assert match, f"no make target {target}"
    return [p for p in match.group(1).split() if not p.startswith("$(")]


def recipe(target: str) -> str:
    """Return the recipe lines of a Makefile target."""
    text = (REPO / "Makefile").read_text()
    match = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)*)", text, re.M)
    assert match, f"no make target {target}"
    return match.group(1)


def everything_under(target: str) -> str:
    """Return the recipes a target runs, its prerequisites' included (recursively)."""
    return recipe(target) + "".join(
        everything_under(p) for p in prerequisites(target) if p in make_targets()
    )


def test_ci_yml_and_ci_run_call_the_same_make_targets() -> None:
    """Pull requests run `make pr-check`; main and .ci/run run `make ci`; nothing else checks."""
    ci = load(REPO / ".github/workflows/ci.yml")
    assert {"pull_request", "push"} <= set(ci[True])
    jobs = ci["jobs"]
    assert set(jobs) == {"pull-request", "main"}
    assert jobs["pull-request"]["if"] == "github.event_name == 'pull_request'"
    assert jobs["main"]["if"] == "github.event_name != 'pull_request'"
    pull_request = run_commands({"jobs": {"x": jobs["pull-request"]}})
    main = run_commands({"jobs": {"x": jobs["main"]}})
    assert all(c.startswith("make ") for c in pull_request + main), pull_request + main
    assert make_targets_called(pull_request) == ["pr-check"]
    # main first commits the regenerated README (the one step .ci/run, on a clone, has not)
    assert make_targets_called(main) == ["readme-commit", "ci"]
    assert ci_run_targets() == ["ci"]
    assert ci["permissions"] == {"contents": "read"}
    assert jobs["main"]["permissions"] == {"contents": "write"}


def test_pr_check_is_every_check_but_the_readme_and_ci_adds_it() -> None:
    assert prerequisites("pr-check") == ["validate-strict", "fmt-check", "test", "lint-workflows"]
    checks = everything_under("pr-check")
    for command in (
        "validate --strict",
        "fmt --check",
        "ruff check",
        "mypy",
        "pytest",
        "actionlint",
    ):
        assert command in checks, command
    assert "readme --check" not in checks and "awesome-lint" not in checks
    assert prerequisites("ci")[0] == "pr-check"
    on_main = everything_under("ci")
    for command in ("readme --check", "scripts/awesome-lint", "markdownlint-cli2", "export --into"):
        assert command in on_main, command


def test_the_readme_is_committed_on_main_with_a_token_that_triggers_checks() -> None:
    main = load(REPO / ".github/workflows/ci.yml")["jobs"]["main"]
    checkout = main["steps"][0]
    assert "actions/checkout" in checkout["uses"]
    assert checkout["with"]["token"] == "${{ secrets.BOT_TOKEN || secrets.GITHUB_TOKEN }}"
    assert "git push" in recipe("readme-commit") and "README.md" in recipe("readme-commit")
    upkeep = load(REPO / ".github/workflows/maintenance.yml")["jobs"]["upkeep"]["steps"]
    (opener,) = [s for s in upkeep if "create-pull-request" in s.get("uses", "")]
    assert opener["with"]["token"] == "${{ secrets.BOT_TOKEN || secrets.GITHUB_TOKEN }}"
    assert "README.md" not in opener["with"]["add-paths"]
    contributing = (REPO / "CONTRIBUTING.md").read_text()
    assert "BOT_TOKEN" in contributing and "GITHUB_TOKEN" in contributing


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
    assert "make links-report" in commands and ".venv/bin/ddl-catalog enrich --states" in commands
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
    } <= set(local)
    # commits do not carry a regenerated README (CI makes it on main), so no hook checks it
    assert not any("readme" in h["entry"] for h in local.values())


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


def test_the_weekly_schedule_runs_the_suite_against_the_newest_releases() -> None:
    upkeep = load(REPO / ".github/workflows/maintenance.yml")
    assert upkeep[True]["schedule"]
    job = upkeep["jobs"]["newest-dependencies"]
    assert make_targets_called(run_commands({"jobs": {"x": job}})) == ["test-latest"]
    latest = recipe("test-latest")
    assert "-r $(LOCK)" not in latest and "--upgrade --upgrade-strategy eager" in latest
    assert "pytest" in latest and "DDL_CATALOG_UNLOCKED=1" in latest


def test_renovate_proposes_bumps_of_both_locks() -> None:
    import json

    config = json.loads((REPO / "renovate.json").read_text())
    assert config["pip-compile"]["managerFilePatterns"] == ["/^requirements/dev\\.txt$/"]
    assert config["lockFileMaintenance"]["enabled"] is True
    managers = {m for rule in config["packageRules"] for m in rule.get("matchManagers", [])}
    assert {"pip-compile", "npm"} <= managers
    assert (REPO / "tools/npm/package-lock.json").exists()
