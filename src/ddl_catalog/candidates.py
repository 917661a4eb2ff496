"""``ddl-catalog candidates``: what a list or an arXiv listing holds that the catalog does not.

The weekly pass of keeping up: read a Markdown list (another awesome list, a peer list of
papers) or an arXiv listing (the arXiv API's Atom feed, or a saved ``arxiv.org/list/...`` page)
and report each work that is neither in the catalog (by canonical identity: arXiv id, DOI,
repository, normalised URL) nor in ``data/register.yml`` (by identity, or by title for items
known only by title). Chosen candidates can then be written as drafts, which validation refuses
until a person writes their description and checks their facts.

A source is a saved file (offline, and in the tests) or an http(s) URL, fetched through the
package's one session factory when the network is there.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ddl_catalog import builddate, identity
from ddl_catalog.rules.registered import item_keys, title_key

#: The largest source read (an arXiv listing page is a few hundred kilobytes).
MAX_BYTES = 16 * 1024 * 1024
_ATOM = "{http://www.w3.org/2005/Atom}"
#: One paper of an arxiv.org/list page: its id, then its title and authors blocks.
_LISTING_ID = re.compile(r"""href\s*=\s*["']/abs/(\d{4}\.\d{4,5})(?:v\d+)?["']""", re.I)
_LISTING_TITLE = re.compile(
    r"""<div class=["']list-title[^"']*["']>\s*"""
    r"""(?:<span class=["']descriptor["']>Title:</span>)?(.*?)</div>""",
    re.IGNORECASE | re.DOTALL,
)
_LISTING_AUTHORS = re.compile(
    r"""<div class=["']list-authors["']>(.*?)</div>""", re.IGNORECASE | re.DOTALL
)
_TAG = re.compile(r"<[^>]+>")


class CandidatesError(Exception):
    """The source cannot be read or parsed; the message says why in one line."""


@dataclass
class Candidate:
    """One work of the source: what identifies it and what a draft would start from."""

    title: str
    url: str
    authors: list[str] = field(default_factory=list)
    arxiv: str | None = None
    year: int | None = None
    #: Where in the source (a line of a Markdown list, the n-th paper of a listing).
    where: str = ""
    #: The draft id it would get; set when screened.
    key: str = ""

    def data(self) -> dict[str, object]:
        """Return the fields identity looks at (url and identifiers), as an entry has them."""
        ids = {"arxiv": self.arxiv} if self.arxiv else {}
        return {"url": self.url, **({"identifiers": ids} if ids else {})}


@dataclass
class Screened:
    """Candidates sorted by what the catalog and the register already say of them."""

    new: list[Candidate] = field(default_factory=list)
    in_catalog: list[tuple[Candidate, str]] = field(default_factory=list)
    in_register: list[tuple[Candidate, str]] = field(default_factory=list)


def read_source(source: str) -> tuple[str, str]:
    """Return (text, name) of a saved file or, with the network, an http(s) URL."""
    if re.match(r"^https?://", source, re.IGNORECASE):
        from ddl_catalog.net.enrich.base import EnrichError, get
        from ddl_catalog.net.session import make_session

        with make_session() as http:
            try:
                body = get(http, source)
            except EnrichError as exc:
                raise CandidatesError(f"{source}: {exc}") from exc
        return body[:MAX_BYTES].decode("utf-8", errors="replace"), source
    from ddl_catalog.load import LoadError, read_bytes

    try:
        raw = read_bytes(Path(source), source, MAX_BYTES, "a list or an arXiv listing")
    except LoadError as exc:
        raise CandidatesError(str(exc.problem)) from exc
    return raw.decode("utf-8", errors="replace"), source


def parse(text: str, name: str) -> list[Candidate]:
    """Return the works of a source: an Atom feed, an arXiv listing page, or a Markdown list."""
    head = text.lstrip()[:500].lower()
    if head.startswith("<?xml") or "<feed" in head:
        return _atom(text, name)
    if "<html" in head or "<!doctype html" in head:
        return _listing(text, name)
    return _markdown(text, name)


def _atom(text: str, name: str) -> list[Candidate]:
    """Read the arXiv API's Atom feed (export.arxiv.org/api/query ...)."""
    if re.search(r"<!DOCTYPE|<!ENTITY", text, re.IGNORECASE):
        raise CandidatesError(f"{name}: a feed with a DTD or entities is refused (not arXiv's)")
    try:
        root = ET.fromstring(text)  # noqa: S314 - no DTD or entity can be in it (checked above)
    except ET.ParseError as exc:
        raise CandidatesError(f"{name}: not a readable Atom feed ({exc})") from exc
    found = []
    for number, entry in enumerate(root.iter(f"{_ATOM}entry"), start=1):
        link = (entry.findtext(f"{_ATOM}id") or "").strip()
        arxiv = identity.arxiv_id(link)
        title = " ".join((entry.findtext(f"{_ATOM}title") or "").split())
        if not title or not arxiv:
            continue
        authors = [
            " ".join((a.findtext(f"{_ATOM}name") or "").split())
            for a in entry.findall(f"{_ATOM}author")
        ]
        published = (entry.findtext(f"{_ATOM}published") or "")[:4]
        found.append(
            Candidate(
                title,
                f"https://arxiv.org/abs/{arxiv}",
                [a for a in authors if a],
                arxiv,
                int(published) if published.isdigit() else None,
                f"{name}: entry {number}",
            )
        )
    return found


def _listing(text: str, name: str) -> list[Candidate]:
    """Read a saved arxiv.org/list page: each <dt> names the id, its <dd> the title and authors."""
    found = []
    for number, block in enumerate(re.split(r"<dt\b", text, flags=re.IGNORECASE)[1:], start=1):
        ident = _LISTING_ID.search(block)
        title = _LISTING_TITLE.search(block)
        if not ident or not title:
            continue
        arxiv = ident.group(1)
        authors_html = _LISTING_AUTHORS.search(block)
        authors = []
        if authors_html:
            text_authors = html.unescape(_TAG.sub("", authors_html.group(1)))
            authors = [" ".join(a.split()) for a in text_authors.split(",") if a.strip()]
            authors = [a.removeprefix("Authors:").strip() for a in authors]
        found.append(
            Candidate(
                " ".join(html.unescape(_TAG.sub("", title.group(1))).split()),
                f"https://arxiv.org/abs/{arxiv}",
                [a for a in authors if a],
                arxiv,
                2000 + int(arxiv[:2]),
                f"{name}: paper {number}",
            )
        )
    return found


def _markdown(text: str, name: str) -> list[Candidate]:
    """Read a Markdown list with the importer's parser: each item's main link is a work."""
    from ddl_catalog.importer.markdown import BadList, parse_list

    try:
        parsed = parse_list(text, name)
    except BadList as exc:
        raise CandidatesError(str(exc)) from exc
    found = []
    for item in parsed.items:
        if not item.links:
            continue
        main = item.links[0]
        arxiv = identity.arxiv_id(main.url)
        title = " ".join((item.title or main.text or main.url).split())
        year = 2000 + int(arxiv[:2]) if arxiv and arxiv[:4].isdigit() else None
        found.append(Candidate(title, main.url, [], arxiv, year, f"{name}:{item.line}"))
    return found


def _keys(data: object, title: object) -> set[tuple[str, str]]:
    """Return the identity keys of a mapping (url, identifiers) and the key of its title."""
    keys = item_keys(data)
    titled = title_key(title)
    if titled is not None:
        keys.add(titled)
    return keys


def screen(root: Path, candidates: Iterable[Candidate]) -> Screened:
    """Sort candidates into new, already in the catalog, and already in the register."""
    from ddl_catalog.edit import new_id
    from ddl_catalog.load import LoadError, load_file
    from ddl_catalog.validate import entry_files

    owners: dict[tuple[str, str], str] = {}
    for file in entry_files(root):
        try:
            data = load_file(str(file), file.name).data
        except LoadError:
            continue  # validate reports it
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            for key in _keys(data, data.get("title")):
                owners.setdefault(key, data["id"])
    left_out: dict[tuple[str, str], str] = {}
    register = root / "data" / "register.yml"
    if register.exists():
        try:
            items = load_file(str(register), "data/register.yml").data.get("considered") or []
        except (LoadError, AttributeError):
            items = []
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict) or "admitted" in item:
                continue
            reason = f"{item.get('reason')}: {item.get('note')}"
            for key in _keys(item, item.get("title")):
                left_out.setdefault(key, reason)
    result = Screened()
    taken = {owner for owner in owners.values()}
    seen: set[tuple[str, str]] = set()
    for candidate in candidates:
        keys = _keys(candidate.data(), candidate.title)
        if keys & seen:
            continue  # listed twice in the source
        seen |= keys
        owner = next((owners[k] for k in sorted(keys) if k in owners), None)
        why = next((left_out[k] for k in sorted(keys) if k in left_out), None)
        if owner is not None:
            result.in_catalog.append((candidate, owner))
        elif why is not None:
            result.in_register.append((candidate, why))
        else:
            base = new_id.paper_id(candidate.authors, candidate.year, candidate.title)
            candidate.key = new_id.unique(base or new_id.kebab(candidate.title)[:60], taken)
            taken.add(candidate.key)
            result.new.append(candidate)
    return result


def write_drafts(
    root: Path, chosen: Iterable[Candidate], category: str, *, added: str | None = None
) -> list[Path]:
    """Write the chosen candidates as paper drafts under data/papers/; never overwrite.

    A draft carries what the source gave (title, authors, year, arXiv id) and a TODO
    description, which validation refuses until a person writes it.
    """
    from ddl_catalog.edit import fmt
    from ddl_catalog.importer.write import write_new

    stamp = added or builddate.today()
    written = []
    for candidate in chosen:
        path = root / "data" / "papers" / f"{candidate.key}.yml"
        data: dict[str, object] = {
            "id": candidate.key,
            "kind": "paper",
            "title": candidate.title,
            "url": candidate.url,
            "description": "TODO: one sentence in our own words: what it is and why to open it.",
            "categories": [category],
        }
        if candidate.authors:
            data["authors"] = candidate.authors
        if candidate.year is not None:
            data["year"] = candidate.year
        if candidate.arxiv:
            data["identifiers"] = {"arxiv": candidate.arxiv}
        data["added"] = stamp
        path.parent.mkdir(parents=True, exist_ok=True)
        write_new(path, fmt.dump(data, fmt.schema_line(path, root)))
        written.append(path)
    return written
