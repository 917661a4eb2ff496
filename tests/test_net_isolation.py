"""What one URL does cannot harm another: cookies, total deadlines, stale connections, IPv6.

Every server is a pytest-httpserver on 127.0.0.1; every chain and retry is bounded.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from ddl_catalog.cli import cli
from ddl_catalog.net.enrich import EnrichError, github
from ddl_catalog.net.linkcheck import Checker, LinkCheckError, Options
from ddl_catalog.net.links import file_urls, urls_in_text
from ddl_catalog.net.session import DeadlineExceeded, make_session, total_deadline
from netutil import local_server, raw_server


@pytest.fixture
def server() -> Iterator[HTTPServer]:
    with local_server() as srv:
        yield srv


# -- cookies ---------------------------------------------------------------------------------


def _cookie_host(server: HTTPServer) -> None:
    """/big sets 8 KB of cookies; /small answers 431 to any request that sends them back."""

    def big(request: Request) -> Response:
        response = Response("")
        for i in range(8):
            response.set_cookie(f"c{i}", "v" * 1000)
        return response

    def small(request: Request) -> Response:
        return Response("", status=431 if request.headers.get("Cookie") else 200)

    server.expect_request("/big").respond_with_handler(big)
    server.expect_request("/small").respond_with_handler(small)


def test_cookies_of_one_url_are_not_sent_with_the_next(server: HTTPServer) -> None:
    _cookie_host(server)
    urls = [server.url_for("/big"), server.url_for("/small")]
    results = Checker(Options(concurrency=1, per_origin=1, timeout=2)).check_all(urls)
    assert [(r.outcome, r.status) for r in results] == [("ok", 200), ("ok", 200)]


def test_the_session_keeps_no_cookies_between_requests(server: HTTPServer) -> None:
    _cookie_host(server)
    session = make_session()
    assert session.get(server.url_for("/big"), timeout=2).status_code == 200
    assert session.get(server.url_for("/small"), timeout=2).status_code == 200
    assert len(session.cookies) == 0


def test_a_cookie_set_by_a_redirect_still_counts_within_its_chain(server: HTTPServer) -> None:
    def login(request: Request) -> Response:
        response = Response("", status=302, headers={"Location": "/page"})
        response.set_cookie("session", "1")
        return response

    def page(request: Request) -> Response:
        return Response("", status=200 if request.cookies.get("session") == "1" else 403)

    server.expect_request("/login").respond_with_handler(login)
    server.expect_request("/page").respond_with_handler(page)
    result = Checker(Options(timeout=2)).check(server.url_for("/login"))
    assert (result.outcome, result.status) == ("ok", 200)


# -- a total deadline per URL ----------------------------------------------------------------


def _slow_chain(server: HTTPServer, hops: int, pause: float, final: Response) -> None:
    """/hop/0 ... /hop/<hops>: each waits ``pause`` s, then redirects to the next."""

    def hop(request: Request) -> Response:
        index = int(request.path.rsplit("/", 1)[1])
        time.sleep(pause)
        if index >= hops:
            return final
        return Response("", status=302, headers={"Location": f"/hop/{index + 1}"})

    for index in range(hops + 1):
        server.expect_request(f"/hop/{index}").respond_with_handler(hop)


def test_check_links_bounds_a_whole_redirect_chain(server: HTTPServer) -> None:
    # 20 hops of 0.3 s: each well within --timeout 0.5, 6 s in all; the URL gets 1.5 s.
    _slow_chain(server, 20, 0.3, Response(""))
    options = Options(timeout=0.5, max_redirects=30, retries=0)
    started = time.monotonic()
    result = Checker(options).check(server.url_for("/hop/0"))
    assert time.monotonic() - started < 3.0
    assert (result.outcome, result.error) == ("error", "no response within the total deadline")


def test_enrich_bounds_a_whole_redirect_chain(server: HTTPServer) -> None:
    body = '{"full_name": "a/b", "stargazers_count": 1}'
    _slow_chain(server, 20, 0.3, Response(body, content_type="application/json"))
    server.expect_request("/repos/a/b").respond_with_data(
        "", status=302, headers={"Location": "/hop/0"}
    )
    started = time.monotonic()
    with pytest.raises(EnrichError, match="no response within the total deadline"):
        github.fetch("a/b", make_session(), server.url_for(""), token="", timeout=(0.5, 0.5))
    assert time.monotonic() - started < 3.0


def test_the_total_deadline_also_bounds_the_body(server: HTTPServer) -> None:
    def drip(request: Request) -> Response:
        def body() -> Iterator[bytes]:
            for _ in range(40):  # 8 s in all, a byte every 0.2 s: no read waits long
                time.sleep(0.2)
                yield b" "

        return Response(body(), headers={"Content-Length": "40"})

    server.expect_request("/repos/a/b").respond_with_handler(drip)
    started = time.monotonic()
    with pytest.raises(EnrichError):
        github.fetch("a/b", make_session(), server.url_for(""), token="", timeout=(0.5, 0.5))
    assert time.monotonic() - started < 3.0


def test_nested_total_deadlines_keep_the_shorter(server: HTTPServer) -> None:
    _slow_chain(server, 0, 1.0, Response(""))
    session = make_session()
    started = time.monotonic()
    with total_deadline(0.4), total_deadline(30), pytest.raises(DeadlineExceeded):
        session.get(server.url_for("/hop/0"), timeout=(5, 5))
    assert time.monotonic() - started < 0.9


def test_waiting_for_the_origin_does_not_use_up_the_deadline(server: HTTPServer) -> None:
    server.expect_request("/a").respond_with_data("")
    server.expect_request("/b").respond_with_data("")
    # --delay 0.8 between starts on one origin, --timeout 0.2 (a 0.6 s total per URL)
    options = Options(concurrency=2, per_origin=1, delay=0.8, timeout=0.2)
    results = Checker(options).check_all([server.url_for("/a"), server.url_for("/b")])
    assert [r.outcome for r in results] == ["ok", "ok"]


# -- stale keep-alive connections ------------------------------------------------------------


def _closes_reused_connections(seen: list[str]) -> Callable[[socket.socket], None]:
    """Return a raw-server reply that answers the first request of each connection and closes
    the connection, unanswered, when a second request comes on it.

    That is what a client sees from a server that dropped an idle keep-alive connection just as
    the client reused it. (pytest-httpserver cannot keep a connection alive: werkzeug closes
    every one.) ``seen`` gets "new" for each connection and "reused" for each dropped request.
    """

    def reply(conn: socket.socket) -> None:
        seen.append("new")
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        if conn.recv(65536):
            seen.append("reused")
            conn.shutdown(socket.SHUT_RDWR)

    return reply


def test_a_stale_keep_alive_connection_is_retried_on_a_fresh_one() -> None:
    seen: list[str] = []
    with raw_server(_closes_reused_connections(seen)) as base:
        urls = [f"{base}/a", f"{base}/b"]
        results = Checker(Options(concurrency=1, per_origin=1, timeout=2)).check_all(urls)
    assert [(r.outcome, r.error) for r in results] == [("ok", None), ("ok", None)]
    assert seen == ["new", "reused", "new"]


def test_the_session_retries_a_stale_connection_once() -> None:
    seen: list[str] = []
    session = make_session()
    with raw_server(_closes_reused_connections(seen)) as base:
        assert session.get(f"{base}/a", timeout=2).status_code == 200
        assert session.get(f"{base}/b", timeout=2).status_code == 200
    assert seen == ["new", "reused", "new"]


def test_a_reset_on_a_fresh_connection_is_not_retried() -> None:
    seen: list[str] = []

    def reply(conn: socket.socket) -> None:
        seen.append("new")
        conn.shutdown(socket.SHUT_RDWR)

    with raw_server(reply) as base:
        result = Checker(Options(timeout=2, retries=0)).check(f"{base}/a")
    assert result.outcome == "error"
    assert seen == ["new"]


# -- option values ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--timeout", "nan"),
        ("--timeout", "inf"),
        ("--timeout", "-inf"),
        ("--timeout", "0"),
        ("--delay", "inf"),
        ("--delay", "nan"),
        ("--delay", "-1"),
        ("--timeout", "1e308"),
        ("--delay", "1e308"),
    ],
)
def test_check_links_refuses_times_that_are_not_finite(
    tmp_path: Path, option: str, value: str
) -> None:
    page = tmp_path / "list.md"
    page.write_text("http://127.0.0.1:9/x\n")
    result = CliRunner().invoke(cli, ["check-links", str(page), "--no-cache", option, value])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("field", ["timeout", "delay"])
def test_options_refuse_times_that_are_not_finite(field: str) -> None:
    with pytest.raises(LinkCheckError):
        Options(**{field: float("inf")})  # type: ignore[arg-type]
    with pytest.raises(LinkCheckError):
        Options(**{field: float("nan")})  # type: ignore[arg-type]
    with pytest.raises(LinkCheckError):
        Options(**{field: 1e308})  # type: ignore[arg-type]


# -- IPv6 literals ---------------------------------------------------------------------------


def test_urls_with_ipv6_literals_are_found_in_text() -> None:
    line = (
        "see http://[::1]:8080/x, [a](https://[2001:db8::1]/p?q=1) and <http://[fe80::1%25eth0]/>"
    )
    assert urls_in_text(line) == [
        "http://[::1]:8080/x",
        "https://[2001:db8::1]/p?q=1",
        "http://[fe80::1%25eth0]/",
    ]


def test_an_ipv6_url_in_an_input_file_is_checked(server: HTTPServer, tmp_path: Path) -> None:
    try:
        socket.create_connection(("::ffff:127.0.0.1", server.port), timeout=1).close()
    except OSError:
        pytest.skip("no IPv6 sockets on this machine")
    server.expect_request("/v6").respond_with_data("")
    url = f"http://[::ffff:127.0.0.1]:{server.port}/v6"
    page = tmp_path / "list.md"
    page.write_text(f"- [six]({url})\n")
    assert list(file_urls([page])) == [url]
    result = CliRunner().invoke(
        cli, ["check-links", str(page), "--no-cache", "--format", "json", "--timeout", "2"]
    )
    assert result.exit_code == 0, result.output
    assert f'"url": "{url}"' in result.output and '"outcome": "ok"' in result.output
