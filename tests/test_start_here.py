"""Start-here picks: validated against the entries, shown first in the README and on the site."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ddl_catalog.model.build import open_catalog
from ddl_catalog.render import readme
from ddl_catalog.validate import validate

CATEGORIES = """\
categories:
  - id: surveys
    title: Surveys
    description: Reviews of the whole field.
    start_here:
      - id: ghost2020paper
        why: Does not exist, so validate says so.
  - id: parallelism
    title: Parallelism
    description: Ways to split the work of training.
    start_here:
      - id: dp2019paper
        why: Filed in a subtopic, which counts for its topic.
    children:
      - id: data-parallelism
        title: Data parallelism
        description: Replicas trained on shards of the data.
        start_here:
          - id: dp2019paper
            why: "The paper to read first on data parallelism: short and clear."
      - id: model-parallelism
        title: Model parallelism
        description: The model is split across devices.
        start_here:
          - id: dp2019paper
            why: Not filed here, so validate says so.
  - id: frameworks
    title: Frameworks
    description: Software for distributed training.
"""
PAPER = """\
id: dp2019paper
kind: paper
title: Data | Parallel *Training*
url: https://example.org/dp
description: A paper about data parallelism for the start-here tests.
categories: [data-parallelism]
year: 2019
"""


def test_picks_exist_and_are_filed_in_their_category(catalog_dir: Callable[..., Path]) -> None:
    root = catalog_dir({"data/categories.yml": CATEGORIES, "data/papers/dp2019paper.yml": PAPER})
    found = [str(p) for p in validate(root).problems if p.rule == "start-here"]
    assert found == [
        "data/categories.yml:6:13: error: start-here entry 'ghost2020paper' does not exist: "
        "check the id [start-here]",
        "data/categories.yml:25:17: error: start-here entry 'dp2019paper' is not filed in "
        "'model-parallelism': pick an entry of this category, or add the category to the entry "
        "[start-here]",
    ]


def test_the_readme_section_opens_with_its_picks(catalog_dir: Callable[..., Path]) -> None:
    fixed = CATEGORIES.replace(
        "    start_here:\n      - id: ghost2020paper\n        why: Does not exist, so validate "
        "says so.\n",
        "",
    ).replace(
        "        start_here:\n          - id: dp2019paper\n            why: Not filed here, so "
        "validate says so.\n",
        "",
    )
    root = catalog_dir({"data/categories.yml": fixed, "data/papers/dp2019paper.yml": PAPER})
    assert [p for p in validate(root).problems if p.rule == "start-here"] == []
    text = readme.render(open_catalog(root))
    line = (
        "Start here: *Data \\| Parallel \\*Training\\**: The paper to read first on data "
        "parallelism: short and clear.\n\n"
    )
    assert line in text
