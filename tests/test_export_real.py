"""Every export of the real catalog is produced and parses back."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import bibtexparser
import jsonschema

from ddl_catalog import export, settings
from ddl_catalog.export import bibtex
from ddl_catalog.model.build import open_catalog

REPO = Path(__file__).resolve().parent.parent
ATOM = "{http://www.w3.org/2005/Atom}"


def test_real_catalog_exports_parse_back(tmp_path: Path) -> None:
    catalog = open_catalog(REPO)
    written = export.site_files(catalog, tmp_path, site_url="https://example.org/")
    names = {str(p.relative_to(tmp_path)) for p in written}
    assert set(export.SITE_FILES) | {export.SCHEMA_FILE} <= names
    papers = bibtex.citable(catalog.entries)
    assert papers

    library = bibtexparser.parse_string((tmp_path / "papers.bib").read_text(encoding="utf-8"))
    assert library.failed_blocks == []
    assert [b.key for b in library.entries] == sorted(e.id for e in papers)
    for block in library.entries:
        entry = catalog.get(block.key)
        assert entry is not None
        assert block.entry_type == bibtex.entry_type(entry, catalog.venues)
        if entry.identifiers.arxiv:
            assert block["eprint"] == entry.identifiers.arxiv
        if entry.identifiers.doi:
            assert block["doi"] == entry.identifiers.doi

    for top in catalog.top_categories():
        path = tmp_path / "bib" / f"{top.id}.bib"
        wanted = {e.id for e in bibtex.citable(export.select(catalog, top.id))}
        if wanted:
            parsed = bibtexparser.parse_string(path.read_text(encoding="utf-8"))
            assert parsed.failed_blocks == []
            assert {b.key for b in parsed.entries} == wanted
        else:
            assert not path.exists()

    schema = json.loads((tmp_path / "api/catalog.schema.json").read_text(encoding="utf-8"))
    doc = json.loads((tmp_path / "api/catalog.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema)
    assert len(doc["entries"]) == len(catalog)

    text = (tmp_path / "catalog.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert [r["id"] for r in rows] == [e.id for e in catalog]

    items = json.loads((tmp_path / "papers.json").read_text(encoding="utf-8"))
    assert [i["id"] for i in items] == sorted(e.id for e in papers)
    assert all(
        i["type"] in {"article-journal", "paper-conference", "book", "article"} for i in items
    )

    feed = ET.parse(tmp_path / "feed.xml").getroot()
    assert feed.findtext(f"{ATOM}updated")
    # The feed carries the newest additions only: catalog.yml's feed.limit (default 50).
    limit = settings.of(catalog).feed_limit
    assert len(feed.findall(f"{ATOM}entry")) == min(limit, sum(1 for e in catalog if e.added))
