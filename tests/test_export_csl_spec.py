"""The CSL-JSON export keeps to CSL-JSON 1.0 (the input format Zotero and citeproc read).

The sets below are the item types and variables of the CSL 1.0.2 data schema
(citation-style-language/schema, schemas/input/csl-data.json); every item must use only those,
carry an id and a type, and give names and dates in the schema's shapes.
"""

from __future__ import annotations

import json
from pathlib import Path

from ddl_catalog.export import render
from ddl_catalog.model.build import open_catalog

ROOT = Path(__file__).resolve().parents[1]

CSL_TYPES = frozenset(
    [
        "article",
        "article-journal",
        "article-magazine",
        "article-newspaper",
        "bill",
        "book",
        "broadcast",
        "chapter",
        "classic",
        "collection",
        "dataset",
        "document",
        "entry",
        "entry-dictionary",
        "entry-encyclopedia",
        "figure",
        "graphic",
        "hearing",
        "interview",
        "legal_case",
        "legislation",
        "manuscript",
        "map",
        "motion_picture",
        "musical_score",
        "pamphlet",
        "paper-conference",
        "patent",
        "performance",
        "periodical",
        "personal_communication",
        "post",
        "post-weblog",
        "regulation",
        "report",
        "review",
        "review-book",
        "software",
        "song",
        "speech",
        "standard",
        "thesis",
        "treaty",
        "webpage",
    ]
)
CSL_STRING_VARIABLES = frozenset(
    [
        "abstract",
        "annote",
        "archive",
        "archive_collection",
        "archive_location",
        "archive-place",
        "authority",
        "call-number",
        "citation-label",
        "collection-title",
        "container-title",
        "container-title-short",
        "dimensions",
        "division",
        "DOI",
        "event",
        "event-place",
        "genre",
        "ISBN",
        "ISSN",
        "jurisdiction",
        "keyword",
        "language",
        "medium",
        "note",
        "original-publisher",
        "original-publisher-place",
        "original-title",
        "part-title",
        "publisher",
        "publisher-place",
        "references",
        "reviewed-title",
        "scale",
        "section",
        "shortTitle",
        "source",
        "status",
        "title",
        "title-short",
        "translated-title",
        "URL",
        "version",
        "year-suffix",
        "journalAbbreviation",
    ]
)
CSL_NUMBER_VARIABLES = frozenset(
    [
        "chapter-number",
        "collection-number",
        "edition",
        "issue",
        "locator",
        "number",
        "number-of-pages",
        "number-of-volumes",
        "page",
        "page-first",
        "part",
        "printing",
        "supplement",
        "volume",
    ]
)
CSL_NAME_VARIABLES = frozenset({"author", "editor", "translator", "container-author"})
# CSL 1.0.2's date variables (original-date: when a work was first published, as a paper's
# arXiv version before the venue that the citation names).
CSL_DATE_VARIABLES = frozenset(
    {"issued", "accessed", "submitted", "event-date", "original-date", "available-date"}
)
NAME_PARTS = frozenset(
    {"family", "given", "dropping-particle", "non-dropping-particle", "suffix", "literal"}
)


def test_every_item_keeps_to_csl_json() -> None:
    items = json.loads(render(open_catalog(ROOT), "csljson"))
    assert isinstance(items, list) and items
    known = (
        {"id", "type", "categories"}
        | CSL_STRING_VARIABLES
        | CSL_NUMBER_VARIABLES
        | CSL_NAME_VARIABLES
        | CSL_DATE_VARIABLES
    )
    for item in items:
        assert isinstance(item["id"], str) and item["type"] in CSL_TYPES, item
        assert set(item) <= known, set(item) - known
        for key, value in item.items():
            if key in CSL_STRING_VARIABLES:
                assert isinstance(value, str) and value, (item["id"], key)
            elif key in CSL_NUMBER_VARIABLES:
                assert isinstance(value, str | int), (item["id"], key)
            elif key in CSL_NAME_VARIABLES:
                assert value and all(isinstance(n, dict) and set(n) <= NAME_PARTS for n in value)
                assert all(("family" in n) or ("literal" in n) for n in value), item["id"]
            elif key in CSL_DATE_VARIABLES:
                parts = value["date-parts"]
                assert set(value) == {"date-parts"} and 1 <= len(parts) <= 2
                assert all(1 <= len(p) <= 3 and all(isinstance(x, int) for x in p) for p in parts)
