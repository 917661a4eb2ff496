from collections.abc import Callable

F = "data/papers/lost2020paper.yml"


def test_unknown_categories_with_suggestion(findings: Callable[[str], list[str]]) -> None:
    assert findings("unknown-category") == [
        f"{F}:6:23: error: unknown category 'data-paralelism' (did you mean 'data-parallelism'?)"
        ": use an id from data/categories.yml [unknown-category]",
        f"{F}:6:40: error: unknown category 'quantum-computing': use an id from "
        "data/categories.yml [unknown-category]",
        f"{F}:6:59: error: category 'tensor-parallelism' is now part of 'model-parallelism': "
        "use 'model-parallelism' [unknown-category]",
    ]
