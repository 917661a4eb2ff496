"""The validate command as contributors and CI use it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from conftest import GOOD_FRAMEWORK, GOOD_PAPER
from ddl_catalog import __version__
from ddl_catalog.cli import cli

ROOT = Path(__file__).resolve().parents[1]
WARN = GOOD_PAPER.replace(
    "description: Trains",
    "description: " + "Very long words. " * 16 + "Trains",
)


def test_version_and_help_everywhere() -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["--version"]).output.strip() == f"ddl-catalog, version {__version__}"
    assert runner.invoke(cli, ["--help"]).exit_code == 0
    assert isinstance(cli, click.Group)
    for name in cli.commands:
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0, name
        assert "Usage:" in result.output


def test_the_real_catalog_is_valid_and_strict_clean() -> None:
    result = CliRunner().invoke(cli, ["validate", "--strict", "--root", str(ROOT)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok: ")


def test_json_format(catalog_dir: Callable[..., Path]) -> None:
    root = catalog_dir(
        {"data/papers/dean2012large.yml": GOOD_PAPER.replace("\nyear: 2012", "\nyear: x")}
    )
    result = CliRunner().invoke(cli, ["validate", "--format", "json", "--root", str(root)])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["errors"] == 1 and report["warnings"] == 0 and report["entries"] == 1
    assert report["problems"] == [
        {
            "path": "data/papers/dean2012large.yml",
            "line": 9,
            "column": 7,
            "severity": "error",
            "message": "'year' must be an integer, got 'x'",
            "rule": "schema",
        }
    ]


def test_warnings_fail_only_with_strict(catalog_dir: Callable[..., Path]) -> None:
    root = catalog_dir({"data/papers/dean2012large.yml": WARN})
    relaxed = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert relaxed.exit_code == 0, relaxed.output
    assert ": warning: description is" in relaxed.output
    assert relaxed.output.splitlines()[-1] == "0 errors, 1 warning in 3 files"
    strict = CliRunner().invoke(cli, ["validate", "--strict", "--root", str(root)])
    assert strict.exit_code == 1


def test_github_annotations_and_job_summary(
    catalog_dir: Callable[..., Path], tmp_path: Path
) -> None:
    root = catalog_dir(
        {
            "data/papers/dean2012large.yml": GOOD_PAPER.replace("[gpu]", "[gpu, quantum]"),
            "data/frameworks/horovod.yml": GOOD_FRAMEWORK,
        }
    )
    summary = tmp_path / "summary.md"
    result = CliRunner(env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)}).invoke(
        cli, ["validate", "--root", str(root)]
    )
    assert result.exit_code == 1
    assert (
        "::error file=data/papers/dean2012large.yml,line=7,col=13,title=ddl-catalog unknown-tag"
        "::unknown tag 'quantum': use a tag from data/tags.yml or add it there"
    ) in result.output.splitlines()
    text = summary.read_text()
    assert text.startswith("## ddl-catalog validate")
    assert "| `data/papers/dean2012large.yml` | 7 | error |" in text


#: A value that would forge workflow commands if it reached GitHub's log as it is.
FORGE = "q\n::stop-commands::tok\n  ::error file=x::fake ##[add-mask]secret %0A | <b>y</b>\r"


def runner_commands(output: str) -> list[str]:
    """Return the workflow commands GitHub's runner finds in a step's output.

    As actions/runner reads them: lines split at CR and LF; ``::name ...::data`` at the start
    of a line after white space, or else the older ``##[name ...]data`` anywhere in it.
    """
    found = []
    for line in re.split(r"\r\n|\r|\n", output):
        text = line.lstrip()
        if text.startswith("::") and "::" in text[2:]:
            found.append(text[2:].split("::", 1)[0].split(" ", 1)[0])
        elif "##[" in line and "]" in line[line.index("##[") :]:
            found.append(line[line.index("##[") + 3 :].split("]", 1)[0].split(" ", 1)[0])
    return found


def test_values_cannot_forge_workflow_commands_in_ci(
    catalog_dir: Callable[..., Path], tmp_path: Path
) -> None:
    root = catalog_dir(
        {
            "data/papers/dean2012large.yml": GOOD_PAPER.replace(
                "tags: [gpu]", f"tags: [{json.dumps(FORGE)}]"
            ),
            "data/frameworks/horovod.yml": GOOD_FRAMEWORK,
            "data/papers/x\n::warning::forged ##[error]x.yml": GOOD_PAPER,
        }
    )
    summary = tmp_path / "summary.md"
    env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)}
    result = CliRunner(env=env).invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    problems = [line for line in result.output.splitlines() if ": error: " in line]
    assert len(problems) >= 3
    # Only the annotations ddl-catalog writes, one per problem, and every one intact.
    commands = runner_commands(result.output)
    assert commands == ["warning"] + ["error"] * len(problems), result.output
    annotations = [line for line in result.output.splitlines() if line.startswith("::")]
    assert any(
        line.endswith(
            "unknown tag 'q\\x0a::stop-commands::tok\\x0a  ::error file=x::fake "
            "##[add-mask]secret %250A | <b>y</b>\\x0d': use a tag from data/tags.yml "
            "or add it there"
        )
        for line in annotations
    ), annotations
    assert any("file=data/papers/x\\x0a%3A%3Awarning%3A%3Aforged ##[error]x.yml," in line
               for line in annotations), annotations  # fmt: skip
    # The job summary: one table row per problem, five cells each, no HTML.
    rows = [line for line in summary.read_text().splitlines() if line.startswith("| ")][1:]
    assert len(rows) == len(problems) + 1
    for row in rows:
        assert len(re.findall(r"(?<!\\)\|", row)) == 6, row
        assert "<" not in row.replace("\\<", ""), row
    # JSON for machines: the same messages, and still no command.
    result = CliRunner(env=env).invoke(cli, ["validate", "--root", str(root), "--format", "json"])
    assert runner_commands(result.output.split("\n}\n")[0]) == []
    messages = [p["message"] for p in json.loads(result.output.split("\n}\n")[0] + "}")["problems"]]
    assert any(FORGE in message for message in messages)


def test_no_annotations_outside_github(catalog_dir: Callable[..., Path]) -> None:
    root = catalog_dir({"data/papers/dean2012large.yml": GOOD_PAPER.replace("[gpu]", "[tpu]")})
    result = CliRunner(env={"GITHUB_ACTIONS": ""}).invoke(cli, ["validate", "--root", str(root)])
    assert "::error" not in result.output


def test_missing_data_folder_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", "--root", str(tmp_path)])
    assert result.exit_code == 1
    assert "missing file data/categories.yml" in result.output
    assert "no data/ folder under" in result.output
    assert "Traceback" not in result.output


def test_a_category_id_defined_twice_is_located(catalog_dir: Callable[..., Path]) -> None:
    root = catalog_dir()
    tree = root / "data" / "categories.yml"
    tree.write_text(
        tree.read_text(encoding="utf-8")
        + "  - id: surveys\n    title: Surveys again\n    description: A second surveys.\n",
        encoding="utf-8",
    )
    lines = tree.read_text(encoding="utf-8").splitlines()
    first = lines.index("  - id: surveys") + 1
    again = len(lines) - 2
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"data/categories.yml:{again}:9: error: category id 'surveys' is defined twice "
        f"(first at line {first}) [categories]"
    )


def test_an_alias_that_repeats_a_category_id_is_located(
    catalog_dir: Callable[..., Path],
) -> None:
    root = catalog_dir()
    tree = root / "data" / "categories.yml"
    tree.write_text(
        tree.read_text(encoding="utf-8")
        + "  - id: background\n    title: Background\n    description: Merged topics.\n"
        + "    aliases: [old-topic, surveys]\n",
        encoding="utf-8",
    )
    lines = tree.read_text(encoding="utf-8").splitlines()
    first = lines.index("  - id: surveys") + 1
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"data/categories.yml:{len(lines)}:26: error: category id 'surveys' is defined twice "
        f"(first at line {first}) [categories]"
    )


@pytest.mark.parametrize(
    ("added", "says"),
    [
        (
            "  - id: api\n    title: API\n    description: Clashes with the exports.\n",
            "category id 'api' clashes with the site page /api/: rename the category",
        ),
        (
            "  - id: background\n    title: Background\n"
            "    description: Older work of the field.\n"
            "    children:\n      - id: '2'\n        title: Two\n"
            "        description: An odd subtopic.\n",
            "category id '2' clashes with the page /background/2/ of the topic 'background': "
            "rename the category",
        ),
    ],
    ids=["top-level", "subtopic"],
)
def test_a_category_that_would_overwrite_a_site_page_is_located(
    catalog_dir: Callable[..., Path], added: str, says: str
) -> None:
    # It passed validate, then the site build stopped with no file, line or column.
    root = catalog_dir()
    tree = root / "data" / "categories.yml"
    tree.write_text(tree.read_text(encoding="utf-8") + added, encoding="utf-8")
    line = len(tree.read_text(encoding="utf-8").splitlines()) - 2  # the id, then 2 lines
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first.startswith(f"data/categories.yml:{line}:")
    assert first.endswith(f"error: {says} [page-clash]")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("corrections:\n  - [unclosed\n", "data/seed-corrections.yml:3:1: error: malformed YAML"),
        (
            "corrections:\n  - seed: '000'\n    line: -5\n    url: https://a.example/\n"
            "    action: dropped\n    reason: Gone for good.\n",
            "data/seed-corrections.yml:3:11: error: 'corrections[0].line': -5 is less than",
        ),
    ],
    ids=["malformed", "wrong shape"],
)
def test_seed_corrections_are_validated_when_present(
    catalog_dir: Callable[..., Path], text: str, says: str
) -> None:
    # import reads the file and skipped an unusable one "because validate reports it"; it did not.
    root = catalog_dir()
    (root / "data" / "seed-corrections.yml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", "--root", str(root)])
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith(says)


def test_python_dash_m_and_console_script_agree() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ddl_catalog", "validate", "--root", str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("ok: ")


def test_validate_does_not_import_heavy_modules() -> None:
    # validate must start fast: requests, jinja2, mkdocs and jsonschema stay unimported
    # (jsonschema and json are only needed to describe failures or print JSON).
    code = (
        "import sys\n"
        "from ddl_catalog.cli import main\n"
        f"sys.argv = ['ddl-catalog', 'validate', '--root', {str(ROOT)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('requests', 'jinja2', 'mkdocs', 'jsonschema', 'ruamel', 'rich',"
        " 'json', 'decimal') if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert "HEAVY []" in out.stdout, out.stdout + out.stderr


def test_build_refuses_an_invalid_catalog_and_writes_nothing(
    catalog_dir: Callable[..., Path],
) -> None:
    root = catalog_dir({"data/papers/dean2012large.yml": GOOD_PAPER.replace("[gpu]", "[tpu]")})
    (root / "README.md").write_text("old\n")
    result = CliRunner().invoke(cli, ["build", "--root", str(root)])
    assert result.exit_code == 1
    assert "unknown tag 'tpu'" in result.output
    assert "validation failed: nothing was built" in result.output
    assert (root / "README.md").read_text() == "old\n"
    assert not (root / "site").exists()
