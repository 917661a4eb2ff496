from collections.abc import Callable

from ddl_catalog.rules.url_scheme import url_problem

F = "data/papers/links2020paper.yml"


def test_only_absolute_http_urls(findings: Callable[[str], list[str]]) -> None:
    assert findings("url-scheme") == [
        f"{F}:11:10: error: 'links[1].url' uses 'ftp:', only http and https are allowed; link "
        "an https copy or the DOI instead: 'ftp://ftp.example.org/links.pdf' [url-scheme]",
        f"{F}:13:10: error: 'links[2].url' uses 'javascript:', only http and https are allowed; "
        "only web addresses are allowed: 'javascript:alert(1)' [url-scheme]",
        f"{F}:15:10: error: 'links[3].url' is relative; write the absolute address starting "
        "with https://: '//cdn.example.org/video.mp4' [url-scheme]",
        f"{F}:17:10: error: 'links[4].url' must not contain a user name or password: "
        "'https://user:secret@example.org/docs' [url-scheme]",
        f"{F}:19:10: error: 'links[5].url' has an invalid port: a number from 0 to 65535 after "
        "the host: 'https://example.org:99999/out-of-range' [url-scheme]",
        f"{F}:21:10: error: 'links[6].url' has an invalid port: a number from 0 to 65535 after "
        "the host: 'https://example.org:http/not-a-number' [url-scheme]",
        f"{F}:23:10: error: 'links[7].url' is not a valid URL (Invalid IPv6 URL): "
        "'https://[::1/unclosed-ipv6' [url-scheme]",
    ]


def test_url_problem_accepts_ordinary_urls() -> None:
    assert url_problem("https://arxiv.org/abs/1802.09941") is None
    assert url_problem("http://www.cs.toronto.edu/~ranzato/x.pdf") is None
    assert url_problem("https://example.org/a b") is not None
    assert url_problem("https:///no-host") is not None
