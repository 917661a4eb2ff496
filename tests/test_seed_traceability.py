"""Every URL of the three seed lists is used by an entry or explained in seed-corrections.yml."""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from ddl_catalog import identity
from ddl_catalog.model.build import open_catalog
from ddl_catalog.schema import validators

ROOT = Path(__file__).resolve().parents[1]
SEEDS = {
    "000": ROOT / "tests/fixtures/seeds/000_d8f126e6ecba8604.txt",
    "001": ROOT / "tests/fixtures/seeds/001_22ab897fd47a73b0.txt",
    "004": ROOT / "tests/fixtures/seeds/004_b40236e0e53ab6ec.txt",
}
# Markdown link targets, HTML src/href attributes and bare URLs (http, https, ftp).
_URL = re.compile(r"""(?:https?|ftp)://[^\s)\]>"'<]+""")


def seed_urls() -> list[tuple[str, int, str]]:
    """Return (seed, line, url) for every URL occurrence in the seed files."""
    found = []
    for seed, path in SEEDS.items():
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            for url in _URL.findall(line):
                found.append((seed, number, url.rstrip(".,;:")))
    return found


@pytest.fixture(scope="module")
def corrections() -> list[dict[str, object]]:
    data = yaml.safe_load((ROOT / "data/seed-corrections.yml").read_text("utf-8"))
    jsonschema.validate(data, validators.schema("seed-corrections"))
    rows: list[dict[str, object]] = data["corrections"]
    return rows


@pytest.fixture(scope="module")
def used_urls() -> set[str]:
    catalog = open_catalog(ROOT)
    urls: set[str] = set()
    for entry in catalog:
        for url in [entry.url, entry.archive_url, *(link.url for link in entry.links)]:
            if url:
                urls.add(identity.normalize_url(url))
    return urls


def test_seed_files_have_the_researched_number_of_urls() -> None:
    # 181 distinct link targets + 1 image embed (004) + 2 badge images (000): seed-research §5.1.
    assert len({url for _, _, url in seed_urls()}) == 184


def test_every_seed_url_is_used_or_explained(
    corrections: list[dict[str, object]], used_urls: set[str]
) -> None:
    explained = {str(row["url"]) for row in corrections}
    lost = [
        f"{seed}:{line}: {url}"
        for seed, line, url in seed_urls()
        if identity.normalize_url(url) not in used_urls and url not in explained
    ]
    assert lost == [], "seed URLs neither used by an entry nor listed in seed-corrections.yml"


def test_corrections_point_at_real_entries_and_urls(
    corrections: list[dict[str, object]], used_urls: set[str]
) -> None:
    catalog = open_catalog(ROOT)
    for row in corrections:
        if row["action"] == "dropped":
            continue
        entry = catalog.get(str(row["entry"]))
        assert entry is not None, f"correction for {row['url']} names unknown entry {row['entry']}"
        assert identity.normalize_url(str(row["by"])) in used_urls, row


def test_corrections_list_only_seed_urls_at_their_line(
    corrections: list[dict[str, object]],
) -> None:
    occurrences = {(seed, url) for seed, _, url in seed_urls()}
    lines = {(seed, line, url) for seed, line, url in seed_urls()}
    for row in corrections:
        assert (row["seed"], row["url"]) in occurrences, f"not a seed URL: {row}"
        assert (row["seed"], row["line"], row["url"]) in lines, f"wrong line: {row}"
