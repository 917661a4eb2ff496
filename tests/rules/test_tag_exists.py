from collections.abc import Callable


def test_tags_come_from_the_controlled_list(findings: Callable[[str], list[str]]) -> None:
    assert findings("unknown-tag") == [
        "data/papers/tagged2020paper.yml:7:13: error: unknown tag 'survay' (did you mean "
        "'survey'?): use a tag from data/tags.yml or add it there [unknown-tag]"
    ]
