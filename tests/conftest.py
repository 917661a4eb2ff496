"""Shared fixtures: small catalogs built in temporary folders."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parent.parent

GOOD_PAPER = """\
id: dean2012large
kind: paper
title: Large Scale Distributed Deep Networks
url: https://proceedings.neurips.cc/paper/2012/hash/6aca97005c68f1206823815f66102863-Abstract.html
description: Trains billion-parameter networks with asynchronous SGD on a sharded parameter server.
categories: [parallelism, data-parallelism]
tags: [gpu]
authors: [Jeffrey Dean, Greg Corrado]
year: 2012
venue: NIPS
venue_year: 2012
added: "2026-11-22"
"""

GOOD_FRAMEWORK = """\
id: horovod
kind: framework
title: Horovod
url: https://github.com/horovod/horovod
description: Ring-allreduce data parallelism for TensorFlow, Keras, PyTorch and MXNet.
categories: [frameworks, data-parallelism]
identifiers:
  github: horovod/horovod
  arxiv: "1802.05799"
"""


def make_catalog(root: Path, files: dict[str, str] | None = None) -> Path:
    """Create a catalog at root with the base tree and the given data files (path -> text)."""
    shutil.copytree(FIXTURES / "base", root, dirs_exist_ok=True)
    for relative, text in (files or {}).items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def real_tree_catalog(root: Path) -> Path:
    """Create an entry-less catalog at root with the real category tree and tags.

    The tree's start-here picks name the real catalog's entries, which this one does not hold:
    they are left out of the copy.
    """
    (root / "data").mkdir(parents=True)
    shutil.copy(REPO / "data" / "tags.yml", root / "data" / "tags.yml")
    tree = (REPO / "data" / "categories.yml").read_text(encoding="utf-8")
    kept = re.sub(r"^( +)start_here:\n(?:\1 .*\n)+", "", tree, flags=re.M)
    (root / "data" / "categories.yml").write_text(kept, encoding="utf-8")
    return root


@pytest.fixture
def catalog_dir(tmp_path: Path) -> Callable[..., Path]:
    """Return a factory: catalog_dir({path: text}) builds a catalog in a fresh temp folder."""
    counter = iter(range(1000))

    def build(files: dict[str, str] | None = None) -> Path:
        return make_catalog(tmp_path / f"catalog{next(counter)}", files)

    return build


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Return {path: (size, mtime_ns)} of every file under root, to prove nothing was written."""
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers that are not in pyproject.toml (changing it rebuilds .venv)."""
    config.addinivalue_line(
        "markers",
        "engines: builds the real catalog with both site engines (about half a minute); "
        "`make test` runs it, `pytest -m 'not engines'` leaves it out",
    )
