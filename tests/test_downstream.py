"""What validates renders and exports: for each value a renderer or exporter parses (dates,
years, URLs, titles, identifiers, escapes), either ``validate`` refuses it with a located error,
or every output (README, each export format, the site's files) is built from it without an
exception. Each refused value crashed an output before its rule existed."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import GOOD_PAPER
from ddl_catalog import export
from ddl_catalog.model.build import build
from ddl_catalog.render import readme
from ddl_catalog.render.site import build_site
from ddl_catalog.validate import validate
from test_site import site_sources

NEXT_YEAR = datetime.date.today().year + 1


def paper(**changes: str) -> str:
    """Return the good paper with lines replaced ('key: value' text) or added."""
    lines = []
    for line in GOOD_PAPER.splitlines():
        key = line.split(":", 1)[0]
        lines.append(changes.pop(key, line))
    return "\n".join([*lines, *changes.values()]) + "\n"


#: name -> (entry text, the rule that refuses it, or None when every output must accept it)
VALUES: dict[str, tuple[str, str | None]] = {
    "added 30 February": (paper(added='added: "2026-02-30"'), "added-date"),
    "added month 13": (paper(added='added: "2026-13-01"'), "added-date"),
    "added day 00": (paper(added='added: "2026-01-00"'), "added-date"),
    "added year 0000": (paper(added='added: "0000-01-01"'), "added-date"),
    "added unquoted 31 April": (paper(added="added: 2026-04-31"), "added-date"),
    "added before the epoch": (paper(added='added: "1969-12-31"'), "added-date"),
    "added in year 9999": (paper(added='added: "9999-12-31"'), "added-date"),
    "added a leap day": (paper(added='added: "2024-02-29"'), None),
    "added the first day allowed": (paper(added='added: "1990-01-01"'), None),
    "added the last day allowed": (paper(added=f'added: "{NEXT_YEAR}-12-31"'), None),
    "year 0": (paper(year="year: 0"), "year-range"),
    "year 99999": (paper(year="year: 99999"), "year-range"),
    "year as a decimal": (paper(year="year: 2012.0"), "year-range"),
    "year as infinity": (paper(year="year: .inf"), "schema"),
    "year of 5,000 digits": (paper(year="year: " + "9" * 5000), "yaml"),
    "year 2**63": (paper(year="year: 9223372036854775808"), "yaml"),
    "url port out of range": (paper(url="url: https://example.org:99999/x"), "url-scheme"),
    "url port not a number": (paper(url="url: https://example.org:abc/x"), "url-scheme"),
    "url unclosed IPv6": (paper(url="url: https://[::1/x"), "url-scheme"),
    "url with a port": (paper(url="url: https://example.org:8080/x"), None),
    "url with a non-ASCII host": (paper(url="url: https://exämple.org/x"), None),
    "url with an escaped NUL": (paper(url='url: "https://example.org/\\0x"'), "encoding"),
    "title blank": (paper(title='title: " "'), "title-style"),
    "title with an escaped NUL": (paper(title='title: "a\\0b"'), "encoding"),
    "title with an escaped ESC": (paper(title='title: "a\\eb"'), "encoding"),
    "title with an escaped U+FFFF": (paper(title='title: "a\\uFFFFb"'), "encoding"),
    "title with an escaped C1 control": (paper(title='title: "a\\x9bb"'), "encoding"),
    "title with escaped line breaks": (paper(title='title: "Large\\nScale\\tNets"'), None),
    "description with an escaped NUL": (
        paper(description='description: "Trains networks with \\0 asynchronous SGD."'),
        "encoding",
    ),
    "link title with an escaped NUL": (
        paper(links='links:\n  - type: code\n    url: https://github.com/a/b\n    title: "x\\0"'),
        "encoding",
    ),
    "author with an escaped NUL": (paper(authors='authors: ["Jeff\\0 Dean"]'), "encoding"),
    "description blank": (paper(description='description: "          "'), "description-style"),
    "author blank": (paper(authors='authors: [" "]'), None),
    "author a comma": (paper(authors='authors: [","]'), None),
    "venue blank": (paper(venue='venue: " "'), None),
    "doi with markup": (paper(identifiers='identifiers:\n  doi: "10.1234/<b>\\"x"'), None),
    "old-style arXiv id": (paper(identifiers='identifiers:\n  arxiv: "hep-th.AB/1234567"'), None),
}


def _outputs(root: Path) -> None:
    """Build every output of a validated catalog in memory and into root/exports."""
    report = validate(root)
    catalog = build(root, report)
    for fmt in ("json", "csv", "bibtex", "csljson", "atom"):
        export.render(catalog, fmt)
    readme.render(catalog)
    export.site_files(catalog, root / "exports", site_url="https://example.org/list/")


@pytest.mark.parametrize("name", list(VALUES))
def test_a_value_is_refused_or_every_output_takes_it(
    name: str, catalog_dir: Callable[..., Path]
) -> None:
    text, rule = VALUES[name]
    root = catalog_dir({"data/papers/dean2012large.yml": text})
    errors = validate(root).errors
    if rule is not None:
        assert [p.rule for p in errors] == [rule], errors
        assert errors[0].path == "data/papers/dean2012large.yml"
        return
    assert errors == []
    _outputs(root)


@pytest.mark.parametrize(
    "added", ["1990-01-01", f"{NEXT_YEAR}-12-31"], ids=["first day", "last day"]
)
def test_the_site_builds_at_both_ends_of_the_added_range(
    added: str, catalog_dir: Callable[..., Path]
) -> None:
    root = site_sources(
        catalog_dir({"data/papers/dean2012large.yml": paper(added=f'added: "{added}"')})
    )
    assert validate(root).errors == []
    assert (build_site(root) / "index.html").exists()
