from collections.abc import Callable


def test_url_and_identifiers_agree(findings: Callable[[str], list[str]]) -> None:
    assert findings("identifier-mismatch") == [
        "data/papers/mismatch2020paper.yml:8:10: error: identifiers.arxiv '1802.05799' differs "
        "from the url's arXiv id 1802.09941 [identifier-mismatch]"
    ]
