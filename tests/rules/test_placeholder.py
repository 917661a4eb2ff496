from collections.abc import Callable


def test_todo_placeholders_left_by_add_are_errors(findings: Callable[[str], list[str]]) -> None:
    assert findings("placeholder") == [
        "data/papers/arxiv-2104-04473.yml:3:8: error: title is still a TODO placeholder: give the "
        "resource's real title, as its authors give it [placeholder]",
        "data/papers/arxiv-2104-04473.yml:5:14: error: description is still a TODO placeholder: "
        "write one sentence in our own words: what it is and why to open it [placeholder]",
        "data/papers/arxiv-2104-04473.yml:10:12: error: links.0.title is still a TODO "
        "placeholder: replace it with the real value [placeholder]",
    ]
