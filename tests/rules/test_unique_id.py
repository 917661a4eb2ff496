from collections.abc import Callable


def test_second_file_with_an_id_is_reported(findings: Callable[[str], list[str]]) -> None:
    assert findings("unique-id") == [
        "data/papers/twin.yml:1:5: error: id 'twin' is already used by "
        "data/articles/twin.yml:1: ids must be unique [unique-id]"
    ]
