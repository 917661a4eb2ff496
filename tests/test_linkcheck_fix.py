"""check-links --fix writes only what validate accepts, and one refused move stops no other.

Servers: pytest-httpserver on 127.0.0.1, and a raw one (netutil.raw_server) for a Location
header in raw UTF-8 bytes, which werkzeug would percent-encode itself.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer

from ddl_catalog.cli import cli
from ddl_catalog.net.linkcheck import location
from ddl_catalog.validate import validate
from netutil import local_server, raw_server

ENTRY = """\
id: {id}
kind: framework
title: {title}
url: {url}
description: Ring-allreduce data parallelism for TensorFlow, Keras, PyTorch and MXNet.
categories: [frameworks]
"""


@pytest.fixture
def server() -> Iterator[HTTPServer]:
    with local_server() as srv:
        yield srv


def entry(name: str, url: str) -> str:
    return ENTRY.format(id=name, title=name.upper(), url=url)


def fix(root: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["check-links", "--root", str(root), "--no-cache", "--fix", "--timeout", "2"]
    )
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def moved(server: HTTPServer, path: str, to: str) -> None:
    server.expect_request(path).respond_with_data("", status=301, headers={"Location": to})


def redirect_in_raw_bytes(location: bytes) -> Callable[[socket.socket], None]:
    """Return a raw reply: a 301 whose Location header holds ``location`` byte for byte."""

    def reply(conn: socket.socket) -> None:
        conn.sendall(
            b"HTTP/1.1 301 Moved Permanently\r\nLocation: "
            + location
            + b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )

    return reply


def test_a_location_in_raw_utf8_is_followed_and_written_percent_encoded(
    catalog_dir: Callable[..., Path], server: HTTPServer
) -> None:
    server.expect_request(re.compile("/caf.*")).respond_with_data("")
    moved(server, "/b", "/b2")
    server.expect_request("/b2").respond_with_data("")
    target = server.url_for("/").rstrip("/").encode() + "/café–x".encode()
    with raw_server(redirect_in_raw_bytes(target)) as base:
        root = catalog_dir(
            {
                "data/frameworks/a.yml": entry("a", f"{base}/a"),
                "data/frameworks/b.yml": entry("b", server.url_for("/b")),
            }
        )
        code, out = fix(root)
    assert code == 0, out
    new_a = server.url_for("/caf%C3%A9%E2%80%93x")
    assert (root / "data/frameworks/a.yml").read_text() == entry("a", new_a)
    assert (root / "data/frameworks/b.yml").read_text() == entry("b", server.url_for("/b2"))
    assert validate(root).errors == []


def test_location_bytes_are_read_as_a_browser_reads_them() -> None:
    raw = "/café–x?q=é#é".encode().decode("latin-1")  # what the header parser hands over
    assert location(raw) == "/caf%C3%A9%E2%80%93x?q=%C3%A9#%C3%A9"
    assert location(b"/bad\xff\x85".decode("latin-1")) == "/bad%FF%85"
    assert location("http://bücher.example/a b".encode().decode("latin-1")) == (
        "http://bücher.example/a%20b"
    )
    assert location("/plain?a=1%20b") == "/plain?a=1%20b"
    assert location(None) is None


def test_fix_refuses_what_validate_refuses_and_makes_the_other_fixes(
    catalog_dir: Callable[..., Path], server: HTTPServer
) -> None:
    long_path = "/" + "x" * 5000
    moved(server, "/long", long_path)
    server.expect_request(long_path).respond_with_data("")
    moved(server, "/twin", "/taken")  # the URL entry "taken" already has
    server.expect_request("/taken").respond_with_data("")
    moved(server, "/good", "/good2")
    server.expect_request("/good2").respond_with_data("")
    files = {
        "data/frameworks/long.yml": entry("long", server.url_for("/long")),
        "data/frameworks/twin.yml": entry("twin", server.url_for("/twin")),
        "data/frameworks/taken.yml": entry("taken", server.url_for("/taken")),
        "data/frameworks/good.yml": entry("good", server.url_for("/good")),
    }
    root = catalog_dir(files)
    assert validate(root).errors == []
    code, out = fix(root)
    assert code == 1, out
    lines = out.splitlines()
    long_line = next(line for line in lines if line.startswith("not fixed") and "/long" in line)
    assert "validate would refuse it" in long_line and "[schema]" in long_line
    assert len(long_line) < 600  # a 5,000-character URL is cut in the message
    twin_line = next(line for line in lines if line.startswith("not fixed") and "/twin" in line)
    # Refused before validate runs: the new URL is another entry's resource (same_resource).
    assert "not fixed" in twin_line and "[duplicate-identity]" in twin_line
    assert f"fixed data/frameworks/good.yml: url: {server.url_for('/good')}" in out
    for name in ("long", "twin", "taken"):
        assert (root / f"data/frameworks/{name}.yml").read_text() == files[
            f"data/frameworks/{name}.yml"
        ]
    assert (root / "data/frameworks/good.yml").read_text() == entry(
        "good", server.url_for("/good2")
    )
    assert validate(root).errors == []


def test_a_refused_move_keeps_the_accepted_moves_of_the_same_file(
    catalog_dir: Callable[..., Path], server: HTTPServer
) -> None:
    moved(server, "/main", "/main2")
    server.expect_request("/main2").respond_with_data("")
    long_path = "/" + "y" * 3000
    moved(server, "/docs", long_path)
    server.expect_request(long_path).respond_with_data("")
    text = entry("one", server.url_for("/main")) + (
        f"links:\n  - type: docs\n    url: {server.url_for('/docs')}\n"
    )
    root = catalog_dir({"data/frameworks/one.yml": text})
    code, out = fix(root)
    assert code == 1, out
    after = (root / "data/frameworks/one.yml").read_text()
    assert after == text.replace(server.url_for("/main"), server.url_for("/main2"))
    assert validate(root).errors == []


def test_a_file_that_cannot_be_rewritten_stops_no_other_fix(
    catalog_dir: Callable[..., Path], server: HTTPServer
) -> None:
    moved(server, "/folded", "/folded2")
    moved(server, "/plain", "/plain2")
    server.expect_request("/folded2").respond_with_data("")
    server.expect_request("/plain2").respond_with_data("")
    folded = entry("folded", ">-\n  " + server.url_for("/folded"))
    root = catalog_dir(
        {
            "data/frameworks/folded.yml": folded,
            "data/frameworks/plain.yml": entry("plain", server.url_for("/plain")),
        }
    )
    code, out = fix(root)
    assert code == 1, out
    assert "not fixed (" in out and "not written on one line; fix it by hand" in out
    assert (root / "data/frameworks/folded.yml").read_text() == folded
    assert (root / "data/frameworks/plain.yml").read_text() == entry(
        "plain", server.url_for("/plain2")
    )


def test_a_file_that_cannot_be_written_stops_no_other_fix(
    catalog_dir: Callable[..., Path], server: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ddl_catalog import files as files_module
    from ddl_catalog.net import linkrun

    moved(server, "/a", "/a2")
    moved(server, "/b", "/b2")
    server.expect_request("/a2").respond_with_data("")
    server.expect_request("/b2").respond_with_data("")
    root = catalog_dir(
        {
            "data/frameworks/a.yml": entry("a", server.url_for("/a")),
            "data/frameworks/b.yml": entry("b", server.url_for("/b")),
        }
    )
    real = files_module.write_atomic

    def full_for_a(path: Path, text: str, **kwargs: object) -> None:
        if path.name == "a.yml":
            raise OSError(28, "No space left on device", str(path))
        real(path, text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(linkrun, "write_atomic", full_for_a)
    code, out = fix(root)
    assert code == 1, out
    assert "not fixed (cannot write data/frameworks/a.yml: No space left on device)" in out
    assert (root / "data/frameworks/a.yml").read_text() == entry("a", server.url_for("/a"))
    assert (root / "data/frameworks/b.yml").read_text() == entry("b", server.url_for("/b2"))
