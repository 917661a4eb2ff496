from collections.abc import Callable


def test_titles_are_not_blank_urls_or_slugs(findings: Callable[[str], list[str]]) -> None:
    assert findings("title-style") == [
        "data/articles/blank-title.yml:3:8: error: title is blank: give the resource's real "
        "title [title-style]",
        "data/articles/slug-title.yml:3:8: error: title looks like a URL slug: give the real "
        "title [title-style]",
        "data/articles/url-title.yml:3:8: error: title is a URL: give the resource's real title "
        "[title-style]",
    ]
