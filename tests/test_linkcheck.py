"""The link checker against a local server: every outcome, retries, timeouts, politeness."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from email.utils import formatdate

import pytest
import requests
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from ddl_catalog.net import hosts
from ddl_catalog.net.linkcheck import Checker, LinkCheckError, Options, classify_exception
from ddl_catalog.net.session import USER_AGENT
from netutil import (
    ConcurrencyCounter,
    drip,
    free_port,
    local_server,
    raw_server,
    resetting_server,
    send_bytes,
)


@pytest.fixture(scope="module")
def shared_server() -> Iterator[HTTPServer]:
    with local_server() as srv:
        yield srv


@pytest.fixture
def server(shared_server: HTTPServer) -> Iterator[HTTPServer]:
    shared_server.clear()
    yield shared_server
    shared_server.clear()


def checker(**kwargs: object) -> Checker:
    defaults: dict[str, object] = {"timeout": 1.0, "backoff": 0.05, "retries": 2}
    defaults.update(kwargs)
    return Checker(Options(**defaults))  # type: ignore[arg-type]


def methods(server: HTTPServer) -> list[str]:
    return [f"{req.method} {req.path}" for req, _ in server.log]


def test_ok_with_head_only(server: HTTPServer) -> None:
    server.expect_request("/page", method="HEAD").respond_with_data("")
    result = checker().check(server.url_for("/page"))
    assert (result.outcome, result.status, result.final_url) == ("ok", 200, None)
    assert result.error is None
    assert methods(server) == ["HEAD /page"]


@pytest.mark.parametrize("refusal", [405, 403, 501])
def test_head_refused_then_streamed_get(server: HTTPServer, refusal: int) -> None:
    server.expect_request("/page", method="HEAD").respond_with_data("", status=refusal)
    server.expect_request("/page", method="GET").respond_with_data("x" * 100_000)
    result = checker().check(server.url_for("/page"))
    assert (result.outcome, result.status) == ("ok", 200)
    assert methods(server) == ["HEAD /page", "GET /page"]


@pytest.mark.parametrize(
    ("status", "outcome"), [(404, "broken"), (410, "broken"), (500, "error"), (401, "error")]
)
def test_error_statuses(server: HTTPServer, status: int, outcome: str) -> None:
    server.expect_request("/x").respond_with_data("", status=status)
    result = checker().check(server.url_for("/x"))
    assert (result.outcome, result.status, result.error) == (outcome, status, f"HTTP {status}")


@pytest.mark.parametrize("status", [301, 308])
def test_permanent_redirect_is_moved(server: HTTPServer, status: int) -> None:
    new = server.url_for("/new")
    server.expect_request("/old").respond_with_data("", status=status, headers={"Location": "/new"})
    server.expect_request("/new").respond_with_data("")
    result = checker().check(server.url_for("/old"))
    assert (result.outcome, result.new_url, result.final_url) == ("moved", new, new)


def test_temporary_redirect_is_ok_with_final_url(server: HTTPServer) -> None:
    server.expect_request("/a").respond_with_data("", status=302, headers={"Location": "/b"})
    server.expect_request("/b").respond_with_data("", status=307, headers={"Location": "/c"})
    server.expect_request("/c").respond_with_data("")
    result = checker().check(server.url_for("/a"))
    assert (result.outcome, result.final_url, result.new_url) == ("ok", server.url_for("/c"), None)


def test_moved_then_temporary_keeps_the_permanent_target(server: HTTPServer) -> None:
    server.expect_request("/a").respond_with_data("", status=301, headers={"Location": "/b"})
    server.expect_request("/b").respond_with_data("", status=302, headers={"Location": "/login"})
    server.expect_request("/login").respond_with_data("")
    result = checker().check(server.url_for("/a"))
    assert result.outcome == "moved"
    assert result.new_url == server.url_for("/b")
    assert result.final_url == server.url_for("/login")


def test_redirect_loop(server: HTTPServer) -> None:
    server.expect_request("/a").respond_with_data("", status=302, headers={"Location": "/b"})
    server.expect_request("/b").respond_with_data("", status=302, headers={"Location": "/a"})
    result = checker().check(server.url_for("/a"))
    assert (result.outcome, result.error) == ("broken", "redirect loop")
    assert len(server.log) == 2


def test_too_many_redirects(server: HTTPServer) -> None:
    for i in range(6):
        server.expect_request(f"/r{i}").respond_with_data(
            "", status=302, headers={"Location": f"/r{i + 1}"}
        )
    result = checker(max_redirects=3).check(server.url_for("/r0"))
    assert result.outcome == "broken" and result.error == "more than 3 redirects"


def test_retry_after_seconds(server: HTTPServer) -> None:
    server.expect_ordered_request("/busy").respond_with_data(
        "", status=429, headers={"Retry-After": "1"}
    )
    server.expect_ordered_request("/busy").respond_with_data("")
    started = time.monotonic()
    result = checker().check(server.url_for("/busy"))
    assert result.outcome == "ok"
    assert time.monotonic() - started >= 1.0


def test_retry_after_http_date(server: HTTPServer) -> None:
    when = formatdate(time.time() + 2, usegmt=True)
    server.expect_ordered_request("/busy").respond_with_data(
        "", status=503, headers={"Retry-After": when}
    )
    server.expect_ordered_request("/busy").respond_with_data("")
    started = time.monotonic()
    result = checker().check(server.url_for("/busy"))
    assert result.outcome == "ok"
    assert 0.9 <= time.monotonic() - started <= 3.5


def test_retry_after_in_the_scheduler_frees_the_origin(server: HTTPServer) -> None:
    answers = iter([Response("", 429, {"Retry-After": "1"}), Response("", 200)])
    server.expect_request("/busy").respond_with_handler(lambda _req: next(answers))
    server.expect_request("/other").respond_with_data("")
    done: list[tuple[str, float]] = []
    started = time.monotonic()
    results = checker(per_origin=1).check_all(
        [server.url_for("/busy"), server.url_for("/other")],
        on_result=lambda r: done.append((r.url, time.monotonic() - started)),
    )
    assert [r.outcome for r in results] == ["ok", "ok"]
    # /other went through while /busy waited for its Retry-After.
    assert done[0][0].endswith("/other") and done[0][1] < 0.9
    assert done[1][0].endswith("/busy") and done[1][1] >= 1.0


def test_429_without_retry_after_backs_off_then_gives_up(server: HTTPServer) -> None:
    server.expect_request("/busy").respond_with_data("", status=429)
    result = checker(retries=2).check(server.url_for("/busy"))
    assert (result.outcome, result.status) == ("error", 429)
    assert result.error == "HTTP 429 after 2 retries"
    assert len(server.log) == 3


def test_retry_after_too_long_is_an_error_at_once(server: HTTPServer) -> None:
    server.expect_request("/busy").respond_with_data(
        "", status=503, headers={"Retry-After": "3600"}
    )
    result = checker(max_retry_wait=5).check(server.url_for("/busy"))
    assert result.outcome == "error" and "too long" in (result.error or "")
    assert len(server.log) == 1


def test_read_timeout(server: HTTPServer) -> None:
    server.expect_request("/slow").respond_with_handler(ConcurrencyCounter(pause=1.0))
    started = time.monotonic()
    result = checker(timeout=0.3).check(server.url_for("/slow"))
    assert (result.outcome, result.error) == ("error", "read timeout")
    assert time.monotonic() - started < 0.9


def test_slow_drip_body_does_not_hold_the_checker(server: HTTPServer) -> None:
    server.expect_request("/drip", method="HEAD").respond_with_data("", status=405)
    server.expect_request("/drip", method="GET").respond_with_handler(drip(20, 0.2))
    started = time.monotonic()
    result = checker(timeout=0.5).check(server.url_for("/drip"))
    assert result.outcome == "ok"  # the body is never read
    assert time.monotonic() - started < 1.0


def test_slow_drip_oembed_body_is_bounded(server: HTTPServer) -> None:
    server.expect_request("/oembed").respond_with_handler(drip(40, 0.1))
    started = time.monotonic()
    result = checker(timeout=0.5, oembed=server.url_for("/oembed")).check(
        "https://www.youtube.com/watch?v=abc"
    )
    assert (result.outcome, result.error) == ("error", "read timeout")
    assert time.monotonic() - started < 2.0


def test_connection_refused() -> None:
    result = checker().check(f"http://127.0.0.1:{free_port()}/")
    assert (result.outcome, result.error) == ("error", "connection refused")


def test_connection_reset_mid_response() -> None:
    with resetting_server(b"HTTP/1.1 20") as url:
        result = checker().check(url)
    assert result.outcome == "error"
    assert result.error in ("connection reset", "connection broken mid-response")


def test_tls_error(server: HTTPServer) -> None:
    url = server.url_for("/").replace("http://", "https://")
    result = checker().check(url)
    assert result.outcome == "error" and (result.error or "").startswith("TLS error")


def test_dns_errors_are_classified() -> None:
    gone = requests.ConnectionError("lookup")
    gone.__cause__ = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    assert classify_exception(gone) == ("broken", "DNS: host not found")
    flaky = requests.ConnectionError("lookup")
    flaky.__cause__ = socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
    assert classify_exception(flaky)[0] == "error"


def test_youtube_through_oembed(server: HTTPServer) -> None:
    server.expect_request(
        "/oembed",
        query_string={"format": "json", "url": "https://www.youtube.com/watch?v=gone"},
    ).respond_with_data("Not Found", status=404)
    server.expect_request(
        "/oembed",
        query_string={"format": "json", "url": "https://www.youtube.com/watch?v=here"},
    ).respond_with_json({"title": "A talk", "type": "video"})
    check = checker(oembed=server.url_for("/oembed"))
    assert check.check("https://youtu.be/gone").outcome == "broken"
    assert check.check("https://www.youtube.com/watch?v=here&t=5").outcome == "ok"


def test_resolver_redirect_is_not_followed(server: HTTPServer) -> None:
    host = hosts.origin_host(server.url_for("/"))
    server.expect_request("/10.1145/3320060").respond_with_data(
        "", status=302, headers={"Location": "https://dl.acm.org/doi/10.1145/3320060"}
    )
    server.expect_request("/10.9999/none").respond_with_data("", status=404)
    check = checker(resolvers=frozenset({host}))
    result = check.check(server.url_for("/10.1145/3320060"))
    assert (result.outcome, result.final_url) == ("ok", "https://dl.acm.org/doi/10.1145/3320060")
    assert check.check(server.url_for("/10.9999/none")).outcome == "broken"
    assert len(server.log) == 2  # the publisher was never asked


def test_youtube_urls() -> None:
    assert hosts.youtube_video("https://www.youtube.com/watch?v=xtxxLWZznBI") == "xtxxLWZznBI"
    assert hosts.youtube_video("https://youtu.be/xtxxLWZznBI?t=3") == "xtxxLWZznBI"
    assert hosts.youtube_video("https://www.youtube.com/embed/abc") == "abc"
    assert hosts.youtube_video("https://www.youtube.com/channel/abc") is None
    assert hosts.plan("https://doi.org/10.1/x").mode == "resolver"
    assert hosts.plan("https://example.org/").mode == "default"


def test_skipped_by_scheme_and_pattern(server: HTTPServer) -> None:
    check = checker(exclude=(r"/private/",))
    results = check.check_all(["mailto:a@b.org", server.url_for("/private/x")])
    assert [r.outcome for r in results] == ["skipped", "skipped"]
    assert len(server.log) == 0


def test_bad_options() -> None:
    with pytest.raises(LinkCheckError):
        Options(exclude=("(",))
    with pytest.raises(LinkCheckError):
        Options(per_origin=0)


def test_per_origin_cap_is_never_exceeded() -> None:
    with local_server() as one, local_server() as two:
        counters = [ConcurrencyCounter(pause=0.05), ConcurrencyCounter(pause=0.05)]
        for srv, counter in zip((one, two), counters, strict=True):
            srv.expect_request("/p").respond_with_handler(counter)
        urls = [srv.url_for(f"/p?i={i}") for srv in (one, two) for i in range(30)]
        check = checker(concurrency=16, per_origin=3)
        results = check.check_all(urls)
    assert all(r.outcome == "ok" for r in results) and len(results) == 60
    assert [c.peak for c in counters] == [3, 3]  # capped, and the cap is used
    assert sorted(check.stats.peak_in_flight.values()) == [3, 3]


def test_cookie_set_by_a_redirect_is_sent_to_the_next_hop(server: HTTPServer) -> None:
    server.expect_request("/a").respond_with_data(
        "", status=302, headers={"Location": "/b", "Set-Cookie": "consent=yes; Path=/"}
    )

    def needs_cookie(request: Request) -> Response:
        return Response("", 200 if request.cookies.get("consent") == "yes" else 403)

    server.expect_request("/b").respond_with_handler(needs_cookie)
    result = checker().check(server.url_for("/a"))
    assert (result.outcome, result.status) == ("ok", 200)
    assert methods(server) == ["HEAD /a", "HEAD /b"]


def test_session_headers_are_sent(server: HTTPServer) -> None:
    server.expect_request("/p", headers={"User-Agent": USER_AGENT}).respond_with_data("")
    assert checker().check(server.url_for("/p")).outcome == "ok"


def test_a_bug_in_a_worker_stops_the_run_with_its_exception(
    server: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    check = checker()

    def boom(url: str, attempt: int) -> object:
        raise RuntimeError(f"bug on {url}")

    monkeypatch.setattr(check, "_attempt", boom)
    with pytest.raises(RuntimeError, match="bug on"):
        check.check_all([server.url_for(f"/p?i={i}") for i in range(5)])


def test_per_origin_delay_spaces_requests(server: HTTPServer) -> None:
    server.expect_request("/p").respond_with_data("")
    started = time.monotonic()
    checker(delay=0.1).check_all([server.url_for(f"/p?i={i}") for i in range(5)])
    assert time.monotonic() - started >= 0.4


def test_dns_not_found_is_broken_only_when_some_host_answered(
    server: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = socket.getaddrinfo

    def fake(host: str, *args: object, **kwargs: object) -> object:
        if host == "gone.invalid":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    server.expect_request("/ok").respond_with_data("")
    online = checker().check_all(["http://gone.invalid/x", server.url_for("/ok")])
    assert [(r.outcome, r.error) for r in online] == [  # sorted by URL
        ("ok", None),
        ("broken", "DNS: host not found"),
    ]
    offline = checker().check_all(["http://gone.invalid/x"])
    assert offline[0].outcome == "error" and "offline?" in (offline[0].error or "")


@pytest.mark.parametrize(
    "location", [b"https://[::1/x", b"http://127.0.0.1:1/\xff\xfe"], ids=["unclosed [", "not UTF-8"]
)
def test_a_redirect_to_an_unusable_location_is_an_error_not_a_crash(location: bytes) -> None:
    # requests works out the next hop even with allow_redirects=False: these raised ValueError
    # and UnicodeDecodeError out of send().
    answer = b"HTTP/1.1 301 Moved Permanently\r\nLocation: " + location
    answer += b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    with raw_server(send_bytes(answer)) as base:
        result = checker(timeout=3).check(f"{base}/old")
    assert result.outcome == "error"  # unusable, or (latin-1 read) a port nothing listens on
