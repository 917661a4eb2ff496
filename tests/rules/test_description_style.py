from collections.abc import Callable


def test_description_rules(findings: Callable[[str], list[str]]) -> None:
    found = findings("description-style")
    assert found == [
        "data/papers/long2020paper.yml:5:14: warning: description is 257 characters; keep it to "
        "one sentence of at most 250 [description-style]",
        "data/papers/style2020paper.yml:5:14: error: description must end with a period "
        "[description-style]",
        "data/papers/style2020paper.yml:5:14: error: description must start with a capital "
        "letter or a digit [description-style]",
        "data/papers/style2020paper.yml:5:14: error: description repeats the title: say what "
        "the resource is and why to open it [description-style]",
    ]
