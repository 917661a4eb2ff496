"""The contributor's path end to end, in a fresh clone: add -> fmt -> validate -> readme -> site.

Everything runs through the installed ``ddl-catalog`` command, as a contributor would, with no
terminal on stdin and the arXiv API replaced by a local server. Then a broken entry must give a
located error and exit 1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from pytest_httpserver import HTTPServer

REPO = Path(__file__).resolve().parent.parent
CLI = Path(sys.executable).parent / "ddl-catalog"
FEED = Path(__file__).parent / "fixtures" / "add" / "arxiv_2104.04473.xml"
SENTENCE = (
    "How Megatron-LM composes tensor, pipeline and data parallelism to train "
    "trillion-parameter language models on thousands of GPUs."
)


def run(clone: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CLI), *args, "--root", str(clone)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=env,
        check=False,
        timeout=120,
    )


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs git and a git checkout")
    target = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(target)], check=True, timeout=120)
    forget(target, "narayanan2021efficient")  # the paper the contributor adds below
    return target


def forget(clone: Path, entry_id: str) -> None:
    """Take an entry out of a clone, with every relation and start-here pick naming it."""
    tree = clone / "data" / "categories.yml"
    categories = yaml.safe_load(tree.read_text(encoding="utf-8"))
    for top in categories["categories"]:
        for node in [top, *top.get("children", [])]:
            picks = [p for p in node.get("start_here", []) if p["id"] != entry_id]
            if picks:
                node["start_here"] = picks
            else:
                node.pop("start_here", None)
    tree.write_text(yaml.safe_dump(categories, sort_keys=False, allow_unicode=True), "utf-8")
    for path in sorted((clone / "data").rglob("*.yml")):
        if path.stem == entry_id:
            path.unlink()
            continue
        if path == tree:
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        related = data.get("related") if isinstance(data, dict) else None
        if not related or all(item["id"] != entry_id for item in related):
            continue
        data["related"] = [item for item in related if item["id"] != entry_id]
        if not data["related"]:
            del data["related"]
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "utf-8")


def test_add_fmt_validate_readme_site_then_a_broken_entry(
    clone: Path, httpserver: HTTPServer
) -> None:
    httpserver.expect_request("/query").respond_with_data(
        FEED.read_bytes(), content_type="application/atom+xml"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env["DDL_ARXIV_API"] = httpserver.url_for("/").rstrip("/")

    added = run(
        clone,
        "add",
        "https://arxiv.org/pdf/2104.04473v5",
        "--category",
        "model-parallelism",
        "--kind",
        "paper",
        "--description",
        SENTENCE,
        env=env,
    )
    assert added.returncode == 0, added.stdout + added.stderr
    assert added.stdout.splitlines() == ["wrote data/papers/narayanan2021efficient.yml"]
    new = clone / "data" / "papers" / "narayanan2021efficient.yml"
    assert "title: Efficient Large-Scale Language Model Training on GPU Clusters Using " in (
        new.read_text()
    )

    again = run(
        clone,
        "add",
        "https://arxiv.org/abs/2104.04473",
        "--category",
        "surveys",
        "--yes",
        "--offline",
        env=env,
    )
    assert again.returncode == 1
    assert "data/papers/narayanan2021efficient.yml (id narayanan2021efficient)" in again.stderr

    assert run(clone, "fmt", env=env).returncode == 0
    check = run(clone, "fmt", "--check", env=env)
    assert check.returncode == 0, check.stdout
    valid = run(clone, "validate", env=env)
    assert valid.returncode == 0, valid.stdout
    assert valid.stdout.startswith("ok: ")
    readme = run(clone, "readme", env=env)
    assert readme.returncode == 0, readme.stderr
    assert "https://arxiv.org/abs/2104.04473" in (clone / "README.md").read_text()
    assert run(clone, "readme", "--check", env=env).returncode == 0
    site = run(clone, "site", env=env)
    assert site.returncode == 0, site.stdout + site.stderr
    assert (clone / "site" / "index.html").is_file()

    text = new.read_text()
    new.write_text(text.replace("year: 2021", "year: twenty-one"))
    broken = run(clone, "validate", env=env)
    assert broken.returncode == 1
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("year:"))
    assert f"data/papers/narayanan2021efficient.yml:{line}:7: error: " in broken.stdout
    assert "Traceback" not in broken.stdout + broken.stderr
