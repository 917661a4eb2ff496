"""The site's own search index: a record per entry, per generated page and per docs section.

``ddl-catalog site`` writes it as ``search/entries.json`` beside the staged pages, and the
entries' descriptions apart, in the same order, as ``search/text.json``: the site script
``assets/search.js`` fetches the first the first time a reader opens search and answers from
it (titles, names, authors, venue, year, kind, tags), then the second, for the words only a
description holds and for the snippets (at 5,000 entries the descriptions are half the bytes,
which a phone would otherwise read and parse before the first result). The script ranks the
records itself (an exact title or name first, then a title that starts with the query, the
query as a phrase in a title, every word in a title, every word anywhere). Both engines serve
the same files and the same script, so search behaves the same whichever engine built the
site; the engines' own search indexes are still written (their search plugin keeps the
header's search slot) but never fetched.

A record holds plain text only (no markup: the script writes it with ``textContent``) and
site-relative URLs only: an entry's is the page its card sits on (an index into ``pages``)
plus the card's anchor, which is the entry's id. The JSON is compact and deterministic (keys
sorted, records in catalog and page order): the same catalog gives the same bytes. ``<``,
``>`` and ``&`` are written as JSON escapes, so the file stays inert wherever it is pasted.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from ddl_catalog.citation import venue_label
from ddl_catalog.export.names import split_name
from ddl_catalog.identity import repo_as_written
from ddl_catalog.model import KIND_LABELS, Catalog, Category, Entry
from ddl_catalog.render.site_pages import Layout, page_url

#: Where the index goes in the site (the engines own search/search_index.json and search.json).
SRC_URI = "search/entries.json"
#: Where the entries' descriptions go, a list in the order of the index's entries.
TEXT_URI = "search/text.json"
#: The records' shape; assets/search.js reads this version.
FORMAT = 1
#: Family names kept per entry: the first authors, and the last one (often the group's head).
FIRST_AUTHORS = 6
#: Longest short name taken from a title ("ZeRO" of "ZeRO: Memory Optimizations ...").
NAME_MAX = 60
#: Characters of a docs section's first paragraph kept as its description.
SECTION_TEXT = 200

#: Result kinds of the records that are not entries.
TOPIC, PAGE, DOCS, SECTION = "Topic", "Page", "Docs", "Section"

# A title's short name: the part before ": " or a spaced dash ("Dogwild! – Distributed ...").
_HEAD = re.compile(r"^(?P<head>.+?)(?::\s|\s[-–—]\s)")
# A name with a closing parenthetical: "Expert Parallelism Load Balancer (EPLB)".
_PAREN = re.compile(r"^(?P<name>.+?)\s*\((?P<inner>[^()]+)\)$")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^(?P<level>#{1,6})\s+(?P<text>.*?)\s*#*\s*$")
_ATTR_ID = re.compile(r"\s*\{:?\s*[^}]*?#(?P<id>[\w-]+)[^}]*\}\s*$")
_ATTR = re.compile(r"\s*\{:?[^}]*\}\s*$")
_LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\([^)]*\)")
_TAG = re.compile(r"<[^>]+>")
_CODE = re.compile(r"(`+)(.+?)\1")
_EMPHASIS = re.compile(r"(\*{1,3}|_{1,3})(?P<text>.+?)\1")
_ESCAPE = re.compile(r"\\(?P<char>[\\`*_{}\[\]()#+\-.!|~<>])")


def build_index(catalog: Catalog, layout: Layout, docs: Path | None = None) -> dict[str, Any]:
    """Return the index of a laid-out catalog: entries, generated pages, hand-written docs."""
    generated = {page.src_uri for page in layout.pages}
    pages, position = _generated_pages(catalog, layout)
    entries = []
    for entry in catalog:
        home = layout.home_of[entry.id]
        if home not in position:  # a page the layout did not list: still a home, not a result
            position[home] = len(pages)
            pages.append({"t": home.rstrip("/") or "Home", "u": home, "x": 1})
        entries.append(_entry_record(entry, catalog, position[home]))
    if docs is not None:
        pages += doc_records(docs, generated)
    return {
        "format": FORMAT,
        "kinds": {kind: labels[0] for kind, labels in KIND_LABELS.items()},
        "pages": pages,
        "entries": entries,
        "text": TEXT_URI.rsplit("/", 1)[-1],  # beside the index
    }


def descriptions(catalog: Catalog) -> list[str]:
    """Return every entry's description, whitespace collapsed, in the index's order."""
    return [" ".join(entry.description.split()) for entry in catalog]


def render_index(catalog: Catalog, layout: Layout, docs: Path | None = None) -> dict[str, str]:
    """Return the files the site serves, {site path: compact deterministic JSON}."""
    return {
        SRC_URI: dumps(build_index(catalog, layout, docs)),
        TEXT_URI: dumps(descriptions(catalog)),
    }


def dumps(index: Any) -> str:
    """Return compact JSON with sorted keys, ``<``, ``>`` and ``&`` written as escapes."""
    text = json.dumps(index, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# -- entries -------------------------------------------------------------------------------------


def _entry_record(entry: Entry, catalog: Catalog, page: int) -> dict[str, Any]:
    """Return one entry's record (empty fields left out)."""
    record: dict[str, Any] = {
        "id": entry.id,
        "t": entry.title,
        "k": entry.kind,
        "p": page,
    }
    optional: dict[str, Any] = {
        "n": entry_names(entry),
        "y": entry.year,
        "v": venue_label(entry, catalog.venues),
        "a": family_names(entry),
        "g": list(entry.tags),
    }
    record.update({key: value for key, value in optional.items() if value})
    return record


def _fold(text: str) -> str:
    """Return text compared as search compares it: case-folded, punctuation as spaces."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[^\w+]+|_", " ", folded).split())


def entry_names(entry: Entry) -> list[str]:
    """Return the other names an entry is known by: its title's short name, acronym, repository."""
    found: list[str] = []
    title = " ".join(entry.title.split())
    head = _HEAD.match(title)
    for text in (title, head["head"] if head else ""):
        paren = _PAREN.match(text)
        if paren:
            found += [paren["inner"], paren["name"]]
    if head:
        found.append(head["head"])
    repo = entry.identifiers.github or repo_as_written(entry.url)
    if repo:
        found.append(repo.rstrip("/").rsplit("/", 1)[-1])
    names: list[str] = []
    seen = {_fold(title)}
    for name in found:
        name = name.strip(" .,;")
        key = _fold(name)
        if key and key not in seen and len(name) <= NAME_MAX:
            seen.add(key)
            names.append(name)
    return names


def family_names(entry: Entry) -> str:
    """Return the family names of an entry's first authors and its last (or its team)."""
    people = list(entry.authors)
    if len(people) > FIRST_AUTHORS + 1:
        people = people[:FIRST_AUTHORS] + people[-1:]
    names = []
    for person in people:
        name = split_name(person)
        names.append(name.family or name.literal)
    if not names and entry.team:
        names.append(entry.team)
    return ", ".join(n for n in names if n)


# -- generated pages -----------------------------------------------------------------------------


def _generated_pages(
    catalog: Catalog, layout: Layout
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Return a record per generated page, and each page URL's position among them.

    Whatever pages the layout holds are taken as they come (title and URL), so a page type added
    later is searchable without a change here; a topic's page adds its description. A later
    part of a split list (same title, not in the nav) is kept as the home of its cards only.
    """
    topics: dict[str, Category] = {}
    for category in catalog.categories.values():
        parent = category.parent
        topics[page_url(f"{parent}/{category.id}.md" if parent else f"{category.id}.md")] = category
    records: list[dict[str, Any]] = []
    position: dict[str, int] = {}
    titles: set[str] = set()
    for page in layout.pages:
        url = page_url(page.src_uri)
        if url in position:
            continue
        record: dict[str, Any] = {"t": page.title, "u": url, "k": PAGE}
        cat = topics.get(url)
        if cat is not None:
            record.update(k=TOPIC, d=" ".join(cat.description.split()))
            if cat.parent is not None and cat.parent in catalog.categories:
                record["o"] = catalog.categories[cat.parent].title
        if not page.in_nav and page.title in titles:
            record["x"] = 1
        titles.add(page.title)
        position[url] = len(records)
        records.append(record)
    return records, position


# -- hand-written docs ---------------------------------------------------------------------------


def doc_records(docs: Path, generated: Iterable[str] = ()) -> list[dict[str, Any]]:
    """Return a record per hand-written page under ``docs`` and per ``##`` section of it."""
    skip = set(generated)
    records: list[dict[str, Any]] = []
    for path in sorted(docs.rglob("*.md")):
        rel = path.relative_to(docs)
        if rel.as_posix() in skip or any(part.startswith(".") for part in rel.parts):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        records += doc_page(text, page_url(rel.as_posix()), path.stem)
    return records


def doc_page(text: str, url: str, stem: str) -> list[dict[str, Any]]:
    """Return the records of one Markdown page: the page, then each ``##`` section.

    A section's anchor is the id the engines give its heading: the heading's ``{ #id }``, or
    Python-Markdown's default slug of its text, numbered when taken (``_1``). A page whose
    front matter says ``search: {exclude: true}`` gives none.
    """
    meta, body = _front_matter(text)
    search = meta.get("search")
    if isinstance(search, dict) and search.get("exclude"):
        return []
    title = meta.get("title") if isinstance(meta.get("title"), str) else None
    used: set[str] = set()
    sections: list[tuple[str, str, list[str]]] = []  # (heading, anchor, paragraph lines)
    lead: list[str] = []
    current: list[str] | None = None
    fence = ""
    for line in body.splitlines():
        opened = _FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
            continue
        heading = _ATX.match(line)
        if heading:
            raw = heading["text"]
            explicit = _ATTR_ID.search(raw)
            plain = _plain(raw)
            anchor = _unique(explicit["id"] if explicit else slugify(plain), used)
            level = len(heading["level"])
            if level == 1 and not lead:
                title = title or plain
                current = lead
            elif level == 2:
                sections.append((plain, anchor, []))
                current = sections[-1][2]
            else:
                current = None
            continue
        if current is not None:
            stripped = line.strip()
            if stripped and not (not current and stripped.startswith(("|", "<", "!"))):
                current.append(stripped)
            elif current:
                current = None  # the first paragraph of text only (not a table or HTML)
    page_title = title or stem.replace("-", " ").capitalize()
    records: list[dict[str, Any]] = [{"t": page_title, "u": url, "k": DOCS}]
    if lead:
        records[0]["d"] = _cut(_plain(" ".join(lead)))
    for heading_text, anchor, lines in sections:
        record: dict[str, Any] = {"t": heading_text, "u": f"{url}#{anchor}", "k": SECTION}
        record["o"] = page_title
        if lines:
            record["d"] = _cut(_plain(" ".join(lines)))
        records.append(record)
    return [r for r in records if r["t"]]


def _front_matter(text: str) -> tuple[dict[str, Any], str]:
    """Split a page's YAML front matter (a mapping, else empty) from its body."""
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---\n", 3)
    if end < 0:
        return {}, text
    try:
        meta = yaml.safe_load(text[4:end])
    except yaml.YAMLError:
        meta = None
    return (meta if isinstance(meta, dict) else {}), text[end + 5 :]


def _plain(markdown: str) -> str:
    """Return a line of Markdown as the reader reads it: no attributes, links, tags or marks."""
    pieces = _CODE.split(_ATTR.sub("", markdown))  # prose, ticks, code, prose, ...
    out = []
    for n, piece in enumerate(pieces):
        if n % 3 == 2:
            out.append(piece)  # a code span's text, as it is
        elif n % 3 == 0:
            text = _LINK.sub(lambda m: m["text"], piece)
            text = _TAG.sub("", text)
            text = _EMPHASIS.sub(lambda m: m["text"], text)
            out.append(_ESCAPE.sub(lambda m: m["char"], text))
    return " ".join("".join(out).split())


def _cut(text: str) -> str:
    """Return text cut at a word to about SECTION_TEXT characters, with an ellipsis if cut."""
    if len(text) <= SECTION_TEXT:
        return text
    return text[:SECTION_TEXT].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"


def slugify(text: str) -> str:
    """Return Python-Markdown's default heading id of a text (its toc extension's slugify)."""
    value = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


def _unique(anchor: str, used: set[str]) -> str:
    """Return the anchor, numbered as Python-Markdown numbers a taken one (``_1``, ``_2``)."""
    candidate = anchor
    number = 0
    while candidate in used or not candidate:
        number += 1
        candidate = f"{anchor}_{number}"
    used.add(candidate)
    return candidate
