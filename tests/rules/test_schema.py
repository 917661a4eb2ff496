from collections.abc import Callable

F = "data/papers/bad2020types.yml"


def test_schema_reports_each_mistake_at_its_place(findings: Callable[[str], list[str]]) -> None:
    assert findings("schema") == [
        f"{F}:2:7: error: 'kind' must be one of framework, library, paper, article, talk, "
        "tutorial, book, benchmark, dataset, list, docs; got 'papr' (did you mean 'paper'?) "
        "[schema]",
        f"{F}:6:13: error: 'categories' must be a list, got 'surveys' [schema]",
        f"{F}:7:7: error: 'year' must be an integer, got '2020' [schema]",
        f"{F}:9:10: error: 'identifiers.arxiv' must be a string, got 1802.09941; quote arXiv ids "
        'so they stay text, e.g. "1802.09941" [schema]',
        f"{F}:13:5: error: unknown field 'lable'; known fields: title, type, url [schema]",
    ]
