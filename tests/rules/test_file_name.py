from collections.abc import Callable


def test_id_must_equal_file_name_and_extension_yml(findings: Callable[[str], list[str]]) -> None:
    assert findings("file-name") == [
        "data/papers/jones2020yaml.yaml:1:1: error: entry files end in .yml [file-name]",
        "data/papers/smith2020good.yml:1:5: error: id 'smith2020other' differs from the file "
        "name 'smith2020good': rename the file to smith2020other.yml or fix the id [file-name]",
    ]
