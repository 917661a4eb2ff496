"""The GitHub, arXiv and Crossref clients against a local server replaying recorded answers."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import pytest
import requests
from pytest_httpserver import HTTPServer

from ddl_catalog.net.enrich import (
    EnrichError,
    NotFound,
    RateLimitExhausted,
    arxiv,
    crossref,
    github,
)
from ddl_catalog.net.enrich.base import get_json, retry_after
from ddl_catalog.net.session import USER_AGENT, make_session
from netutil import raw_server, send_bytes

FIXTURES = Path(__file__).parent / "fixtures" / "net"
FAST = {"timeout": (1.0, 1.0)}


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


@pytest.fixture
def session() -> requests.Session:
    return make_session(4)


def base(server: HTTPServer) -> str:
    return server.url_for("").rstrip("/")


def test_github_repo_record(httpserver: HTTPServer, session: requests.Session) -> None:
    httpserver.expect_request("/repos/horovod/horovod").respond_with_data(
        fixture("github_repo_horovod.json"), content_type="application/json"
    )
    record = github.fetch("horovod/horovod", session, base(httpserver), token="", **FAST)
    assert record.full_name == "horovod/horovod"
    assert record.stars == 14011 and record.forks == 2226
    assert record.pushed_at == "2023-12-15T22:16:28Z"
    assert record.archived is False
    assert record.license is None  # NOASSERTION is not a licence
    assert record.homepage == "http://horovod.ai"


def test_github_archived_and_token_and_user_agent(
    httpserver: HTTPServer, session: requests.Session
) -> None:
    httpserver.expect_request(
        "/repos/yahoo/CaffeOnSpark",
        headers={"Authorization": "Bearer t0k", "User-Agent": USER_AGENT},
    ).respond_with_data(fixture("github_repo_archived.json"), content_type="application/json")
    record = github.fetch("yahoo/CaffeOnSpark", session, base(httpserver), token="t0k", **FAST)
    assert record.archived is True
    assert record.license == "Apache-2.0"
    assert record.homepage is None


def test_github_base_url_from_environment(
    httpserver: HTTPServer, session: requests.Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    httpserver.expect_request("/repos/horovod/horovod").respond_with_data(
        fixture("github_repo_horovod.json"), content_type="application/json"
    )
    monkeypatch.setenv("DDL_GITHUB_API", base(httpserver))
    assert github.fetch("horovod/horovod", session, token="", **FAST).stars == 14011


def test_github_not_found(httpserver: HTTPServer, session: requests.Session) -> None:
    httpserver.expect_request("/repos/nobody/nothing").respond_with_data(
        fixture("github_not_found.json"), status=404, content_type="application/json"
    )
    with pytest.raises(NotFound):
        github.fetch("nobody/nothing", session, base(httpserver), token="", **FAST)


def test_github_rate_limit_far_reset_stops(
    httpserver: HTTPServer, session: requests.Session
) -> None:
    reset = int(time.time()) + 3600
    httpserver.expect_request("/repos/horovod/horovod").respond_with_data(
        fixture("github_rate_limited.json"),
        status=403,
        headers={
            "X-RateLimit-Limit": "60",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": str(reset),
        },
        content_type="application/json",
    )
    with pytest.raises(RateLimitExhausted, match="rate limit exhausted") as info:
        github.fetch("horovod/horovod", session, base(httpserver), token="", **FAST)
    assert info.value.reset_at == reset
    assert len(httpserver.log) == 1  # no hammering


def test_github_rate_limit_near_reset_waits(
    httpserver: HTTPServer, session: requests.Session
) -> None:
    waits: list[float] = []
    httpserver.expect_ordered_request("/repos/horovod/horovod").respond_with_data(
        fixture("github_rate_limited.json"),
        status=403,
        headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(time.time()) + 5)},
    )
    httpserver.expect_ordered_request("/repos/horovod/horovod").respond_with_data(
        fixture("github_repo_horovod.json"), content_type="application/json"
    )
    record = github.fetch(
        "horovod/horovod", session, base(httpserver), token="", sleep=waits.append, **FAST
    )
    assert record.full_name == "horovod/horovod"
    assert len(waits) == 1 and 4.0 <= waits[0] <= 7.0


def test_malformed_json(httpserver: HTTPServer, session: requests.Session) -> None:
    httpserver.expect_request("/repos/a/b").respond_with_data(
        b'{"full_name": "a/b", "stargazers_', content_type="application/json"
    )
    with pytest.raises(EnrichError, match="malformed JSON"):
        github.fetch("a/b", session, base(httpserver), token="", **FAST)


def test_arxiv_record(httpserver: HTTPServer, session: requests.Session) -> None:
    httpserver.expect_request(
        "/query", query_string={"id_list": "1802.09941", "max_results": "1"}
    ).respond_with_data(fixture("arxiv_1802.09941.xml"), content_type="application/atom+xml")
    record = arxiv.fetch("arXiv:1802.09941v2", session, base(httpserver), **FAST)
    assert record.title == (
        "Demystifying Parallel and Distributed Deep Learning: An In-Depth Concurrency Analysis"
    )
    assert record.authors == ("Tal Ben-Nun", "Torsten Hoefler")
    assert record.published == "2018-02-26" and record.published_year == 2018
    assert record.primary_category == "cs.LG"
    assert record.doi == "10.1145/3320060"


@pytest.mark.parametrize("name", ["arxiv_error.xml", "arxiv_empty.xml"])
def test_arxiv_unknown_ids(httpserver: HTTPServer, session: requests.Session, name: str) -> None:
    httpserver.expect_request("/query").respond_with_data(fixture(name))
    with pytest.raises(EnrichError):
        arxiv.fetch("2999.00001", session, base(httpserver), **FAST)


def test_arxiv_malformed_and_doctype(httpserver: HTTPServer, session: requests.Session) -> None:
    httpserver.expect_ordered_request("/query").respond_with_data(b"<feed><entry>")
    httpserver.expect_ordered_request("/query").respond_with_data(
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><feed/>'
    )
    with pytest.raises(EnrichError, match="malformed"):
        arxiv.fetch("1802.09941", session, base(httpserver), **FAST)
    with pytest.raises(EnrichError, match="DOCTYPE"):
        arxiv.fetch("1802.09941", session, base(httpserver), **FAST)


def test_arxiv_doctype_after_a_long_comment_is_refused() -> None:
    # A DOCTYPE past the first few kilobytes once slipped through and its entities expanded.
    names = b"abcdef"
    laughs = b'<!ENTITY a "lol">' + b"".join(
        b'<!ENTITY %c "%s">' % (name, b"&%c;" % previous * 10)
        for previous, name in itertools.pairwise(names)
    )  # &f; is "lol" 10**5 times
    body = (
        b'<?xml version="1.0"?><!--' + b"x" * 3000 + b"--><!DOCTYPE feed [" + laughs + b"]>"
        b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&f;</title></entry></feed>'
    )
    with pytest.raises(EnrichError, match="DOCTYPE or ENTITY"):
        arxiv.parse_feed(body, "http://127.0.0.1/query")


def test_arxiv_rejects_non_ids(session: requests.Session) -> None:
    with pytest.raises(EnrichError):
        arxiv.fetch("not-an-id", session, "http://127.0.0.1:9")


def test_crossref_record(httpserver: HTTPServer, session: requests.Session) -> None:
    httpserver.expect_request("/works/10.1145/3320060").respond_with_data(
        fixture("crossref_10.1145_3320060.json"), content_type="application/json"
    )
    record = crossref.fetch("10.1145/3320060", session, base(httpserver), **FAST)
    assert record.title == (
        "Demystifying Parallel and Distributed Deep Learning: An In-depth Concurrency Analysis"
    )
    assert record.authors == ("Tal Ben-Nun", "Torsten Hoefler")
    assert record.venue == "ACM Computing Surveys"
    assert record.year == 2019
    assert record.type == "journal-article"


def test_crossref_not_found(httpserver: HTTPServer, session: requests.Session) -> None:
    httpserver.expect_request("/works/10.1/nothing").respond_with_data(
        fixture("crossref_not_found.txt"), status=404
    )
    with pytest.raises(NotFound):
        crossref.fetch("10.1/nothing", session, base(httpserver), **FAST)


def test_retry_after_429_then_ok(httpserver: HTTPServer, session: requests.Session) -> None:
    waits: list[float] = []
    httpserver.expect_ordered_request("/works/10.1145/3320060").respond_with_data(
        "slow down", status=429, headers={"Retry-After": "2"}
    )
    httpserver.expect_ordered_request("/works/10.1145/3320060").respond_with_data(
        fixture("crossref_10.1145_3320060.json"), content_type="application/json"
    )
    record = crossref.fetch(
        "10.1145/3320060", session, base(httpserver), sleep=waits.append, **FAST
    )
    assert record.year == 2019 and waits == [2.0]


def test_503_forever_gives_up(httpserver: HTTPServer, session: requests.Session) -> None:
    waits: list[float] = []
    httpserver.expect_request("/works/10.1/x").respond_with_data(
        "busy", status=503, headers={"Retry-After": "1"}
    )
    with pytest.raises(EnrichError, match="after 2 retries"):
        crossref.fetch("10.1/x", session, base(httpserver), sleep=waits.append, **FAST)
    assert waits == [1.0, 1.0]


def test_connection_refused_is_enrich_error(session: requests.Session) -> None:
    with pytest.raises(EnrichError, match="connection failed"):
        crossref.fetch("10.1/x", session, "http://127.0.0.1:9", **FAST)


def test_retry_after_forms() -> None:
    now = 1_700_000_000.0
    assert retry_after("120") == 120.0
    assert retry_after("Tue, 14 Nov 2023 22:14:20 GMT", now=now) == pytest.approx(60.0)
    assert retry_after("Tue, 14 Nov 2023 20:00:00 GMT", now=now) == 0.0
    assert retry_after("soon") is None
    assert retry_after(None) is None


def test_slow_drip_body_is_bounded(session: requests.Session) -> None:
    from netutil import drip, local_server

    with local_server() as server:
        server.expect_request("/repos/a/b").respond_with_handler(drip(50, 0.1))
        started = time.monotonic()
        with pytest.raises(EnrichError, match="timed out"):
            github.fetch("a/b", session, base(server), token="", timeout=(0.5, 0.5))
        assert time.monotonic() - started < 2.0


def test_connection_reset_mid_body(session: requests.Session) -> None:
    from netutil import resetting_server

    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n"
    with (
        resetting_server(head + b'{"full_name": "a/') as url,
        pytest.raises(EnrichError, match="connection broken mid-response"),
    ):
        github.fetch("a/b", session, url.removesuffix("/reset"), token="", **FAST)


@pytest.mark.parametrize("location", [b"https://[::1/x", b"/\xff\xfe"], ids=["unclosed [", "bytes"])
def test_a_redirect_to_an_unusable_location_is_an_enrich_error(location: bytes) -> None:
    # requests resolved it inside send() and raised ValueError / UnicodeDecodeError.
    answer = b"HTTP/1.1 301 Moved Permanently\r\nLocation: " + location
    answer += b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    with raw_server(send_bytes(answer)) as base, pytest.raises(EnrichError):
        get_json(make_session(), f"{base}/repos/a/b", timeout=(3, 3))
