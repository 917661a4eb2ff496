"""The wheel is self-contained: installed outside the repository, every command works.

Builds the wheel from the repository (no build isolation, no network), installs it with
``--no-deps --no-index`` into a fresh virtual environment in a temporary folder, and runs init,
validate, readme, site, export and build there on a catalog made by init. The dependencies come
from this test's own environment (a .pth file adds its site-packages after the new venv's own),
so nothing is downloaded; the repository's source folder is never on the path.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def run(args: list[str | Path], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run a command, failing the test with its output when it fails."""
    result = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, f"{args}:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the wheel of the repository into a temporary folder."""
    out = tmp_path_factory.mktemp("wheel")
    env = {**os.environ, "PIP_NO_INDEX": "1"}
    scratch = tmp_path_factory.mktemp("build-scratch")
    run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", out, "."],
        REPO,
        {**env, "TMPDIR": str(scratch)},
    )
    (found,) = out.glob("ddl_catalog-*.whl")
    return found


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A fresh venv outside the repository with the wheel installed, offline."""
    place = tmp_path_factory.mktemp("venv")
    target = place / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", target], place, dict(os.environ))
    python = target / "bin" / "python"
    site = run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        place,
        dict(os.environ),
    ).stdout.strip()
    # The dependencies (click, mkdocs ...) from this environment, after the venv's own packages.
    deps = sysconfig.get_paths()["purelib"]
    Path(site, "zz_dependencies.pth").write_text(deps + "\n", encoding="utf-8")
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PIP_"))
    }
    env["PATH"] = f"{target / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_NO_INDEX"] = "1"
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            python,
            "install",
            "--no-deps",
            "--no-index",
            wheel,
        ],
        place,
        env,
    )
    return target, env


def test_the_wheel_carries_templates_assets_schemas_and_init(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in (
        "ddl_catalog/resources/templates/README.md.j2",
        "ddl_catalog/resources/templates/site/home.md.j2",
        "ddl_catalog/resources/templates/site/overrides/partials/source.html",
        "ddl_catalog/resources/site-assets/extra.css",
        "ddl_catalog/resources/site-assets/explore.js",
        "ddl_catalog/resources/init/Makefile",
        "ddl_catalog/resources/init/github/workflows/ci.yml",
        "ddl_catalog/resources/init/data/categories.yml",
        "ddl_catalog/schema/entry.schema.json",
        "ddl_catalog/schema/catalog.schema.json",
    ):
        assert name in names, name
    # the packaged defaults are the repository's files, byte for byte
    with zipfile.ZipFile(wheel) as archive:
        for source in sorted((REPO / "templates").rglob("*")):
            if source.is_file() and "__pycache__" not in source.parts:
                rel = source.relative_to(REPO / "templates").as_posix()
                packaged = archive.read(f"ddl_catalog/resources/templates/{rel}")
                assert packaged == source.read_bytes(), rel


def test_every_command_runs_from_the_installed_wheel(
    venv: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    target, env = venv
    cli = target / "bin" / "ddl-catalog"
    where = run(
        [target / "bin" / "python", "-c", "import ddl_catalog; print(ddl_catalog.__file__)"],
        tmp_path,
        env,
    ).stdout
    assert where.startswith(str(target)), where  # the wheel, not the repository's source
    run(
        [
            cli,
            "init",
            "espresso",
            "--title",
            "Awesome Espresso",
            "--description",
            "A curated list about espresso at home.",
            "--site-url",
            "https://example.org/e/",
        ],
        tmp_path,
        env,
    )
    root = tmp_path / "espresso"
    run([cli, "validate", "--strict"], root, env)
    run([cli, "readme", "--check"], root, env)
    run([cli, "fmt", "--check"], root, env)
    run([cli, "readme"], root, env)
    run([cli, "site"], root, env)
    assert (root / "site" / "index.html").is_file()
    assert (root / "site" / "assets" / "extra.css").is_file()
    listed = run([cli, "export", "--into", "build/exports"], root, env).stdout
    assert "feed.xml" in listed and (root / "build" / "exports" / "api" / "catalog.json").is_file()
    atom = run([cli, "export", "--format", "atom"], root, env).stdout
    assert "Espresso: new entries" in atom
    # a real list's rows (a GFM table), imported with their own descriptions, then rebuilt
    table = REPO / "tests" / "fixtures" / "import" / "table.md"
    run([cli, "import", "--keep-descriptions", table], root, env)
    run([cli, "build", "--strict"], root, env)
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert readme.count("](https://github.com/example/") >= 0.95 * 40
    html = (root / "site" / "index.html").read_text(encoding="utf-8")
    assert "Espresso" in html and "distributed deep learning" not in html.lower()
