from collections.abc import Callable

F = "data/papers/related2020paper.yml"


def test_related_ids_exist_and_are_not_self(findings: Callable[[str], list[str]]) -> None:
    assert findings("unknown-related") == [
        f"{F}:8:9: error: an entry cannot relate to itself [unknown-related]",
        f"{F}:10:9: error: related entry 'ghost2019paper' does not exist: check the id (the "
        "file name) [unknown-related]",
    ]
