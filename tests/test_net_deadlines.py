"""Total deadlines: a server that drips its headers cannot hold check-links, enrich or the session.

Everything targets raw servers on 127.0.0.1 that stop by themselves (netutil.raw_server).
"""

from __future__ import annotations

import time

import pytest
import requests

from ddl_catalog.net.enrich import EnrichError, github
from ddl_catalog.net.linkcheck import Checker, Options
from ddl_catalog.net.session import DeadlineExceeded, make_session
from netutil import TLS_ALERT, header_drip, raw_server, send_bytes


def test_session_stops_a_header_drip_at_the_total_deadline() -> None:
    # 430 header bytes, one every 0.05 s: 20 s in all, yet no single read waits 0.5 s.
    session = make_session(deadline=1.0)
    with raw_server(header_drip(0.05)) as base:
        started = time.monotonic()
        with pytest.raises(DeadlineExceeded, match="total deadline"):
            session.get(f"{base}/slow", timeout=(0.5, 0.5))
        elapsed = time.monotonic() - started
    assert elapsed < 3.0


def test_default_deadline_follows_the_timeouts() -> None:
    session = make_session()
    with raw_server(header_drip(0.05)) as base:
        started = time.monotonic()
        with pytest.raises(DeadlineExceeded):
            session.get(f"{base}/slow", timeout=(0.3, 0.3))  # 0.3 + 2 x 0.3 s
        assert time.monotonic() - started < 3.0


def test_a_fast_server_is_not_cut_short() -> None:
    session = make_session(deadline=5.0)
    with raw_server(send_bytes(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")) as base:
        for _ in range(20):  # the watchdog forgets finished requests
            assert session.get(f"{base}/ok", timeout=(1, 1)).status_code == 204


def test_check_links_names_the_deadline() -> None:
    with raw_server(header_drip(0.05)) as base:
        started = time.monotonic()
        result = Checker(Options(timeout=0.4, retries=0)).check(f"{base}/slow")
        assert time.monotonic() - started < 4.0
    assert result.outcome == "error"
    assert result.error == "no response within the total deadline"


def test_enrich_names_the_deadline() -> None:
    with raw_server(header_drip(0.05)) as base:
        started = time.monotonic()
        with pytest.raises(EnrichError, match="no response within"):
            github.fetch("a/b", make_session(), base, token="", timeout=(0.4, 0.4))
        assert time.monotonic() - started < 4.0


def test_enrich_names_tls_on_a_plain_http_url() -> None:
    with (
        raw_server(send_bytes(TLS_ALERT)) as base,
        pytest.raises(EnrichError, match="answered with TLS"),
    ):
        github.fetch("a/b", make_session(), base, token="", timeout=(1, 1))


def test_enrich_names_plain_http_on_an_https_url() -> None:
    reply = send_bytes(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
    with raw_server(reply) as base:
        url = base.replace("http://", "https://")
        with pytest.raises(EnrichError, match="does not speak TLS"):
            github.fetch("a/b", make_session(), url, token="", timeout=(1, 1))


def test_enrich_names_a_bad_status_line() -> None:
    with (
        raw_server(send_bytes(b"SSH-2.0-OpenSSH_9.2\r\n")) as base,
        pytest.raises(EnrichError, match="bad status line"),
    ):
        github.fetch("a/b", make_session(), base, token="", timeout=(1, 1))


def test_enrich_names_a_redirect_loop() -> None:
    def loop(conn: object) -> None:
        conn.sendall(  # type: ignore[attr-defined]
            b"HTTP/1.1 302 Found\r\nLocation: /repos/a/b\r\nConnection: close\r\n\r\n"
        )

    with raw_server(loop) as base, pytest.raises(EnrichError, match="redirect loop"):
        github.fetch("a/b", make_session(), base, token="", timeout=(1, 1))


def test_deadline_exceeded_is_a_timeout() -> None:
    assert issubclass(DeadlineExceeded, requests.Timeout)
