import json
from collections.abc import Callable

from ddl_catalog.load import parse_yaml
from ddl_catalog.rules.base import Context
from ddl_catalog.rules.description_style import check


def test_description_rules(findings: Callable[[str], list[str]]) -> None:
    found = findings("description-style")
    assert found == [
        "data/papers/blank2020paper.yml:5:14: error: description is blank: write one sentence "
        "about it [description-style]",
        "data/papers/long2020paper.yml:5:14: warning: description is 257 characters; keep it to "
        "one sentence of at most 250 [description-style]",
        "data/papers/style2020paper.yml:5:14: error: description must end with a period "
        "[description-style]",
        "data/papers/style2020paper.yml:5:14: error: description must start with a capital "
        "letter or a digit [description-style]",
        "data/papers/style2020paper.yml:5:14: error: description repeats the title: say what "
        "the resource is and why to open it [description-style]",
    ]


def _repeats(title: str, description: str) -> bool:
    text = f"title: {json.dumps(title)}\ndescription: {json.dumps(description)}\n"
    doc = parse_yaml(text, "data/papers/x.yml")
    return any("repeats the title" in p.message for p in check(Context(entries=[doc])))


def test_title_repeats_are_found_whatever_the_first_character() -> None:
    assert _repeats("Horovod", "Horovod: fast and easy distributed training.")
    assert _repeats("Horovod", "«Horovod» is fast and easy distributed training.")
    assert _repeats("3D Parallelism", "3D parallelism, explained with examples.")
    assert _repeats("İstanbul Notes", "İstanbul notes on training at scale.")
    assert _repeats("Σ-Delta Training", "Σ-delta training for low-bandwidth links.")
    assert not _repeats("Horovod", "A framework for ring-allreduce training.")
    assert not _repeats("Horovod", "«Fast» distributed training, unlike Horovod.")
