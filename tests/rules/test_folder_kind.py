from collections.abc import Callable


def test_folder_matches_kind(findings: Callable[[str], list[str]]) -> None:
    found = findings("folder-kind")
    assert found[1] == (
        "data/paperz/smith2020typo.yml:1:1: error: unknown folder data/paperz/ (did you mean "
        "data/papers/?); folders are frameworks, libraries, papers, articles, talks, tutorials, "
        "books, benchmarks, datasets, lists, docs [folder-kind]"
    )
    assert found[0] == (
        "data/papers/horovod.yml:2:7: error: kind 'framework' belongs in data/frameworks/, but "
        "the file is in data/papers/: move it or fix the kind [folder-kind]"
    )
    assert len(found) == 2
