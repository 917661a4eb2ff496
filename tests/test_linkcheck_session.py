"""The session factory reads the environment once: CA bundle kept, proxies honoured, no netrc."""

from __future__ import annotations

import pytest
from pytest_httpserver import HTTPServer

from ddl_catalog.net.session import USER_AGENT, make_session
from netutil import local_server

_VARIABLES = (
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
    "requests_ca_bundle",
    "curl_ca_bundle",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


def test_plain_environment_is_not_consulted_per_request() -> None:
    session = make_session(3)
    assert session.trust_env is False
    assert session.verify is True
    assert session.headers["User-Agent"] == USER_AGENT


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({"REQUESTS_CA_BUNDLE": "/etc/a.pem"}, "/etc/a.pem"),
        ({"CURL_CA_BUNDLE": "/etc/b.pem"}, "/etc/b.pem"),
        ({"REQUESTS_CA_BUNDLE": "/etc/a.pem", "CURL_CA_BUNDLE": "/etc/b.pem"}, "/etc/a.pem"),
    ],
)
def test_ca_bundle_becomes_verify_without_trusting_env(
    monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], expected: str
) -> None:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    session = make_session()
    assert session.trust_env is False
    assert session.verify == expected
    settings = session.merge_environment_settings("https://example.org/", {}, None, None, None)
    assert settings["verify"] == expected


@pytest.mark.parametrize("name", ["http_proxy", "HTTPS_PROXY", "ALL_PROXY"])
def test_proxy_variable_keeps_trusting_env(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv(name, "http://proxy.invalid:3128")
    assert make_session().trust_env is True


def test_no_proxy_alone_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "localhost")
    assert make_session().trust_env is False


def test_session_with_bundle_still_talks_plain_http(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", "/nonexistent/bundle.pem")
    server: HTTPServer
    with local_server() as server:
        server.expect_request("/x", method="HEAD").respond_with_data("")
        response = make_session().head(server.url_for("/x"), timeout=2)
    assert response.status_code == 200
